"""Rhombus rulings; these cases run under CPython (pytest) and MicroPython."""
import random

from shared_rules import rhombus, load
from shared_rules.core import IllegalMove, NotationError, OptionError
from helpers import raises, snapshot, random_game, check_random_game_invariants

EMPTY = "." * 64
START = EMPTY + " -:- 0:0 0"


def name(i):
    return rhombus.cell_name(i)


def index(cell):
    return "abcdefgh".index(cell[0]) + 8 * (int(cell[1]) - 1)


def board(black=(), white=(), fill=None):
    """64 cells of .BW; `fill` (a function of the cell index) gives the rest."""
    out = []
    for i in range(64):
        n = name(i)
        out.append("B" if n in black else "W" if n in white else fill(i) if fill else ".")
    return "".join(out)


def game(cells, bids="-:-", left="0:0", first=0):
    g = rhombus.Game()
    g.set_position("%s %s %s %d" % (cells, bids, left, first))
    return g


def texts(g):
    return sorted(g.text(a) for a in g.legal())


def edges_free(g):
    return sorted(name(e) for e in rhombus.EDGES if g.stone_at(e) is None)


def finish_turn(g):
    """Place the rest of this turn's stones on the first legal cell each time."""
    while g.result() is None and not g.bidding():
        g.play(g.legal()[0])


def test_start():
    g = rhombus.Game()
    assert g.to_move == 0 and g.result() is None and g.bidding()
    assert texts(g) == ["bid1", "bid2", "bid3", "bid4"]
    assert g.position() == START
    assert g.bid(0) == 0 and g.bid(1) == 0 and g.filled() == 0
    assert g.towers(0) == [] and g.score(1) == 0
    assert rhombus.PLAYERS == ("Black", "White")
    assert load("rhombus") is rhombus
    raises(OptionError, rhombus.Game, anything=1)


def test_geometry_and_corners():
    # a1 SOUTH, h1 EAST, a8 WEST, h8 NORTH: (u, v) with file = u, rank = v + 1
    assert rhombus.coords(index("a1")) == (0, 0) and rhombus.coords(index("h1")) == (7, 0)
    assert rhombus.coords(index("a8")) == (0, 7) and rhombus.coords(index("h8")) == (7, 7)
    lines = [rhombus.line_cells(k) for k in range(15)]
    assert [len(x) for x in lines] == [1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1]
    assert sorted(i for x in lines for i in x) == list(range(64))
    for k, x in enumerate(lines):
        assert all(rhombus.LINE[i] == k for i in x)
    # The seed's examples: the longest Line runs between WEST and EAST ...
    assert [name(i) for i in lines[7]] == ["a8", "b7", "c6", "d5", "e4", "f3", "g2", "h1"]
    # ... the single space in corner SOUTH is a Line, and the two spaces north of it another.
    assert [name(i) for i in lines[0]] == ["a1"]
    assert sorted(name(i) for i in lines[1]) == ["a2", "b1"]
    assert [name(i) for i in lines[14]] == ["h8"]


def test_every_edge_cell_ends_exactly_one_line():
    edges = list(rhombus.EDGES)
    assert len(edges) == 28 and len(set(edges)) == 28
    for i in range(64):
        u, v = rhombus.coords(i)
        assert (i in edges) == (u in (0, 7) or v in (0, 7))
    for e in edges:
        ends = [k for k in range(15)
                if e in (rhombus.line_cells(k)[0], rhombus.line_cells(k)[-1])]
        assert len(ends) == 1, name(e)
    for k in range(15):  # inner cells of a Line are never edge cells
        for i in rhombus.line_cells(k)[1:-1]:
            assert i not in edges


def test_first_stone_goes_on_an_edge():
    g = rhombus.Game()
    g.play("bid1")
    g.play("bid1")
    assert texts(g) == edges_free(g) and len(texts(g)) == 28
    before = g._state()
    for bad in ("b2", "d4", "e5"):
        assert "not legal" in str(raises(IllegalMove, g.play, bad))
        assert g._state() == before


def test_fill_direction_from_either_end():
    for k in range(15):
        cells = rhombus.line_cells(k)
        for order in (cells, cells[::-1]):
            g = rhombus.Game()
            g.play("bid4")
            g.play("bid4")
            for j, c in enumerate(order):
                if j == 0:
                    assert name(c) in texts(g)
                    assert g.next_cell() is None and g.current_line() is None
                else:
                    assert texts(g) == [name(c)], (k, j)
                    assert g.next_cell() == c and g.current_line() == k
                g.play(name(c))
            assert g.next_cell() is None
            if len(order) < 8:
                assert texts(g) == edges_free(g)
                assert name(order[0]) not in texts(g) and name(order[-1]) not in texts(g)
            else:
                assert g.bidding()  # 4 + 4 stones filled the long Line exactly


