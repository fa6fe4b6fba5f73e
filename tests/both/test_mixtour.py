"""Mixtour rulings; these cases run under CPython (pytest) and MicroPython."""
import random

from shared_rules import mixtour, load
from shared_rules.core import IllegalMove, NotationError, OptionError
from helpers import raises, snapshot, check_random_game_invariants, random_game

SQ = dict((name, i) for i, name in enumerate(mixtour.SQUARES))

# Both sides out of pieces and not one move on the board (from mixtour_passes.jsonl, seed 203550).
NO_MOVES = ("R,.,.,WW,WRRR,.,.,WRRW,.,WRWW,RWW,.,WRW,.,.,.,WW,RRWW,.,RRW,RRRW,.,RRRW,WR,. "
            "0 0 1 -")


def pos(stacks=None, scores=(0, 0), side=0, last="-"):
    """A position text; stacks maps square names to 'W'/'R' strings, bottom first."""
    stacks = stacks or {}
    cells = ",".join(stacks.get(name, ".") for name in mixtour.SQUARES)
    return "%s %d %d %d %s" % (cells, scores[0], scores[1], side, last)


def game(options=None, **setup):
    g = mixtour.Game(**(options or {}))
    g.set_position(pos(**setup))
    return g


def texts(g):
    return sorted(g.text(a) for a in g.legal())


def names(squares):
    return sorted(mixtour.SQUARES[i] for i in squares)


def pieces(g, p):
    return sum(g.stack(i).count(p) for i in range(25))


def test_start():
    g = mixtour.Game()
    assert g.to_move == 0 and g.result() is None
    assert texts(g) == sorted(mixtour.SQUARES)
    assert g.reserve(0) == 20 and g.reserve(1) == 20 and g.score(0) == 0
    assert g.options["points_to_win"] == 1
    assert load("mixtour") is mixtour
    g.play("b2")
    assert g.stack(SQ["b2"]) == (0,) and g.reserve(0) == 19 and g.to_move == 1
    assert "b2" not in texts(g) and "pass" not in texts(g)


def test_seed_example_single_piece_reaches_tower_of_three():
    # e4 holds one piece, b4 a tower of 3, e1 a tower, c3 one piece in the way.
    g = game(stacks={"e4": "W", "b4": "RWR", "e1": "WR", "c3": "R"})
    assert names(g.targets(SQ["e4"], 1)) == ["b4"]  # 3 squares west onto height 3
    g.play("e4-b4")
    assert g.stack(SQ["b4"]) == (1, 0, 1, 0) and g.height(SQ["e4"]) == 0
    assert g.top(SQ["b4"]) == 0 and g.top(SQ["e4"]) is None


def test_seed_example_blocked_path():
    g = game(stacks={"e4": "W", "b4": "RWR", "e1": "WR", "c3": "R"})
    for n in (1, 2):
        assert g.targets(SQ["e1"], n) == []
        e = raises(IllegalMove, g.play, "e1:%d-b4" % n)
        assert "e1:%d-b4" % n in str(e)
    # Without c3 in the way the diagonal e1-d2-c3-b4 is open: distance 3, height 3.
    h = game(stacks={"e4": "W", "b4": "RWR", "e1": "WR"})
    assert names(h.targets(SQ["e1"], 2)) == ["b4"]
    assert "e1-b4" in texts(h) and "e1:2-b4" in texts(h)


def test_seed_example_centre_piece_in_reach_of_all_neighbours():
    around = ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")
    stacks = {"c3": "W"}
    for k, name in enumerate(around):
        stacks[name] = "WR"[k % 2] * (1 + k % 3)
    g = game(stacks=stacks)
    for name in around:
        for n in range(1, g.height(SQ[name]) + 1):
            assert "c3" in names(g.targets(SQ[name], n)), name
    # c3 itself (height 1) reaches only the neighbours of height 1
    assert g.targets(SQ["c3"], 1) == [SQ[n] for n in ("b2", "b3", "c4")]


