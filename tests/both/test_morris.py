"""Nine Men's Morris rulings; these cases run under CPython (pytest) and MicroPython."""
from shared_rules import morris, load
from shared_rules.core import IllegalMove, NotationError, OptionError
from helpers import raises, snapshot, check_random_game_invariants


def pos(red=(), green=(), hands=(0, 0), side=0, pending=0, bans=("-", "-")):
    cells = "".join("R" if p in red else "G" if p in green else "." for p in morris.POINTS)
    return "%s %d %d %d %d %s %s" % (cells, hands[0], hands[1], side, pending, bans[0], bans[1])


def game(options=None, **setup):
    g = morris.Game(**(options or {}))
    g.set_position(pos(**setup))
    return g


def texts(g):
    return sorted(g.text(a) for a in g.legal())


def test_start():
    g = morris.Game()
    assert g.to_move == 0 and g.result() is None
    assert texts(g) == sorted(morris.POINTS)
    assert g.in_hand(0) == 9 and g.in_hand(1) == 9
    assert load("morris") is morris


def test_geometry():
    assert len(morris.MILLS) == 16
    assert sum(len(morris.neighbours(i)) for i in range(24)) == 2 * 32  # 32 drawn segments
    names = dict((n, set(morris.POINTS[j] for j in morris.neighbours(i)))
                 for i, n in enumerate(morris.POINTS))
    lines = [sorted(morris.POINTS[i] for i in range(24) if m >> i & 1) for m in morris.MILLS]
    assert ["a1", "a4", "a7"] in lines and ["d1", "d2", "d3"] in lines
    assert ["c3", "d3", "e3"] in lines and ["d5", "d6", "d7"] in lines
    assert ["d1", "d3", "d5"] not in lines and ["b4", "c4", "e4"] not in lines
    assert names["a1"] == set(["d1", "a4"])
    assert names["d2"] == set(["b2", "f2", "d1", "d3"])
    assert names["e4"] == set(["e3", "e5", "f4"])


def test_tables_match_the_drawing():
    # Rebuild the board from its drawing: (file, rank) of each point, lines between
    # neighbours on the same row or column with nothing in between on that line.
    coords = [("abcdefg".index(n[0]), int(n[1])) for n in morris.POINTS]
    at = dict((c, i) for i, c in enumerate(coords))

    def ring(c):
        return max(abs(c[0] - 3), abs(c[1] - 4))

    for i, (x, y) in enumerate(coords):
        near = set()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            while 0 <= nx < 7 and 1 <= ny <= 7 and (nx, ny) != (3, 4):
                if (nx, ny) in at:
                    j = at[(nx, ny)]
                    # along a ring, or across rings only at the midpoints of the sides
                    if ring(coords[j]) == ring((x, y)) or (x == 3 or y == 4):
                        near.add(j)
                    break
                nx, ny = nx + dx, ny + dy
        assert set(morris.neighbours(i)) == near, morris.POINTS[i]
        assert sum(1 << j for j in near) == morris._ADJ[i]
        assert morris._next_to(1 << i) == morris._ADJ[i]  # the bit-parallel neighbourhood
        mills = [m for m in morris.MILLS if m >> i & 1]
        assert sorted(mills) == sorted([morris._MILLS_AT[i], morris._MILLS_AT[i + 24]])


def test_double_mill_placing_takes_two():
    setup = dict(red=("a1", "d1", "g4", "g7"), green=("b2", "d2", "c3", "f6"), hands=(5, 5))
    g = game(**setup)
    g.play("g1")
    assert g.to_move == 0 and g.removals_pending() == 2
    g.play("xb2")
    assert g.to_move == 0 and g.removals_pending() == 1
    g.play("xd2")
    assert g.to_move == 1 and g.on_board(1) == 2
    assert g.turns() == ["g1xb2xd2"]
    single = game({"double_mill_takes_two": False}, **setup)
    single.play("g1")
    assert single.removals_pending() == 1
    single.play("xb2")
    assert single.to_move == 1


