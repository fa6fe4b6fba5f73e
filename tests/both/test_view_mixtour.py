"""The Mixtour view: stacks read bottom up, lifting and counting, hints, the reversal ban,
entries, passes (forced and announced), scoring, the end, and keys_for over whole games."""
from shared_rules import mixtour
from shared_rules.mixtour import PASS, SQUARES, move
from views import mixtour as view
from views import BACK, palette, route
from views.canvas import Canvas, dim
from views import font
from helpers import assert_scales_to_32, random_game

# Two recorded games with passes (tests/conformance/mixtour_passes.jsonl.xz): one pass then
# play on to a win (seed 208634, points_to_win 1), and a double pass (seed 203550, 3 points).
ONE_PASS = (
    "d3 e4 d3-e4 a2 d1 b5 c2 d1-c2 b2 c1 a5 b2-c1 e4:2-c2 a5-b5 b2 c1:2-b2 d2 e3 e3-d2 d3 d4 "
    "d2:2-d3 a5 b5-a5 d3-d4 b2:3-a2 a5:2-b5 b5-d3 d5 d5-b5 d5 d4:2-d5 b3 c2-b3 e2 d3-e2 d5:2-d3 "
    "c3 b3-c3 c2:2-b3 d3:2-c2 a4 d2 b2 a5 e4 e3 b5:3-a5 a3 b3:2-a4 a4:3-b3 b3-a3 c5 b3:3-b2 b4 "
    "b4-c5 d3-e3 e3:2-c5 a5:2-a3 e3 b3 e4-d3 c5:2-c3 d3-d2 c3:2-d3 c4 d3-c4 c4:2-b3 d5-d3 d5 "
    "d2-e3 c3:2-d2 c5:2-d5 a5-d5 a5-d2 e1 d2-e1 e4 d5:3-e4 e4:2-d5 pass a1 a2-a1 c1 b2-c1 a1:2-c1 "
    "c1:3-e1").split()
TWO_PASSES = (
    "e2 c5 e1 b5 d2 d2-e2 e2-e1 b2 e1-e2 c4 c5-b5 d3 e3 e3-d3 d3:2-c4 a3 d5 e2:2-e1 c1 d5-b5 "
    "c1-c4 a1 d1 d3 b3 b3-b2 e1-d1 c4:2-d3 a2 e2 e1:2-e2 b3 b1 d2 c1 a5 c3 b2:2-a3 b5:2-a5 d4 b2 "
    "b1-a1 c4:2-c3 c4 a4 d4-c4 a4-c4 d4 a5-b5 c5 a1:2-a2 a1 b1 a3:2-b2 b2:2-b3 e4 e2:3-d2 a4 e1 "
    "e3 b4 c1-b2 b5:2-c5 a2:3-a3 d5 d4-d5 a3:2-a4 e3-e4 c2 b1-c2 c4:2-b4 d3:3-c4 e2 d1-e2 c4-e2 "
    "c4-e4 e2:2-c4 c2-d1 d2:3-e2 d2-e1 b2:2-a1 c3:2-e1 b4:2-c3 b3:3-c2 a1:2-a3 a3-b4 c5-a5 "
    "a5:2-c5 a4:3-a5 pass pass").split()


def at(name):
    return SQUARES.index(name)


def game(stacks=None, scores=(0, 0), side=0, last="-", points=1):
    stacks = stacks or {}
    g = mixtour.Game(points_to_win=points)
    g.set_position("%s %d %d %d %s" % (",".join(stacks.get(n, ".") for n in SQUARES),
                                       scores[0], scores[1], side, last))
    return g


def shot(g, ui, now, canvas=None):
    c = canvas or Canvas()
    view.render(g, ui, c, now)
    return c


def press(g, ui, *buttons, now=0):
    out = None
    for b in buttons:
        out = view.handle(g, ui, b, "press", now)
    return out


def play(g, ui, a):
    g.play(a)
    view.sync(g, ui)