def test_only_height_equal_to_distance_and_never_onto_empty():
    g = game(stacks={"a1": "WW", "c3": "R", "a3": "RR", "e1": "W"})
    assert "a1-c3" not in texts(g)  # distance 2, height 1
    assert "a1-a3" in texts(g) and "a1:2-a3" in texts(g)  # distance 2, height 2
    assert "a1:3-a3" not in texts(g)  # only two pieces on a1
    for bad in ("a1-b2", "a1-c3", "a1:3-a3", "c3-e1", "a1-a2"):
        before = snapshot(g)
        raises(IllegalMove, g.play, bad)
        assert snapshot(g) == before
    assert "c3-a1" in texts(g)  # the other way round: a1 has height 2 at distance 2
    h = game(stacks={"a1": "WW", "c3": "R", "b2": "W"})
    assert "c3-a1" not in texts(h) and "b2-a1" not in texts(h)  # b2 in the way; height 2


def test_move_takes_the_top_pieces_in_order():
    g = game(stacks={"c4": "WRR", "d3": "W", "a1": "R"})
    g.play("c4:2-d3")
    assert g.stack(SQ["c4"]) == (0,)
    assert g.stack(SQ["d3"]) == (0, 1, 1)
    assert g.top(SQ["d3"]) == 1
    g.undo()
    assert g.stack(SQ["c4"]) == (0, 1, 1) and g.stack(SQ["d3"]) == (0,)
    assert g.parse("c4:1-d3") == g.parse("c4-d3") == mixtour.move(SQ["c4"], 1, SQ["d3"])


def test_any_colour_moves():
    g = game(stacks={"a1": "R", "b2": "W"}, side=0)
    assert "a1-b2" in texts(g) and "b2-a1" in texts(g)  # White moves Red's piece too
    g.play("a1-b2")
    assert g.stack(SQ["b2"]) == (0, 1)


def test_reversal_ban():
    g = game(stacks={"a1": "WW", "b2": "R", "e5": "R"})
    g.play("a1-b2")  # a1 keeps 1 = the distance: the reversal b2-a1 would be possible
    assert g.restriction() == mixtour.move(SQ["b2"], 1, SQ["a1"])
    assert g.text(g.restriction()) == "b2-a1"
    assert g.position().split()[-1] == "b2-a1"
    assert "b2-a1" not in texts(g) and "b2:2-a1" in texts(g)
    assert g.targets(SQ["b2"], 1) == [] and names(g.targets(SQ["b2"], 2)) == ["a1"]
    assert names(g.banned_targets(SQ["b2"], 1)) == ["a1"] and g.banned_targets(SQ["b2"], 2) == []
    before = snapshot(g)
    e = raises(IllegalMove, g.play, "b2-a1")
    assert "b2-a1" in str(e) and snapshot(g) == before
    raises(IllegalMove, g.play, "b2:1-a1")
    raises(IllegalMove, g.play_turn, "b2-a1")
    assert snapshot(g) == before
    # The ban lasts for the very next action only: Red enters instead, White enters, and
    # now Red may make that move.
    g.play("e1")
    assert g.restriction() is None and g.banned_targets(SQ["b2"], 1) == []
    g.play("d1")
    assert "b2-a1" in texts(g)
    g.play("b2-a1")
    assert g.stack(SQ["a1"]) == (0, 0)
    # White's own earlier move may always be undone by White.
    h = game(stacks={"a1": "WW", "b2": "R", "e5": "R"})
    h.play("a1-b2")
    h.play("e1")  # an entry: nothing is banned for White
    assert h.restriction() is None and "b2-a1" in texts(h)


def test_ban_only_when_the_reversal_is_possible():
    g = game(stacks={"a1": "W", "b2": "R", "e5": "R"})
    g.play("a1-b2")  # a1 is now empty: there is nothing to reverse onto
    assert g.restriction() is None and g.position().split()[-1] == "-"
    g = game(stacks={"a1": "WWW", "b2": "R", "e5": "R"})
    g.play("a1-b2")  # a1 keeps 2 at distance 1: b2-a1 would not fit anyway
    assert g.restriction() is None
    g = game(stacks={"a1": "WWW", "c3": "RR", "e5": "R"})
    g.play("a1-c3")  # a1 keeps 2 at distance 2
    assert g.text(g.restriction()) == "c3-a1"
    # A restriction that could not bite is refused: play records one only where it bites.
    h = mixtour.Game()
    e = raises(NotationError, h.set_position, pos({"b2": "R", "e5": "W"}, last="b2-a1"))
    assert str(e).startswith("restriction") and h.position() == mixtour.Game().position()
    h = game(stacks={"a1": "W", "b2": "RW"}, side=1, last="b2-a1")
    assert h.text(h.restriction()) == "b2-a1" and "b2-a1" not in texts(h)


