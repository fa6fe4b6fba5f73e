"""Rhombus on the matrix.  The 8x8 board is a diamond of 15x15 pixels: cell (u, v) at
x = 7 + u - v, y = 14 - (u + v), so a1 is the bottom corner (towards the players), h8 the top,
h1 right, a8 left, and every Line u + v = k is a pixel row (y = 14 - k), its cells on every
other pixel.  The gaps of the Current Line are lit; the last stone placed has a dim amber pixel
above and below it.  Black's corner is bottom left (3x5 at x 0..2, y 11..15), White's bottom
right (x 13..15): a blinking '?' while that side is to bid, a solid block once a bid is in
(never its value), the stones still to place this turn once the bids are revealed; a 2x2 square
beside the corner (x 4..5 or 10..11, y 14..15) marks the side to act.  After the second bid a
card shows both bids, the first placer's underlined: it stays until the player presses a
button, and the device, when it places first, waits REVEAL_MS with the card up (holds()), so
that its bid is seen before its stones (the record and a replay show the card at that ply;
ui.board_only shows the board instead).  At the end each side's towers light up
height by height with the running score (SHOWS_RESULT), then the winner.
Controls: bidding - an arrow enters the bid as on a compass card (up 1, right 2, down 3,
left 4; every arrow looks the same on the screen), OK confirms, BACK clears it to enter again.
Placing - OK places on the blinking cell; on a new Line the arrows first move the cursor along
the rim from free edge cell to free edge cell.  Any press closes the reveal card and counts
as well: the first OK already places."""
from shared_rules.rhombus import BID, LINE, combination_score
from views import UI as _UI, palette, route
from views.canvas import dim

LABELS = {}
HELP = {}
CHOICES = {}
SHOWS_RESULT = True

X = bytes(7 + (i & 7) - (i >> 3) for i in range(64))
Y = bytes(14 - (i & 7) - (i >> 3) for i in range(64))
# The 28 edge cells clockwise on the screen from h8 (top): h8..h2, h1..b1, a1..a7, a8..g8.
RIM = bytes([7 + 8 * v for v in range(7, 0, -1)] + list(range(7, 0, -1))
            + [8 * v for v in range(7)] + [56 + u for u in range(7)])
COMPASS = ("up", "right", "down", "left")  # the arrow of bid 1, 2, 3, 4
DIRS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
CORNER = (0, 13)  # x of Black's and White's corner (3x5 at y 11..15)
MARK = (4, 10)  # x of the 2x2 square (y 14..15) that marks Black or White as the side to act
FLASH_MS = 200  # an entered bid flashes the corner white, the same for every arrow
CURRENT = 0x181818  # the gaps of the Current Line
ONCE = 0x505050  # the next cell while the bids are chosen
SLIDE_MS = (2000, 1500, 1300, 3500)  # end: final board, towers, running score, winner
REVEAL_MS = 3000  # the reveal card stays up at least this long before the device places


class UI(_UI):
    def __init__(self):
        self.cursor = 0  # a1; on a new Line the chosen edge cell
        self.bid = None  # the bid being entered (1..4): never drawn
        self.flash = 0  # ms until which the entered-bid acknowledgement shows
        self.card = False  # the reveal card is up
        self.card_at = None  # when it was first drawn
        self.last = None  # the cell of the last stone placed
        self.heights = None  # at the end: the height of the tower each cell is in
        self.slides = None  # at the end: see _slides()
        self.end_t = None  # when the end was first drawn

    def drop(self):
        held, self.bid = self.bid, None
        return held is not None


def new_ui(game):
    ui = UI()
    sync(game, ui)
    return ui


def _free_edge(game, c):
    return c in RIM and game.stone_at(c) is None


def _nearest(game, c):
    """The free edge cell nearest to cell c on the screen (c itself if it is one)."""
    best, cost = c, 99
    for e in RIM:
        if game.stone_at(e) is None:
            d = abs(X[e] - X[c]) + abs(Y[e] - Y[c])
            if d < cost:
                best, cost = e, d
    return best


def step(game, cell, arrow):
    """Where the cursor goes from edge cell `cell` for an arrow while a new Line is chosen:
    along the rim (the way that points most like the arrow; clockwise on a tie) to the next
    free edge cell; itself when neither way points that way."""
    if cell not in RIM:
        return _nearest(game, cell)
    r = RIM.index(bytes((cell,)))
    dx, dy = DIRS[arrow]
    best, way = 0, 0
    for w in (1, -1):
        n = RIM[(r + w) % 28]
        dot = (X[n] - X[cell]) * dx + (Y[n] - Y[cell]) * dy
        if dot > best:
            best, way = dot, w
    if way:
        for k in range(1, 28):
            n = RIM[(r + way * k) % 28]
            if game.stone_at(n) is None:
                return n
    return cell