def go(g, ui, name, now=0):
    """Move the cursor to a square with the arrows."""
    for arrow in route(ui.cursor, at(name), view.step):
        assert press(g, ui, arrow, now=now) is None
    assert ui.cursor == at(name)


def cell(c, name):
    """The 4 pixels of a square in fill order: bottom left, bottom right, top left, top right."""
    i = at(name)
    return [c.get(view.CX[i] + view.DX[k], view.CY[i] + view.DY[k]) for k in range(4)]


def ring(c, name):
    """(side pixels, corner pixels) around a square, those on the board."""
    i = at(name)
    sides, corners = [], []
    for y in range(view.CY[i] - 1, view.CY[i] + 3):
        for x in range(view.CX[i] - 1, view.CX[i] + 3):
            if not (0 <= x <= 13 and 0 <= y <= 13):
                continue
            rx, ry = x in (view.CX[i] - 1, view.CX[i] + 2), y in (view.CY[i] - 1, view.CY[i] + 2)
            if rx and ry:
                corners.append(c.get(x, y))
            elif rx or ry:
                sides.append(c.get(x, y))
    return sides, corners


def looks(c, name):
    """The set of colours on a square's sides and on its corners."""
    sides, corners = ring(c, name)
    return set(sides), set(corners)


def text_at(c, x0, y0, s, colour):
    """Whether s is drawn in the 3x5 font from (x0, y0) in colour and nothing else there."""
    for j in range(len(s)):
        bits = font.glyph(s[j])
        for row in range(5):
            for col in range(3):
                want = colour if bits >> (14 - row * 3 - col) & 1 else 0
                if c.get(x0 + 4 * j + col, y0 + row) != want:
                    return False
    return True


def test_squares_and_cursor_steps():
    assert (view.CX[at("a1")], view.CY[at("a1")]) == (0, 12)  # White's side at the bottom
    assert (view.CX[at("e5")], view.CY[at("e5")]) == (12, 0)
    assert (view.CX[at("c3")], view.CY[at("c3")]) == (6, 6)
    assert view.step(at("c3"), "up") == at("c4") and view.step(at("c3"), "left") == at("b3")
    assert view.step(at("a1"), "down") == at("a1") and view.step(at("e5"), "right") == at("e5")
    for a in range(25):
        for b in range(25):
            cur = a
            for arrow in route(a, b, view.step):
                cur = view.step(cur, arrow)
            assert cur == b
    assert view.LABELS == {"points_to_win": "PTS"}
    assert view.CHOICES["points_to_win"] == (1, 2, 3, 5)
    for v in view.CHOICES["points_to_win"]:
        mixtour.Game(points_to_win=v)  # every choice is a valid option


def test_stacks_read_bottom_up_reserves_and_turn():
    g = game({"c3": "WRRW", "a1": "R", "e5": "WW", "b4": "RWR"})
    ui = view.new_ui(g)
    white, red = ui.colours
    c = shot(g, ui, 400)  # cursor off
    P = palette.POINT
    assert cell(c, "c3") == [white, red, red, white]
    assert cell(c, "b4") == [red, white, red, P]
    assert cell(c, "a1") == [red, P, P, P] and cell(c, "e5") == [white, white, P, P]
    tint = dim(white, 1, 4)  # White may enter: the empty squares in White's colour
    assert cell(c, "b2") == [tint] * 4 and cell(c, "e1") == [tint] * 4
    for y in range(14):  # the gaps are dark without marks
        assert c.get(2, y) == 0 and c.get(5, y) == 0 and c.get(14, y) == 0
        assert c.get(y, 14) == 0
    # Reserves: 15 each (5 pieces each on the board): 7 full pixels and a dim odd one.
    for k in range(7):
        assert c.get(k, 15) == white and c.get(15, k) == dim(red, 1, 2)  # Red waits: dim
    assert c.get(7, 15) == dim(white, 1, 3) and c.get(15, 7) == dim(dim(red, 1, 2), 1, 3)
    assert c.get(8, 15) == 0 and c.get(15, 8) == 0
    assert c.get(14, 15) == 0 and c.get(15, 14) == 0  # one point to win: no pips
    assert c.get(15, 15) == white  # White to act
    # Red to act; scores against points_to_win 3: White 1 (one white pip), Red 2.
    g = game({"a1": "R"}, scores=(1, 2), side=1, points=3)
    ui = view.new_ui(g)
    c = shot(g, ui, 400)
    W, G = palette.CURSOR, palette.POINT
    assert [c.get(x, 15) for x in (12, 13, 14)] == [W, G, G] and c.get(11, 15) == 0
    assert [c.get(15, y) for y in (12, 13, 14)] == [W, W, G] and c.get(15, 11) == 0
    assert c.get(15, 15) == red and c.get(0, 15) == dim(white, 1, 2) and c.get(15, 0) == red
    assert c.get(9, 15) == dim(white, 1, 2) and c.get(15, 9) == dim(red, 1, 3)  # 20 and 19
    assert cell(c, "c3") == [dim(red, 1, 4)] * 4
    # A long race shows its first five points.
    g = game({}, scores=(6, 0), points=9)
    c = shot(g, view.new_ui(g), 400)
    assert [c.get(x, 15) for x in range(10, 15)] == [W] * 5 and c.get(15, 10) == G