def test_line_continues_into_the_next_turn():
    g = rhombus.Game()
    for m in ("bid1", "bid2", "a5"):  # Black first (fewer): starts Line 4 at a5
        g.play(m)
    assert g.to_move == 1 and texts(g) == ["b4"]
    g.play("b4")
    g.play("c3")
    assert g.bidding() and g.to_move == 0 and g.next_cell() == index("d2")
    g.play("bid2")
    g.play("bid2")  # equal: Black went first last turn
    assert g.to_move == 0 and texts(g) == ["d2"]
    g.play("d2")
    g.play("e1")  # Line 4 is full with Black's second stone: White starts a new one
    assert g.to_move == 1 and texts(g) == edges_free(g) and g.next_cell() is None


def test_first_player_rule():
    # First turn, equal bids: Black.
    g = rhombus.Game()
    g.play("bid2")
    g.play("bid2")
    assert g.to_move == 0 and g.first() == 0 and g.to_place(0) == 2 and g.to_place(1) == 2
    # Fewer stones first, either way round.
    g = rhombus.Game()
    g.play("bid3")
    g.play("bid1")
    assert g.to_move == 1 and g.first() == 1
    g.play("a1")
    assert g.to_move == 0 and g.to_place(1) == 0 and g.to_place(0) == 3
    g = rhombus.Game()
    g.play("bid1")
    g.play("bid4")
    assert g.to_move == 0 and g.first() == 0
    # Equal later: whoever went first last turn (White, then Black).
    for last, bids in ((1, ("bid3", "bid1")), (0, ("bid1", "bid3"))):
        g = rhombus.Game()
        g.play(bids[0])
        g.play(bids[1])
        finish_turn(g)
        assert g.bidding() and g.first() == last
        for b in (2, 3, 4):
            g.play("bid%d" % b)
            g.play("bid%d" % b)
            assert g.to_move == last and g.first() == last
            g.undo()
            g.undo()
    # ... and the tie rule follows the last turn, not the first.
    g = rhombus.Game()
    for bids in (("bid2", "bid2"), ("bid4", "bid1")):
        g.play(bids[0])
        g.play(bids[1])
        finish_turn(g)
    g.play("bid3")
    g.play("bid3")
    assert g.to_move == 1


def checker(i):
    return "B" if rhombus.LINE[i] % 2 else "W"


def test_the_game_ends_the_instant_the_board_is_full():
    cells = board(fill=lambda i: "." if name(i) in ("a1", "h8") else checker(i))
    g = game(cells)
    assert g.to_move == 0 and g.filled() == 62
    g.play("bid4")
    g.play("bid3")
    assert g.to_move == 1
    g.play("a1")
    assert g.to_move == 1 and texts(g) == ["h8"]
    g.play("h8")
    assert g.result() is not None and g.to_move is None and g.legal() == []
    assert g.to_place(0) == 4 and g.to_place(1) == 1  # the surplus is dropped
    assert g.turns() == ["4:3 a1 h8"]
    before = g._state()
    assert "over" in str(raises(IllegalMove, g.play, "bid1"))
    raises(IllegalMove, g.play_turn, "1:1 a1 h8")
    assert g._state() == before
    h = game(cells)
    h.play_turn("4:3 a1 h8")
    assert h._state()[:-1] == g._state()[:-1]
    h.undo()
    assert h.result() is None and h.to_move == 1 and texts(h) == ["h8"]


def test_scoring_seed_example():
    black = [1] * 12 + [2] * 5 + [3]
    white = [1] * 12 + [2] * 3 + [3] * 4 + [4, 5]
    assert rhombus.combination_score(black) == 32
    assert rhombus.combination_score(white) == 35
    assert rhombus.combination_score(white[::-1]) == 35
    assert rhombus.combination_score([]) == 0
    assert rhombus.combination_score([5]) == -5 and rhombus.combination_score([8, 1]) == -7
    assert rhombus.combination_score([1, 2, 3, 4]) == 16
    assert rhombus.combination_score([2, 3, 4]) == -9  # no Tower of Height 1: nothing usable
    assert rhombus.combination_score([1, 1, 2, 4]) == 4 + 1 - 4
    for bad in ([0], [-1], [1.5], ["1"], [None]):
        raises(ValueError, rhombus.combination_score, bad)


