"""The GIPF view: the hex layout, the rim cursor, picking a dot and a ray with the push
previewed, hints, bars, the row choice, the removal animation, the end; keys_for over whole
random games, row choices included."""
import random

from shared_rules import gipf
from views import gipf as view
from views import BACK, palette, route
from views.canvas import Canvas, dim
from helpers import assert_scales_to_32, random_game

COLUMNS = (4, 5, 6, 7, 6, 5, 4)  # spots in columns b..h
SPOTS = [gipf.name(i) for i in range(37)]
WHITE, BLACK = palette.SAFE


def at(name):
    return gipf.index(name)


def game(white=(), black=(), res=(6, 6), side=0, mover="-", **options):
    cols, k = [], 0
    for n in COLUMNS:
        col = ""
        for _ in range(n):
            col += "W" if SPOTS[k] in white else "B" if SPOTS[k] in black else "."
            k += 1
        cols.append(col)
    g = gipf.Game(**options)
    g.set_position("%s %d %d %d %s" % ("/".join(cols), res[0], res[1], side, mover))
    return g


def pixel(c, name):
    i = at(name)
    return c.get(view.X[i], view.Y[i])


def press(g, ui, *buttons, **kw):
    out = None
    for b in buttons:
        out = view.handle(g, ui, b, "press", kw.get("now", 0))
    return out


def shot(g, ui, now):
    c = Canvas()
    view.render(g, ui, c, now)
    return c


def play(g, ui, a):
    g.play(a)
    view.sync(g, ui)


def bar(c, p):
    """Player p's bar as a string: 'o' his colour, 'x' captured (dim red), '.' off, '?' other."""
    out = ""
    for k in range(15):
        v = c.get(k, 15) if p == 0 else c.get(15, k)
        out += "o" if v == (WHITE, BLACK)[p] else "x" if v == view.GONE else "." if not v else "?"
    return out


def mark(c, p):
    """The colours of player p's side-to-act square (one colour, or None if mixed)."""
    x, y = view.MARK[p]
    seen = set(c.get(x + i, y + j) for i in (0, 1) for j in (0, 1))
    return seen.pop() if len(seen) == 1 else None


def test_layout_is_the_hex_board_with_the_dots_round_it():
    for i in range(61):  # the tables are the formula of the module text
        c, u = gipf.coords(i)
        x, y = 2 * c - 1, 11 - 2 * u + c
        if i >= 37:  # dots: one pixel closer to the spots
            x, y = (0 if c == 0 else 14 if c == 8 else x,
                    y if c in (0, 8) else y - 1 if u == max(0, c - 4) else y + 1)
        assert (view.X[i], view.Y[i]) == (x, y), gipf.name(i)
    ring = "a1 a2 a3 a4 a5 b6 c7 d8 e9 f8 g7 h6 i5 i4 i3 i2 i1 h1 g1 f1 e1 d1 c1 b1".split()
    assert [gipf.name(d) for d in view.RING] == ring
    assert (view.X[at("e1")], view.Y[at("e1")]) == (7, 14)  # White's side at the bottom
    assert (view.X[at("e9")], view.Y[at("e9")]) == (7, 0)
    assert (view.X[at("e5")], view.Y[at("e5")]) == (7, 7)  # the centre
    assert (view.X[at("a3")], view.Y[at("a3")]) == (0, 7)
    assert (view.X[at("i3")], view.Y[at("i3")]) == (14, 7)
    seen = set()
    for i in range(61):
        x, y = view.X[i], view.Y[i]
        assert 0 <= x <= 14 and 0 <= y <= 14  # row 15 and column 15 hold the bars
        if i < 37:
            assert 1 <= x <= 13 and 1 <= y <= 13
        seen.add((x, y))
    assert len(seen) == 61
    for r in range(42):  # hex neighbours: 2 apart up a column, 2 across and 1 up or down
        walk = gipf.ray_spots(r)
        d = gipf.RAY_DOT[r]
        assert max(abs(view.X[d] - view.X[walk[0]]), abs(view.Y[d] - view.Y[walk[0]])) <= 2
        for a, b in zip(walk, walk[1:]):
            assert (abs(view.X[a] - view.X[b]), abs(view.Y[a] - view.Y[b])) in ((0, 2), (2, 1))
    for p in (0, 1):  # the side-to-act squares touch no point of the board
        x0, y0 = view.MARK[p]
        for i in range(61):
            assert not (x0 - 1 <= view.X[i] <= x0 + 2 and y0 - 1 <= view.Y[i] <= y0 + 2)
    assert sorted(view.RING) == list(range(37, 61))
    for k in range(24):  # the ring goes round neighbouring dots
        a, b = view.RING[k], view.RING[(k + 1) % 24]
        assert abs(view.X[a] - view.X[b]) <= 2 and abs(view.Y[a] - view.Y[b]) <= 2


