"""Morris's levels against perfect play, at the endgames the table solves.

The solved endgames (shared_rules/morris_endgame.py: 3 against 3, 4 against 3 and 3 against
4 stones) are a reference stronger than any level.

The levels play those endgames from the table, so here each plays its plain search instead
(the companion without the table, as it plays wherever no table reaches), from easy up:
  moves  at --positions random positions of each kind (all stones placed, the side to move
         drawn), the critical ones only: won or drawn for the side to move, with an action
         that would give that away.  A move keeps the value when the position stays won
         (the quickest win not required) or not lost.
  games  from each won critical position, the level against the perfect defender (the
         table's choice): won, or let go (a draw by repetition or after MAX_PLIES plies;
         the table never loses a position it holds).
Under CPython, on every core; the search is the device's (tests/both/test_search.py).
Run: .venv/bin/python tests/bench/perfect.py [--positions N] (make bench)
"""
import argparse
import os
import random
import sys
import time
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from shared_rules import morris, morris_ai, morris_endgame, search  # noqa: E402

KINDS = ((3, 3), (4, 3), (3, 4))  # stones of the side to move, of the other
MAX_PLIES = 100  # a game from an endgame still running then: the win let go


class Plain:
    """morris_ai without its table: the device's search where no table reaches."""
    evaluate = staticmethod(morris_ai.evaluate)
    order = staticmethod(morris_ai.order)
    NODES, OVERLOOK = morris_ai.NODES, morris_ai.OVERLOOK


def position(rng, mine, theirs):
    """A random endgame position text: all stones placed, `mine` for the side to move (drawn
    at random), `theirs` for the other; None when it is over already."""
    points = rng.sample(range(24), mine + theirs)
    side = rng.randrange(2)
    own = points[:mine] if side == 0 else points[mine:]
    cells = "".join("R" if i in own else "G" if i in points else "." for i in range(24))
    g = morris.Game()
    g.set_position("%s 0 0 %d 0 - -" % (cells, side))
    return None if g.result() is not None else g.position()


def worth(g):
    """{action: what the table says it is worth to the side playing it} (see
    morris_ai._after: above 0 a win, 0 a draw, below 0 a loss)."""
    table = morris_endgame.table()
    return dict((a, morris_ai._after(g, a, table)) for a in g.legal())


def critical(values):
    """'won' or 'drawn' where the side to move has that to lose by one action, else None."""
    best = max(values.values())
    if best > 0 and min(values.values()) <= 0:
        return "won"
    if best == 0 and min(values.values()) < 0:
        return "drawn"
    return None


def move_one(job):
    """(text, "won" or "drawn", level, seed): whether the level's move keeps that value."""
    text, kind, level, seed = job
    g = morris.Game()
    g.set_position(text)
    a = search.choose(g, g.to_move, Plain, level, seed)
    chosen = morris_ai._after(g, a, morris_endgame.table())
    return chosen > 0 if kind == "won" else chosen >= 0


def game_one(job):
    """(text, level, seed): the level, from a won position, against the perfect defender;
    True if it won."""
    text, level, seed = job
    g = morris.Game()
    g.set_position(text)
    me = g.to_move
    while g.result() is None and g.plies() < MAX_PLIES:
        p = g.to_move
        g.play(search.choose(g, p, Plain, level, seed + g.plies()) if p == me else
               morris_ai.perfect(g))
    return g.result() is not None and g.result()[0] == me


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=300,
                    help="random positions of each kind (3-3, 4-3, 3-4), critical or not")
    args = ap.parse_args(argv)
    with Pool(os.cpu_count()) as pool:
        measure(pool, args.positions)


def measure(pool, n):
    if morris_endgame.table() is None:
        raise SystemExit("perfect: no endgame table (shared_rules/%s; make endgames)"
                         % morris_endgame.NAME)
    t0 = time.time()
    rng = random.Random(31)
    found = {"won": [], "drawn": []}
    for mine, theirs in KINDS:
        for _ in range(n):
            text = position(rng, mine, theirs)
            if text is not None:
                g = morris.Game()
                g.set_position(text)
                kind = critical(worth(g))
                if kind:
                    found[kind].append(text)
    levels = search.levels(Plain)[1:]  # from easy up: the beginner overlooks on purpose
    print("Morris against perfect play: %d random endgame positions (%s), %d critical: %d "
          "won, %d drawn for the side to move" % (
              n * len(KINDS), ", ".join("%d-%d" % k for k in KINDS),
              len(found["won"]) + len(found["drawn"]), len(found["won"]),
              len(found["drawn"])))
    print("  %-8s %11s %13s   %s" % ("level", "wins kept", "draws kept",
                                     "games from a won position against perfect defence"))
    for level in levels:
        kept = {}
        for kind, texts in found.items():
            jobs = [(t, kind, level, k) for k, t in enumerate(texts)]
            kept[kind] = sum(pool.map(move_one, jobs, chunksize=4))
        won = sum(pool.map(game_one, [(t, level, 1000 * k) for k, t in
                                      enumerate(found["won"])], chunksize=2))
        print("  %-8s %10.0f%% %12.0f%%   won %d of %d (%.0f%%)" % (
            level, 100.0 * kept["won"] / max(1, len(found["won"])),
            100.0 * kept["drawn"] / max(1, len(found["drawn"])), won, len(found["won"]),
            100.0 * won / max(1, len(found["won"]))), flush=True)
    print("  (%.0f s; on the board every level above the beginner plays these from the table)"
          % (time.time() - t0))


if __name__ == "__main__":
    main()