def test_banned_player_always_has_another_move():
    # After (A, n, B) over distance d the reversal needs A at height d; then B (height d + n)
    # can also move n + 1 pieces onto A.  So a ban never forces a pass.
    for d, n in ((1, 1), (1, 2), (2, 1), (3, 1), (2, 2)):
        stacks = {"a1": "W" * (d + n), "a1 b2 c3 d4".split()[d]: "R" * d}
        g = game(stacks=stacks, side=0)
        b = "a1 b2 c3 d4".split()[d]
        g.play("a1:%d-%s" % (n, b))
        assert g.text(g.restriction()) == ("%s-a1" % b if n == 1 else "%s:%d-a1" % (b, n))
        assert "%s:%d-a1" % (b, n + 1) in texts(g)


def test_scoring_returns_mixed_pieces_to_both_reserves():
    # a1 holds R R W (W on top), c3 holds W R: a1:3-c3 builds W R R R W, five high.
    setup = dict(stacks={"a1": "RRW", "c3": "WR", "e5": "R"}, side=1)
    g = game({"points_to_win": 2}, **setup)
    assert g.reserve(0) == 18 and g.reserve(1) == 16
    before = snapshot(g)
    g.play("a1:3-c3")  # Red moves, but the top piece is White's: White scores
    assert g.height(SQ["c3"]) == 0 and g.height(SQ["a1"]) == 0
    assert g.reserve(0) == 20 and g.reserve(1) == 19
    assert g.score(0) == 1 and g.score(1) == 0
    assert g.result() is None and g.to_move == 0 and g.restriction() is None
    assert pieces(g, 0) + g.reserve(0) == 20 and pieces(g, 1) + g.reserve(1) == 20
    g.undo()
    assert snapshot(g) == before and g.score(0) == 0 and g.stack(SQ["c3"]) == (0, 1)
    # With one point to win the same move ends the game for White.
    g = game(**setup)
    g.play("a1:3-c3")
    assert g.result() == (0, "points") and g.to_move is None and g.legal() == []
    assert g.targets(SQ["e5"], 1) == []
    e = raises(IllegalMove, g.play, "b2")
    assert "over" in str(e)
    # Only the moved part goes: a1:3-c3 leaves one piece behind and scores for Red.
    g = game({"points_to_win": 2}, stacks={"a1": "WRRR", "c3": "WW"}, side=0)
    g.play("a1:3-c3")
    assert g.stack(SQ["a1"]) == (0,) and g.height(SQ["c3"]) == 0
    assert g.score(1) == 1 and g.reserve(0) == 19 and g.reserve(1) == 20


def test_taller_than_five_is_removed_too():
    g = game({"points_to_win": 3}, stacks={"a1": "WWWR", "e1": "RRRR"}, side=0)
    g.play("a1:4-e1")  # eight high
    assert g.height(SQ["e1"]) == 0 and g.score(1) == 1 and g.reserve(0) == 20
    g.undo()
    assert g.stack(SQ["e1"]) == (1, 1, 1, 1) and g.stack(SQ["a1"]) == (0, 0, 0, 1)


def test_points_to_win_more_than_one():
    g = game({"points_to_win": 3}, stacks={"a1": "RRW", "c3": "WR", "e1": "WWWW", "e5": "W"},
             scores=(1, 2), side=1)
    g.play("a1:3-c3")
    assert g.score(0) == 2 and g.result() is None and g.to_move == 0
    g.play("e5-e1")  # W on top of five: White's third point
    assert g.result() == (0, "points")
    assert g.position().split()[1:3] == ["3", "2"]
    # A set-up position that has already reached the goal is over.
    h = game({"points_to_win": 2}, scores=(0, 2))
    assert h.result() == (1, "points") and h.legal() == [] and h.to_move is None
    raises(NotationError, h.set_position, pos(scores=(2, 2)))
    assert h.result() == (1, "points")