def test_greedy_scoring_is_optimal():
    # Exhaustive: best[c] is the best total over every way of forming combinations from the
    # counts c = (c1, c2, c3, c4) of Towers of Height 1..4 (each 0..5), built bottom-up; every
    # sub-count has a smaller index, so it is ready when needed.
    best = [0] * 1296
    n = 0
    for c1 in range(6):
        for c2 in range(6):
            for c3 in range(6):
                for c4 in range(6):
                    c = (c1, c2, c3, c4)
                    i = ((c1 * 6 + c2) * 6 + c3) * 6 + c4
                    b = -(c1 + 2 * c2 + 3 * c3 + 4 * c4)  # nothing (more) formed
                    for size, points, step in ((4, 16, 259), (3, 9, 258), (2, 4, 252),
                                               (1, 1, 216)):
                        if all(c[j] for j in range(size)):
                            b = max(b, points + best[i - step])
                    best[i] = b
                    heights = [1] * c1 + [2] * c2 + [3] * c3 + [4] * c4
                    assert rhombus.combination_score(heights) == b, heights
                    # Towers of 5 or more only ever cost their height.
                    assert rhombus.combination_score(heights + [5, 7]) == b - 12
                    n += 1
    assert n == 1296 and best[1295] == 5 * 16 and best[216 * 5] == 5


def test_towers_run_along_ranks_for_black_and_files_for_white():
    # Black holds files a c e g, White b d f h: Black has 32 Towers of 1 (along the ranks),
    # White four of 8 (along the files).
    g = game(board(fill=lambda i: "B" if i % 2 == 0 else "W"))
    assert g.towers(0) == [1] * 32 and g.towers(1) == [8] * 4
    assert g.score(0) == 32 and g.score(1) == -32
    assert g.result() == (0, "score") and g.to_move is None and g.legal() == []
    # Black holds ranks 1 3 5 7: four Towers of 8; White 32 of 1.
    g = game(board(fill=lambda i: "B" if (i >> 3) % 2 == 0 else "W"))
    assert g.towers(0) == [8] * 4 and g.towers(1) == [1] * 32
    assert g.result() == (1, "score")
    # Runs broken by the other colour: rank 3 is B B W B B B W B, rank 6 Black, the rest
    # White.
    black = ("a3", "b3", "d3", "e3", "f3", "h3", "a6", "b6", "c6", "d6", "e6", "f6", "g6",
             "h6")
    g = game(board(black=black, fill=lambda i: "W"))
    assert sorted(g.towers(0)) == [1, 2, 3, 8] and g.score(0) == 9 - 8
    assert sorted(g.towers(1)) == [2] * 20 + [5, 5] and g.score(1) == -50
    # ... and by empty cells on a board not yet full (Lines 0 and 2 full, Line 1 begun).
    g = game(board(black=("a1", "b1", "b2", "a3"), white=("c1",)))
    assert g.result() is None and g.next_cell() == index("a2")
    assert sorted(g.towers(0)) == [1, 1, 2] and g.towers(1) == [1]
    assert g.score(0) == 4 + 1 and g.score(1) == 1


def test_black_needs_strictly_more_points():
    g = game(board(fill=checker))  # every stone a Tower of 1, 32 each
    assert g.towers(0) == [1] * 32 and g.towers(1) == [1] * 32
    assert g.score(0) == g.score(1) == 32
    assert g.result() == (1, "score")


def test_recorded_game():
    # The first game of rhombus.jsonl, in whole turns; it ends 36 : 27 for Black.
    turns = ["2:1 b1 a2 f8", "4:4 g7 h6 a5 b4 c3 d2 e1 h5", "1:4 g6 f7 e8 d8 e7",
             "1:1 f6 g5", "2:4 h4 h7 g8 h3 g4 f5", "3:2 e6 d7 c8 a1 c1", "1:2 b2 a3 d1",
             "4:2 c2 b3 a4 h8 h1 g2", "4:2 f3 e4 d5 c6 b7 a8", "4:1 a7 b6 c5 d4 e3",
             "4:1 f2 g1 b8 c7 d6", "1:2 e5 f4 g3", "3:4 h2 a6 b5 c4 d3 e2 f1"]
    g = rhombus.Game()
    for t in turns:
        assert g.result() is None
        g.play_turn(t)
    assert g.turns() == turns and g.filled() == 64
    assert g.on_board(0) + g.on_board(1) == 64
    assert sorted(g.towers(0)) == [1] * 13 + [2] * 5 + [3, 4, 4]
    assert sorted(g.towers(1)) == [1] * 13 + [2] * 3 + [3, 3, 5]
    assert g.score(0) == 36 and g.score(1) == 27 and g.result() == (0, "score")
    assert g.to_place(0) == g.to_place(1) == 0  # the last stone revealed filled the board
    assert g.bid(0) == 3 and g.bid(1) == 4  # the last turn's bids stay on show


