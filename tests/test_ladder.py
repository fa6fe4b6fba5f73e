"""The ladder of levels (tests/bench/ladder.py), a few games a pair: its table is whole, and
from easy up each level searches deeper than the one below (issue 31's goal; the beginner
overlooks moves instead, and shares the easy budget in some games)."""
import os
import sys
from multiprocessing import Pool

import pytest

from runtimes import ROOT
from shared_rules import GAMES, search

sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import ladder  # noqa: E402  (tests/bench/ladder.py)


@pytest.fixture(scope="module")
def pool():
    with Pool(2) as workers:
        yield workers


@pytest.mark.parametrize("game", GAMES)
def test_each_level_searches_deeper_than_the_one_below(pool, game, capsys):
    rating, scores, depth = ladder.ladder(game, 2, 2, pool, depth_games=1)
    levels = search.levels(search.load_ai(game))  # with the steps some games add
    assert sorted(rating) == sorted(levels) and rating[levels[0]] == 0
    assert sorted(scores) == sorted(ladder.pairs_of(levels))  # each with the two above
    assert len(scores) == 2 * len(levels) - 3
    assert all(len(s) == 2 and set(s) <= {0, 0.5, 1} for s in scores.values())
    deeper = [depth[lv] for lv in levels[1:]]  # from easy up
    assert all(a < b for a, b in zip(deeper, deeper[1:])), depth
    out = capsys.readouterr().out
    assert "depth searched" in out and "not deeper" not in out, out
