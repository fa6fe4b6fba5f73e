"""The Rhombus view: the rhombus layout, blind bid entry (no frame shows a pending bid), the
reveal card, choosing and forced cells, the end with the towers scored step by step."""
import random

from shared_rules import rhombus
from shared_rules.rhombus import BID
from views import rhombus as view
from views import BACK, palette, route
from views.canvas import Canvas, dim
from views import font
from helpers import assert_scales_to_32, random_game

UP, RIGHT, DOWN, LEFT = view.COMPASS  # bids 1, 2, 3, 4


def at(name):
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def pixel(c, name):
    i = at(name)
    return c.get(view.X[i], view.Y[i])


def press(g, ui, *buttons, now=0):
    out = None
    for b in buttons:
        out = view.handle(g, ui, b, "press", now)
    return out


def shot(g, ui, now, canvas=None):
    c = canvas or Canvas()
    view.render(g, ui, c, now)
    return c


def play(g, ui, a):
    g.play(a)
    view.sync(g, ui)


def corner(c, p):
    """The 3x5 corner of player p as a string of '#' and '.' by rows, and its colours."""
    x0 = view.CORNER[p]
    bits, colours = "", set()
    for y in range(11, 16):
        for x in range(x0, x0 + 3):
            v = c.get(x, y)
            bits += "#" if v else "."
            if v:
                colours.add(v)
    return bits, colours


def glyph(ch):
    bits = font.glyph(ch)
    return "".join("#" if bits >> (14 - k) & 1 else "." for k in range(15))


QUESTION = glyph("?")
BLOCK = "#" * 15


def test_layout_is_the_rhombus_with_lines_as_rows():
    assert (view.X[at("a1")], view.Y[at("a1")]) == (7, 14)  # south, towards the players
    assert (view.X[at("h8")], view.Y[at("h8")]) == (7, 0)  # north
    assert (view.X[at("h1")], view.Y[at("h1")]) == (14, 7)  # east
    assert (view.X[at("a8")], view.Y[at("a8")]) == (0, 7)  # west
    seen = set()
    for i in range(64):
        x, y = view.X[i], view.Y[i]
        assert y == 14 - rhombus.LINE[i]  # each Line is a pixel row
        assert (x + y) % 2 == 1 and abs(x - 7) + abs(y - 7) <= 7
        seen.add((x, y))
    assert len(seen) == 64
    assert sorted(view.RIM) == sorted(rhombus.EDGES) and len(view.RIM) == 28
    for r in range(28):  # the rim is a closed ring of neighbouring pixels
        a, b = view.RIM[r], view.RIM[(r + 1) % 28]
        assert abs(view.X[a] - view.X[b]) == 1 and abs(view.Y[a] - view.Y[b]) == 1
    g = rhombus.Game()
    ui = view.new_ui(g)
    c = shot(g, ui, 0)
    for i in range(64):
        assert c.get(view.X[i], view.Y[i]) == palette.POINT
    assert c.get(7, 7) == 0 and c.get(0, 0) == 0  # gaps and corners stay dark


def test_bid_entry_controls():
    g = rhombus.Game()
    ui = view.new_ui(g)
    black = ui.colours[0]
    assert press(g, ui, "ok", now=1000) is None and ui.refused == 1400  # nothing entered
    bits, colours = corner(shot(g, ui, 1000), 0)
    assert bits == QUESTION and colours == {palette.REFUSED}
    assert press(g, ui, RIGHT) is None
    assert press(g, ui, "back") is None  # clears the entry: enter again
    assert press(g, ui, "ok", now=2000) is None and ui.refused == 2400
    assert press(g, ui, "back") == BACK  # nothing to clear: the app may take back
    assert press(g, ui, DOWN, UP) is None  # the last arrow counts
    assert press(g, ui, "ok") == BID
    for k, arrow in enumerate(view.COMPASS):
        assert press(g, ui, arrow) is None
        assert press(g, ui, "ok") == BID + k
    play(g, ui, BID + 2)
    assert view.handle(g, ui, LEFT, "long", 0) is None  # a long press enters too
    assert press(g, ui, "ok") == BID + 3
    # What the corners show: a blinking '?' for the side to bid, a block once a bid is in.
    g = rhombus.Game()
    ui = view.new_ui(g)
    c = shot(g, ui, 0)
    assert corner(c, 0) == (QUESTION, {black}) and c.get(4, 14) == black  # Black to bid
    assert corner(c, 1) == (QUESTION, {dim(ui.colours[1], 1, 3)}) and c.get(10, 14) == 0
    assert corner(shot(g, ui, 400), 0) == ("." * 15, set())  # blinking
    press(g, ui, UP, now=1000)
    assert corner(shot(g, ui, 1100), 0) == (BLOCK, {palette.CURSOR})  # acknowledged
    assert corner(shot(g, ui, 1300), 0) == (BLOCK, {dim(black, 1, 2)})  # waiting for OK
    assert corner(shot(g, ui, 1600), 0) == (BLOCK, {black})
    play(g, ui, press(g, ui, "ok"))
    c = shot(g, ui, 2400)
    assert corner(c, 0) == (BLOCK, {black}) and c.get(4, 14) == 0  # sealed
    assert corner(c, 1) == (QUESTION, {ui.colours[1]}) and c.get(10, 14) == ui.colours[1]