def test_cursor_goes_round_the_rim_and_across():
    assert view.step(at("a1"), "right") == at("b1")
    assert view.step(at("e1"), "right") == at("f1")
    assert view.step(at("e1"), "up") == at("e9")  # across the board
    assert view.step(at("e1"), "down") == at("e1")  # the edge: stays
    assert view.step(at("a3"), "up") == at("a4")
    assert view.step(at("a3"), "right") == at("i3")
    assert view.step(at("i5"), "left") == at("h6")
    assert view.step(at("c1"), "up") == at("c7")
    # at the rim's four turns, the dot right beside is the way (b1 up went to b6)
    for dot, arrow, to in (("b1", "up", "a1"), ("h1", "up", "i1"), ("b6", "down", "a5"),
                           ("h6", "down", "i5"), ("a1", "down", "b1"), ("i1", "down", "h1")):
        assert view.step(at(dot), arrow) == at(to), (dot, arrow)
    longest = 0
    for a in range(37, 61):
        for b in range(37, 61):
            path = route(a, b, view.step)
            pos = a
            for arrow in path:
                pos = view.step(pos, arrow)
            assert pos == b
            longest = max(longest, len(path))
    assert longest <= 7


def test_picking_a_dot_previewing_and_pushing():
    g = gipf.Game()
    ui = view.new_ui(g)
    assert ui.cursor == at("e1")
    assert press(g, ui, "ok") is None and ui.dot == at("e1")
    assert g.text(ui.ray) == "e1-e2"
    assert press(g, ui, "up", now=1000) is None and ui.refused == 1400  # a corner: one ray
    assert press(g, ui, "back") is None and ui.dot is None  # put down
    assert press(g, ui, "back") == BACK  # nothing to cancel: the app may take back
    press(g, ui, "left", "left", "left", "ok")  # b1: two rays, up the column or right
    assert ui.dot == at("b1") and g.text(ui.ray) == "b1-b2"
    press(g, ui, "right")
    assert g.text(ui.ray) == "b1-c2"
    press(g, ui, "left")  # no ray that way: stays
    assert g.text(ui.ray) == "b1-c2"
    press(g, ui, "up")
    assert g.text(ui.ray) == "b1-b2"
    a = press(g, ui, "ok")
    assert g.text(a) == "b1-b2" and ui.dot is None
    ui.cursor = at("a2")
    press(g, ui, "ok", "up")
    assert g.text(press(g, ui, "ok")) == "a2-b3"


def test_a_dot_without_a_push_is_refused():
    g = game(white=("b2", "d4", "f5", "h5"), black=("c3", "e5", "g5"))  # a1-b2 is full
    ui = view.new_ui(g)
    ui.cursor = at("a1")
    assert press(g, ui, "ok", now=1000) is None and ui.dot is None and ui.refused == 1400
    c = shot(g, ui, 1200)
    assert pixel(c, "a1") == palette.REFUSED
    c = shot(g, ui, 2400)
    assert pixel(c, "a1") == palette.CURSOR  # the cue is over
    c = shot(g, ui, 2000)
    assert pixel(c, "a1") == palette.LINE and pixel(c, "i5") == palette.LINE  # no push there
    assert pixel(c, "a2") == dim(WHITE, 1, 3)  # a legal dot, hinted