def test_52_stones_always_suffice():
    most = [0, 0]
    for seed in range(120):
        g = random_game(rhombus, seed)
        assert g.result() is not None and g.filled() == 64
        assert g.on_board(0) + g.on_board(1) == 64
        for p in (0, 1):
            assert g.on_board(p) <= rhombus.STONES
            most[p] = max(most[p], g.on_board(p))
    assert most[0] > 32 and most[1] > 32


def test_notation_round_trips_every_action():
    g = rhombus.Game()
    for a in range(69):
        assert g._parse(g.text(a)) == a
    assert g.text(0) == "a1" and g.text(7) == "h1" and g.text(56) == "a8"
    assert g.text(63) == "h8" and g.text(64) == "bid1" and g.text(67) == "bid4"
    assert g.text(68) == "bid?"
    for bad in (69, -1, "a1", None):
        raises(NotationError, g.text, bad)
    for bad in ("bid0", "bid5", "bid", "bid12", "i1", "a9", "a0", "A1", "a10", "", "e", "3:2"):
        raises(NotationError, g._parse, bad)
    assert g.split_turn("3:2 a1 b1 a2 b2 c1") == ["bid3", "bid2", "a1", "b1", "a2", "b2", "c1"]
    assert g.join_turn(["bid3", "bid2", "a1", "b1", "a2", "b2", "c1"]) == "3:2 a1 b1 a2 b2 c1"
    assert g.join_turn(["bid3"]) == "3:" and g.split_turn("3:") == ["bid3"]
    assert g.join_turn(["bid?"]) == "?:" and g.join_turn(["bid3", "bid2"]) == "3:2"
    for bad in ("", "  ", "3:2:1 a1", "32 a1", "a1 32", ":2 a1", "3: a1", "33:2 a1", "3:22"):
        raises(NotationError, g.split_turn, bad)
    g.play_turn("3:2 a1 b1 a2 c1 b2")
    assert g.turns() == ["3:2 a1 b1 a2 c1 b2"]
    assert g.next_cell() == index("a3") and g.bidding()


def test_illegal_input_leaves_state_unchanged():
    g = rhombus.Game()
    for m in ("bid2", "bid3", "h8", "b1"):  # Black first: h8 (a whole Line), b1 -> a2
        g.play(m)
    assert g.to_move == 1 and texts(g) == ["a2"]
    before, full = snapshot(g), g._state()
    bad = ["", "z9", "a9", "a1", "h8", "b2", "bid1", "bid5", "A2", "a2 ", 64, 68, 70, -1, 3.5,
           None, "bid?", "a2-a3", "x"]
    for b in bad:
        if b == "a2 ":
            continue  # surrounding blanks are stripped: that one is legal
        e = raises(ValueError, g.play, b)
        assert str(e)
        assert snapshot(g) == before and g._state() == full, b
    raises(NotationError, g.parse, "z9")
    raises(IllegalMove, g.parse, "a1")
    raises(IllegalMove, g.play_turn, "1:1 a1 h1")  # a turn is under way
    assert g._state() == full
    raises(IllegalMove, rhombus.Game().undo)
    # A whole turn that goes wrong half-way is taken back completely.
    g = rhombus.Game()
    full = g._state()
    for t in ("3:2 a1 b1 a2 b2 c1",  # b2 is no edge cell
              "3:2 a1 b1 a2 c1",  # incomplete
              "3:2 a1 b1 a2 c1 b2 a3",  # one stone too many
              "2:3 a1 b1 c1 a2 b2",  # after b1 the stone must go on a2
              "5:2 a1", "3: a1", "3:x a1", "3:2 a1 b1 a2 c1 q2"):
        raises(ValueError, g.play_turn, t)
        assert g._state() == full, t
    g.play_turn("2:3 a1 b1 a2 c1 b2")
    assert g.turns() == ["2:3 a1 b1 a2 c1 b2"]


