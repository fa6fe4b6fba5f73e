"""GIPF (basic) on the matrix.  The hex board as it lies in front of White (e1 at the bottom):
column a..i at x = 2c - 1, a point's half-row at y = 11 - 2u + c (neighbours up a column are 2
pixels apart, across columns 2 right and 1 up or down), so the 37 spots fill x 1..13, y 1..13
with a gap between any two.  The 24 dots lie one pixel outside the spots (columns a and i at
x 0 and 14, the others' ends one pixel closer than on the board); the board takes x, y 0..14.
Row 15 is White's bar, column 15 Black's (from the top): one pixel per reserve piece from the
start (past 15 the first ones blink), the pieces the other side has captured in dim red from
the far end.  A 2x2 square at the start of a bar (x 0..1, y 13..14 for White; x 13..14,
y 0..1 for Black) marks the side to act; it blinks white while that side must choose which
row to take.  Legal dots glow dimly in the mover's colour, the dot of the last push in the
pusher's colour (half bright).  The pieces the last action took blink where they were for a
second, then those spots stay dim red until the next action.
Controls: the arrows move the cursor from dot to dot round the rim: to the next dot round it
that lies within 45 degrees of the arrow, or right beside it (b1 up is a1, as the rim turns),
else straight across the board that way (a3 right is i3). So left/right walk the bottom and
top rims, up/down the sides. OK picks a dot; its push is then previewed: the pieces step back
and forth along the ray and the rest of the ray's line glows PATH yellow, the way the push
goes (captures are dark red: the spots that were taken, and the bars' captured pieces); an
arrow points at the dot's other ray, OK pushes, BACK returns to the dots.  A row to choose
blinks on a dimmed board, with white dots at both ends of its line: arrows go to the next
row, OK takes it."""
from shared_rules.gipf import NRAYS, RAY_DOT, index, ray_spots
from views import UI as _UI, bar, palette, route
from views.canvas import dim

LABELS = {"handicap": "HCP"}
HELP = {"handicap": "HANDICAP: EXTRA PIECES FOR WHITE/BLACK"}
CHOICES = {"handicap": ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3))}

NSPOTS = 37  # points 0..36 are spots, 37..60 dots
DIRS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
GONE = 0x300000  # where pieces were taken; also the captured pieces in the bars
PATH = 0x302800  # the line a previewed push goes along: yellow, unlike a capture's red
GONE_MS = 1200  # the taken pieces blink this long
BAR = 15  # pixels in a bar
MARK = ((0, 13), (13, 0))  # top-left of White's and Black's side-to-act square


# The pixel of each point (spots 0..36, dots 37..60): x = 2c - 1, y = 11 - 2u + c, the dots
# then one pixel closer to the spots (tests/both/test_view_gipf.py derives them again).
X = bytes.fromhex("010101010303030303050505050505070707070707070909090909090b0b0b0b0b0d0d0d0d"
                  "0000000000010103030505070709090b0b0d0d0e0e0e0e0e")
Y = bytes.fromhex("0a0806040b090705030c0a080604020d0b09070503010c0a080604020b090705030a080604"
                  "0b090705030b030c020d010e000d010c020b030b09070503")
# The dots round the rim, clockwise on the screen from a1 (bottom left): a1..a5, b6, c7, d8,
# e9, f8, g7, h6, i5..i1, h1, g1, f1, e1, d1, c1, b1.
RING = bytes.fromhex("25262728292b2d2f313335373c3b3a3938363432302e2c2a")


class UI(_UI):
    def __init__(self):
        self.cursor = index("e1")  # the dot the cursor is on: in front of White
        self.dot = None  # the dot picked: its push is previewed
        self.ray = None  # the ray previewed
        self.choice = 0  # which of the rows to choose from is selected
        self.seg = None  # (removal action, the dots at both ends of its line)
        self.last = None  # the dot of the last push
        self.last_by = 0  # who made it
        self.hints = b""  # the dots with a push now
        self.rows = ()  # while a row is chosen: the rows to choose from, in a fixed order
        self.gone = b""  # what the last action took: spot, colour (0/1) pairs
        self.gone_t = 0  # when their blinking began; None: at the next frame
        self.ply = 0

    def drop(self):
        held, self.dot = self.dot, None
        return held is not None


def new_ui(game):
    ui = UI()
    sync(game, ui)
    return ui


