"""Which functions of shared_rules/ get their frame on the heap at every call on MicroPython.

MicroPython keeps a Python function's frame (its arguments, locals and value stack, plus
two words per open try/with) on the C stack when it fits in 11 machine words
(VM_MAX_STATE_ON_STACK in py/objfun.c), and allocates it on the heap at each call, and frees
it on return, when it does not: no garbage, but an allocation and a free per call, which the
search pays at every node when it is one of the rules' play_unchecked/undo/legal or a
companion's evaluate/order. The unix port here prints each function's N_STATE and
N_EXC_STACK when it compiles with -v -v (the same bytecode as mpy-cross writes).

Prints each function over the limit, per file; run: .venv/bin/python tests/bench/frames.py
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from stonegrid.build import tool  # noqa: E402

WORDS = 11  # VM_MAX_STATE_ON_STACK, in machine words
BLOCK = re.compile(r"code block '([^']+)'.*?\(N_STATE (\d+)\)\n\(N_EXC_STACK (\d+)\)", re.S)


def frames(path):
    """[(function, words)] of the file's functions, in the order compiled."""
    with open(path) as f:
        source = f.read()
    out = subprocess.run([tool("micropython"), "-v", "-v", "-c", "compile(%r, %r, 'exec')" % (
        source, os.path.basename(path))], capture_output=True, text=True, check=True).stdout
    return [(m.group(1), int(m.group(2)) + 2 * int(m.group(3))) for m in BLOCK.finditer(out)]


def main():
    folder = os.path.join(ROOT, "shared_rules")
    total = 0
    print("functions of shared_rules/ whose frame is on the heap at every call (over %d "
          "words: arguments, locals, stack):" % WORDS)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        over = [(fn, words) for fn, words in frames(os.path.join(folder, name))
                if words > WORDS and fn not in ("<module>", "<listcomp>", "<genexpr>")]
        total += len(over)
        if over:
            print("  %-16s %s" % (name, ", ".join("%s %d" % f for f in over)))
    print("%d functions" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