def test_second_removal_sees_mills_after_the_first():
    # Green's b2 d2 f2 is a mill, c3 is free.  The first removal takes c3; now every green
    # stone is in a mill, so the second removal may take any of them.
    g = game(red=("a1", "d1", "g4", "g7"), green=("b2", "d2", "f2", "c3"), hands=(5, 5))
    g.play("g1")
    assert texts(g) == ["xc3"]
    g.play("xc3")
    assert texts(g) == ["xb2", "xd2", "xf2"]


def test_double_mill_by_moving_is_impossible():
    # Every neighbour of a point lies on one of the two mills through it, so a stone that
    # steps in always leaves one of them open; and a flyer (3 stones) cannot close two.
    for i in range(24):
        mills = [m for m in morris.MILLS if m >> i & 1]
        for j in morris.neighbours(i):
            assert any(m >> j & 1 for m in mills)


def test_stones_in_mills_bit_parallel():
    # _in_mills (shifts over the rings) against the mills one by one, on every union of two
    # mills and on boards of a fixed pseudo-random sequence
    def in_mills(board):
        inside = 0
        for m in morris.MILLS:
            if board & m == m:
                inside |= m
        return inside
    boards = [m | m2 for m in morris.MILLS for m2 in morris.MILLS]
    x = 12345
    for _ in range(2000):
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        boards.append(x & 0xFFFFFF | x >> 6 & 0xFFFFFF)
    for board in boards:
        assert morris._in_mills(board) == in_mills(board), hex(board)


def test_moving_into_a_mill_takes_one():
    g = game(red=("a1", "d1", "g4", "b6"), green=("b2", "f2", "f4", "e5"), side=0)
    g.play("g4-g1")
    assert g.removals_pending() == 1 and g.to_move == 0
    g.play("xb2")
    assert g.to_move == 1


def test_removal_spares_mills_unless_all_are_in_mills():
    g = game(red=("a1", "d1", "b4"), green=("a7", "d7", "g7", "c3", "e3"), hands=(3, 3))
    g.play("g1")
    assert texts(g) == ["xc3", "xe3"]
    g = game(red=("a1", "d1", "b4"), green=("a7", "d7", "g7"), hands=(3, 3))
    g.play("g1")
    assert texts(g) == ["xa7", "xd7", "xg7"]
    assert isinstance(raises(IllegalMove, g.play, "xb4"), ValueError)


def test_flying_at_exactly_three():
    g = game(red=("a1", "d1", "b6"), green=("g7", "c4", "e4", "f2"), side=0)
    assert len(g.legal()) == 3 * (24 - 7)
    assert "a1-e5" in texts(g) and g.flying(0)
    g = game(red=("a1", "d1", "b6", "f6"), green=("g7", "c4", "e4", "f2"), side=0)
    assert "a1-e5" not in texts(g) and not g.flying(0)
    g = game(red=("a1", "d1", "b6"), green=("g7", "c4", "e4"), hands=(1, 1))
    assert texts(g)[0] == "a4"  # placing, not flying, while stones are in hand


def test_loss_below_three_counts_the_hand():
    # Red closes a mill in the placing phase; Green has 1 on the board and 2 in hand.
    g = game(red=("a1", "d1"), green=("c3",), hands=(2, 2))
    g.play("g1")
    g.play("xc3")
    assert g.result() == (0, "men") and g.to_move is None and g.legal() == []
    g = game(red=("a1", "d1"), green=("c3", "e3", "e5"), hands=(2, 2))
    g.play("g1")
    g.play("xc3")
    assert g.result() is None and g.to_move == 1


def test_blocked_when_every_neighbour_is_taken():
    green = ("a1", "d1", "g1", "a4")
    red = ("a7", "b4", "d2", "g4", "b6")
    g = game(red=red, green=green, side=0)
    # a1: d1 a4; d1: a1 g1 d2; g1: d1 g4; a4: a1 a7 b4 -- all taken.  Red keeps the wall.
    g.play("b6-d6")
    assert g.result() == (0, "blocked") and g.to_move is None and g.legal() == []
    g.undo()
    g.play("b4-c4")  # opens b4 for a4
    assert g.result() is None and texts(g) == ["a4-b4"]
    h = game(red=red, green=green, side=1)  # set up with Green to act: already lost
    assert h.result() == (0, "blocked")


