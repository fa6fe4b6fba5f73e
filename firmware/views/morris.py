"""Nine Men's Morris on the matrix: the board's 7x7 grid of points at even pixels (0..12),
lines dim between them; stones in hand along the bottom row (player 0) and the right column
(player 1); the side to act in the bottom-right 2x2 square, blinking while a stone is owed.
The last turn stays marked until the next: amber pixels round the stone that was placed or
moved, the point it left amber, the point of a stone taken dark red.
Controls: arrows move the cursor from point to point, OK places / picks up a stone / moves
it / removes a stone; BACK drops a picked-up stone."""
from shared_rules.morris import MOVE, POINTS, REMOVE, neighbours
from views import UI as _UI, bar, palette, route
from views.canvas import dim

LABELS = {"double_mill_takes_two": "2X", "no_immediate_returns": "RET"}
HELP = {"double_mill_takes_two": "TWO MILLS AT ONCE TAKE TWO STONES",
        "no_immediate_returns": "RET ON: NO STONE MAY STEP STRAIGHT BACK"}
CHOICES = {"double_mill_takes_two": (True, False), "no_immediate_returns": (False, True)}

# Pixel of each point: file a..g -> x 0..12, rank 7..1 -> y 0..12.
XY = tuple((2 * "abcdefg".index(n[0]), 12 - 2 * (int(n[1]) - 1)) for n in POINTS)
GONE = 0x300000  # the point of the last removal


class UI(_UI):
    def __init__(self):
        self.cursor = POINTS.index("d6")
        self.sel = None  # the stone picked up to move
        self.last = ()  # points of the last turn: (to, from, removed...) as ("to", i) pairs
        self.targets = {}  # what OK may act on (_targets), worked out once per change

    def drop(self):
        held, self.sel = self.sel, None
        return held is not None


def new_ui(game):
    ui = UI()
    sync(game, ui)
    return ui


def sync(game, ui):
    """Recompute what the view shows of the last turn after the game changed."""
    marks = []
    back = 1
    a = game.last()
    while a is not None:
        if a >= REMOVE:
            marks.append(("gone", a - REMOVE))
        else:
            if a >= MOVE:
                marks.append(("from", (a - MOVE) // 24))
            marks.append(("to", _points(a)[-1]))
            break
        back += 1
        a = game.last(back)
    ui.last = marks
    ui.sel = None
    ui.targets = None  # (the last ones are garbage while the next are made)
    ui.targets = _targets(game)


def step(point, direction):
    """The point the cursor goes to from `point` for an arrow; itself when none lies there."""
    x, y = XY[point]
    dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[direction]
    best, best_cost = point, None
    for i, (px, py) in enumerate(XY):
        ahead = (px - x) * dx + (py - y) * dy
        if ahead <= 0:
            continue
        cost = ahead + 3 * abs((px - x) * dy + (py - y) * dx)  # straight on first
        if best_cost is None or cost < best_cost:
            best, best_cost = i, cost
    return best


def _points(a):
    """The points of action a: [point] for a placement or a removal, [from, to] for a move."""
    if a >= REMOVE:
        return [a - REMOVE]
    if a >= MOVE:
        return list(divmod(a - MOVE, 24))
    return [a]


def arrow(game, action):
    """The pixels of an action: (from, to) for a move, the point of a placement or removal."""
    return tuple(XY[p] for p in _points(action))


def _targets(game):
    """What OK may act on now: {point: action} for placements, removals and stones to move,
    and {(from, to): action} for moves."""
    out = {}
    for a in game.legal():
        points = _points(a)
        if len(points) == 2:
            out[tuple(points)] = a
            out.setdefault(points[0], None)  # a stone that can move: pick it up
        else:
            out[points[0]] = a
    return out


def keys_for(game, ui, action):
    points = _points(action)
    keys, cursor = [], ui.cursor
    if ui.sel is not None and ui.sel != points[0] and len(points) == 2:
        keys.append(("back", "press"))  # put the wrong stone down first
    for p in points:
        if ui.sel == p and len(points) == 2 and p == points[0]:
            continue  # already picked up
        keys += [(arrow, "press") for arrow in route(cursor, p, step)]
        keys.append(("ok", "press"))
        cursor = p
    return keys


def handle(game, ui, button, kind, now=0):
    if button in ("left", "right", "up", "down"):
        ui.cursor = step(ui.cursor, button)
        return None
    if button == "back":
        return ui.back()
    if button != "ok" or game.to_move is None:
        return None
    targets = ui.targets
    c = ui.cursor
    if ui.sel is not None:
        a = targets.get((ui.sel, c))
        if a is not None:
            ui.sel = None
            return a
        if c == ui.sel:
            ui.sel = None
            return None
    if c in targets:
        if targets[c] is None:
            ui.sel = c  # picked up; OK on a target moves it
            return None
        return targets[c]
    ui.refuse(now)
    return None


def render(game, ui, canvas, now):
    canvas.backdrop("morris", _lines)
    blink = ui.blink(now)
    _last_turn(game, ui, canvas)
    _stones(game, ui, canvas, blink)
    if game.to_move is not None and not ui.cursor_hidden:  # the cursor
        x, y = XY[ui.cursor]
        if now < ui.refused:
            canvas.set(x, y, palette.REFUSED)
        elif blink:
            canvas.set(x, y, palette.CURSOR)
    colours = ui.colours
    for p in (0, 1):  # stones in hand
        for k in range(game.in_hand(p)):
            bar(canvas, p, k, colours[p])
    result = game.result()
    if result is None:
        side = colours[game.to_move]
        if game.removals_pending() and not blink:
            side = palette.CURSOR
    else:
        side = colours[result[0]] if result[0] is not None else colours[0 if blink else 1]
    canvas.rect(14, 14, 2, 2, side)


def _lines(canvas):
    """The board's lines, dim, between the points."""
    for i in range(24):
        x, y = XY[i]
        for j in neighbours(i):
            if j > i:
                nx, ny = XY[j]
                sx, sy = (nx > x) - (nx < x), (ny > y) - (ny < y)
                px, py = x + sx, y + sy
                while (px, py) != (nx, ny):
                    canvas.set(px, py, palette.LINE)
                    px, py = px + sx, py + sy


def _last_turn(game, ui, canvas):
    """The last turn's marks: points left empty get the mark; a stone that came, a halo."""
    for kind, i in ui.last:
        x, y = XY[i]
        if kind == "to" and game.stone_at(i) is not None:
            for hx, hy in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= hx <= 12 and 0 <= hy <= 12:
                    canvas.set(hx, hy, palette.LAST)
        else:
            canvas.set(x, y, palette.LAST if kind != "gone" else GONE)


def _stones(game, ui, canvas, blink):
    """The stones (one that may be taken flickers, the one picked up blinks), and the empty
    points, hinted where OK would act."""
    colours, targets, mover, sel = ui.colours, ui.targets, game.to_move, ui.sel
    taking = game.removals_pending()
    marked = [k[1] for k in ui.last]  # the last turn's marks tell more, for now
    for i in range(24):
        owner = game.stone_at(i)
        if owner is not None:
            colour = colours[owner]
            if taking and ui.targets_shown and i in targets and not blink:
                colour = dim(colour, 1, 4)  # a stone that may be taken flickers
            if i == sel:
                colour = palette.CURSOR if blink else colour
        elif i in marked:
            continue
        elif ui.targets_shown and ((sel, i) in targets if sel is not None
                                   else targets.get(i) is not None):
            colour = dim(colours[mover], 1, 3)  # OK here would act
        else:
            colour = palette.POINT
        x, y = XY[i]
        canvas.set(x, y, colour)
