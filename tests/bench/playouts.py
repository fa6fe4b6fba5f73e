"""Random full games of one game; runs under CPython and MicroPython alike.

Usage: playouts.py GAME N [RULES_DIR [sorted]]
RULES_DIR (optional) goes first on sys.path, e.g. a folder of precompiled .mpy files.
"sorted": each action is drawn from legal()'s list sorted in place, so that rules which list
the same actions in another order play the same games (the smallest heap depends on the
longest game; the speed figures take the lists as they come).
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


def main(game_id, n, rules_dir=None, same_games=False):
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
            if same_games:
                acts.sort()
            g.play(acts[random.randrange(len(acts))])
            plies += 1
            acts = g.legal()
        g = acts = None
    print("games %d plies %d ms %d" % (n, plies, _diff(_ticks(), start)))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None,
         sys.argv[4:] == ["sorted"])
