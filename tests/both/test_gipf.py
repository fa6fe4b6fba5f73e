"""GIPF (basic) rulings; these cases run under CPython (pytest) and MicroPython."""
import random

from shared_rules import gipf, load
from shared_rules.core import IllegalMove, NotationError, OptionError
from helpers import raises, snapshot, check_random_game_invariants, random_game

COLUMNS = (4, 5, 6, 7, 6, 5, 4)  # spots in columns b..h
R = 6  # reserves in the set-up positions below
SPOTS = [gipf.name(i) for i in range(37)]


def pos(white=(), black=(), res=(R, R), side=0, mover="-"):
    cols, k = [], 0
    for n in COLUMNS:
        col = ""
        for _ in range(n):
            name = SPOTS[k]
            col += "W" if name in white else "B" if name in black else "."
            k += 1
        cols.append(col)
    return "%s %d %d %d %s" % ("/".join(cols), res[0], res[1], side, mover)


def game(options=None, **setup):
    g = gipf.Game(**(options or {}))
    g.set_position(pos(**setup))
    return g


def texts(g):
    return sorted(g.text(a) for a in g.legal())


def board(g, p):
    return sorted(SPOTS[s] for s in range(37) if g.piece_at(s) == p)


def counts(g):
    return (g.reserve(0), g.reserve(1), g.captured(0), g.captured(1))


def change(g, before):
    """How reserves and captured counts moved since `before` (a counts() tuple)."""
    return tuple(x - y for x, y in zip(counts(g), before))


def conserved(g):
    for p in (0, 1):
        assert g.on_board(p) + g.reserve(p) + g.captured(p) == g.total(p), g.position()


def test_start():
    g = gipf.Game()
    assert load("gipf") is gipf
    assert g.to_move == 0 and g.result() is None and not g.removal_pending()
    assert board(g, 0) == ["b5", "e2", "h5"] and board(g, 1) == ["b2", "e8", "h2"]
    assert (g.reserve(0), g.reserve(1), g.captured(0), g.captured(1)) == (12, 12, 0, 0)
    assert g.total(0) == g.total(1) == 15
    assert len(g.legal()) == 42 and len(g.legal_dots()) == 24
    assert g.position() == "B..W/...../....../W.....B/....../...../B..W 12 12 0 -"