def test_pixels_at_the_start_cursor_hints_bars_and_side():
    g = gipf.Game()
    ui = view.new_ui(g)
    c = shot(g, ui, 0)  # blink phase on: the cursor shows
    assert pixel(c, "e1") == palette.CURSOR
    for d in range(37, 61):  # every dot has a push
        if d != at("e1"):
            assert c.get(view.X[d], view.Y[d]) == dim(WHITE, 1, 3)
    assert pixel(c, "e2") == WHITE and pixel(c, "b5") == WHITE and pixel(c, "h5") == WHITE
    assert pixel(c, "b2") == BLACK and pixel(c, "e8") == BLACK and pixel(c, "h2") == BLACK
    assert pixel(c, "e5") == palette.POINT
    assert bar(c, 0) == "o" * 12 + "..." and bar(c, 1) == "o" * 12 + "..."
    assert mark(c, 0) == WHITE and mark(c, 1) == 0
    c = shot(g, ui, 400)  # blink phase off
    assert pixel(c, "e1") == dim(WHITE, 1, 3)
    play(g, ui, g.parse("e1-e2"))
    c = shot(g, ui, 400)  # (the cursor stays on e1, blinking)
    assert pixel(c, "e1") == dim(WHITE, 1, 2)  # White's last push came from there
    assert pixel(c, "d1") == dim(BLACK, 1, 3)  # Black's turn: hints in Black's colour
    assert bar(c, 0) == "o" * 11 + "...." and bar(c, 1) == "o" * 12 + "..."
    assert mark(c, 0) == 0 and mark(c, 1) == BLACK


def test_push_preview_steps_the_chain_along_the_ray():
    g = game(white=("c2", "c3"), black=("c4",), res=(6, 6))
    ui = view.new_ui(g)
    ui.cursor = at("c1")
    press(g, ui, "ok")
    assert g.text(ui.ray) == "c1-c2"
    c = shot(g, ui, 0)  # before: the new piece on the dot, the chain where it is
    assert pixel(c, "c1") == WHITE
    assert [pixel(c, n) for n in ("c2", "c3", "c4", "c5")] == [WHITE, WHITE, BLACK,
                                                               view.PATH]  # the way on
    c = shot(g, ui, 400)  # after: everything one step on, the dot empty
    assert pixel(c, "c1") == dim(WHITE, 1, 3)
    assert [pixel(c, n) for n in ("c2", "c3", "c4", "c5", "c6")] == [WHITE, WHITE, WHITE, BLACK,
                                                                     view.PATH]
    assert g.piece_at(at("c5")) is None  # only drawn
    press(g, ui, "right")  # the other ray, c1-d2: its first spot is empty
    assert g.text(ui.ray) == "c1-d2"
    c = shot(g, ui, 400)
    assert pixel(c, "d2") == WHITE and pixel(c, "c2") == WHITE and pixel(c, "c5") == palette.POINT
    c = shot(g, ui, 0)
    assert pixel(c, "d2") == view.PATH and pixel(c, "c1") == WHITE  # the new way glows


def test_row_choice_shows_the_selected_row_and_whose_choice():
    # White's rows c2-c5 and b3-e3 cross at c3: Black (who pushed) waits, White chooses.
    g = game(white=("c2", "c3", "c4", "c5", "b3", "d3", "e3"), black=("f6",), side=0,
             mover="1")
    assert g.removal_pending() and g.to_move == 0 and g.mover() == 1
    ui = view.new_ui(g)
    rows = sorted(g.legal())
    assert [g.text(a) for a in rows] == ["xb3-e3", "xc2-c5"]
    c = shot(g, ui, 0)
    for n in ("b3", "c3", "d3", "e3"):  # the selected row, blinking on
        assert pixel(c, n) == WHITE
    for n in ("c2", "c4", "c5"):
        assert pixel(c, n) == dim(WHITE, 1, 3)  # the rest of the board dimmed
    assert pixel(c, "f6") == dim(BLACK, 1, 3)
    assert pixel(c, "a3") == palette.CURSOR and pixel(c, "g1") == palette.CURSOR  # line ends
    assert pixel(c, "e1") == palette.LINE  # no dots hinted, no cursor
    assert mark(c, 0) == WHITE and mark(c, 1) == 0  # White's choice
    c = shot(g, ui, 400)
    assert pixel(c, "d3") == dim(WHITE, 1, 4) and pixel(c, "c4") == dim(WHITE, 1, 3)
    assert mark(c, 0) == palette.CURSOR
    assert press(g, ui, "right") is None
    c = shot(g, ui, 0)
    assert pixel(c, "c4") == WHITE and pixel(c, "d3") == dim(WHITE, 1, 3)
    assert pixel(c, "c1") == palette.CURSOR and pixel(c, "c7") == palette.CURSOR
    assert pixel(c, "a3") == palette.LINE
    press(g, ui, "right", "left")
    assert press(g, ui, "ok") == rows[1]
    # Black chooses between his crossing rows after White's push.
    g = game(black=("c2", "c3", "c4", "c5", "b3", "d3", "e3"), side=1, mover="0")
    ui = view.new_ui(g)
    c = shot(g, ui, 0)
    assert mark(c, 1) == BLACK and mark(c, 0) == 0
    assert pixel(c, "b3") == BLACK and pixel(c, "c2") == dim(BLACK, 1, 3)


