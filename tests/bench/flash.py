"""Flashing the virtual board: a full `stonegrid flash`, a re-flash of the unchanged tree, and a
plain `mpremote fs cp -r` of the source tree, in one run; prints time and bytes of each.
Run: .venv/bin/python tests/bench/flash.py"""
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from stonegrid.sim import spawn  # noqa: E402

BIN = os.path.dirname(sys.executable)


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    if proc.returncode:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), proc.stderr[-500:]))
    return time.perf_counter() - start, proc.stdout


def source_bytes():
    total = 0
    for folder in ("firmware", "shared_rules"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
            total += sum(os.path.getsize(os.path.join(dirpath, n)) for n in names
                         if n.endswith(".py"))
    return total


def main():
    flash = [sys.executable, "-m", "stonegrid.cli", "flash", "--port"]
    with tempfile.TemporaryDirectory() as tmp:
        with spawn(os.path.join(tmp, "a")) as sim:
            t1, out1 = timed(flash + [sim.serial])
            t2, out2 = timed(flash + [sim.serial])
        with spawn(os.path.join(tmp, "b")) as sim:
            cp = [os.path.join(BIN, "mpremote"), "connect", sim.serial, "fs", "cp", "-r"]
            t3, _ = timed(cp + ["firmware/app", "firmware/hal", "firmware/views", "shared_rules",
                                "firmware/main.py", ":"])
    sent = [re.search(r"(\d+) files \((\d+) bytes\)", o).groups() for o in (out1, out2)]
    print("%-34s %8s %8s %10s" % ("", "seconds", "files", "bytes"))
    print("%-34s %8.2f %8s %10s" % ("stonegrid flash (empty board)", t1, sent[0][0], sent[0][1]))
    print("%-34s %8.2f %8s %10s" % ("stonegrid flash (unchanged tree)", t2, sent[1][0],
                                    sent[1][1]))
    print("%-34s %8.2f %8s %10d" % ("mpremote fs cp -r (source tree)", t3, "all", source_bytes()))
    print("ratios: full flash / mpremote cp = %.2f; re-flash / mpremote cp = %.2f"
          % (t1 / t3, t2 / t3))


if __name__ == "__main__":
    main()