def test_entering_and_refusals():
    g = mixtour.Game()
    ui = view.new_ui(g)
    white = ui.colours[0]
    c = shot(g, ui, 0)
    assert set(ring(c, "c3")[0]) == {palette.CURSOR} == set(ring(c, "c3")[1])  # the cursor
    assert looks(shot(g, ui, 400), "c3") == ({0}, {0})  # blinking
    go(g, ui, "b2")
    a = press(g, ui, "ok")
    assert a == at("b2")
    play(g, ui, a)
    c = shot(g, ui, 400)
    assert cell(c, "b2") == [white, palette.POINT, palette.POINT, palette.POINT]
    assert looks(c, "b2") == ({0}, {palette.LAST})  # the last move: amber corners
    assert press(g, ui, "ok", now=1000) is None and ui.refused == 1400  # b2 cannot move
    assert ui.sel is None
    assert looks(shot(g, ui, 1000), "b2") == ({palette.REFUSED}, {palette.REFUSED})
    # White's reserve is empty: no entry, empty squares plain grey.
    g = game({"a1": "WWWW", "b1": "WWWW", "c1": "WWWW", "d1": "WWWW", "e5": "WWWW",
              "a5": "R"})
    ui = view.new_ui(g)
    c = shot(g, ui, 400)
    assert cell(c, "c3") == [palette.POINT] * 4 and c.get(0, 15) == 0
    assert press(g, ui, "ok", now=50) is None and ui.refused == 450
    assert press(g, ui, "back") == BACK  # nothing lifted: the app may take back


def lift_position():
    # c3 RWR can reach c4 (distance 1, height 1) and a1 (distance 2 over empty b2, height 2);
    # d3 WW is beside it but 2 high; e5 W is in line but 1 high at distance 2.
    return game({"c3": "RWR", "c4": "W", "a1": "RW", "d3": "WW", "e5": "W"})