def derive_tables():
    """The module's geometry tables, derived again from the hexagon's coordinates."""
    starts = (0, 0, 4, 9, 15, 22, 28, 33)  # first spot of columns b..h
    spots, dots, rs, ro, ray_dot, rdir = "", "", [], [0], [], []
    for c in range(9):
        for u in range(max(0, c - 4), min(8, c + 4) + 1):
            n = "abcdefghi"[c] + str(u + 1 - max(0, c - 4))
            if 0 < c < 8 and 0 < u < 8 and -4 < u - c < 4:
                spots += n
                continue
            rays = []
            for d in range(6):
                dc, du = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))[d]
                x, y, walk = c + dc, u + du, []
                while 0 < x < 8 and 0 < y < 8 and -4 < y - x < 4:
                    walk.append(starts[x] + y - max(1, x - 3))
                    x, y = x + dc, y + du
                if walk:
                    rays.append((walk[0], d, walk))
            rays.sort()
            for first, d, walk in rays:
                rs.extend(walk)
                ro.append(len(rs))
                ray_dot.append(37 + len(dots) // 2)
                rdir.append(d)
            dots += n
    lines = [r for d in range(3) for r in range(42) if rdir[r] == d]
    lo = [ro[r] for r in lines]
    ll = [ro[r + 1] - ro[r] for r in lines]
    sl, sp = [0] * 111, [0] * 111
    for l in range(21):
        for k in range(ll[l]):
            sl[rs[lo[l] + k] * 3 + l // 7] = l
            sp[rs[lo[l] + k] * 3 + l // 7] = k
    ray_line = [sl[rs[ro[r]] * 3 + rdir[r] % 3] for r in range(42)]
    return {"_NAMES": spots + dots, "RAY_SPOTS": rs, "RAY_START": ro, "RAY_DOT": ray_dot,
            "RAY_LINE": ray_line, "_LINE_START": lo, "_LINE_LENGTH": ll, "_SPOT_LINE": sl,
            "_SPOT_PLACE": sp, "_LINE_RAYS": [r for l in range(21) for r in range(42)
                                               if ray_line[r] == l],
            "_LINE_OF_BIT": [([l for l in range(21) if (1 << l) % 37 == b] or [0])[0]
                             for b in range(37)]}


def test_tables():
    tables = derive_tables()
    for name in ("_NAMES", "RAY_SPOTS", "RAY_START", "RAY_DOT", "RAY_LINE", "_LINE_START",
                 "_LINE_LENGTH", "_SPOT_LINE", "_SPOT_PLACE", "_LINE_RAYS", "_LINE_OF_BIT"):
        value = getattr(gipf, name)
        assert (value if name == "_NAMES" else list(value)) == tables[name], name


def test_geometry():
    names = [gipf.name(i) for i in range(61)]
    assert SPOTS == sorted(SPOTS) and names[37:] == sorted(names[37:])
    cols = {}
    for n in names:
        cols[n[0]] = cols.get(n[0], 0) + 1
    assert [cols[c] for c in "abcdefghi"] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    at = {}
    for i in range(61):
        assert gipf.index(names[i]) == i
        c, u = gipf.coords(i)
        at[(c, u)] = i
        assert 0 <= c <= 8 and 0 <= u <= 8 and -4 <= u - c <= 4
        rim = c in (0, 8) or u in (0, 8) or u - c in (-4, 4)
        assert rim == (i >= 37), names[i]  # the 24 dots are the rim
    assert gipf.coords(gipf.index("e5")) == (4, 4)  # the centre
    # Every ray walks one whole line of spots from a dot to the dot at the other end.
    rays, lines = {}, []
    for r in range(42):
        dot, walk = gipf.RAY_DOT[r], gipf.ray_spots(r)
        pts = [dot] + list(walk)
        c0, u0 = gipf.coords(pts[0])
        c1, u1 = gipf.coords(pts[1])
        dc, du = c1 - c0, u1 - u0
        assert (dc, du) in ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
        for k in range(len(pts)):
            assert at[(c0 + k * dc, u0 + k * du)] == pts[k]
        assert at[(c0 + len(pts) * dc, u0 + len(pts) * du)] >= 37  # ends on a dot
        assert min(walk) < 37 and max(walk) < 37
        rays[names[dot]] = rays.get(names[dot], []) + [names[walk[0]]]
        line = tuple(sorted(walk))
        if line not in lines:
            lines.append(line)
    assert len(lines) == 21 and len(rays) == 24
    assert sorted(len(l) for l in lines) == [4] * 6 + [5] * 6 + [6] * 6 + [7] * 3
    for d in rays:
        assert len(rays[d]) == (1 if d in ("a1", "a5", "e1", "e9", "i1", "i5") else 2), d
    assert rays["a1"] == ["b2"] and rays["e1"] == ["e2"] and rays["a2"] == ["b2", "b3"]
    assert rays["b1"] == ["b2", "c2"] and rays["f1"] == ["e2", "f2"]
    g = gipf.Game()
    assert [g.text(r) for r in range(42)] == sorted(g.text(r) for r in range(42))
    walk = [SPOTS[s] for s in gipf.ray_spots(g.parse("a1-b2"))]
    assert walk == ["b2", "c3", "d4", "e5", "f5", "g5", "h5"]
    walk = [SPOTS[s] for s in gipf.ray_spots(g.parse("a4-b4"))]
    assert walk == ["b4", "c4", "d4", "e4", "f3", "g2"]
    raises(NotationError, gipf.index, "j1")
    raises(NotationError, gipf.index, "2b")


def test_push_moves_the_chain():
    g = gipf.Game()
    a = g.parse("e1-e2")
    assert g.pushed(a) == ((SPOTS.index("e2"),), SPOTS.index("e3"))
    g.play(a)
    assert board(g, 0) == ["b5", "e2", "e3", "h5"] and g.reserve(0) == 11 and g.to_move == 1
    g.play("e9-e8")  # Black pushes its own e8 down
    assert board(g, 1) == ["b2", "e7", "e8", "h2"]
    g.play("e1-e2")
    assert [g.piece_at(SPOTS.index(n)) for n in ("e2", "e3", "e4", "e5")] == [0, 0, 0, None]
    chain, end = g.pushed(g.parse("e9-e8"))
    assert [SPOTS[s] for s in chain] == ["e8", "e7"] and SPOTS[end] == "e6"


def test_push_blocked_by_a_full_line():
    g = game(white=("b2", "b4"), black=("b3", "b5"))
    assert "b1-b2" not in texts(g) and "b6-b5" not in texts(g)
    assert "a2-b2" in texts(g) and "a4-b5" in texts(g)
    before = snapshot(g)
    assert "b1-b2" in str(raises(IllegalMove, g.play, "b1-b2"))
    assert snapshot(g) == before
    assert g.pushed(g.parse("a2-b2"))[1] is not None
    assert g.pushed(gipf.Game().parse("a1-b2"))[1] is not None
    assert g.pushed(g._parse("b1-b2")) == (gipf.ray_spots(g._parse("b1-b2")), None)
    assert [t for t in texts(g) if t.startswith("b1")] == ["b1-c2"]
    assert gipf.index("b1") in g.legal_dots() and len(g.legal_dots()) == 24
    full = game(white=("b2", "d4", "f5", "h5"), black=("c3", "e5", "g5"))
    for d in ("a1", "i5"):  # corner dots: their one ray is full
        assert gipf.index(d) not in full.legal_dots()
    assert gipf.index("a2") in full.legal_dots() and len(full.legal_dots()) == 22


def _illustration_4(white, black, taken, captured):
    g = game(white=white, black=black, side=1)
    before = counts(g)
    g.play("e1-e2")
    assert g.to_move == 0 and not g.removal_pending()
    (owner, a), = g.last_removed()
    spots = g.segment(a)
    assert owner == 1 and len(spots) == taken
    assert change(g, before) == (0, taken - captured - 1, captured, 0)
    conserved(g)
    return g


def test_illustrations_4a_to_4d():
    # 4a: four black, an empty spot ends the row: e7's white stays.
    g = _illustration_4(("e7",), ("e2", "e3", "e4"), 4, 0)
    assert g.turns() == ["e1-e2 xe2-e5"] and board(g, 0) == ["e7"]
    # 4b: four black and the white next to them; the empty e7 keeps e8's white out.
    g = _illustration_4(("e5", "e8"), ("e2", "e3", "e4"), 5, 1)
    assert g.turns() == ["e1-e2 xe2-e6"] and board(g, 0) == ["e8"]
    # 4c: five black and a white in one segment of six.
    g = _illustration_4(("e5",), ("e2", "e3", "e4", "e6"), 6, 1)
    assert g.turns() == ["e1-e2 xe2-e7"] and board(g, 1) == []
    # 4d: the whole column: five black, two white.
    g = _illustration_4(("e5", "e7"), ("e2", "e3", "e4", "e6"), 7, 2)
    assert g.turns() == ["e1-e2 xe2-e8"] and board(g, 0) == board(g, 1) == []


def test_illustration_5_white_forces_black_to_take():
    # d2 d3 . d5 d6 are black; White's a4-b4 pushes c4's black piece into d4.
    g = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6"))
    before = counts(g)
    g.play("a4-b4")
    (owner, a), = g.last_removed()
    assert owner == 1 and g.text(a) == "xd2-d6"
    assert g.segment(a) == tuple(SPOTS.index(n) for n in ("d2", "d3", "d4", "d5", "d6"))
    assert change(g, before) == (-1, 5, 0, 0)  # five back to Black's reserve
    assert board(g, 0) == ["b4", "c4"] and board(g, 1) == []
    assert g.to_move == 1 and g.mover() == 1 and not g.removal_pending()  # then Black moves
    assert g.turns() == ["a4-b4 xd2-d6"]


def test_illustration_6_choice_between_intersecting_rows():
    setup = dict(black=("e2", "e3", "e4", "c5", "d5", "f4", "g3"), side=1)
    g = game(**setup)
    g.play("e1-e2")  # e2..e5 (4) and c5..g3 (5) share e5
    assert g.to_move == 1 and g.removal_pending() and g.mover() == 1
    assert texts(g) == ["xc5-g3", "xe2-e5"]
    assert "e9-e8" in str(raises(IllegalMove, g.play, "e9-e8"))
    g.play("xe2-e5")
    assert g.reserve(1) == R - 1 + 4 and board(g, 1) == ["c5", "d5", "f4", "g3"]
    assert g.to_move == 0 and not g.removal_pending() and g.turns() == ["e1-e2 xe2-e5"]
    g.undo()
    g.play("xc5-g3")
    assert g.reserve(1) == R - 1 + 5 and board(g, 1) == ["e2", "e3", "e4"]
    assert g.to_move == 0 and g.turns() == ["e1-e2 xc5-g3"]
    conserved(g)


def test_illustration_7_both_take_mover_first():
    setup = dict(white=("b2", "b3", "d2", "d3", "e3"), black=("c3", "d5", "d6", "d7", "f2"))
    g = game(**setup)
    before = counts(g)
    g.play("a1-b2")  # c3's black goes to d4; c3 turns white
    # White first: b3 c3 d3 e3 and the black f2; then Black's d4..d7 (d3 is gone, so d2's
    # white is no longer in the segment).
    assert g.turns() == ["a1-b2 xb3-f2 xd4-d7"]
    assert [(o, len(g.segment(a))) for o, a in g.last_removed()] == [(0, 5), (1, 4)]
    assert change(g, before) == (-1 + 4, 4, 0, 1)
    assert g.to_move == 1
    conserved(g)
    # The same push by Black: Black takes d2..d7, four black and two white; that breaks
    # White's row b3..e3, so White takes nothing.
    h = game(side=1, **setup)
    h.play("a1-b2")
    assert h.turns() == ["a1-b2 xd2-d7"]
    assert change(h, before) == (0, -1 + 4, 2, 0)
    assert h.to_move == 0
    conserved(h)


def test_the_owner_chooses_during_the_other_players_turn():
    # White's a4-b4 fills d4: Black's d2..d6 and b2..e5 rows cross there.
    g = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6", "b2", "c3", "e5"))
    g.play("a4-b4")
    assert g.to_move == 1 and g.mover() == 0 and g.removal_pending()
    assert texts(g) == ["xb2-e5", "xd2-d6"]
    g.play("xd2-d6")
    assert g.to_move == 1 and g.mover() == 1 and not g.removal_pending()
    assert g.reserve(1) == R + 5 and board(g, 1) == ["b2", "c3", "e5"]
    assert g.turns() == ["a4-b4 xd2-d6"]
    h = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6", "b2", "c3", "e5"))
    h.play_turn("a4-b4 xb2-e5")
    assert snapshot(h)[:3] == (pos(white=("b4", "c4"), black=("d2", "d3", "d5", "d6"),
                                   res=(R - 1, R + 4), side=1), 1, None)


def test_rows_whose_segments_share_a_spot_are_a_choice():
    # Black's e1-e2 makes column e B W B B B B B: a row of five (e4..e8) whose segment is
    # e2..e8, and b2 c2 d2 e2, a row of four.  The runs share no piece, but the
    # segments share e2: Black chooses (as the conformance vectors do).
    setup = dict(white=("e2",), black=("b2", "c2", "d2", "e3", "e4", "e6", "e7", "e8"),
                 side=1)
    g = game(**setup)
    before = counts(g)
    g.play("e1-e2")
    assert g.removal_pending() and texts(g) == ["xb2-e2", "xe2-e8"]
    g.play("xb2-e2")  # then e4..e8 is still a row, now without e2: taken at once
    assert g.turns() == ["e1-e2 xb2-e2 xe3-e8"] and not g.removal_pending()
    assert change(g, before) == (0, -1 + 9, 1, 0)
    g.undo()
    g.play("xe2-e8")  # b2 c2 d2 are three now
    assert g.turns() == ["e1-e2 xe2-e8"] and board(g, 1) == ["b2", "c2", "d2"]
    assert change(g, before) == (0, -1 + 6, 1, 0)
    conserved(g)


def test_rows_apart_are_taken_at_once():
    # White's e1-e2 shifts column e (B W B W . -> W B W B W): e3 and e5 turn black and
    # complete b3..e3 and b5..e5, two rows on parallel lines: both go at once, no choice.
    setup = dict(black=("e2", "e4", "b3", "c3", "d3", "b5", "c5", "d5"), white=("e3", "e5"))
    g = game(**setup)
    g.play("e1-e2")
    assert not g.removal_pending() and g.to_move == 1
    assert g.turns() == ["e1-e2 xb3-e3 xb5-e5"]
    assert [o for o, _ in g.last_removed()] == [1, 1] and g.reserve(1) == R + 8
    assert board(g, 1) == [] and board(g, 0) == ["e2", "e4", "e6"]
    h = game(**setup)
    h.play_turn("e1-e2 xb5-e5 xb3-e3")  # the rows taken at once, in any order
    assert snapshot(h) == snapshot(g)
    conserved(g)


def test_reserve_zero_loses():
    g = game(white=("e2",), black=("b2",), res=(3, 0))
    g.play("a3-b3")
    assert g.result() == (0, "reserve") and g.to_move is None and g.legal() == []
    before = snapshot(g)
    assert "over" in str(raises(IllegalMove, g.play, "e1-e2"))
    assert snapshot(g) == before
    g.undo()
    assert g.result() is None and g.to_move == 0
    # Set up with the side to move already empty-handed: already lost.
    assert game(res=(0, 4)).result() == (1, "reserve")
    # The first to run out loses, even if the other would run out next.
    g = game(white=("e2",), black=("b2",), res=(1, 1))
    g.play("a3-b3")
    assert g.result() is None and g.reserve(0) == 0 and g.to_move == 1
    g.play("a4-b4")
    assert g.result() == (1, "reserve") and g.reserve(1) == 0


def test_returned_pieces_keep_an_empty_reserve_alive():
    g = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6"), res=(4, 0))
    g.play("a4-b4")  # Black's own row goes back to his reserve: he can move
    assert g.result() is None and g.reserve(1) == 5 and g.to_move == 1


def test_handicap():
    g = gipf.Game(handicap=(2, 3))
    assert (g.reserve(0), g.reserve(1), g.total(0), g.total(1)) == (14, 15, 17, 18)
    assert g.options["handicap"] == (2, 3)
    assert gipf.Game(handicap=[1, 0]).options["handicap"] == (1, 0)
    assert gipf.Game(handicap=(3, 3)).reserve(1) == 15
    for bad in ((4, 0), (0, -1), (0,), (1, 2, 3), "12", 2, (True, 0), (0.5, 0), None):
        e = raises(OptionError, gipf.Game, handicap=bad)
        assert "handicap" in str(e)
    raises(OptionError, gipf.Game, handicaps=(0, 0))
    # Positions are checked against the totals the handicap gives.
    g = gipf.Game(handicap=(0, 3))
    g.set_position(pos(white=("e2",), black=("b2",), res=(14, 17)))
    assert g.captured(0) == 0 and g.captured(1) == 0
    raises(NotationError, gipf.Game().set_position, g.position())


def test_notation_round_trips():
    g = gipf.Game()
    pushes = removals = 0
    for a in range(1411):
        try:
            t = g.text(a)
        except NotationError:
            assert a >= 42
            continue
        assert g._parse(t) == a, t
        if a < 42:
            pushes += 1
        else:
            removals += 1
            ends = t[1:].split("-")
            assert ends[0] < ends[1]  # sorted
            seg = g.segment(a)
            assert len(seg) >= 4 and sorted([SPOTS[seg[0]], SPOTS[seg[-1]]]) == ends
    # 21 lines of 4,5,6,7,6,5,4 spots hold 1,3,6,10,6,3,1 segments of 4 or more each.
    assert pushes == 42 and removals == 90
    raises(NotationError, g.text, 1411)
    raises(NotationError, g.text, -1)
    raises(NotationError, g.text, "e1-e2")
    assert g._parse("xb5-b2") == g._parse("xb2-b5")  # either order parses
    assert g.text(g._parse("xe8-e2")) == "xe2-e8"
    assert g.split_turn("e1-e2 xb2-b5 xc3-c6") == ["e1-e2", "xb2-b5", "xc3-c6"]
    assert g.split_turn("e1-e2xb2-b5") == ["e1-e2", "xb2-b5"]
    assert g.join_turn(["e1-e2", "xb2-b5"]) == "e1-e2 xb2-b5"


def test_turn_text_lists_automatic_removals():
    setup = dict(white=("e7",), black=("e2", "e3", "e4"), side=1)
    g = game(**setup)
    before = snapshot(g)
    for bad in ("e1-e2", "e1-e2 xe2-e6", "e1-e2 xe2-e5 xe2-e5", "e1-e2 xe2-e5 xb2-b5",
                "e1-e2 e9-e8", "xe2-e5", "e1-e2 xe2-e5 e9-e8", "e1-e2 x", ""):
        raises(ValueError, g.play_turn, bad)
        assert snapshot(g) == before, bad
    g.play_turn("e1-e2 xe5-e2")  # the ends in either order
    assert g.turns() == ["e1-e2 xe2-e5"] and g.actions() == [g._parse("e1-e2")]
    g.play_turn("e9-e8")
    assert g.turns() == ["e1-e2 xe2-e5", "e9-e8"]
    # A turn with a choice, then an automatic removal.
    setup = dict(white=("e2",), black=("b2", "c2", "d2", "e3", "e4", "e6", "e7", "e8"),
                 side=1)
    g = game(**setup)
    before = snapshot(g)
    for bad in ("e1-e2", "e1-e2 xb2-e2", "e1-e2 xb2-e2 xe2-e8", "e1-e2 xe3-e8 xb2-e2"):
        raises(IllegalMove, g.play_turn, bad)
        assert snapshot(g) == before, bad
    g.play_turn("e1-e2 xb2-e2 xe3-e8")
    assert g.turns() == ["e1-e2 xb2-e2 xe3-e8"] and len(g.actions()) == 2


def test_undo_after_removals_restores_everything():
    setup = dict(white=("b2", "b3", "d2", "d3", "e3"), black=("c3", "d5", "d6", "d7", "f2"))
    g = game(**setup)
    start, start_counts = snapshot(g), counts(g)
    g.play("a1-b2")
    after = snapshot(g)
    g.undo()
    assert snapshot(g) == start
    assert counts(g) == start_counts
    g.play("a1-b2")
    assert snapshot(g) == after
    raises(IllegalMove, gipf.Game().undo)
    g = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6", "b2", "c3", "e5"))
    start = snapshot(g)
    g.play("a4-b4")
    mid = snapshot(g)
    g.play("xb2-e5")
    g.undo()
    assert snapshot(g) == mid and g.to_move == 1 and g.mover() == 0
    g.undo()
    assert snapshot(g) == start


def test_illegal_input_leaves_state_unchanged():
    g = gipf.Game()
    g.play("e1-e2")
    before = snapshot(g)
    bad = ["", "e1", "e1-e3", "e2-e3", "e1-e2-e3", "a1-c3", "z9-e2", "e1-z2", "xb2-b4",
           "xb2-c3", "xa1-a5", "xb2-b2", "xb2-e5", "x", "xb2", "E1-E2", "e1 e2", 5000, -1,
           3.5, None, "xb2-b5", "i5-h5x"]
    for b in bad:
        e = raises(ValueError, g.play, b)
        assert str(e)
        assert snapshot(g) == before, b
    raises(NotationError, g.parse, "e2-e3")
    raises(NotationError, g.parse, "xb2-b4")
    raises(IllegalMove, g.parse, "xb2-b5")  # a segment, but no row is owed
    raises(IllegalMove, g.play, 42 + 0 * 37 + 3)
    for t in ("e9-e8 e1-e2", "e9-e8 xb2-b5", "xb2-b5", "e9-e8 x", 7):
        raises(ValueError, g.play_turn, t)
        assert snapshot(g) == before, t
    # During a choice a push is refused, and so is a segment that is not one of the rows.
    g = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6", "b2", "c3", "e5"))
    g.play("a4-b4")
    before = snapshot(g)
    for b in ("e1-e2", "xd3-d6", "xb2-b5", g.parse("xd2-d6") + 1):
        raises(IllegalMove, g.play, b)
        assert snapshot(g) == before, b
    raises(IllegalMove, g.play_turn, "e9-e8")
    assert snapshot(g) == before


def test_position_round_trip_and_errors():
    g = game(white=("b4",), black=("c4", "d2", "d3", "d5", "d6", "b2", "c3", "e5"))
    g.play("a4-b4")
    text = g.position()
    assert text.split()[1:] == [str(R - 1), str(R), "1", "0"]  # Black to choose in White's turn
    h = gipf.Game()
    h.set_position(text)
    assert h.position() == text and h.removal_pending() and h.to_move == 1 and h.mover() == 0
    assert texts(h) == texts(g)
    h.play("xd2-d6")
    assert h.turns() == ["xd2-d6"] and h.to_move == 1 and not h.removal_pending()
    h.undo()
    h.play_turn("xd2-d6")
    assert h.turns() == ["xd2-d6"]
    h = gipf.Game()
    before = snapshot(h)
    cells, rw, rb = text.split()[:3]

    def t(*fields):
        return " ".join((cells,) + fields)

    assert t(rw, rb, "1", "0") == text
    for bad in ("", "x", cells, t(rw, rb, "1"), t(rw, rb, "1", "0", "0"),
                text.replace("/", "", 1), text.replace(".", "Q", 1), text.replace("/", "|"),
                t(rw, "13", "1", "0"),  # too many black pieces
                t("-1", rb, "1", "0"), t(rw, rb, "2", "0"), t(rw, rb, "1", "2"),
                t(rw, rb, "a", "0"),
                t(rw, rb, "1", "-"),  # rows on the board at the start of a turn
                t(rw, rb, "0", "0"),  # White cannot be choosing: the rows are Black's
                pos(black=("e2", "e3", "e4", "e5")),  # a row at the start of a turn
                pos(black=("e2", "e3", "e4", "e5"), mover="1", side=1),  # a row, no choice
                # Black chooses in White's turn, yet White's row e2..e5 is still there:
                pos(white=("e2", "e3", "e4", "e5"), black=("b2", "c3", "d4", "e5", "d2", "d3",
                                                         "d5"), side=1, mover="0"),
                pos(mover="0"), None, 5):
        raises(NotationError, h.set_position, bad)
        assert snapshot(h) == before, bad
    g = gipf.Game()
    for m in ("e1-e2", "e9-e8", "a1-b2"):
        g.play(m)
    h.set_position(g.position())
    assert snapshot(h)[:4] == snapshot(g)[:4] and h.actions() == []


def test_random_games_invariants():
    for seed in range(4):
        check_random_game_invariants(gipf, seed)
    check_random_game_invariants(gipf, 11, handicap=(3, 0))
    check_random_game_invariants(gipf, 12, handicap=[0, 2])


def test_random_games_conserve_pieces():
    for seed in range(20, 26):
        random.seed(seed)
        g = gipf.Game(handicap=(seed % 4, (seed // 2) % 4))
        plies = 0
        while g.result() is None:
            acts = g.legal()
            g.play(acts[random.randrange(len(acts))])
            conserved(g)
            plies += 1
            assert plies < 5000
        assert g.legal() == [] and g.to_move is None
        winner, reason = g.result()
        assert reason == "reserve" and g.reserve(1 - winner) == 0
        assert random_game(gipf, seed).result() is not None