def bidding_frames(start, black, white, device_black=False, first_arrow=None):
    """Every frame from Black's turn to bid until just before the bids are revealed, with
    Black bidding `black` (a human through the arrows or the device) and White `white`; then
    the frame of the reveal."""
    g = start.copy()
    ui = view.new_ui(g)
    c = Canvas()
    out = []

    def frame(t):
        view.render(g, ui, c, t)
        out.append(bytes(c.buf))

    frame(0)
    frame(400)
    if device_black:
        play(g, ui, BID + black - 1)
    else:
        wrong = first_arrow or view.COMPASS[black % 4]
        assert press(g, ui, wrong, now=1000) is None
        for t in (1000, 1150, 1300, 1700):
            frame(t)
        assert press(g, ui, "back", now=1800) is None  # re-enter
        frame(1800)
        assert press(g, ui, view.COMPASS[black - 1], now=2000) is None
        for t in (2000, 2100, 2250, 2400, 2800):
            frame(t)
        a = press(g, ui, "ok", now=2900)
        assert a == BID + black - 1
        frame(2900)  # confirmed, not yet played
        play(g, ui, a)
    for t in (3000, 3100, 3400, 3800):
        frame(t)
    assert press(g, ui, "ok", now=3900) is None  # nothing entered: refused
    frame(3900)
    assert press(g, ui, view.COMPASS[white - 1], now=4000) is None
    for t in (4000, 4100, 4300, 4600):
        frame(t)
    a = press(g, ui, "ok", now=4700)
    assert a == BID + white - 1
    frame(4700)
    play(g, ui, a)
    view.render(g, ui, c, 5000)
    return out, bytes(c.buf)


def mid_game(seed):
    """A random game stopped where the bids are due while a Current Line runs on."""
    random.seed(seed)
    g = rhombus.Game()
    while not (g.bidding() and g.filled() > 12 and g.next_cell() is not None):
        assert g.result() is None
        acts = g.legal()
        g.play(acts[random.randrange(len(acts))])
    return g


def test_no_frame_before_the_reveal_depends_on_blacks_bid():
    for start in (rhombus.Game(), mid_game(1)):
        for device in (False, True):
            runs = [bidding_frames(start, b, 2, device) for b in (1, 2, 3, 4)]
            secret, reveal = runs[0]
            assert len(set(secret)) > 3  # the frames do change: entry, blinking, turn
            for other, other_reveal in runs[1:]:
                assert other == secret  # byte for byte, during entry and after
                assert other_reveal != reveal  # the reveal itself does differ
    # The same arrow first, whatever is bid in the end.
    runs = [bidding_frames(rhombus.Game(), b, 3, first_arrow=LEFT)[0] for b in (1, 2, 3, 4)]
    assert runs[1:] == runs[:3]


def test_no_frame_before_the_reveal_depends_on_whites_bid():
    for start in (rhombus.Game(), mid_game(2)):
        for device in (False, True):
            runs = [bidding_frames(start, 3, w, device) for w in (1, 2, 3, 4)]
            for other, other_reveal in runs[1:]:
                assert other == runs[0][0]
                assert other_reveal != runs[0][1]


def test_reveal_card_shows_both_bids_and_the_first_placer():
    g = rhombus.Game()
    ui = view.new_ui(g)
    black, white = ui.colours
    play(g, ui, BID + 3)  # Black 4
    play(g, ui, BID + 1)  # White 2: White places first
    assert ui.card and g.to_move == 1
    c = shot(g, ui, 0)
    # Black's 4 big on the left, White's 2 on the right, White underlined (blinking).
    assert c.get(0, 1) == black and c.get(1, 2) == black and c.get(2, 1) == 0  # '4'
    assert c.get(10, 1) == white and c.get(12, 1) == white and c.get(14, 1) == 0  # '2'
    assert c.get(14, 3) == white and c.get(10, 5) == 0
    assert c.get(10, 13) == white and c.get(15, 14) == white and c.get(0, 13) == 0
    assert shot(g, ui, 400).get(10, 13) == 0
    for y in range(16):
        assert c.get(6, y) == 0 and c.get(9, y) == 0
    assert view.keys_for(g, ui, at("a1")) == [("ok", "press")]  # no press lost on the card
    assert ui.cursor == at("a1")
    assert press(g, ui, "ok") == at("a1") and not ui.card  # the press closes it and places
    assert shot(g, ui, 0).get(10, 13) != white
    # Equal bids: whoever went first last turn goes first again (Black in the first turn).
    g = rhombus.Game()
    ui = view.new_ui(g)
    play(g, ui, BID + 2)
    play(g, ui, BID + 2)
    c = shot(g, ui, 0)
    assert c.get(0, 13) == black and c.get(10, 13) == 0
    play(g, ui, at("a1"))
    assert not ui.card  # gone once a stone is placed (the device places under it)