def test_lifting_counting_and_hints():
    g = lift_position()
    ui = view.new_ui(g)
    white, red = ui.colours
    hint = view.TARGET_COLOUR  # green: neither the cursor's white nor a side's colour
    assert hint not in (palette.CURSOR, white, dim(white, 1, 2), view.BANNED)
    assert press(g, ui, "ok") is None and ui.sel == at("c3") and ui.n == 1
    c = shot(g, ui, 0)  # blink on: the whole stack
    assert cell(c, "c3") == [red, white, red, palette.POINT]
    c = shot(g, ui, 400)  # blink off: the lifted top piece is gone
    assert cell(c, "c3") == [red, white, palette.POINT, palette.POINT]
    assert looks(c, "c4") == ({hint}, {0}) and looks(c, "a1") == ({hint}, {0})
    assert looks(c, "e5") == ({0}, {0})  # in line, wrong height: no hint
    assert ring(c, "d3")[0][-1] == 0  # d3's right side (towards e3): nothing
    assert cell(c, "b2") == [palette.POINT] * 4  # no entry hints while pieces are lifted
    assert press(g, ui, "ok") is None and ui.n == 2
    assert cell(shot(g, ui, 400), "c3") == [red] + [palette.POINT] * 3
    assert press(g, ui, "ok") is None and ui.n == 3
    c = shot(g, ui, 400)
    assert cell(c, "c3") == [palette.POINT] * 4 and looks(c, "a1") == ({hint}, {0})
    assert press(g, ui, "ok") is None and ui.n == 1  # round again
    press(g, ui, "ok")
    go(g, ui, "a1")
    assert cell(shot(g, ui, 400), "c3") == [red, palette.POINT, palette.POINT, palette.POINT]
    a = press(g, ui, "ok")
    assert g.text(a) == "c3:2-a1" and ui.sel is None
    # Lifting, then something else: another stack, a refusal, BACK.
    ui = view.new_ui(g)
    press(g, ui, "ok")
    go(g, ui, "b2")
    assert press(g, ui, "ok", now=100) is None and ui.refused == 500  # no entry now
    go(g, ui, "d3")
    assert press(g, ui, "ok") is None and ui.sel == at("d3") and ui.n == 1  # d3 instead
    go(g, ui, "c4")
    assert g.text(press(g, ui, "ok")) == "d3-c4"
    ui = view.new_ui(g)
    press(g, ui, "ok")
    go(g, ui, "e5")
    assert press(g, ui, "ok", now=10) is None and ui.refused == 410 and ui.sel == at("c3")
    assert press(g, ui, "back") is None and ui.sel is None
    assert press(g, ui, "back") == BACK
    c = shot(g, ui, 400)
    assert looks(c, "a1") == ({0}, {0}) and cell(c, "c3") == [red, white, red, palette.POINT]


def test_reversal_ban_looks_different():
    # White b2 WW onto a1 R: b2 keeps 1 = a1's height before, so Red may not move that one
    # piece straight back; a1:2-b2 and a1-a3 are fine.  (b2 could move onto c2 itself.)
    g = game({"b2": "WW", "a1": "R", "a3": "RR", "e1": "R", "c2": "R"})
    ui = view.new_ui(g)
    white, red = ui.colours
    play(g, ui, g.parse("b2-a1"))
    assert g.restriction() == move(at("a1"), 1, at("b2"))
    c = shot(g, ui, 400)
    assert ring(c, "a1")[1] == [palette.LAST]  # a1's only corner on the board
    came = dim(palette.LAST, 1, 2)  # where it came from; a1's corner is also one of b2's
    assert ring(c, "b2")[1] == [came, came, palette.LAST, came]
    go(g, ui, "a1")
    assert press(g, ui, "ok") is None and ui.sel == at("a1") and ui.n == 1
    c = shot(g, ui, 400)
    assert looks(c, "b2") == ({view.BANNED}, {view.BANNED})  # barred by the ban alone
    assert looks(c, "a3")[0] == {view.TARGET_COLOUR}  # a plain target
    assert looks(c, "e1") == ({0}, {0})  # a plain unreachable stack
    go(g, ui, "b2")
    assert press(g, ui, "ok", now=800) is None and ui.refused == 1200 and ui.sel == at("a1")
    go(g, ui, "a1")
    assert press(g, ui, "ok") is None and ui.n == 2  # both pieces: no reversal
    c = shot(g, ui, 2000)
    assert looks(c, "b2") == ({view.TARGET_COLOUR}, {came, palette.LAST})
    go(g, ui, "b2")
    assert g.text(press(g, ui, "ok")) == "a1:2-b2"


def replay(g, moves):
    for m in moves:
        g.play(m)