def test_removal_blinks_what_left_then_marks_it():
    # White pushes c1-c2: c2..c5 White and Black's c6 make one segment, taken at once.
    g = game(white=("c2", "c3", "c4"), black=("c6", "e5"), res=(12, 13))
    ui = view.new_ui(g)
    for key in view.keys_for(g, ui, g.parse("c1-c2")):
        a = view.handle(g, ui, key[0], key[1], 0)
    play(g, ui, a)
    assert [gipf.name(s) for s in g.segment(g.last_removed()[0][1])] == [
        "c2", "c3", "c4", "c5", "c6"]
    assert g.captured(1) == 1 and g.captured(0) == 0 and g.reserve(0) == 15
    c = shot(g, ui, 5000)  # the first frame since the action starts the blinking
    assert [pixel(c, n) for n in ("c2", "c3", "c4", "c5", "c6")] == [WHITE] * 4 + [BLACK]
    c = shot(g, ui, 5200)
    assert [pixel(c, n) for n in ("c2", "c5", "c6")] == [0, 0, 0]
    c = shot(g, ui, 5400)
    assert pixel(c, "c6") == BLACK
    c = shot(g, ui, 5000 + view.GONE_MS)
    assert [pixel(c, n) for n in ("c2", "c3", "c4", "c5", "c6")] == [view.GONE] * 5
    assert pixel(c, "e5") == BLACK and pixel(c, "c1") == dim(WHITE, 1, 2)  # the last push
    assert bar(c, 0) == "o" * 15
    assert bar(c, 1) == "o" * 13 + ".x"  # Black's captured piece at the far end
    # A take-back (the app undoes, then syncs): the marks go, nothing blinks.
    g.undo()
    view.sync(g, ui)
    c = shot(g, ui, 9000)
    assert pixel(c, "c2") == WHITE and pixel(c, "c5") == palette.POINT
    # Redone: blinks again; a chosen removal blinks too.
    play(g, ui, g.parse("c1-c2"))
    c = shot(g, ui, 9100)  # (started at the first frame after the sync)
    assert pixel(c, "c2") == WHITE
    play(g, ui, g.parse("e9-e8"))  # takes nothing: no marks
    c = shot(g, ui, 20000)
    assert pixel(c, "c2") == palette.POINT and pixel(c, "e8") == BLACK
    g.undo()  # back to just after c1-c2: its marks again, but no blinking
    view.sync(g, ui)
    c = shot(g, ui, 30000)
    assert pixel(c, "c2") == view.GONE and pixel(c, "c6") == view.GONE
    g = game(white=("c2", "c3", "c4", "c5", "b3", "d3", "e3"), black=("b2",), side=0,
             mover="1")
    ui = view.new_ui(g)
    play(g, ui, g.parse("xb3-e3"))
    c = shot(g, ui, 100)
    assert [pixel(c, n) for n in ("b3", "c3", "d3", "e3")] == [WHITE] * 4
    assert pixel(c, "c2") == WHITE
    c = shot(g, ui, 300)
    assert pixel(c, "b3") == 0 and pixel(c, "c2") == WHITE