def sync(game, ui):
    """Recompute what the view shows after the game changed (a move here or elsewhere, undo)."""
    ui.dot = ui.ray = ui.seg = None
    ui.choice = 0
    ui.last = None
    back = 1
    a = game.last()
    while a is not None:  # the last push; the rows taken since are skipped
        if a < NRAYS:
            ui.last = RAY_DOT[a]
            break
        back += 1
        a = game.last(back)
    # Who made that push: the player whose turn is under way while a row is chosen, else
    # the one not to move (at the end: the winner, as the loser was to move).
    result = game.result()
    ui.last_by = game.mover() if game.removal_pending() else (
        1 - game.to_move if result is None else result[0])
    ui.hints = bytes(game.legal_dots())  # the dots with a push (none while a row is chosen)
    ui.rows = sorted(game.legal()) if game.removal_pending() else ()
    ui.gone = game.last_taken()
    plies = game.plies()
    ui.gone_t = None if plies == ui.ply + 1 else -GONE_MS  # blink only what just left
    ui.ply = plies


def _ahead(a, b, arrow):
    """How far dot b lies from point a in the arrow's direction, and how far aside."""
    dx, dy = DIRS[arrow]
    ex, ey = X[b] - X[a], Y[b] - Y[a]
    return ex * dx + ey * dy, abs(ex * dy + ey * dx)


def step(point, arrow):
    """The dot the cursor goes to from dot `point` for an arrow: the next dot round the rim
    if it lies within 45 degrees of the arrow, else the dot across the board straight that
    way (the one least aside, then the nearest); itself when none lies there."""
    r = RING.find(bytes((point,)))
    best, cost = point, None
    for n in (RING[r - 1], RING[(r + 1) % 24]):
        ahead, aside = _ahead(point, n, arrow)
        if (0 < ahead and aside <= ahead or ahead == 0 and aside == 1) and (
                cost is None or ahead + 3 * aside < cost):  # or right beside: the rim's turn
            best, cost = n, ahead + 3 * aside
    if cost is not None:
        return best
    for n in RING:
        ahead, aside = _ahead(point, n, arrow)
        if 0 < ahead and aside <= ahead and (cost is None or aside * 64 + ahead < cost):
            best, cost = n, aside * 64 + ahead
    return best


def _rays(game, dot):
    """The legal pushes from a dot."""
    return [a for a in game.legal() if a < NRAYS and RAY_DOT[a] == dot]


def ray_step(game, dot, ray, arrow):
    """The ray an arrow picks while the push from `dot` along `ray` is previewed: the legal
    ray of the dot whose first spot lies most in the arrow's direction; `ray` if none does."""
    best, most = ray, 0
    for a in _rays(game, dot):
        ahead = _ahead(dot, ray_spots(a)[0], arrow)[0]
        if ahead > most or (ahead == most and a == ray):
            best, most = a, ahead
    return best


def keys_for(game, ui, action):
    press = "press"
    if action >= NRAYS:
        rows = ui.rows
        n = len(rows)
        ahead = (rows.index(action) - ui.choice) % n
        if ahead <= n - ahead:
            return [("right", press)] * ahead + [("ok", press)]
        return [("left", press)] * (n - ahead) + [("ok", press)]
    dot, ray, keys = RAY_DOT[action], ui.ray, []
    if ui.dot != dot:
        cursor = ui.cursor
        if ui.dot is not None:
            keys.append(("back", press))  # another dot was picked: put it down
            cursor = ui.dot
        keys += [(arrow, press) for arrow in route(cursor, dot, step)]
        keys.append(("ok", press))
        ray = _rays(game, dot)[0]
    if ray != action:
        for arrow in DIRS:
            if ray_step(game, dot, ray, arrow) == action:
                keys.append((arrow, press))
                break
    keys.append(("ok", press))
    return keys


def arrow(game, action):
    """The pixels of an action: a push's dot and the first spot of its ray; a row taken,
    its two end spots (as its notation names them, xb2-b5)."""
    if action < NRAYS:
        s = ray_spots(action)[0]
        return (X[RAY_DOT[action]], Y[RAY_DOT[action]]), (X[s], Y[s])
    seg = game.segment(action)
    return (X[seg[0]], Y[seg[0]]), (X[seg[-1]], Y[seg[-1]])


def handle(game, ui, button, kind, now=0):
    if button == "back":
        return ui.back()
    if game.to_move is None:
        return None
    arrow = button in DIRS
    if game.removal_pending():
        rows = ui.rows
        if arrow:
            ui.choice = (ui.choice + (1 if button in ("right", "down") else -1)) % len(rows)
            return None
        return rows[ui.choice % len(rows)] if button == "ok" else None
    if ui.dot is not None:  # a push is previewed
        if arrow:
            ray = ray_step(game, ui.dot, ui.ray, button)
            if ray == ui.ray:
                ui.refuse(now)  # no other ray that way
            ui.ray = ray
            return None
        if button == "ok":
            ui.dot = None
            return ui.ray
        return None
    if arrow:
        ui.cursor = step(ui.cursor, button)
        return None
    if button == "ok":
        rays = _rays(game, ui.cursor)
        if rays:
            ui.dot, ui.ray = ui.cursor, rays[0]
        else:
            ui.refuse(now)
    return None


