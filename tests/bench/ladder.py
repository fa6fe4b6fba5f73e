"""The ladder of the device's levels: a round robin, device against device, and Elo ratings.

For each game, each of its levels (shared_rules/search.py levels(): some games add steps
between normal and hard) plays the two levels above it, --games games a pair (100 by
default; levels further apart would only confirm a result near 100%): colours alternate,
and each opening (--opening random actions, drawn from the game's seed) is played once each
way round, so that neither level gains from a lucky start.  The device's seeds differ from
game to game.  A game still running after MAX_PLIES actions is a draw.  The ratings are the
maximum-likelihood Elo of the whole table (a draw half a win), beginner at 0, with 95%
intervals from 200 resamplings of each pair's games; beside them, how often each level beat
the one below (the goal: about two in three, 120 Elo).  Then the plies each level's search
completes, on average, at the same positions: those of --depth-games games of the default
level against itself (the goal: from easy up, each level deeper than the one below).
Morris also plays OpenSpiel's MCTS at --sims simulations (10,000 by default) with the normal
and hard levels (--spiel games each, 0 for none; tests/bench/ai.py has the match).
Under CPython, on every core; the same moves as on the device (the search is the same code,
tests/both/test_search.py).
Run: .venv/bin/python tests/bench/ladder.py [--game G] [--games N] [--spiel N] (make bench)
"""
import argparse
import math
import os
import random
import sys
import time
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
from shared_rules import GAMES, load, search  # noqa: E402

MAX_PLIES = 600
RESAMPLES = 200
GOAL = 2.0 / 3  # how often a level should beat the one below
DEPTH_GAMES = 4  # games whose positions every level searches, for the depth each completes