def _heights(game):
    """The height of the Tower each stone is in (Black's along the ranks, White's along the
    files, as game.towers() counts them), for lighting them up at the end."""
    out = bytearray(64)
    for p in (0, 1):
        for a in range(8):
            run = 0
            for b in range(9):
                if b < 8 and game.stone_at(a * 8 + b if p == 0 else b * 8 + a) == p:
                    run += 1
                    continue
                for j in range(b - run, b):
                    out[a * 8 + j if p == 0 else j * 8 + a] = run
                run = 0
    return out


def _slides(game):
    """The end, step by step: the board; per player each height class k of his towers (5 stands
    for 5 and more): where they are, then how many and the score of his towers up to that
    height; the winner.  Each slide is (ms, kind 0..3, player, k, count, score)."""
    out = [(SLIDE_MS[0], 0, 0, 0, 0, 0)]
    for p in (0, 1):
        hs = game.towers(p)
        for k in range(1, 6):
            n = 0
            for h in hs:
                if h == k or (k == 5 and h > 5):
                    n += 1
            if n:
                upto = [h for h in hs if h <= k or k == 5]
                score = combination_score(upto)
                out.append((SLIDE_MS[1], 1, p, k, n, score))
                out.append((SLIDE_MS[2], 2, p, k, n, score))
    out.append((SLIDE_MS[3], 3, 0, 0, 0, 0))
    return out


def sync(game, ui):
    """Recompute what the view shows after the game changed (a move here or elsewhere, undo)."""
    ui.bid = None
    ui.last = None
    back = 1
    a = game.last()
    while a is not None:  # the last stone; bids are skipped whatever they were
        if a < BID:
            ui.last = a
            break
        back += 1
        a = game.last(back)
    over = game.result() is not None
    b0, b1 = game.bid(0), game.bid(1)
    ui.card = (not over and not game.bidding() and b0 > 0 and b1 > 0
               and game.to_place(0) == b0 and game.to_place(1) == b1)
    ui.card_at = None
    nxt = game.next_cell()
    if nxt is not None:
        ui.cursor = nxt
    elif not _free_edge(game, ui.cursor):
        ui.cursor = _nearest(game, ui.cursor)
    ui.end_t = None
    ui.heights = _heights(game) if over else None
    ui.slides = _slides(game) if over else None


def keys_for(game, ui, action):
    keys = []
    if action >= BID:
        keys.append((COMPASS[action - BID], "press"))
    elif game.next_cell() is None:
        keys += [(a, "press") for a in route(ui.cursor, action,
                                            lambda c, a: step(game, c, a))]
    keys.append(("ok", "press"))
    return keys


def arrow(game, action):
    """The pixel of a placement; a bid has none."""
    return () if action >= BID else ((X[action], Y[action]),)


def holds(game, ui, now):
    """True while the reveal card has been up for less than REVEAL_MS: the app's device waits
    before it places, so that a person reads both bids first."""
    return ui.card and (ui.card_at is None or now - ui.card_at < REVEAL_MS)


def handle(game, ui, button, kind, now=0):
    if game.to_move is None:
        return None
    ui.card = False  # any press closes the reveal card, and does what it does on the board
    arrow = button in DIRS
    if game.bidding():
        if arrow:
            ui.bid = COMPASS.index(button) + 1
            ui.flash = now + FLASH_MS
            return None
        if button == "ok":
            if ui.bid is None:
                ui.refuse(now)
                return None
            a = BID + ui.bid - 1
            ui.bid = None
            return a
        if button == "back":
            return ui.back()
        return None
    nxt = game.next_cell()
    if arrow:
        if nxt is None:
            ui.cursor = step(game, ui.cursor, button)
        else:
            ui.refuse(now)  # no choice: the next cell is forced
        return None
    if button == "ok":
        c = ui.cursor if nxt is None else nxt
        if c in game.legal():
            return c
        ui.refuse(now)
        return None
    if button == "back":
        return ui.back()
    return None


def _line(canvas, k, colour):
    """Light the gaps between the cells of Line k (pixel row 14 - k)."""
    w = k if k < 8 else 14 - k
    for x in range(8 - w, 7 + w, 2):
        canvas.set(x, 14 - k, colour)


def _halo(canvas, c, colour):
    canvas.set(X[c], Y[c] - 1, colour)
    canvas.set(X[c], Y[c] + 1, colour)


def render(game, ui, canvas, now):
    canvas.clear()
    if game.result() is not None:
        _end(game, ui, canvas, now)
        return
    if ui.card and not ui.board_only:
        if ui.card_at is None:
            ui.card_at = now
        _card(game, ui, canvas, now)
        return
    colours = ui.colours
    blink = ui.blink(now)
    mover = game.to_move
    bidding = game.bidding()
    nxt = game.next_cell()
    choose = not bidding and nxt is None
    show_cursor = not bidding and not ui.cursor_hidden
    if nxt is not None:
        _line(canvas, LINE[nxt], CURRENT)
    elif show_cursor:
        _line(canvas, LINE[ui.cursor], CURRENT)  # the Line the chosen edge cell would start
    if ui.last is not None:
        _halo(canvas, ui.last, palette.LAST)
    hint = dim(colours[mover], 1, 2)
    point, stone_at, put = palette.POINT, game.stone_at, canvas.set  # once: every frame
    for i in range(64):
        owner = stone_at(i)
        if owner is not None:
            colour = colours[owner]
        elif choose and ui.targets_shown and i in RIM:
            colour = hint
        else:
            colour = point
        put(X[i], Y[i], colour)
    if show_cursor:
        c = ui.cursor if nxt is None else nxt
        if now < ui.refused:
            canvas.set(X[c], Y[c], palette.REFUSED)
        else:
            canvas.set(X[c], Y[c], palette.CURSOR if blink else hint)
    elif nxt is not None:
        canvas.set(X[nxt], Y[nxt], ONCE)  # where the first stone of the turn goes
    _corners(game, ui, canvas, now, blink)