def test_choosing_a_new_line_and_placing_a_forced_cell():
    g = rhombus.Game()
    ui = view.new_ui(g)
    black, white = ui.colours
    play(g, ui, BID + 2)
    play(g, ui, BID + 3)  # Black places 3 first
    ui.card = False  # the first press closes the card
    c = shot(g, ui, 0)
    hint = dim(black, 1, 2)
    assert pixel(c, "a1") == palette.CURSOR  # the cursor starts at a1
    assert pixel(c, "h8") == hint and pixel(c, "a5") == hint and pixel(c, "b2") == palette.POINT
    assert c.get(4, 14) == black and c.get(10, 14) == 0  # Black to act
    assert corner(c, 0) == (glyph("3"), {black})  # 3 still to place
    assert corner(c, 1)[1] == {dim(white, 1, 3)}
    assert pixel(shot(g, ui, 400), "a1") == hint  # blinking
    # Along the rim: from a1 'left' runs up file a, 'right' up rank 1.
    assert press(g, ui, "left") is None and ui.cursor == at("a2")
    c = shot(g, ui, 0)
    assert pixel(c, "a2") == palette.CURSOR
    assert c.get(7, 13) == view.CURRENT and c.get(5, 13) == 0  # the Line it would start
    press(g, ui, "right", "right")
    assert ui.cursor == at("b1")
    press(g, ui, "up", "up", "up")
    assert ui.cursor == at("e1")
    a = press(g, ui, "ok")
    assert a == at("e1")
    play(g, ui, a)
    # The Line runs on: the next cell is forced, the cursor already there.
    assert g.next_cell() == at("d2") and ui.cursor == at("d2")
    c = shot(g, ui, 1000)
    assert pixel(c, "e1") == black and pixel(c, "d2") == palette.CURSOR
    assert pixel(c, "h1") == palette.POINT  # no edge hints when the cell is forced
    assert c.get(10, 10) == view.CURRENT and c.get(8, 10) == view.CURRENT  # Line 4's gaps
    assert c.get(12, 10) == 0 and c.get(2, 10) == 0
    x, y = view.X[at("e1")], view.Y[at("e1")]
    assert c.get(x, y - 1) == palette.LAST and c.get(x, y + 1) == palette.LAST  # last stone
    assert press(g, ui, "left", now=2000) is None and ui.refused == 2400  # no choice here
    assert pixel(shot(g, ui, 2000), "d2") == palette.REFUSED
    assert ui.cursor == at("d2")
    assert press(g, ui, "ok") == at("d2")
    play(g, ui, at("d2"))
    play(g, ui, at("c3"))
    # White's turn, Line 4 still running: 'bid' hints are for placing; corners count down.
    c = shot(g, ui, 0)
    assert c.get(10, 14) == white and corner(c, 1) == (glyph("4"), {white})
    assert corner(c, 0) == (glyph("0"), {dim(black, 1, 3)})
    assert press(g, ui, "back") == BACK


def test_bidding_shows_where_the_next_stone_goes():
    g = rhombus.Game()
    for m in ("bid3", "bid1", "a2", "b1", "c1", "b2"):
        g.play(m)  # White a2 (Line 1), Black b1, then c1 starts Line 2: b2, a3 is next
    ui = view.new_ui(g)
    assert g.bidding() and g.next_cell() == at("a3") and ui.last == at("b2")
    c = shot(g, ui, 0)
    assert pixel(c, "a3") == view.ONCE  # steady, no cursor while bidding
    assert pixel(shot(g, ui, 400), "a3") == view.ONCE
    assert c.get(6, 12) == view.CURRENT and c.get(8, 12) == view.CURRENT  # Line 2
    assert c.get(7, 11) == palette.LAST and c.get(7, 13) == palette.LAST  # b2 was last
    g.play("bid2")  # Black's bid hides nothing of the last stone
    view.sync(g, ui)
    assert ui.last == at("b2")
    g = rhombus.Game()
    for m in ("bid1", "bid1", "a1"):
        g.play(m)
    g.play("h1")  # White starts Line 7 at h1
    ui = view.new_ui(g)
    c = shot(g, ui, 0)
    assert g.next_cell() == at("g2") and pixel(c, "g2") == view.ONCE
    assert c.get(7, 13) == 0  # Line 1 is not the Current Line
    assert view.step(g, at("a2"), "right") == at("b1")  # a1 is taken: skipped
    assert view.step(g, at("g1"), "right") == at("h2")  # h1 is taken: skipped