def test_threefold_repetition_draws():
    g = game(red=("a1", "d1", "b6", "f6"), green=("g7", "c4", "e4", "f2"), side=0)
    shuffle = ["f6-d6", "g7-d7", "d6-f6", "d7-g7"]
    for m in shuffle + shuffle[:3]:
        g.play(m)
        assert g.result() is None
    g.play("d7-g7")  # the set-up position, Red to move, for the third time
    assert g.result() == (None, "repetition") and g.to_move is None
    assert g.turns() == shuffle * 2
    g.undo()
    assert g.result() is None and g.to_move == 1
    g.play("c4-b4")  # a new position instead
    assert g.result() is None


def test_repetition_counts_from_the_last_removal():
    # The position right after a removal is the first of the three (the repetition test
    # looks only at the keys since the last placement or removal).
    g = game(red=("a1", "d1", "g4", "d5"), green=("g7", "c4", "e4", "f2", "b6"), side=0)
    g.play("g4-g1")
    g.play("xb6")
    shuffle = ["g7-d7", "d5-e5", "d7-g7", "e5-d5"]
    for m in shuffle + shuffle[:3]:
        g.play(m)
        assert g.result() is None
    g.play("e5-d5")
    assert g.result() == (None, "repetition")
    for _ in range(8):
        g.undo()
    assert g.result() is None and g.to_move == 1 and g.last() == morris.REMOVE + 14
    g.undo()  # the removal too: the same moves from here repeat nothing of before
    g.play("xc4")
    for m in shuffle * 2:
        g.play(m)
    assert g.result() == (None, "repetition")


def test_repetition_needs_the_same_side_to_act():
    g = game(red=("a1", "d1", "b6", "f6"), green=("g7", "c4", "e4", "f2"), side=0)
    g.play("f6-d6")
    g.play("g7-d7")
    g.play("d6-f6")  # the board of the start, but Green to act: a different position
    g.play("d7-d6")
    g.play("f6-f4")
    g.play("d6-d7")
    g.play("f4-f6")  # the board of the start, Green to act: only its second time
    assert g.result() is None


def test_no_immediate_returns():
    setup = dict(red=("a1", "d1", "b6", "f6"), green=("g7", "c4", "e4", "f2"), side=0)
    free = game(**setup)
    g = game({"no_immediate_returns": True}, **setup)
    for x in (free, g):
        x.play("f6-d6")
        x.play("g7-d7")
    assert "d6-f6" in texts(free)
    assert "d6-f6" not in texts(g) and "d6-d5" in texts(g)
    before = snapshot(g)
    assert "d6-f6" in str(raises(IllegalMove, g.play, "d6-f6"))
    assert snapshot(g) == before
    g.play("d6-d5")
    assert "d7-g7" not in texts(g)  # Green's ban
    g.play("c4-b4")
    assert "d5-d6" not in texts(g)  # Red's new ban; d6-f6 is long gone
    g.play("a1-a4")
    assert "b4-c4" not in texts(g) and "e4-e5" in texts(g)  # Green's new ban
    g.play("e4-e5")
    assert "d5-d6" in texts(g)  # the ban lasted one move only


def test_no_immediate_returns_can_block():
    # Red's a4-a1 leaves a1 whose only free neighbour is a4, and every other Red stone is
    # walled in: with the option on, Red is then blocked and loses.
    setup = dict(red=("a4", "g1", "g7", "c3"), green=("d1", "g4", "d7", "d3", "c4", "f2"))
    opts = {"no_immediate_returns": True}
    for options, blocked in ((opts, True), ({}, False)):
        g = game(options, **setup)
        g.play("a4-a1")
        g.play("f2-f4")
        if blocked:
            assert g.result() == (1, "blocked")
        else:
            assert g.result() is None and texts(g) == ["a1-a4"]


