"""A progress bar for the long commands (flash, replay --analyse)."""
import sys


def progress(total):
    """A progress bar on a terminal (stderr), nothing otherwise."""
    state = {"done": 0}
    tty = sys.stderr.isatty()

    def advance(n):
        state["done"] += n
        if tty and total:
            k = 30 * state["done"] // total
            sys.stderr.write("\r[%s%s] %3d%%" % ("#" * k, "." * (30 - k),
                                                100 * state["done"] // total))
            sys.stderr.flush()

    def finish():
        if tty and total:
            sys.stderr.write("\r" + " " * 40 + "\r")
    return advance, finish