def test_pass_only_when_nothing_else_and_double_pass_draws():
    g = mixtour.Game(points_to_win=3)
    raises(IllegalMove, g.play, "pass")  # the start: entries exist
    g.set_position(NO_MOVES)
    assert g.reserve(0) == 0 and g.reserve(1) == 0
    assert g.legal() == [mixtour.PASS] and g.to_move == 1
    start = snapshot(g)
    g.play("pass")
    assert g.result() is None and g.to_move == 0 and g.last_was_pass()
    assert g.restriction() is None and g.position().split()[-1] == "pass"
    assert texts(g) == ["pass"]
    g.play("pass")
    assert g.result() == (None, "double_pass") and g.legal() == [] and g.to_move is None
    assert g.turns() == ["pass", "pass"]
    g.undo()
    assert g.result() is None and g.to_move == 0
    g.undo()
    assert snapshot(g) == start
    # A pass followed by a move is not two passes in a row.
    h = mixtour.Game(points_to_win=3)
    h.set_position("W,.,.,RRWR,.,.,.,.,.,WWR,RRWW,.,RRRR,RWW,.,.,.,.,WWR,WWR,WRR,.,RWR,WWR,RR"
                   " 2 2 1 -")
    assert h.reserve(0) == 4 and h.reserve(1) == 0 and texts(h) == ["pass"]
    h.play("pass")
    assert h.to_move == 0 and "pass" not in texts(h) and h.restriction() is None
    h.play("b1")
    assert not h.last_was_pass() and h.result() is None
    assert h.position().split()[-1] == "-"


def test_threefold_repetition_draws():
    # White shuffles a1-b2 / b2-a1, Red e5-d4 / d4-e5; after four plies the board is back.
    stacks = {"a1": "WW", "b2": "W", "e5": "RR", "d4": "R"}
    cycle = ["a1-b2", "e5-d4", "b2-a1", "d4-e5"]
    # Set up with no restriction: the position after the first ply comes back first.
    g = game(stacks=stacks)
    for m in cycle * 2:
        g.play(m)
        assert g.result() is None
    g.play(cycle[0])
    assert g.result() == (None, "repetition") and g.to_move is None and g.legal() == []
    assert g.turns() == cycle * 2 + cycle[:1]
    g.undo()
    assert g.result() is None and g.to_move == 0
    g.play("c3")  # something new instead
    assert g.result() is None
    # Taking the entry back restores the counts from before it: the draw comes back.
    g.undo()
    g.play(cycle[0])
    assert g.result() == (None, "repetition")
    # Set up with the restriction d4-e5 leaves behind (e5-d4 for White): the set-up position
    # itself is the one that comes back, the third time after eight plies.
    g = game(stacks=stacks, last="e5-d4")
    assert g.text(g.restriction()) == "e5-d4"
    for m in cycle * 2:
        assert g.result() is None
        g.play(m)
    assert g.result() == (None, "repetition")


def test_repetition_key_has_side_and_restriction():
    stacks = {"a1": "WW", "b2": "W", "e5": "RR", "d4": "R"}
    keys = set()
    for side in (0, 1):
        for last in ("-", "e5-d4", "a1-b2"):
            keys.add(mixtour._key(game(stacks=stacks, side=side, last=last)))
    assert len(keys) == 6
    # Bans that differ only above their low byte are told apart too.
    g = game(stacks={"a1": "W", "b1": "R", "a2": "R"})
    k = mixtour._key(g)
    g._ban = 256
    assert mixtour._key(g) != k


def test_repetition_across_a_score():
    # After a score the board can never come back; undoing the score brings the old counts.
    stacks = {"a1": "WW", "b2": "W", "e5": "RR", "d4": "R", "c1": "WWR", "e1": "WR"}
    cycle = ["a1-b2", "e5-d4", "b2-a1", "d4-e5"]
    g = game({"points_to_win": 2}, stacks=stacks, last="e5-d4")
    for m in cycle + cycle[:3]:
        g.play(m)
    g.play("c1:3-e1")  # Red scores instead of completing the cycle
    assert g.score(1) == 1 and len(g._seen) == 1
    g.undo()
    g.play(cycle[3])
    assert g.result() == (None, "repetition")


def _replayed_counts(g):
    h = mixtour.Game(**g.options)
    for a in g.actions():
        h.play(a)
    return h._seen


def test_counts_after_undo_equal_a_replay():
    # Random games that prefer moves, so that stretches without entries grow long.
    for seed in range(3):
        random.seed(seed)
        g = mixtour.Game(points_to_win=3)
        while g.result() is None and len(g.actions()) < 120:
            acts = g.legal()
            moves = [a for a in acts if a >= 25] or acts
            a = moves[random.randrange(len(moves))] if random.random() < 0.9 else \
                acts[random.randrange(len(acts))]
            g.play(a)
            seen = dict(g._seen)
            assert seen == _replayed_counts(g)
            g.undo()
            assert g._seen == _replayed_counts(g)
            g.play(a)
            assert g._seen == seen


