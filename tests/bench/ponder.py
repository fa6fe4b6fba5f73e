"""Thinking on the player's time (shared_rules/ponder.py): how often the device foresees the
other side's line, and what it gains at equal latency. Under CPython (the same code as on
the device; budgets are work units, so the figures do not depend on the machine).

Per game without secrets, N games of the device at the default level pondering against the
same device not pondering, sides alternated, each game's searches seeded apart. While the
other side thinks, the ponderer gets WORK units of pondering (--work: "same", what the other
side's own search does, as against a device as quick as itself; "most", all it can use, as
against a person who thinks for a few seconds). On its turn it plays the reply found if the
line was foreseen, with its usual budget more than the ponder did (so it answers in the
usual time, or sooner), else it searches as usual.

Prints per game: the hit rate (turns whose line was foreseen), the ponderer's win/draw/loss
and score, and the mean work of its answers against the level's budget.
Run: .venv/bin/python tests/bench/ponder.py [--games N] [--work same|most] [--game G]
"""
import argparse
import os
import sys
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from shared_rules import GAMES, load, search  # noqa: E402
from shared_rules.ponder import PONDER_MOST, Ponder  # noqa: E402

MAX_PLIES = 1000  # a game still running then is a draw


def one(job):
    """(result for the ponderer: 1, 0.5 or 0; turns foreseen; turns; work of its answers)."""
    game_id, k, work = job
    g, ai = load(game_id).Game(), search.load_ai(game_id)
    level = search.budget(ai)
    me = k % 2  # the ponderer: sides alternated
    pondering, hits, turns, answered = None, 0, 0, []
    while g.result() is None and g.plies() < MAX_PLIES:
        p, seed = g.to_move, (k * 7919 + g.plies() * 31) & 0x3FFFFFFF
        if p == me:
            s = pondering.hit(g) if pondering is not None else None
            turns += pondering is not None
            hits += s is not None
            pondering = None
            if s is None:
                s = search.start(g, p, ai, seed=seed)
            while not s.step(1000):
                pass
            answered.append(s.nodes)
            g.play(s.best)
            continue
        if pondering is None:  # the other side's turn begins: the ponderer thinks too
            pondering = Ponder(g, me, ai, search.DEFAULT, seed)
            budget = level if work == "same" else (PONDER_MOST + 1) * level
            done = 0
            while done < budget and not pondering.step(1):
                done += 1
        g.play(search.choose(g, p, ai, seed=seed))
    r = g.result()
    score = 0.5 if r is None or r[0] is None else 1.0 if r[0] == me else 0.0
    return score, hits, turns, answered


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per game")
    ap.add_argument("--work", choices=("same", "most"), default="most",
                    help="pondering while the other side thinks (see above)")
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game")
    args = ap.parse_args(argv)
    games = [g for g in (args.game or GAMES) if not load(g).Game.SECRETS]
    print("ponder: device (%s level) pondering, %s work while the other side thinks, "
          "against the same device not pondering; %d games each" % (
              search.DEFAULT, args.work, args.games))
    print("%-8s %8s %11s %7s %8s" % ("game", "foreseen", "W/D/L", "score", "work"))
    with Pool() as pool:
        for game_id in games:
            out = pool.map(one, [(game_id, k, args.work) for k in range(args.games)])
            wins = sum(1 for o in out if o[0] == 1)
            draws = sum(1 for o in out if o[0] == 0.5)
            hits, turns = sum(o[1] for o in out), sum(o[2] for o in out)
            work = [n for o in out for n in o[3]]
            level = search.budget(search.load_ai(game_id))
            print("%-8s %7.0f%% %11s %6.1f%% %7.2fx" % (
                game_id, 100.0 * hits / max(1, turns),
                "%d/%d/%d" % (wins, draws, len(out) - wins - draws),
                100.0 * sum(o[0] for o in out) / len(out),
                sum(work) / max(1, len(work)) / level), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
