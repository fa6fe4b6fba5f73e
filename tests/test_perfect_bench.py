"""Morris's levels against perfect play (tests/bench/perfect.py): its valuation agrees with
the table's own choice, and a short run prints a line for each level from easy up."""
import os
import random
import sys
from multiprocessing import Pool

from runtimes import ROOT
from shared_rules import morris, morris_ai, search

sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import perfect  # noqa: E402  (tests/bench/perfect.py)


def test_the_tables_own_choice_keeps_every_critical_value_and_a_blunder_does_not():
    rng = random.Random(5)
    seen = {"won": 0, "drawn": 0}
    for mine, theirs in perfect.KINDS * 20:
        text = perfect.position(rng, mine, theirs)
        if text is None:
            continue
        g = morris.Game()
        g.set_position(text)
        values = perfect.worth(g)
        kind = perfect.critical(values)
        if kind is None:
            continue
        seen[kind] += 1
        best = values[morris_ai.perfect(g)]
        worst = min(values.values())
        assert (best > 0 >= worst) if kind == "won" else (best == 0 > worst), text
    assert seen["won"] and seen["drawn"], seen


def test_a_short_run_measures_every_level_from_easy_up(capsys):
    with Pool(2) as pool:  # forked with the table open (morris_endgame.pread)
        perfect.measure(pool, 8)
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines()[2:-1]]
    assert rows == list(search.levels(perfect.Plain)[1:]), out
    assert "critical" in out and "won" in out, out