def _line_dots(game, a):
    """The dots at both ends of the line of removal action a."""
    seg = game.segment(a)
    out = []
    for r in range(NRAYS):
        spots = ray_spots(r)
        if seg[0] in spots and seg[-1] in spots:
            out.append(RAY_DOT[r])
    return out


def render(game, ui, canvas, now):
    canvas.clear()
    blink = ui.blink(now)
    seg = ()
    if game.removal_pending():
        rows = ui.rows
        sel = rows[ui.choice % len(rows)]
        if ui.seg is None or ui.seg[0] != sel:
            ui.seg = (sel, _line_dots(game, sel))
        seg = game.segment(sel)
    _spots(game, ui, canvas, now, seg)
    _dots(game, ui, canvas, now, seg)
    _bars(game, ui, canvas, blink)


def _spots(game, ui, canvas, now, seg):
    """The spots and their pieces (dimmed but for the selected row while one is chosen), and
    what the last action took."""
    colours, pending, blink = ui.colours, bool(seg), ui.blink(now)
    point, piece_at, put = palette.POINT, game.piece_at, canvas.set  # once: every frame
    for s in range(NSPOTS):
        p = piece_at(s)
        if p is None:
            colour = point
        elif not pending:
            colour = colours[p]
        elif s in seg:
            colour = colours[p] if blink else dim(colours[p], 1, 4)
        else:
            colour = dim(colours[p], 1, 3)
        put(X[s], Y[s], colour)
    gone = ui.gone
    if gone:
        if ui.gone_t is None:
            ui.gone_t = now  # the first frame since the action
        t = now - ui.gone_t
        for k in range(0, len(gone), 2):
            if game.piece_at(gone[k]) is not None:
                continue  # (only if the game changed without a sync)
            colour = GONE
            if t < GONE_MS:
                colour = colours[gone[k + 1]] if t // 200 % 2 == 0 else 0  # 3 blinks
            canvas.set(X[gone[k]], Y[gone[k]], colour)


def _dots(game, ui, canvas, now, seg):
    """The dots (legal ones hinted, the last push's amber), the cursor or the push previewed,
    or the ends of the selected row's line."""
    colours, mover, blink = ui.colours, game.to_move, ui.blink(now)
    legal = ui.hints if not seg and ui.targets_shown else b""
    hint = dim(colours[mover], 1, 3) if mover is not None else 0
    line, last, put = palette.LINE, ui.last, canvas.set  # once: every frame
    for d in range(NSPOTS, 61):
        colour = line
        if d == last:
            colour = dim(colours[ui.last_by], 1, 2)  # apart from the hints, in any colours
        elif d in legal:
            colour = hint
        put(X[d], Y[d], colour)
    if seg:
        for d in ui.seg[1]:
            canvas.set(X[d], Y[d], palette.CURSOR)
        return
    if mover is None:
        return
    d = ui.dot
    if d is not None:  # the push previewed
        for s in ray_spots(ui.ray):  # the way it goes
            if game.piece_at(s) is None:
                canvas.set(X[s], Y[s], PATH)
        if blink:
            canvas.set(X[d], Y[d], colours[mover])
        else:  # one step on: the new piece on the first spot, the chain moved along
            spots = ray_spots(ui.ray)
            p = mover
            for k in range(len(game.pushed(ui.ray)[0]) + 1):
                s = spots[k]
                canvas.set(X[s], Y[s], colours[p])
                p = game.piece_at(s)
            canvas.set(X[d], Y[d], hint)
    elif ui.cursor_hidden:
        return
    else:
        d = ui.cursor
    if now < ui.refused:
        canvas.set(X[d], Y[d], palette.REFUSED)
    elif blink and ui.dot is None:
        canvas.set(X[d], Y[d], palette.CURSOR)


def _bars(game, ui, canvas, blink):
    """Both bars (reserve from the start, captured pieces from the end) and the square of the
    side to act (blinking while it chooses a row) or of the winner."""
    colours = ui.colours
    for p in (0, 1):
        n, lost, colour = game.reserve(p), game.captured(p), colours[p]
        for k in range(BAR):
            if k < n:
                c = colour if k >= n - BAR or blink else dim(colour, 1, 3)  # over 15
            elif k >= BAR - lost:
                c = GONE
            else:
                continue
            bar(canvas, p, k, c)
    result = game.result()
    side = game.to_move if result is None else result[0]
    if side is not None:
        colour = colours[side]
        if game.removal_pending() and not blink:
            colour = palette.CURSOR
        canvas.rect(MARK[side][0], MARK[side][1], 2, 2, colour)
