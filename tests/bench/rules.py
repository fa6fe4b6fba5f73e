"""Memory and speed of the rules modules; prints figures, asserts nothing.

For each game:
  - the smallest `micropython -X heapsize=` at which the game imports from precompiled .mpy
    files and plays 20 random full games (binary search, 1 KB steps), the same games for
    the rules of --base (actions drawn from legal() sorted: the heap needed depends on the
    longest game, and rules may list the same actions in another order);
  - random full games per (CPU) second under CPython and under micropython, and their ratio;
  - the same for the rules of an earlier revision (--base, a git revision; by default the
    rules before issue 19), timed in turn with ours, and the speedup;
  - for Morris, OpenSpiel's C++ nine_mens_morris (when `open_spiel` is installed), driven by
    pyspiel.evaluate_bots so that the game loop itself runs in C++, and the ratio per ply
    (OpenSpiel's games are shorter: it draws at 214 plies).
Speed is per second of CPU time (the operating system's accounting of each run, start-up
included; a shared machine's other work then counts less than in wall-clock time), each
figure the median of --rounds, the commands taken in turn.
Run: make bench  (or .venv/bin/python tests/bench/rules.py [--game G] [--seconds S])
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from shared_rules import GAMES  # noqa: E402
from stonegrid.build import tool  # noqa: E402

PLAYOUTS = os.path.join(ROOT, "tests", "bench", "playouts.py")
BASE = "7daa372"  # the rules before issue 19 (faster rules), version 0.1.0


def compile_rules(game, out, tree=ROOT):
    """shared_rules/{__init__,core,game}.py of `tree` (and history.py if the game uses it)
    and our playout driver -> out/**.mpy, so that nothing is compiled on the heap being
    measured; returns the rules' .mpy bytes."""
    dest = os.path.join(out, "shared_rules")
    os.makedirs(dest, exist_ok=True)
    total = 0
    with open(os.path.join(tree, "shared_rules", game + ".py")) as f:
        extra = ("history",) if "shared_rules.history" in f.read() else ()
    for name in ("__init__", "core", game) + extra:
        target = os.path.join(dest, name + ".mpy")
        subprocess.run([tool("mpy-cross"), "-o", target,
                        os.path.join(tree, "shared_rules", name + ".py")], check=True)
        total += os.path.getsize(target)
    subprocess.run([tool("mpy-cross"), "-o", os.path.join(out, "playouts.mpy"), PLAYOUTS],
                   check=True)
    return total


def run(cmd, timeout=600):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    m = re.search(r"games (\d+) plies (\d+) ms (\d+)", proc.stdout)
    return proc.returncode == 0 and m, m


def app_gc_every():
    """The app's collection threshold (firmware/app/core.py: GC_EVERY), as on the board."""
    with open(os.path.join(ROOT, "firmware", "app", "core.py")) as f:
        return int(re.search(r"^GC_EVERY = (\d+)", f.read(), re.M).group(1))


def min_heap(game, mpy_dir, games=20, lo=2, hi=1024, gc_every=None):
    """Smallest heap in KB at which `games` random games finish (None if even hi fails);
    with gc_every, collecting every that many bytes allocated, as the app has it."""
    code = ("import sys; sys.path.insert(0, %r); import playouts; playouts.main(%r, %d, %r, True)"
            % (mpy_dir, game, games, mpy_dir))
    if gc_every:
        code = "import gc; gc.threshold(%d); %s" % (gc_every, code)

    def fits(kb):
        ok, _ = run([tool("micropython"), "-X", "heapsize=%dk" % kb, "-c", code])
        return bool(ok)
    return smallest(fits, lo, hi)


def smallest(fits, lo, hi):
    """The smallest KB in lo..hi for which fits(KB) holds (binary search), None if not hi."""
    if not fits(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def cpu_seconds():
    """CPU time used so far by the finished child processes."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def rate(cmd_prefix, game, seconds, tree=ROOT):
    """Random games per CPU second and plies per game of the rules in `tree`, growing the
    batch until it takes `seconds`."""
    n = 4
    playouts = os.path.join(tree, "tests", "bench", "playouts.py")
    while True:
        before = cpu_seconds()
        ok, m = run(cmd_prefix + [playouts, game, str(n), tree])
        if not ok:
            raise RuntimeError("playouts failed: %s" % " ".join(cmd_prefix))
        ms = int((cpu_seconds() - before) * 1000)
        if ms >= seconds * 1000 or n >= 1 << 20:
            return n * 1000.0 / max(ms, 1), int(m.group(2)) / n
        n *= 2 if ms * 4 > seconds * 1000 else 4


def median(xs):
    return sorted(xs)[len(xs) // 2]


def base_tree(rev, out):
    """The rules and the playout driver of git revision `rev`, unpacked into out; None
    outside a git checkout or for an unknown revision."""
    try:
        archive = subprocess.run(
            ["git", "archive", rev, "shared_rules", "tests/bench/playouts.py"],
            cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    subprocess.run(["tar", "-x", "-C", out], input=archive, check=True)
    return out


def openspiel_rate(seconds):
    """OpenSpiel's random Morris games per CPU second (None without open_spiel)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("nine_mens_morris")
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(2)]
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
            n += 1
    return n / (time.process_time() - start)


def openspiel_plies(games=1000):
    """Mean plies of OpenSpiel's random Morris games, stepped here (not timed)."""
    import pyspiel
    import random
    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(1)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", choices=GAMES,
                    help="only this game (repeatable); default every game")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per speed figure")
    ap.add_argument("--rounds", type=int, default=3, help="speed figures per median")
    ap.add_argument("--base", default=BASE,
                    help="git revision whose rules to compare with (default %(default)s, "
                    "before issue 19); '' for none")
    ap.add_argument("--no-heap", action="store_true", help="speed figures only")
    args = ap.parse_args(argv)
    games = args.game or GAMES
    gc_every = app_gc_every()
    print("min heap: plain, and with the app's collection every %d bytes (as on a board)"
          % gc_every)
    print("%-8s %9s %9s %9s %11s %11s %8s %7s" % (
        "game", "mpy bytes", "min heap", "app GC", "CPython g/s", "MicroPy g/s", "MP/CPy",
        "plies"))
    base_dir = tempfile.TemporaryDirectory()
    base = args.base and base_tree(args.base, base_dir.name)
    for game in games:
        heaps, sizes = {ROOT: [None, None], base: [None, None]}, {}
        for tree in (ROOT, base) if base else (ROOT,):
            with tempfile.TemporaryDirectory() as tmp:
                sizes[tree] = compile_rules(game, tmp, tree)
                if not args.no_heap:
                    heaps[tree] = [min_heap(game, tmp), min_heap(game, tmp, gc_every=gc_every)]
        runtimes = ([sys.executable], [tool("micropython")])
        figures = {}  # (runtime, tree) -> [(games/s, plies/game)] over the rounds
        spiel = []
        for _ in range(args.rounds):
            for rt, cmd in enumerate(runtimes):
                for tree in (ROOT, base) if base else (ROOT,):
                    figures.setdefault((rt, tree), []).append(rate(cmd, game, args.seconds, tree))
            if game == "morris":
                spiel.append(openspiel_rate(args.seconds))
        (cpy, plies), (mpy, _) = [median(figures[rt, ROOT]) for rt in (0, 1)]
        print("%-8s %9d %9s %9s %11.0f %11.0f %8.2f %7.0f" % ((game, sizes[ROOT]) + tuple(
            "%dK" % h if h else "-" for h in heaps[ROOT]) + (cpy, mpy, mpy / cpy, plies)))
        if base:
            (bcpy, bplies), (bmpy, _) = [median(figures[rt, base]) for rt in (0, 1)]
            print("         rules of %s: min heap %s / %s, CPython %.0f g/s, MicroPython %.0f g/s "
                  "(%.0f plies); speedup per ply: CPython %.2fx, MicroPython %.2fx" % ((
                      args.base,) + tuple("%dK" % h if h else "-" for h in heaps[base]) + (
                      bcpy, bmpy, bplies, cpy * plies / (bcpy * bplies),
                      mpy * plies / (bmpy * bplies))))
        if game == "morris":
            if spiel[0] is None:
                print("         OpenSpiel C++ morris: open_spiel not installed "
                      "(pip install '.[bench]')")
            else:
                rate_spiel, spiel_plies = median(spiel), openspiel_plies()
                print("         OpenSpiel C++ morris %.0f g/s, %.0f plies a game; ours/OpenSpiel "
                      "per ply: CPython 1/%.1f, MicroPython 1/%.1f" % (
                          rate_spiel, spiel_plies, rate_spiel * spiel_plies / (cpy * plies),
                          rate_spiel * spiel_plies / (mpy * plies)))
    base_dir.cleanup()


if __name__ == "__main__":
    main()