def test_ban_in_position_text():
    g = game({"no_immediate_returns": True}, red=("a1", "d1", "b6", "f6"),
             green=("g7", "c4", "e4", "f2"))
    g.play("f6-d6")
    assert g.position().split()[-2:] == ["d6-f6", "-"]
    h = morris.Game(no_immediate_returns=True)
    h.set_position(g.position())
    assert snapshot(h)[:4] == snapshot(g)[:4]


def test_illegal_input_leaves_state_unchanged():
    g = morris.Game()
    for m in ("d7", "a1", "d7-d6"):
        if m != "d7-d6":
            g.play(m)
    before = snapshot(g)
    bad = ["", "z9", "a9", "d7", "a1", "xd7", "d7-d6", "a4-a1", "a1-a1", "a1-d1-g1", "x",
           "d7x", "7d", 700, -1, 3.5, None, "A4"]
    for b in bad:
        e = raises(ValueError, g.play, b)
        assert str(e)
        assert snapshot(g) == before, b
    raises(NotationError, g.parse, "z9")
    raises(IllegalMove, g.parse, "a1")
    for t in ("a4xa1", "a4xq1", "a4x", "a4-a7", "xa1"):
        raises(ValueError, g.play_turn, t)
        assert snapshot(g) == before, t
    raises(IllegalMove, morris.Game().undo)


def test_play_after_the_end_is_refused():
    g = game(red=("a1", "d1"), green=("c3",), hands=(2, 2))
    g.play("g1")
    g.play("xc3")
    before = snapshot(g)
    e = raises(IllegalMove, g.play, "b2")
    assert "over" in str(e)
    assert snapshot(g) == before


def test_options_are_checked():
    raises(OptionError, morris.Game, flying=False)
    raises(OptionError, morris.Game, double_mill_takes_two=1)
    assert isinstance(raises(OptionError, morris.Game, nope=True), ValueError)
    g = morris.Game(double_mill_takes_two=False, no_immediate_returns=True)
    assert g.options["no_immediate_returns"] is True


def test_notation_round_trips_every_action():
    g = morris.Game()
    for a in range(624):
        f, t = divmod(a - 24, 24)
        if 24 <= a < 600 and f == t:
            raises(NotationError, g.text, a)  # no stone moves onto its own point
        else:
            assert g._parse(g.text(a)) == a
    raises(NotationError, g.text, 624)
    g = game(red=("a1", "d1", "g4", "g7"), green=("b2", "d2", "c3", "f6"), hands=(5, 5))
    g.play_turn("g1xb2xd2")
    assert g.turns() == ["g1xb2xd2"]
    assert g.split_turn("d7-d6xa1") == ["d7-d6", "xa1"]
    assert g.join_turn(["d7", "xa1", "xg7"]) == "d7xa1xg7"


def test_play_takes_exactly_the_actions_legal_lists():
    """play() tests legality itself (not through legal()): in random games, at the first ply
    of each phase (placing, moving, flying, removing, under a ban) and every 7th, each int
    from -1 to past the last action is played iff legal() lists it, and a refusal changes
    nothing."""
    import random
    for seed, options in ((3, {}), (7, {"no_immediate_returns": True})):
        random.seed(seed)
        g = morris.Game(**options)
        seen = set()
        acts = g.legal()
        while acts:
            p = g.to_move
            phase = ("removing" if g.removals_pending() else "placing" if g.in_hand(p)
                     else "flying" if g.flying(p) else "moving")
            if g.position().split()[5 + p] != "-":
                phase += " under a ban"
            if phase not in seen or g.plies() % 7 == 0:
                seen.add(phase)
                before = snapshot(g)
                for a in range(-1, 626):
                    if a in acts:
                        g.play(a)
                        g.undo()
                    else:
                        raises(IllegalMove, g.play, a)
                    assert snapshot(g) == before, a
            g.play(acts[random.randrange(len(acts))])
            acts = g.legal()
        assert len(seen) >= 4 + bool(options), seen