def test_rim_reaches_every_free_edge_cell():
    for seed in range(6):
        g = random_game(rhombus, seed, max_plies=12 + 6 * seed)
        free = [e for e in view.RIM if g.stone_at(e) is None]
        for a in free:
            for b in free:
                path = route(a, b, lambda c, arrow: view.step(g, c, arrow))
                assert path is not None, (seed, a, b)
                cur = a
                for arrow in path:
                    cur = view.step(g, cur, arrow)
                    assert cur in free
                assert cur == b
    g = rhombus.Game()
    assert view.step(g, at("a8"), "left") == at("a8")  # nothing further that way
    assert view.step(g, at("a8"), "up") == at("b8")
    assert view.step(g, at("a8"), "down") == at("a7")
    assert view.step(g, at("a1"), "left") == at("a2")
    assert view.step(g, at("a1"), "right") == at("b1")
    assert view.step(g, at("h1"), "up") == at("h2")
    assert view.step(g, at("h8"), "down") == at("h7")  # a tie: clockwise


def test_end_scores_the_towers_step_by_step():
    g = random_game(rhombus, 11)
    ui = view.new_ui(g)
    black, white = ui.colours
    assert g.result() is not None
    for p in (0, 1):  # the towers lit up are the ones the rules count
        hs = sorted(ui.heights[i] for i in range(64) if g.stone_at(i) == p)
        expect = []
        for h in g.towers(p):
            expect += [h] * h
        assert hs == sorted(expect)
    slides = ui.slides
    assert slides[0][1] == 0 and slides[-1][1] == 3
    t, seen = 0, []
    for ms, kind, p, k, n, score in slides:
        c = shot(g, ui, t + 1)
        if kind == 0:  # the final board
            assert pixel(c, "a1") in (black, white) and c.get(0, 0) == 0
        elif kind == 1:  # this height class lit in full colour, the counted ones dim
            colour = palette.REFUSED if k == 5 else ui.colours[p]
            lit = 0
            for i in range(64):
                h = min(ui.heights[i], 5)
                got = c.get(view.X[i], view.Y[i])
                if g.stone_at(i) != p:
                    assert got == palette.POINT
                elif h == k:
                    assert got == colour
                    lit += 1
                elif h < k:
                    assert got == dim(ui.colours[p], 1, 3)
            assert lit and corner(c, p)[1] == {colour}
            assert n == len([h for h in g.towers(p) if min(h, 5) == k])
        elif kind == 2:  # one tower of that height, the running score
            colour = palette.REFUSED if k == 5 else ui.colours[p]
            for j in range(5):
                assert c.get(j if p == 0 else 4 - j, 4 - j) == (colour if j < k else 0)
            digits = [c.get(x, y) for x in range(16) for y in range(6, 16)]
            assert ui.colours[p] in digits and ui.colours[1 - p] not in digits
            seen.append((p, score))
        else:  # the winner
            w = g.result()[0]
            assert c.get(13, 0) == ui.colours[w] and c.get(0, 6 + 5 * w) == ui.colours[w]
            assert c.get(0, 11 - 5 * w) == 0
        t += ms
    for p in (0, 1):
        last = [s for q, s in seen if q == p][-1]
        assert last == g.score(p)  # the count ends on the score
    # It loops; the first frame drawn sets the start.
    total = t
    assert shot(g, ui, total + 1).buf == shot(g, ui, 1).buf
    assert view.handle(g, ui, "ok", "press", 0) is None  # the app leaves on OK
    # Black wins only with strictly more points: shown by the winner slide.
    a = shot(g, ui, total - 1)
    assert a.get(13, 0) == ui.colours[g.result()[0]]


def test_scales_to_32x32():
    g = mid_game(3)
    ui = view.new_ui(g)
    assert_scales_to_32(view, g, ui)


def test_keys_for_every_action_of_random_games():
    for seed in range(3):
        g = rhombus.Game()
        ui = view.new_ui(g)
        for a in random_game(rhombus, seed).actions():
            if seed == 1 and g.bidding():
                press(g, ui, RIGHT)  # sometimes start with a bid already entered
            got = None
            for button, kind in view.keys_for(g, ui, a):
                assert got is None, "keys go on after the action was made"
                got = view.handle(g, ui, button, kind, 0)
            assert got == a, (g.text(a), got)
            play(g, ui, a)
        assert g.result() is not None