def test_illegal_input_leaves_state_unchanged():
    g = mixtour.Game()
    for m in ("c3", "b2", "d4"):
        g.play(m)
    before = snapshot(g)
    bad = ["", "z9", "a6", "c3", "b2-c3:1", "c3-b2-a1", "a1-b3", "a1-a1", "c3:0-b2",
           "c3:5-b2", "c3:2-b2", "c3:x-b2", "c3:-b2", "c3-", "-b2", "pass", "PASS", "B2",
           "c3 b2", "c3:01-b2", 2600, -1, 3.5, None, (1,), "d4-c3-b2"]
    for b in bad:
        e = raises(ValueError, g.play, b)
        assert str(e)
        assert snapshot(g) == before, b
    raises(NotationError, g.parse, "a1-b3")
    raises(NotationError, g.parse, "c3:5-b2")
    raises(IllegalMove, g.parse, "c3")
    raises(IllegalMove, g.parse, "a1-b2")  # onto an empty square
    for t in ("c3", "a1-b3", "c3-b2 d4-c3", "", 7):
        raises(ValueError, g.play_turn, t)
        assert snapshot(g) == before, t
    raises(IllegalMove, mixtour.Game().undo)


def test_options_are_checked():
    for bad in (0, -1, True, False, 1.0, "2", None, (1,), 1 << 30):
        e = raises(OptionError, mixtour.Game, points_to_win=bad)
        assert "points_to_win" in str(e)
    raises(OptionError, mixtour.Game, points=2)
    assert mixtour.Game(points_to_win=3).options["points_to_win"] == 3
    big = (1 << 30) - 1
    assert mixtour.Game(points_to_win=big).options["points_to_win"] == big


def test_notation_round_trips_every_action():
    g = mixtour.Game()
    moves = 0
    for a in range(2526):
        if a >= 25 and a != mixtour.PASS:
            n, r = divmod(a - 25, 625)
            f, t = divmod(r, 25)
            if not mixtour.distance(f, t):
                raises(NotationError, g.text, a)
                continue
            moves += 1
        assert g._parse(g.text(a)) == a
    # ordered square pairs on a line: rows 5 * 20, files 5 * 20, each diagonal direction
    # 2 + 6 + 12 + 20 + 12 + 6 + 2; times four piece counts
    assert moves == 4 * (100 + 100 + 2 * 60)
    for bad in (2526, -1, 9999, "a1", None, 2.0):
        raises(NotationError, g.text, bad)
    assert g._parse("a1:1-b2") == g._parse("a1-b2") == mixtour.move(0, 1, 6)
    assert g.text(mixtour.move(SQ["c4"], 3, SQ["d3"])) == "c4:3-d3"
    assert g._parse("pass") == mixtour.PASS and g.text(mixtour.PASS) == "pass"
    assert g.split_turn(" c4:3-d3 ") == ["c4:3-d3"]
    assert g.join_turn(["b2"]) == "b2"
    g.play_turn("b2")
    g.play_turn("c3")
    g.play_turn("b2-c3")
    assert g.turns() == ["b2", "c3", "b2-c3"]


def test_position_round_trip_and_errors():
    g = mixtour.Game(points_to_win=2)
    for m in ("a1", "a2", "a2-a1", "e5", "a3", "a3-a1"):
        g.play(m)
    text = g.position()
    assert text.split()[0].split(",")[SQ["a1"]] == "WRW"
    h = mixtour.Game(points_to_win=2)
    h.set_position(text)
    assert h.position() == text and h.to_move == g.to_move
    assert snapshot(h)[:4] == snapshot(g)[:4]
    assert h.reserve(0) == g.reserve(0) == 18 and h.reserve(1) == 18
    assert h.turns() == []
    h.play("d4")
    assert h.turns() == ["d4"]
    h.undo()
    before = snapshot(h)
    cells = text.split()[0]
    rest = " " + " ".join(text.split()[1:])
    for bad in ("", None, text + " 1", text.replace(",", ";"), cells + ",." + rest,
                cells.replace("WRW", "WRWWR") + rest, cells.replace("WRW", "WXW") + rest,
                cells.replace("WRW", "") + rest, ",".join(["RRRR"] * 6 + ["."] * 19) + rest,
                cells + " -1 0 1 -", cells + " x 0 1 -", cells + " 0 0 2 -",
                cells + " 0 0 1 b2", cells + " 0 0 1 a1-b3", cells + " 0 0 1 pas",
                cells + " 0 0 1 a1:5-b2", cells + " 2 2 1 -", cells + " 0 1073741824 1 -"):
        raises(ValueError, h.set_position, bad)
        assert snapshot(h) == before, bad