def test_undo_across_bids_and_turns():
    g = rhombus.Game()
    states = [g._state()]
    for m in ("bid3", "bid1", "a8", "b7", "c6", "d5", "bid2", "bid2", "e4"):
        g.play(m)
        states.append(g._state())
    assert g.to_move == 1 and g.to_place(1) == 1 and g.to_place(0) == 2
    for s in states[-2::-1]:
        g.undo()
        assert g._state() == s
    # After the turn ended, undo restores the revealed bids and the placing order.
    g.play_turn("3:1 a8 b7 c6 d5")
    assert g.bidding() and g.bid(0) == 0 and g.position().split()[1:] == ["-:-", "0:0", "1"]
    g.undo()
    assert not g.bidding() and g.bid(0) == 3 and g.bid(1) == 1 and g.to_move == 0
    assert g.to_place(0) == 1 and texts(g) == ["d5"]


def test_hidden_bid_is_the_same_whatever_black_bid():
    for prefix in ([], ["3:1 a8 b7 c6 d5", "2:2 e4 f3 g2 h1"]):
        seen = []
        for k in (1, 2, 3, 4):
            g = rhombus.Game()
            for t in prefix:
                g.play_turn(t)
            pre = g._state()
            g.play("bid%d" % k)
            assert g.to_move == 1 and g.bid(0) == -1 and g.bid(1) == 0
            v = g.view_for(1)
            assert v.bid(0) == -1 and v.to_move == 1
            assert v.actions()[-1] == rhombus.HIDDEN_BID and v.turns()[-1] == "?:"
            w = v.copy()
            seen.append((v._state(), snapshot(v), v.turns(), v.position(), g.position(),
                         w._state(), [v.text(a) for a in v.actions()],
                         v.view_for(0)._state(), v.view_for(1)._state()))
            # Black's own view and the referee keep the bid.
            assert g.view_for(0)._state() == g._state()
            assert g.turns()[-1] == "%d:" % k and g.actions()[-1] == rhombus.BID + k - 1
            # White's bid cannot be played in the view: the order depends on Black's bid.
            before = v._state()
            e = raises(IllegalMove, v.play, "bid2")
            assert "hidden" in str(e) and v._state() == before
            raises(NotationError, v.play, "bid7")
            raises(IllegalMove, v.play, rhombus.BID)
            assert v._state() == before
            # A search guesses: undo the hidden bid and play a guess.
            v.undo()
            assert v._state() == pre
            assert v.to_move == 0 and v.bidding() and v.bid(0) == 0
            v.play("bid2")
            v.play("bid3")
            assert v.to_move == 0 and v.to_place(0) == 2
            # Once White has bid, both bids are public.
            g.play("bid3")
            assert g.bid(0) == k and g.bid(1) == 3
            assert g.position().split()[1] == "%d:3" % k
            assert g.view_for(1)._state() == g._state()
        assert seen[0][4].split()[1] == "?:-"
        for s in seen[1:]:
            assert s == seen[0]
    raises(ValueError, rhombus.Game().view_for, 2)


def test_view_without_a_pending_bid_is_a_plain_copy():
    g = rhombus.Game()
    for p in (0, 1):
        assert g.view_for(p)._state() == g._state()
    g.play_turn("3:1 a8 b7 c6 d5")
    g.play("bid1")
    g.play("bid2")
    for p in (0, 1):
        assert g.view_for(p)._state() == g._state()


def test_position_round_trip_and_pending_bid():
    g = random_game(rhombus, 3)
    acts = g.actions()
    h = rhombus.Game()
    k = rhombus.Game()
    for a in acts:
        text = h.position()
        k.set_position(text)
        if h.bid(0) == -1:
            # A pending bid is not in the text: it is withdrawn, and Black bids again.
            assert text.split()[1] == "?:-"
            assert k.to_move == 0 and k.bid(0) == 0
            assert k.position() == text.replace("?:-", "-:-")
        else:
            assert k.position() == text and k.to_move == h.to_move
            assert texts(k) == texts(h) and k.next_cell() == h.next_cell()
            assert k.result() == h.result() and k.bidding() == h.bidding()
        h.play(a)
    k.set_position(h.position())
    assert k.result() == h.result() and k.position() == h.position()
    assert k.to_place(0) == h.to_place(0) and k.to_place(1) == h.to_place(1)


