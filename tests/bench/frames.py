"""Which functions of shared_rules/ get their frame on the heap at every call on MicroPython,
and which of those the search calls at its nodes.

MicroPython keeps a Python function's frame (its arguments, locals and value stack, plus
two words per open try/with) on the C stack when it fits in 11 machine words
(VM_MAX_STATE_ON_STACK in py/objfun.c), and allocates it on the heap at each call, and frees
it on return, when it does not: no garbage, but an allocation and a free per call (about
28 us on the RP2040, twice a plain call).  The search must not pay that at its nodes: the
rules' play_unchecked/undo/legal/result, a companion's evaluate/order, and whatever they
call.  The unix port here prints each function's N_STATE and N_EXC_STACK when it compiles
with -v -v (the same bytecode as mpy-cross writes); CPython's profiler counts the calls of
a game of searches at the hard level, which tells the functions called at the nodes from
those called once a search.  tests/test_search_memory.py checks that none of the first
needs a heap frame.

Prints each function over the limit, per file, marking those the search calls at its nodes;
run: .venv/bin/python tests/bench/frames.py
"""
import functools
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from shared_rules import GAMES, load, search  # noqa: E402
from stonegrid.build import tool  # noqa: E402

WORDS = 11  # VM_MAX_STATE_ON_STACK, in machine words
BLOCK = re.compile(r"code block '([^']+)'.*?\(N_STATE (\d+)\)\n\(N_EXC_STACK (\d+)\)\n"
                   r"((?:\s+bc=\d+ line=\d+\n)*)", re.S)
FOLDER = os.path.join(ROOT, "shared_rules")
PER_NODE = 100  # a function called once per this many units of the search's work, or more
# called once a slice of work or once a search, however small (a matrix game values each cell
# with a search of its own), not at each node
ONCE = ("step", "__init__", "prepare")


@functools.lru_cache(maxsize=None)  # each file compiled once a run
def frames(path):
    """[(function, first line of its code, words)] of the file's code blocks."""
    with open(path) as f:
        source = f.read()
    out = subprocess.run([tool("micropython"), "-v", "-v", "-c", "compile(%r, %r, 'exec')" % (
        source, os.path.basename(path))], capture_output=True, text=True, check=True).stdout
    return [(m.group(1), _first_line(m.group(4)), int(m.group(2)) + 2 * int(m.group(3)))
            for m in BLOCK.finditer(out)][1:]  # (the first block compiles the file)


def _first_line(table):
    """The first source line of a block's line table (as -v -v prints it: its first entry
    may say line 1 for any function)."""
    lines = [int(x) for x in re.findall(r"line=(\d+)", table)]
    return min([x for x in lines if x > 1] or [1])


def words(path, name, line):
    """The frame's words of the function `name` defined at `line` of the file: the first
    block of that name whose code starts there or below (after its docstring), or the
    last of that name."""
    named = [(at, w) for fn, at, w in frames(path) if fn == name]
    return min([b for b in named if b[0] >= line] or [max(named)])[1]


def per_node(game, plies=30):
    """{(file, function, line): calls} of the shared_rules functions that the searches of a
    game at the hard level call at least once per PER_NODE units of work."""
    rules, ai = load(game), search.load_ai(game)
    g, calls, work = rules.Game(), {}, 0

    def count(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith(FOLDER) and code.co_name not in ONCE:
            key = (os.path.basename(code.co_filename), code.co_name, code.co_firstlineno)
            calls[key] = calls.get(key, 0) + 1

    for ply in range(plies):
        if g.result() is not None:
            break
        sys.setprofile(count)
        try:
            s = search.start(g, g.to_move, ai, "hard", seed=ply)
            while not s.step(64):
                pass
        finally:
            sys.setprofile(None)
        work += s.nodes
        g.play(s.best)
    return dict((k, n) for k, n in calls.items() if n * PER_NODE >= work)


def heap_frames_per_node(game):
    """[(file, function, words)] that the search calls at its nodes over the limit."""
    return sorted((f, fn, w) for f, fn, line in per_node(game)
                  for w in [words(os.path.join(FOLDER, f), fn, line)] if w > WORDS)


def main():
    hot = set()
    for game in GAMES:
        hot.update((f, fn) for f, fn, w in heap_frames_per_node(game))
    total = at_nodes = 0
    print("functions of shared_rules/ whose frame is on the heap at every call (over %d "
          "words: arguments, locals, stack), * where the search calls them at its nodes:"
          % WORDS)
    for name in sorted(os.listdir(FOLDER)):
        if not name.endswith(".py"):
            continue
        over = [(fn, w) for fn, line, w in frames(os.path.join(FOLDER, name))
                if w > WORDS and fn != "<module>"]
        total += len(over)
        at_nodes += sum(1 for fn, w in over if (name, fn) in hot)
        if over:
            print("  %-16s %s" % (name, ", ".join(
                "%s%s %d" % (fn, "*" if (name, fn) in hot else "", w) for fn, w in over)))
    print("%d functions, %d of them at the search's nodes" % (total, at_nodes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