def test_bars_count_past_15_and_captured_pieces():
    g = game(white=("b2",), black=("h5",), res=(16, 10), handicap=(2, 0))
    assert g.total(0) == 17 and g.captured(0) == 0 and g.captured(1) == 4
    ui = view.new_ui(g)
    c = shot(g, ui, 0)
    assert bar(c, 0) == "o" * 15  # more than 15: the first ones blink
    assert bar(c, 1) == "o" * 10 + ".xxxx"
    c = shot(g, ui, 400)
    assert c.get(0, 15) == dim(WHITE, 1, 3) and c.get(1, 15) == WHITE


def test_end_shows_the_winner_without_cursor_or_hints():
    g = game(white=("b2",), black=("h5", "e5"), res=(0, 3))  # White must move: no reserve
    assert g.result() == (1, "reserve")
    ui = view.new_ui(g)
    assert press(g, ui, "ok") is None and ui.dot is None
    for now in (0, 400):
        c = shot(g, ui, now)
        assert mark(c, 1) == BLACK and mark(c, 0) == 0
        assert pixel(c, "e1") == palette.LINE and pixel(c, "a2") == palette.LINE
        assert bar(c, 0) == "." + "x" * 14 and bar(c, 1) == "ooo.." + "x" * 10


def test_options_for_the_setup_screen():
    assert view.LABELS == {"handicap": "HCP"}
    assert view.CHOICES["handicap"][0] == (0, 0)
    for h in view.CHOICES["handicap"]:
        g = gipf.Game(handicap=h)
        assert g.reserve(0) == 12 + h[0] and g.reserve(1) == 12 + h[1]
        c = shot(g, view.new_ui(g), 0)
        assert bar(c, 0) == "o" * (12 + h[0]) + "." * (3 - h[0])


def test_scales_to_32x32():
    g = game(white=("c2", "c3", "c4", "c5", "b3", "d3", "e3"), black=("f6",), mover="1")
    ui = view.new_ui(g)
    assert_scales_to_32(view, g, ui)


def _choices(g):
    """How many row choices a finished game had."""
    h = gipf.Game(**g.options)
    n = 0
    for a in g.actions():
        n += a >= gipf.NRAYS
        h.play(a)
    return n


def test_keys_for_every_action_of_random_games():
    random.seed(7)
    with_choice = 0
    played = 0
    seed = 0
    while (with_choice < 2 or played < 4) and seed < 600:
        src = random_game(gipf, seed)
        seed += 1
        n = _choices(src)
        if n == 0 and played >= 4:
            continue  # look for games with row choices
        played += 1
        with_choice += n > 0
        g = gipf.Game()
        ui = view.new_ui(g)
        for a in src.actions():
            if a < gipf.NRAYS and seed % 2:  # start from a wrong dot picked, sometimes
                dots = g.legal_dots()
                d = dots[random.getrandbits(8) % len(dots)]
                if d != gipf.RAY_DOT[a]:
                    ui.cursor = d
                    view.handle(g, ui, "ok", "press", 0)
            if a >= gipf.NRAYS:
                ui.choice = random.getrandbits(8) % 3
            got = None
            for button, kind in view.keys_for(g, ui, a):
                assert got is None, "keys go on after the action was made"
                got = view.handle(g, ui, button, kind, 0)
            assert got == a, (g.text(a), got)
            if a < gipf.NRAYS:
                pusher = g.to_move
            g.play(a)
            view.sync(g, ui)
            assert a >= gipf.NRAYS or ui.last == gipf.RAY_DOT[a]
            c = shot(g, ui, 400)  # the last push's dot in the pusher's colour, at any moment
            if not (g.removal_pending() and ui.last in ui.seg[1]):  # (unless a line's end)
                assert c.get(view.X[ui.last], view.Y[ui.last]) == dim((WHITE, BLACK)[pusher], 1, 2)
        assert g.result() == src.result()
    assert with_choice >= 2, "no random game with a row choice in %d seeds" % seed
