"""stonegrid endgames: the solver's numbering is the device's, and the table in the tree is
exactly what the solver writes from the rules as they are (so a change to the rules or the
solver that changes a value fails here until `make endgames` writes the table again)."""
import os
import random
from multiprocessing import Pool

from shared_rules import morris_endgame as E

from stonegrid import cli, endgames

TREE_TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "shared_rules", E.NAME)


def test_the_solver_numbers_positions_as_the_device_does():
    import numpy as np

    solver = endgames.Solver()
    rng = random.Random(1)
    for table, numbering in solver.numbering.items():
        pivots, others = [], []
        for _ in range(300):
            points = rng.sample(range(24), 7 if 4 in table else 6)
            pivot = sum(1 << p for p in points[:max(table)])
            other = sum(1 << p for p in points[bin(pivot).count("1"):])
            pivots.append(pivot)
            others.append(other)
        got = solver.fold.number(numbering, np.array(pivots), np.array(others)).tolist()
        for pivot, other, n in zip(pivots, others, got):
            canon, rank = E.key(pivot, other)
            assert n == numbering.canon.tolist().index(canon) * numbering.block + rank
        back = numbering.positions()  # and every number names a position of that number
        sample = np.array(got)
        assert (solver.fold.number(numbering, back[0][sample], back[1][sample]) == sample).all()


def test_the_table_in_the_tree_is_what_the_solver_writes(tmp_path, capsys):
    out = str(tmp_path / E.NAME)
    assert cli.main(["endgames", "--out", out]) == 0
    report = capsys.readouterr().out
    assert "3-3: 210140 positions" in report and "bits a position" in report, report
    with open(out, "rb") as f, open(TREE_TABLE, "rb") as g:
        assert f.read() == g.read(), ("shared_rules/%s is not what the solver writes: run "
                                      "`make endgames` and commit it" % E.NAME)


def _values(seed):
    rng = random.Random(seed)
    got = []
    for _ in range(3000):
        points = rng.sample(range(24), 6)
        mine = sum(1 << p for p in points[:3])
        got.append(E.table().value(mine, sum(1 << p for p in points[3:])))
    return got


def test_processes_forked_with_the_table_open_read_it_without_crossing():
    """A pool forked after the table was opened shares its file: reads must not go through
    the file's one offset (a seek in one process, then a read after another's seek)."""
    assert E.table() is not None and E.table().fd is not None
    seeds = list(range(8))
    with Pool(2) as pool:
        apart = pool.map(_values, seeds, chunksize=1)
    assert apart == [_values(seed) for seed in seeds]