def opened(game_id, k, opening):
    """A new game with opening k's random actions played (the same for a pair of games)."""
    rng = random.Random("%s %d" % (game_id, k // 2))
    g = load(game_id).Game()
    for _ in range(opening):
        if g.result() is None:
            acts = g.legal()
            g.play(acts[rng.randrange(len(acts))])
    return g


def play_one(job):
    """(game_id, low level, high level, k, opening actions): game k of that pair; returns the
    high level's score (1, 0.5 or 0)."""
    game_id, low, high, k, opening = job
    g, ai = opened(game_id, k, opening), search.load_ai(game_id)
    high_side = k % 2
    while g.result() is None and g.plies() < MAX_PLIES:
        p = g.to_move
        g.play(search.choose(g, p, ai, high if p == high_side else low, k * 1000 + g.plies()))
    winner = g.result()[0] if g.result() is not None else None
    return 0.5 if winner is None else 1.0 if winner == high_side else 0.0


def depth_one(job):
    """(game_id, k, opening actions): the default level's game k against itself, and at each
    of its positions every level's search; returns {level: [plies completed, searches]}
    over the positions where every level searched (not a solved endgame nor a matrix game),
    so that each level is measured on the same positions."""
    game_id, k, opening = job
    g, ai = opened(game_id, k, opening), search.load_ai(game_id)
    levels = search.levels(ai)
    depth = dict((lv, [0, 0]) for lv in levels)
    while g.result() is None and g.plies() < MAX_PLIES:
        done = []
        for lv in levels:
            s = search.start(g, g.to_move, ai, lv, seed=k * 1000 + g.plies())  # as choose()
            while not s.step(1000):
                pass
            done.append(s.depth if getattr(s, "depth", None) is not None and s.nodes else None)
            if lv == search.DEFAULT:
                move = s.best  # the game goes on with it
        if None not in done:
            for lv, d in zip(levels, done):
                depth[lv][0] += d
                depth[lv][1] += 1
        g.play(move)
    return depth


def elo(scores, levels):
    """Maximum-likelihood ratings (the first level at 0) from {(low, high): [high's scores]}:
    the Bradley-Terry model by its minorisation steps, with one drawn game added to each
    pair so that a level that won every game still gets a finite rating."""
    won = dict((lv, 0.0) for lv in levels)
    played = {}
    for (low, high), s in scores.items():
        won[high] += sum(s) + 0.5
        won[low] += len(s) - sum(s) + 0.5
        played[low, high] = len(s) + 1
    strength = dict((lv, 1.0) for lv in levels)
    for _ in range(500):
        for lv in levels:
            strength[lv] = won[lv] / sum(n / (strength[a] + strength[b])
                                         for (a, b), n in played.items() if lv in (a, b))
    return dict((lv, 400 * math.log10(strength[lv] / strength[levels[0]])) for lv in levels)


def pairs_of(levels):
    """Each level with the two above it, weakest pairs first."""
    return [(low, high) for i, low in enumerate(levels) for high in levels[i + 1:i + 3]]


def ladder(game_id, n, opening, pool, depth_games=DEPTH_GAMES):
    levels = search.levels(search.load_ai(game_id))
    pairs = pairs_of(levels)
    jobs = [(game_id, low, high, k, opening) for low, high in pairs for k in range(n)]
    t0 = time.time()
    results = pool.map(play_one, jobs, chunksize=1)
    scores = dict((pair, []) for pair in pairs)
    for job, s in zip(jobs, results):
        scores[job[1], job[2]].append(s)
    depth = dict((lv, [0, 0]) for lv in levels)
    for searched in pool.map(depth_one, [(game_id, k, opening) for k in range(depth_games)]):
        for lv, (plies, searches) in searched.items():
            depth[lv][0] += plies
            depth[lv][1] += searches
    rating = elo(scores, levels)
    rng = random.Random(1)
    samples = dict((lv, []) for lv in levels)
    for _ in range(RESAMPLES):
        again = dict((pair, [s[rng.randrange(len(s))] for _ in s]) for pair, s in scores.items())
        for lv, v in elo(again, levels).items():
            samples[lv].append(v)
    print("%s: %d games a pair, %d random opening actions, %.0f s" % (
        game_id, n, opening, time.time() - t0))
    print("  %-9s %6s %15s   %s" % ("level", "Elo", "95% interval", "against the level below"))
    for i, lv in enumerate(levels):
        s = sorted(samples[lv])
        lo, hi = s[int(0.025 * len(s))], s[int(0.975 * len(s)) - 1]
        below = ""
        if i:
            got = scores[levels[i - 1], lv]
            w = sum(1 for x in got if x == 1)
            d = sum(1 for x in got if x == 0.5)
            below = "%.0f%% (W/D/L %d/%d/%d; goal about %.0f%%)" % (
                100 * sum(got) / len(got), w, d, len(got) - w - d, 100 * GOAL)
        interval = "(the anchor)" if not i else "%5.0f ..%5.0f" % (lo, hi)
        print(("  %-9s %6.0f %15s   %s" % (lv, rating[lv], interval, below)).rstrip())
    print("  every pair, the higher level's score: " + ", ".join(
        "%s-%s %.0f%%" % (low, high, 100 * sum(s) / len(s)) for (low, high), s in scores.items()),
        flush=True)
    mean = [depth[lv][0] / max(1, depth[lv][1]) for lv in levels]
    shallow = [lv for i, lv in enumerate(levels) if 1 < i and mean[i] <= mean[i - 1]]
    print("  depth searched (plies a search, mean, at the %d positions of %d game%s of the "
          "default level): %s; %s" % (
              depth[levels[0]][1], depth_games, "s"[depth_games == 1:],
              ", ".join("%s %.2f" % (lv, d) for lv, d in zip(levels, mean)),
              "not deeper than the level below: " + ", ".join(shallow) if shallow else
              "from easy up each level deeper than the one below (the beginner overlooks "
              "moves instead)"), flush=True)
    return rating, scores, dict(zip(levels, mean))


def _tune(game_id, nodes, overlook):
    """In each worker, and here: try other budgets or another share overlooked for one game."""
    ai = search.load_ai(game_id)
    if nodes:
        ai.NODES = nodes
    if overlook is not None:
        ai.OVERLOOK = overlook


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game")
    ap.add_argument("--games", type=int, default=100, help="games a pair of levels")
    ap.add_argument("--opening", type=int, default=2, help="random actions opening a game")
    ap.add_argument("--depth-games", type=int, default=DEPTH_GAMES, help="games whose "
                    "positions every level searches, for the depth each completes")
    ap.add_argument("--spiel", type=int, default=100, help="Morris games against MCTS at "
                    "each of the normal and hard levels (0: none)")
    ap.add_argument("--sims", type=int, default=10000, help="MCTS simulations a move")
    ap.add_argument("--nodes", help="with one --game: try these budgets (beginner,easy,"
                    "normal,[normal+1,...,]hard: four or more) instead of its companion's "
                    "NODES")
    ap.add_argument("--overlook", type=int, help="with one --game: the beginner overlooks "
                    "this share of its moves (%%) instead")
    args = ap.parse_args(argv)
    tune = None
    if args.nodes or args.overlook is not None:
        if not args.game or len(args.game) != 1:
            ap.error("--nodes and --overlook need one --game")
        nodes = args.nodes and tuple(int(n) for n in args.nodes.split(","))
        if nodes and len(nodes) < len(search.LEVELS):
            ap.error("--nodes gives four budgets or more: %s" % ",".join(search.LEVELS))
        tune = (args.game[0], nodes, args.overlook)
        _tune(*tune)
    with Pool(os.cpu_count(), _tune if tune else None, tune) as pool:
        for game_id in args.game or GAMES:
            ladder(game_id, args.games, args.opening, pool, args.depth_games)
        if args.spiel and "morris" in (args.game or GAMES):
            import ai
            for level in ("normal", "hard"):
                ai.openspiel_match(args.spiel, pool, level, sims=args.sims)


if __name__ == "__main__":
    main()
