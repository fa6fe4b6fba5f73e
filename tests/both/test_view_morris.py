"""The Morris view: cursor moves, what OK does in each phase, and pixels at key moments."""
from shared_rules import morris
from views import morris as view
from views import BACK, palette, route
from helpers import assert_scales_to_32, random_game
from views.canvas import Canvas, dim


def at(name):
    return morris.POINTS.index(name)


def setup(red=(), green=(), hands=(0, 0), side=0):
    cells = "".join("R" if p in red else "G" if p in green else "." for p in morris.POINTS)
    g = morris.Game()
    g.set_position("%s %d %d %d 0 - -" % (cells, hands[0], hands[1], side))
    return g


def pixel(c, name):
    x, y = view.XY[at(name)]
    return c.get(x, y)


def press(g, ui, *buttons):
    out = None
    for b in buttons:
        out = view.handle(g, ui, b, "press", 0)
    return out


def go(ui, name):
    """Arrow presses that bring the cursor to a point."""
    return route(ui.cursor, at(name), view.step)


def test_cursor_moves_straight_and_reaches_every_point():
    assert view.step(at("d6"), "up") == at("d7")
    assert view.step(at("d7"), "up") == at("d7")  # the edge: stays
    assert view.step(at("a1"), "right") == at("d1")
    assert view.step(at("c4"), "right") == at("e4")  # across the empty centre
    assert view.step(at("a4"), "down") == at("a1")
    assert view.step(at("b6"), "down") == at("b4")
    ui = view.new_ui(morris.Game())
    for name in morris.POINTS:
        ui.cursor = at("d6")
        for d in go(ui, name):
            ui.cursor = view.step(ui.cursor, d)
        assert ui.cursor == at(name)


def test_placing_and_refusing():
    g = morris.Game()
    ui = view.new_ui(g)
    assert press(g, ui, *go(ui, "a1")) is None and ui.cursor == at("a1")
    a = press(g, ui, "ok")
    assert g.text(a) == "a1"
    g.play(a)
    view.sync(g, ui)
    assert view.handle(g, ui, "ok", "press", 1000) is None  # a1 is taken now
    assert ui.refused == 1400


def test_moving_picks_up_then_puts_down():
    g = setup(red=("a1", "d1", "a4"), green=("c3", "d3", "e3"))
    ui = view.new_ui(g)
    ui.cursor = at("a4")
    assert press(g, ui, "ok") is None and ui.sel == at("a4")  # picked up
    assert press(g, ui, "back") is None and ui.sel is None  # put back
    assert press(g, ui, "back") == BACK  # nothing to cancel: the app may take back
    press(g, ui, "ok")
    ui.cursor = at("b4")
    a = press(g, ui, "ok")
    assert g.text(a) == "a4-b4" and ui.sel is None
    ui.cursor = at("g7")  # an empty point with nothing picked up
    assert press(g, ui, "ok") is None and ui.refused


def test_pixels_cursor_hint_removal_and_end():
    g = morris.Game()
    ui = view.new_ui(g)
    c = Canvas()
    red, green = ui.colours
    view.render(g, ui, c, 0)  # blink phase on: the cursor shows
    assert pixel(c, "d6") == palette.CURSOR
    assert pixel(c, "a1") == dim(red, 1, 3)  # every empty point is a legal placement
    assert c.get(0, 15) == red and c.get(8, 15) == red and c.get(9, 15) == 0  # 9 in hand
    assert c.get(15, 8) == green and c.get(15, 9) == 0
    assert c.get(14, 14) == red  # Red to act
    assert c.get(1, 0) == palette.LINE and c.get(1, 1) == 0
    view.render(g, ui, c, 400)  # blink phase off
    assert pixel(c, "d6") == dim(red, 1, 3)
    # A mill: Red owes a removal; the stones that may go flicker, the corner blinks white.
    g = setup(red=("a1", "d1"), green=("b2", "d2"), hands=(5, 5))
    g.play("g1")
    ui = view.new_ui(g)
    view.render(g, ui, c, 400)
    assert pixel(c, "b2") == dim(green, 1, 4) and c.get(14, 14) == palette.CURSOR
    assert pixel(c, "g1") == red  # the stone just placed, amber around it
    gx, gy = view.XY[at("g1")]
    assert c.get(gx - 1, gy) == palette.LAST and c.get(gx, gy - 1) == palette.LAST
    assert c.get(gx + 1, gy) == 0  # off the board: not drawn
    view.render(g, ui, c, 0)
    assert pixel(c, "b2") == green and c.get(14, 14) == red
    g.play("xb2")
    view.sync(g, ui)
    view.render(g, ui, c, 0)
    assert pixel(c, "b2") == 0x300000  # where the stone was taken, over the hint
    assert pixel(c, "f2") == dim(green, 1, 3) and c.get(14, 14) == green
    # The end: Green is blocked; the corner shows the winner, no cursor.
    g = setup(red=("a7", "b4", "d2", "g4", "b6"), green=("a1", "d1", "g1", "a4"))
    g.play("b6-d6")
    assert g.result() == (0, "blocked")
    ui = view.new_ui(g)
    ui.cursor = at("f6")
    view.render(g, ui, c, 0)
    assert c.get(14, 14) == red and pixel(c, "d6") == red
    dx, dy = view.XY[at("d6")]  # both ends of the last move: the stone ringed, b6 amber
    assert [c.get(x, y) for x, y in ((dx - 1, dy), (dx + 1, dy), (dx, dy - 1), (dx, dy + 1))] \
        == [palette.LAST] * 4
    assert pixel(c, "b6") == palette.LAST
    assert pixel(c, "f6") == palette.POINT  # no cursor once the game is over


def test_scales_to_32x32():
    g = morris.Game()
    ui = view.new_ui(g)
    assert_scales_to_32(view, g, ui)


def test_keys_for_every_action_of_random_games():
    for seed in range(3):
        g = morris.Game()
        ui = view.new_ui(g)
        for a in random_game(morris, seed).actions():
            if seed == 1 and g.legal() and g.text(a).count("-"):
                ui.sel = None  # sometimes start with a stone picked up by mistake
                for b in g.legal():
                    f = g.text(b).split("-")[0]
                    if g.text(b).count("-") and f != g.text(a).split("-")[0]:
                        ui.sel = morris.POINTS.index(f)
                        break
            got = None
            for button, kind in view.keys_for(g, ui, a):
                assert got is None, "keys go on after the action was made"
                got = view.handle(g, ui, button, kind, 0)
            assert got == a, (g.text(a), got)
            g.play(a)
            view.sync(g, ui)
