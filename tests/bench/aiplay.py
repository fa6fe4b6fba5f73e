"""Device-vs-device games at one level; runs under CPython and MicroPython alike.

Usage: aiplay.py GAME LEVEL N [DIR [app | env | REPEAT]]
Both sides are the device opponent, seeds 0..N-1; LEVEL "random" instead plays uniformly
random actions without importing the search (a baseline for the figures).  DIR goes first on
sys.path, e.g. a folder of precompiled .mpy files laid out as on the device.  With "app", the
games go through the firmware itself (app.core's Play screen thinking in slices, the session
journalling every action), as on the board; otherwise search.start/step directly, each
search REPEAT times (default 1) and timed by its quickest run (the same work every time:
the machine's hiccups are left out), with "env" (main's env=True) next to the firmware's
modules and under its garbage-collection setting (app/core.py: GC_EVERY), as on the board.
Prints one line:
  moves M units U us T max_us X heap_first H0 heap_max H1 results W0 W1 D
us: thinking time of all device moves, max_us: the slowest move (both in microseconds);
heap_*: bytes in use after gc.collect() before the first move (or the first after a module is
loaded mid-game) and the largest before any move (MicroPython only, else -1); results: wins of player 0, of player 1, draws or unfinished.
"""
import gc
import random
import sys
import time

try:
    _ticks, _diff = time.ticks_us, time.ticks_diff
except AttributeError:  # CPython
    def _ticks():
        return int(time.perf_counter() * 1000000)

    def _diff(a, b):
        return a - b

MAX_PLIES = 600
REPEAT = 1  # times each search is run (see the module text)


def _scrub(n=40):
    """Overwrite the stack: the collector is conservative, stale pointers there keep
    garbage alive."""
    return _scrub(n - 1) + 1 if n else 0


def _heap():
    _scrub()
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else -1


def main(game_id, level, n, rules_dir=None, app=False, first=0, repeat=1, env=False):
    global REPEAT
    REPEAT = repeat
    sys.path.insert(0, rules_dir or ".")
    from shared_rules import load
    mod = load(game_id)
    rand = level == "random"
    if not rand:
        from shared_rules import search
        ai = search.load_ai(game_id)
    if app or env:  # the firmware around the search: its modules, its garbage collection
        from app import play, wire
        from app.core import App
        from app.session import Session
        from hal import unix
        wire.send = lambda line: None  # the serial link is not the subject here
        play.DEVICE_DELAY_MS = 0
        board = App(unix.make({}))  # no $STONEGRID_SIM: no LEDs, no buttons
        played = [0]
        app_play = board.play

        def counted(a):
            played[0] += 1
            app_play(a)
        board.play = counted
    who = "human" if rand else "device:" + level
    moves = units = total = slow = 0
    heap_first = heap_max = -1
    loaded = len(sys.modules)
    wins = [0, 0, 0]
    for seed in range(first, first + n):
        if app:
            random.seed(seed)
            board.start(Session(game_id, {}, (who, who)))
            g = board.screen.session.game
        else:
            random.seed(seed)
            g = mod.Game()
        ply = 0
        while g.result() is None and ply < MAX_PLIES:
            h = _heap()
            if heap_first < 0 or len(sys.modules) != loaded:
                # from the start, or again after a module the game loads only when needed
                # (morris_ai's endgame table): what grows after that is the subject
                heap_first, loaded = h, len(sys.modules)
            if h > heap_max:
                heap_max = h
            t0 = _ticks()
            work = 0
            dt = None
            if rand:
                acts = g.legal()
                a = acts[random.getrandbits(16) % len(acts)]
                acts = None
                if app:
                    board.play(a)
                    board.draw(time.ticks_ms())
                else:
                    g.play(a)
            elif app:
                screen, done = board.screen, played[0]
                while played[0] == done:  # the main loop's work, as in App.run
                    now = time.ticks_ms()
                    screen.tick(now)
                    board.draw(now)
                work = screen.work
            else:
                for _ in range(REPEAT):  # the same work each time: keep the quickest
                    t0 = _ticks()
                    s = search.start(g, g.to_move, ai, level, seed * 1000 + ply)
                    while not s.step(64):
                        pass
                    work, a = s.nodes, s.best
                    s = None
                    t = _diff(_ticks(), t0)
                    dt = t if dt is None or t < dt else dt
                g.play(a)
            if rand or app:
                dt = _diff(_ticks(), t0)
            moves += 1
            units += work
            ply += 1
            total += dt
            if dt > slow:
                slow = dt
        r = g.result()
        wins[2 if r is None or r[0] is None else r[0]] += 1
        g = None
    print("moves %d units %d us %d max_us %d heap_first %d heap_max %d results %d %d %d"
          % (moves, units, total, slow, heap_first, heap_max, wins[0], wins[1], wins[2]))


if __name__ == "__main__":
    more = sys.argv[5] if len(sys.argv) > 5 else ""
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None,
         more == "app", 0, int(more) if more.isdigit() else 1, more == "env")