def test_forced_pass_and_the_pass_announced():
    g = mixtour.Game()
    replay(g, ONE_PASS[:80])
    assert g.legal() == [PASS]
    ui = view.new_ui(g)
    p = g.to_move
    colour = ui.colours[p]
    assert ui.forced
    c = shot(g, ui, 0)  # first the board, without cursor or entry tints, the corner blinking
    assert c.get(15, 15) == colour and shot(g, ui, 400).get(15, 15) == 0
    for name in SQUARES:
        assert ring(c, name)[0].count(palette.CURSOR) == 0
    c = shot(g, ui, 1600)  # then the card: PASS in the mover's colour, OK
    assert text_at(c, 0, 2, "PASS", colour) and text_at(c, 4, 9, "OK", palette.CURSOR)
    assert text_at(shot(g, ui, 1300), 4, 9, "OK", palette.TEXT)  # blinking
    assert shot(g, ui, 2400).get(15, 15) == colour  # the board again
    assert press(g, ui, "left", now=3000) is None and ui.refused == 3400  # nothing to choose
    c = shot(g, ui, 3100)  # the refusal brings up the card, PASS in red
    assert text_at(c, 0, 2, "PASS", palette.REFUSED) and text_at(c, 4, 9, "OK", palette.CURSOR)
    assert shot(g, ui, 4000).get(15, 15) == colour  # then the board again
    assert view.keys_for(g, ui, PASS) == [("ok", "press")]
    assert press(g, ui, "ok") == PASS
    play(g, ui, PASS)
    # The other side learns of the pass: a card in the passer's colour, then the board with
    # the gap crossings in that colour until the next action.
    assert ui.passer == p and not ui.forced
    dimmed = dim(colour, 1, 4)
    c = shot(g, ui, 10000)
    assert text_at(c, 0, 2, "PASS", colour) and c.get(4, 9) == 0
    c = shot(g, ui, 10000 + view.PASS_MS)
    assert c.get(2, 2) == dimmed and c.get(11, 11) == dimmed and c.get(15, 15) != colour
    assert shot(g, ui, 10000 + view.PASS_MS + 400).get(5, 8) == dimmed
    play(g, ui, g.parse(ONE_PASS[81]))
    c = shot(g, ui, 20000)
    assert c.get(2, 2) != dimmed and c.get(11, 11) == 0 and ui.passer is None
    # Taking back (BACK between humans) brings the announcement back.
    g.undo()
    view.sync(g, ui)
    assert ui.passer == p
    g.undo()
    view.sync(g, ui)
    assert ui.forced and ui.passer is None


def test_two_passes_end_the_game():
    g = mixtour.Game(points_to_win=3)
    replay(g, TWO_PASSES[:-1])
    ui = view.new_ui(g)
    assert ui.forced and ui.passer is not None
    # Both: the opponent's pass first, then the forced pass of the side to act.
    c = shot(g, ui, 0)
    assert text_at(c, 0, 2, "PASS", ui.colours[ui.passer]) and c.get(4, 9) == 0
    assert text_at(shot(g, ui, 3500), 0, 2, "PASS", ui.colours[g.to_move])
    assert press(g, ui, "ok") == PASS
    play(g, ui, PASS)
    assert g.result() == (None, "double_pass")
    c = shot(g, ui, 0)  # no cards of its own: the app alternates the board and its result card
    assert c.get(15, 15) == ui.colours[0] and shot(g, ui, 400).get(15, 15) == ui.colours[1]
    assert press(g, ui, "ok") is None