def _corners(game, ui, canvas, now, blink):
    """Each side's corner: the side to act marked; while placing, the stones it has left to
    place; while bidding, a block once its bid is in, else "?"."""
    colours, mover, bidding = ui.colours, game.to_move, game.bidding()
    for p in (0, 1):
        x = CORNER[p]
        colour = colours[p]
        if p == mover:
            canvas.rect(MARK[p], 14, 2, 2, colour)
        if not bidding:
            canvas.text(x, 11, "01234"[game.to_place(p)],
                        colour if p == mover else dim(colour, 1, 3))
        elif game.bid(p) == -1 or (p == mover and ui.bid is not None):
            if p == mover and now < ui.flash:
                colour = palette.CURSOR
            elif p == mover and not blink:
                colour = dim(colour, 1, 2)  # waiting for OK
            canvas.rect(x, 11, 3, 5, colour)  # a bid is in
        elif p == mover:
            if now < ui.refused:
                canvas.text(x, 11, "?", palette.REFUSED)
            elif blink:
                canvas.text(x, 11, "?", colour)
        else:
            canvas.text(x, 11, "?", dim(colour, 1, 3))


def _card(game, ui, canvas, now):
    """Both bids, big, in their colours (Black left, White right); the first placer's bid
    underlined, blinking."""
    colours = ui.colours
    canvas.text(0, 1, "01234"[game.bid(0)], colours[0], 2)
    canvas.rect(7, 4, 2, 2, palette.TEXT)
    canvas.rect(7, 8, 2, 2, palette.TEXT)
    canvas.text(10, 1, "01234"[game.bid(1)], colours[1], 2)
    first = game.first()
    if ui.blink(now):
        canvas.rect(10 * first, 13, 6, 2, colours[first])


def _end(game, ui, canvas, now):
    if ui.end_t is None:
        ui.end_t = now
    slides = ui.slides
    total = 0
    for s in slides:
        total += s[0]
    t = (now - ui.end_t) % total
    for ms, kind, p, k, n, score in slides:
        if t < ms:
            break
        t -= ms
    if kind == 3:
        _winner(game, ui.colours, canvas)
    elif kind == 2:
        _height_class(ui.colours, canvas, p, k, n, score)
    else:
        _towers(game, ui, canvas, kind, p, k)


def _winner(game, colours, canvas):
    """The end's last slide: the winner and both scores."""
    w = game.result()[0]
    canvas.text(0, 0, "WIN", palette.TEXT)
    canvas.rect(13, 0, 3, 5, colours[w])
    for q in (0, 1):
        s = str(game.score(q))
        canvas.text(17 - 4 * len(s), 6 + 5 * q, s, colours[q])
    canvas.text(0, 6 + 5 * w, ">", colours[w])


def _height_class(colours, canvas, p, k, n, score):
    """A height class of side p: how many towers of height k, and the score so far."""
    colour = palette.REFUSED if k == 5 else colours[p]
    for j in range(k):  # one such tower, as it runs on the board
        canvas.set(j if p == 0 else 4 - j, 4 - j, colour)
    canvas.text(7, 0, str(n), palette.TEXT)
    s = str(score)
    if len(s) < 3:
        canvas.text(18 - 8 * len(s), 6, s, colours[p], 2)
    else:
        canvas.text(5, 10, s, colours[p])


def _towers(game, ui, canvas, kind, p, k):
    """The final board (kind 0), or its towers of height k of side p lit (kind 1)."""
    colours = ui.colours
    for i in range(64):
        owner = game.stone_at(i)
        if owner is None:
            continue
        colour = colours[owner]
        if kind == 1:
            h = ui.heights[i]
            h = 5 if h > 5 else h
            if owner != p:
                colour = palette.POINT
            elif h == k:
                colour = palette.REFUSED if k == 5 else colour
            elif h < k:
                colour = dim(colour, 1, 3)  # counted already
            else:
                colour = dim(colour, 1, 8)
        canvas.set(X[i], Y[i], colour)
    if kind == 0 and ui.last is not None:
        _halo(canvas, ui.last, palette.LAST)
    if kind == 1:
        canvas.rect(MARK[p], 14, 2, 2, colours[p])
        canvas.text(CORNER[p], 11, str(k), palette.REFUSED if k == 5 else colours[p])
