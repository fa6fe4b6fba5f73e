"""The solved Morris endgames (shared_rules/morris_endgame.py, the table that
host/stonegrid/endgames.py writes) against the rules module itself, and the device's play
from them; these cases run under CPython (pytest) and MicroPython."""
import random

from shared_rules import morris, morris_ai, morris_endgame as E, search
from shared_rules.core import MEN
from helpers import raises


def position(a, b, side):
    """A random position, all stones placed: a stones for the side to move, b for the
    other; None when it is over already or cannot arise."""
    points = list(range(24))
    chosen = []
    for _ in range(a + b):
        chosen.append(points.pop(random.randrange(len(points))))
    mine, theirs = chosen[:a], chosen[a:]
    own = mine if side == 0 else theirs
    cells = "".join("R" if i in own else "." if i not in chosen else "G" for i in range(24))
    g = morris.Game()
    g.set_position("%s 0 0 %d 0 - -" % (cells, side))
    return g if g.result() is None else None


def positions(n, seed, kinds=((3, 3), (4, 3), (3, 4))):
    random.seed(seed)
    out = []
    while len(out) < n:
        a, b = kinds[len(out) % len(kinds)]
        g = position(a, b, random.randrange(2))
        if g is not None:
            out.append(g)
    return out


def value(g):
    """The table's (state, plies) for the side to move in g."""
    p = g.to_move
    return E.table().value(g.board[p], g.board[1 - p])


def each_turn(g, visit):
    """visit(g) after each whole turn from g, played on g and undone after; stops at the
    first visit that returns True, and returns whether one did."""
    for a in g.legal():
        g.play(a)
        if g.pending and g.result() is None:
            stop = each_turn(g, visit)
        else:
            stop = visit(g)
        g.undo()
        if stop:
            return True
    return False


def test_symmetries_keep_the_lines():
    adjacent = set((i, j) for i in range(24) for j in morris.neighbours(i))
    mills = set(morris.MILLS)
    assert len(set(E.SYMMETRIES)) == 16
    for s in E.SYMMETRIES:
        assert sorted(s) == list(range(24))
        assert set((s[i], s[j]) for i, j in adjacent) == adjacent
        assert set(E.image(s, m) for m in mills) == mills


def test_the_table_is_there_and_says_its_rules():
    t = E.table()
    assert t is not None, "shared_rules/%s is missing: `make endgames` writes it" % E.NAME
    assert t.fits(morris.Game().options)
    assert not t.fits(morris.Game(no_immediate_returns=True).options)
    assert t.fits(morris.Game(double_mill_takes_two=False).options)  # never two at once
    assert value(morris.Game()) is None  # the opening is not an endgame


def test_every_value_follows_from_the_values_one_turn_on():
    """Retrograde analysis checked a position at a time, with the rules module's own moves:
    won in n when some turn ends the game (n = 1) or leads to a loss in n - 1 for the
    other side, lost in n when every turn leads to a win in n - 1 at most (n the longest),
    else drawn.  The table keeps no plies for a won 3-4 position."""
    for g in positions(45, 1):
        state, plies = value(g)
        p = g.to_move
        wins, losses, draws = [], [], []

        def tally(h):
            r = h.result()
            if r is not None:
                assert r == (p, MEN)
                wins.append(1)
                return
            s, n = value(h)
            if s == E.LOST:
                wins.append(n + 1)
            elif s == E.WON:
                losses.append(None if n is None else n + 1)
            else:
                draws.append(h.position())

        each_turn(g, tally)
        if wins:
            assert state == E.WON and plies in (None, min(wins)), (g.position(), plies, wins)
        elif draws:
            assert (state, plies) == (E.DRAWN, 0), g.position()
        else:
            assert state == E.LOST, g.position()
            if None not in losses:
                assert plies == max(losses), (g.position(), plies, losses)


def forced(g, p, plies):
    """Whether p, to move in g, wins within `plies` (odd) against every defence: plain
    exhaustive search on the rules module."""
    def wins(h):
        r = h.result()
        if r is not None:
            return r[0] == p
        return plies >= 3 and not each_turn(h, lambda k: not forced(k, p, plies - 2))

    return each_turn(g, wins)


def test_short_wins_and_their_absence_agree_with_exhaustive_search():
    """The small cases: a win in 1 or 3 plies is found by trying every line, and no
    position the table calls drawn or longer is won that fast."""
    seen = {}
    for g in positions(60, 2, ((3, 3),)):
        state, plies = value(g)
        kind = plies if state == E.WON and plies <= 3 else 0
        if seen.get(kind, 0) >= 3:
            continue
        seen[kind] = seen.get(kind, 0) + 1
        p = g.to_move
        assert forced(g, p, 1) == (kind == 1), g.position()
        if kind != 1:
            assert forced(g, p, 3) == (kind == 3), g.position()
    assert sorted(seen) == [0, 1, 3]


