"""Random full games of one game; runs under CPython and MicroPython alike.

Usage: playouts.py GAME N [RULES_DIR]
RULES_DIR (optional) goes first on sys.path, e.g. a folder of precompiled .mpy files.
Prints: games N plies P ms T
"""
import random
import sys
import time

try:
    _ticks, _diff = time.ticks_ms, time.ticks_diff
except AttributeError:  # CPython
    def _ticks():
        return int(time.perf_counter() * 1000)

    def _diff(a, b):
        return a - b


def main(game_id, n, rules_dir=None):
    sys.path.insert(0, rules_dir or ".")
    from shared_rules import load
    mod = load(game_id)
    plies = 0
    start = _ticks()
    for seed in range(n):
        random.seed(seed)
        g = mod.Game()
        acts = g.legal()
        while acts:
            g.play(acts[random.randrange(len(acts))])
            plies += 1
            acts = g.legal()
        g = acts = None
    print("games %d plies %d ms %d" % (n, plies, _diff(_ticks(), start)))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