def test_display_helpers():
    g = game(stacks={"a1": "WRR", "c3": "RR", "b1": "R"}, side=1)
    assert g.stack(SQ["a1"]) == (0, 1, 1) and g.height(SQ["a1"]) == 3
    assert g.top(SQ["a1"]) == 1 and g.top(SQ["e5"]) is None and g.stack(SQ["e5"]) == ()
    assert names(g.targets(SQ["a1"], 3)) == ["b1", "c3"]
    assert g.targets(SQ["a1"], 4) == [] and g.targets(SQ["a1"], 0) == []
    assert g.targets(SQ["e5"], 1) == []  # an empty square
    for f in range(25):
        for n in range(1, 5):
            want = sorted(g.text(a) for a in g.legal() if a >= 25 and a != mixtour.PASS
                          and (a - 25) % 625 // 25 == f and (a - 25) // 625 == n - 1)
            got = sorted(g.text(mixtour.move(f, n, t)) for t in g.targets(f, n))
            assert got == want
    assert SQ["e5"] in g.legal()  # an entry is its square's index


def _check_conservation(seed, **options):
    random.seed(seed)
    g = mixtour.Game(**options)
    while g.result() is None:
        acts = g.legal()
        g.play(acts[random.randrange(len(acts))])
        for p in (0, 1):
            on = pieces(g, p)
            assert on + g.reserve(p) == 20, (seed, g.position())
        assert max(g.height(i) for i in range(25)) <= 4
        assert max(g.score(0), g.score(1)) <= g.options["points_to_win"]
    return g


def test_random_games_conserve_pieces():
    for seed in range(6):
        _check_conservation(seed)
    g = _check_conservation(11, points_to_win=4)
    assert max(g.score(0), g.score(1)) == 4 or g.result()[0] is None


def test_random_games_invariants():
    for seed in range(4):
        check_random_game_invariants(mixtour, seed)
    check_random_game_invariants(mixtour, 9, points_to_win=3)
    g = random_game(mixtour, 5, points_to_win=2)
    assert g.result() is not None


def test_positions_play_cannot_reach_are_refused_naming_the_field():
    for bad, field, options in (
            (pos(scores=(2, 0)), "scores", {}),  # beyond points_to_win: the game ended at 1
            (pos(scores=(0, 4)), "scores", {"points_to_win": 3}),
            (pos(scores=(1, 0), last="pass"), "restriction", {}),  # a score bans nothing
            (pos({"a1": "W", "b2": "RW"}, scores=(0, 1), side=0, last="b2-a1"), "restriction",
             {}),
            (pos({"a1": "W"}, last="pass"), "restriction", {})):  # Red could enter
        h = mixtour.Game(**options)
        before = snapshot(h)
        e = raises(NotationError, h.set_position, bad)
        assert str(e).startswith(field), (bad, str(e))
        assert snapshot(h) == before, bad
    # A pass leaves at most the passer's banned move on the board, now the other's to make.
    h = mixtour.Game()
    h.set_position(NO_MOVES.rsplit(" ", 1)[0] + " pass")
    assert h.legal() == [mixtour.PASS]


def test_moves_from_the_height_masks_are_those_a_walk_finds():
    # legal() finds moves by shifting masks of the squares by height (kept up by play and
    # undo); targets() walks each line square by square: both agree in every position of
    # random games, and the masks are those a fresh set-up of the position builds.
    for seed in range(4):
        random.seed(seed)
        g = mixtour.Game(points_to_win=2)
        while g.result() is None:
            acts = g.legal()
            moves = [a for a in acts if a >= 25 and a != mixtour.PASS]
            walked = [mixtour.move(f, n, t) for f in range(25) for n in range(1, 5)
                      for t in g.targets(f, n)]
            assert sorted(moves) == sorted(walked), g.position()
            assert len(set(moves)) == len(moves)
            fresh = mixtour.Game(points_to_win=2)
            fresh.set_position(g.position())
            assert g._masks == fresh._masks, g.position()
            a = acts[random.randrange(len(acts))]
            g.play(a)
            if random.randrange(4) == 0:  # undo must put the masks back too
                g.undo()
                assert g._masks == fresh._masks, g.position()
                g.play(a)