def test_set_position_errors_leave_state_unchanged():
    g = rhombus.Game()
    g.play_turn("3:1 a8 b7 c6 d5")
    g.play("bid2")
    g.play("bid3")
    g.play("e4")
    text = g.position()
    assert text.split()[1:] == ["2:3", "1:3", "0"]
    h = rhombus.Game()
    h.set_position(text)
    assert h.to_move == 0 and texts(h) == ["f3"] and h.position() == text
    before = h._state()
    line7 = board(black=("a8", "b7", "c6", "d5", "e4"))
    gap = board(black=("a8", "c6"))
    two = board(black=("a8", "h1"), white=("a1", "a2"))
    for bad in ("", text + " 0", text[:-2], "x" * 64 + " -:- 0:0 0",
                text.replace("2:3", "3:2"),  # fewer goes first: White would be first
                text.replace("2:3", "3:-"), text.replace("2:3", "?:3"),
                text.replace("2:3", "-:3"), text.replace("2:3", "5:3"),
                text.replace("1:3", "3:3"),  # more to place than bid
                text.replace("1:3", "1:2"),  # White placed before Black finished
                text.replace("1:3", "0:0"),  # a finished turn keeps no bids
                text.replace("2:3", "-:-"),  # bidding with stones to place
                text.replace(" 0", " 2"), text.replace("1:3", "1-3"),
                gap + " -:- 0:0 0",  # Line 7 not filled from one end
                two + " -:- 0:0 0",  # Lines 1 and 7 both partly filled
                "B" * 53 + "W" * 11 + " -:- 0:0 0",  # more than 52 black stones
                "." * 64 + " -:- 0:0 1"):  # no turn yet, so Black goes first
        e = raises(ValueError, h.set_position, bad)
        assert str(e), bad
        assert h._state() == before, bad
    raises(NotationError, h.set_position, None)
    for bad in (" 3:- 0:0 0", " 3:3 0:0 0", " -:3 0:0 0", " ?:3 3:3 0", " 0:0 0:0 0",
                " -:- 0:1 0", " -:- 0:0 -", " -:- 0:5 0", " -:- 00:0 0"):
        raises(NotationError, h.set_position, line7 + bad)
        assert h._state() == before, bad
    h.set_position(line7 + " -:- 0:0 1")
    assert h.to_move == 0 and texts(h) == ["bid1", "bid2", "bid3", "bid4"]
    h.play("bid1")
    h.play("bid1")
    assert h.to_move == 1 and texts(h) == ["f3"]  # White went first last turn
    h.set_position(board(black=("h1", "g2")) + " -:- 0:0 0")
    h.play_turn("1:1 f3 e4")
    assert h.next_cell() == index("d5")


def _strict_replay(g):
    """Like check_random_game_invariants, but on the full private state (secret bid too)."""
    h = rhombus.Game()
    for a in g.actions():
        before = h._state()
        twin = h.copy()
        assert twin._state() == before
        h.play(a)
        assert twin._state() == before, "copy changed with the original"
        twin.play(a)
        assert twin._state() == h._state()
        h.undo()
        assert h._state() == before, "undo of %s did not restore" % h.text(a)
        h.play(a)
    assert h._state() == g._state()
    for _ in g.actions():
        h.undo()
    assert h._state() == rhombus.Game()._state()


def test_random_games_invariants():
    for seed in range(5):
        g = check_random_game_invariants(rhombus, seed)
        assert g.result()[1] == "score"
        s0, s1 = g.score(0), g.score(1)
        assert g.result()[0] == (0 if s0 > s1 else 1)
        h = g.copy()
        while h.plies():  # the score counted in place is that of the towers listed
            for p in (0, 1):
                assert h.score(p) == rhombus.combination_score(h.towers(p)), h.position()
            if not h.hidden():  # the side to act, kept beside the state, is the position's
                v = rhombus.Game()
                v.set_position(h.position())
                assert h.to_move == v.to_move, h.position()
            h.undo()
        _strict_replay(g)


def test_random_bids_and_views():
    random.seed(11)
    for _ in range(3):
        g = rhombus.Game()
        while g.result() is None:
            if g.to_move == 1 and g.bidding():
                v = g.view_for(1)
                assert v.position() == g.position()
                assert "bid?" in [v.text(a) for a in v.actions()]
                assert [v.text(a) for a in g.actions()[:-1]] == \
                    [v.text(a) for a in v.actions()[:-1]]
            acts = g.legal()
            g.play(acts[random.randrange(len(acts))])
        assert g.filled() == 64