def test_position_round_trip_and_errors():
    g = morris.Game()
    for m in ("d7", "a1", "d6", "a4", "d5"):
        g.play(m)
    text = g.position()
    h = morris.Game()
    h.set_position(text)
    assert h.position() == text and h.removals_pending() == 1 and h.to_move == 0
    before = snapshot(h)
    for bad in ("", "x" * 24 + " 0 0 0 0 - -", text.replace(" 6 7 ", " 9 7 "),
                "R" * 10 + "." * 14 + " 0 0 0 0 - -", text[:-2], text + " 1",
                text.replace(" 0 1 ", " 2 1 "), text.replace(" 0 1 ", " 0 3 "),
                text[:-1] + "d7x", text[:-1] + "d7", text[:-1] + "xd7", text.replace("6", "-6")):
        raises(ValueError, h.set_position, bad)
        assert snapshot(h) == before, bad


def test_random_games_invariants():
    for seed in range(6):
        check_random_game_invariants(morris, seed)
    check_random_game_invariants(morris, 7, no_immediate_returns=True,
                                 double_mill_takes_two=False)


def test_positions_play_cannot_reach_are_refused_naming_the_field():
    # Green, not to act, is down to two: the removal that did it ended the game.
    g = morris.Game()
    g.set_position("RRR...G.......G......... 0 0 0 0 - -")
    assert g.result() == (0, "men") and g.legal() == [] and g.to_move is None
    g.set_position(pos(red=("a1", "d1", "g1"), green=("b2",), hands=(0, 1), pending=1))
    assert g.result() == (0, "men") and g.legal() == []  # the first of two removals did it
    h = morris.Game()
    before = snapshot(h)
    for bad, field, options in (
            ("RRR..................... 3 5 0 1 - -", "removals owed", {}),  # nothing to take
            ("RRR..................... 3 4 0 1 - -", "removals owed", {}),
            (pos(red=("a1", "d1", "g1", "a4", "a7"), green=("b2", "d2", "f2"), hands=(4, 5),
                 pending=2), "removals owed", {"double_mill_takes_two": False}),
            (pos(red=("a1", "d1", "g1", "b2", "d2", "f2"), green=("c3", "d3"), hands=(3, 4),
                 pending=2), "removals owed", {}),  # two mills, but closed by two stones
            (pos(red=("a1", "d1", "g4"), green=("b2",), hands=(5, 6), pending=1),
             "removals owed", {}),  # no mill stands
            (pos(red=("a1", "d1"), green=("b2", "d2", "f2", "c3")), "side to act", {}),
            (pos(red=("a1", "d1", "g4"), green=("b2",), hands=(2, 1), side=1), "side to act",
             {}),
            (pos(red=("a1",), green=("b2",), hands=(7, 7), side=1), "stones in hand", {}),
            (pos(red=("a1",), green=(), hands=(8, 9), side=0), "stones in hand", {}),
            (pos(red=("a1", "d1", "g4"), green=("b2", "d2", "f4"), bans=("d1-a1", "-")), "ban",
             {}),  # bans only with no_immediate_returns
            (pos(red=("a4", "d1", "g4"), green=("b2", "d2", "f4"), hands=(1, 1),
                 bans=("a4-a1", "-")), "ban", {"no_immediate_returns": True})):
        h = morris.Game(**options)
        before = snapshot(h)
        e = raises(NotationError, h.set_position, bad)
        assert str(e).startswith(field), (bad, str(e))
        assert snapshot(h) == before, bad
    # What play reaches is accepted: two removals after a double mill, a removal owed with the
    # last stone placed, a ban with no_immediate_returns.
    for good, options in (
            (pos(red=("a1", "d1", "g1", "a4", "a7"), green=("b2", "d2", "f2"), hands=(4, 5),
                 pending=2), {}),
            (pos(red=("a1", "d1", "g1"), green=("b2", "d2", "f2"), hands=(0, 1), pending=1),
             {}),
            (pos(red=("a4", "d1", "g4"), green=("b2", "d2", "f4"), bans=("a4-a1", "-")),
             {"no_immediate_returns": True})):
        h = morris.Game(**options)
        h.set_position(good)
        assert h.position() == good and h.result() is None and h.legal(), good