def play_out(g, winner_moves, loser_moves, limit=60):
    """Play g to its end: the side to move now chooses with winner_moves(g), the other
    with loser_moves(g).  The turns it took (a mill's removal is part of its turn), or None
    when it lasts more than `limit`."""
    p = g.to_move
    turns = 0
    while g.result() is None:
        if turns == limit:
            return None
        g.play((winner_moves if g.acting == p else loser_moves)(g))
        turns += g.pending == 0 or g.result() is not None
    return turns


def test_the_device_wins_won_endgames_in_the_fewest_plies_and_holds_draws():
    for g in positions(16, 3, ((3, 3), (4, 3))):
        state, plies = value(g)
        start = g.position()
        p = g.to_move
        took = play_out(g, morris_ai.perfect, morris_ai.perfect, 100)
        if state == E.WON:  # both sides best: the longest defence lasts exactly this long
            assert g.result()[0] == p and took == plies, start
        elif state == E.LOST:
            assert g.result()[0] == 1 - p and took == plies, start
        else:  # the same turns again and again: a draw by repetition
            assert g.result() is not None and g.result()[0] is None, start


def test_the_device_never_lets_a_win_or_a_draw_go_against_any_defence():
    random.seed(6)

    def anything(g):
        acts = g.legal()
        return acts[random.randrange(len(acts))]

    for g in positions(24, 4):
        state, plies = value(g)
        start = g.position()
        p = g.to_move
        took = play_out(g, morris_ai.perfect, anything, 80)
        if state == E.WON:
            assert g.result()[0] == p, start
            if plies is not None:
                assert took <= plies, start
        elif state == E.DRAWN:
            assert g.result() is None or g.result()[0] != 1 - p, start


def test_the_search_plays_the_table_where_it_can_and_searches_elsewhere():
    g = positions(1, 7, ((3, 3),))[0]
    s = search.start(g, g.to_move, morris_ai, "hard")
    assert s.step(1) and s.best == morris_ai.perfect(g) and s.nodes == 0
    g = morris.Game(no_immediate_returns=True)  # other rules: the table is refused
    g.set_position(positions(1, 7, ((3, 3),))[0].position())
    assert morris_ai.perfect(g) is None
    g = morris.Game()
    g.set_position("RRRR.GGGGG.............. 0 0 0 0 - -")  # 4 against 5: not solved
    assert morris_ai.perfect(g) is None and value(g) is None


class Searcher:
    """morris_ai without its table: the device's plain search."""
    evaluate = staticmethod(morris_ai.evaluate)
    order = staticmethod(morris_ai.order)


def test_the_table_agrees_with_what_the_plain_search_proves():
    proved = 0
    for g in positions(40, 8, ((3, 3), (3, 3), (4, 3), (3, 4))):
        state, plies = value(g)
        s = search.Search(g.copy(), g.to_move, Searcher, 1500)
        while not s.step(1000):
            pass
        if s.value > search.WIN // 2:  # a win the search saw to its end
            assert state == E.WON, g.position()
            proved += 1
        elif s.value < -search.WIN // 2:
            assert state == E.LOST, g.position()
            proved += 1
        elif state == E.WON and plies == 1:
            raise AssertionError("the search missed a mill: %s" % g.position())
    assert proved >= 5, proved


def test_a_file_that_is_not_a_table_or_one_for_other_rules_is_told_apart():
    import io
    e = raises(E.TableError, E.Table, io.BytesIO(b"GIF89a\n"))
    assert "not a table of 'stonegrid morris endgames 1'" in str(e)
    head = b"stonegrid morris endgames 1 double_mill_takes_two=0 no_immediate_returns=0\n"
    t = E.Table(io.BytesIO(head + bytes(8)))
    assert not t.fits(morris.Game().options)
    assert t.fits(morris.Game(double_mill_takes_two=False).options)


def test_a_heap_too_full_for_the_table_leaves_the_search_to_answer():
    class Full:
        DRAWN, WON, LOST = E.DRAWN, E.WON, E.LOST

        def fits(self, options):
            return True

        def value(self, mine, theirs):
            raise MemoryError()

    g = positions(1, 9, ((3, 3),))[0]
    before = g.position(), g.plies()
    saved = E.table
    E.table = lambda: Full()
    try:
        assert morris_ai.perfect(g) is None
    finally:
        E.table = saved
    assert (g.position(), g.plies()) == before  # every action tried was taken back