def test_scoring_flashes_and_counts():
    # e1 W travels 4 squares onto a1 RRWR: 5 high, removed; White's piece on top scores.
    g = game({"a1": "RRWR", "e1": "W"}, points=3)
    ui = view.new_ui(g)
    white, red = ui.colours
    c = shot(g, ui, 0)
    assert c.get(8, 15) == white and c.get(9, 15) == 0  # 18 in reserve
    assert c.get(15, 7) == dim(red, 1, 2) and c.get(15, 8) == dim(dim(red, 1, 2), 1, 3)  # 17
    assert c.get(15, 9) == 0
    go(g, ui, "e1")
    press(g, ui, "ok")
    assert looks(shot(g, ui, 400), "a1")[0] == {view.TARGET_COLOUR}
    go(g, ui, "a1")
    a = press(g, ui, "ok")
    assert g.text(a) == "e1-a1"
    play(g, ui, a)
    assert g.score(0) == 1 and g.height(at("a1")) == 0 and ui.scored == (at("a1"), 0)
    c = shot(g, ui, 5000)  # the removed stack flashes in the scorer's colour
    assert cell(c, "a1") == [white] * 4
    assert cell(shot(g, ui, 5150), "a1") == [dim(red, 1, 4)] * 4  # Red may enter there
    assert cell(shot(g, ui, 5000 + view.SCORE_MS), "a1") == [dim(red, 1, 4)] * 4
    c = shot(g, ui, 5000 + view.SCORE_MS + 400)
    assert ring(c, "a1")[1] == [palette.LAST]  # where it went
    assert set(ring(c, "e1")[1]) == {dim(palette.LAST, 1, 2)}  # where it came from
    W, G = palette.CURSOR, palette.POINT
    assert [c.get(x, 15) for x in (12, 13, 14)] == [W, G, G]  # 1 of 3 points
    assert [c.get(15, y) for y in (12, 13, 14)] == [G, G, G]
    assert c.get(9, 15) == dim(white, 1, 2) and c.get(15, 9) == red  # all 20 back, each
    # An undo shows no flash.
    g.undo()
    view.sync(g, ui)
    assert ui.scored is None and ui.last is None


def test_the_end_shows_the_winner_and_takes_no_presses():
    g = game({"a1": "RRWR", "e1": "W"})
    ui = view.new_ui(g)
    play(g, ui, g.parse("e1-a1"))
    assert g.result() == (0, "points")
    ui.cursor = at("c3")
    for now in (0, 400, 3000):
        c = shot(g, ui, now)
        assert c.get(15, 15) == ui.colours[0]  # the winner
        assert set(ring(c, "c3")[0]) == {0}  # no cursor
        assert cell(c, "c3") == [palette.POINT] * 4  # no entry tints
    assert press(g, ui, "ok") is None and press(g, ui, "back") is None


def test_scales_to_32x32():
    g = lift_position()
    ui = view.new_ui(g)
    press(g, ui, "ok")
    for now in (0, 400):
        assert_scales_to_32(view, g, ui, now)


def check_keys(g, ui, a):
    got = None
    for button, kind in view.keys_for(g, ui, a):
        assert got is None, "keys go on after the action was made"
        got = view.handle(g, ui, button, kind, 0)
    assert got == a, (g.text(a), got)


def mislead(g, ui, k):
    """Leave the ui half-way through something else: pieces of some stack lifted, a count."""
    stacks = [i for i in range(25) if g.height(i) and view._movable(g, i)]
    if stacks and ui.sel is None and not ui.forced:
        f = stacks[k % len(stacks)]
        go(g, ui, SQUARES[f])
        for _ in range(1 + k % (g.height(f) + 1)):  # sometimes round to 1 again
            assert press(g, ui, "ok") is None
        assert ui.sel == f
    if not ui.forced:  # arrows are refused when only a pass is left
        go(g, ui, SQUARES[(7 * k) % 25])


def test_keys_for_every_action_of_random_games():
    for seed in range(4):
        points = 1 + seed % 3
        g = mixtour.Game(points_to_win=points)
        ui = view.new_ui(g)
        k = 0
        for a in random_game(mixtour, seed, points_to_win=points).actions():
            if seed % 2 and k % 3 == 0:
                mislead(g, ui, k)
            check_keys(g, ui, a)
            play(g, ui, a)
            k += 1
        assert g.result() is not None


def test_keys_for_games_with_passes():
    for moves, points in ((ONE_PASS, 1), (TWO_PASSES, 3)):
        g = mixtour.Game(points_to_win=points)
        ui = view.new_ui(g)
        k = 0
        for text in moves:
            a = g.parse(text)
            if k % 4 == 1:
                mislead(g, ui, k)
            check_keys(g, ui, a)
            play(g, ui, a)
            k += 1
        assert g.result() is not None
