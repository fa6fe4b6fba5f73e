"""Mixtour on the matrix.  The 5x5 board fills x 0..13, y 0..13: each square a 2x2 block
(file a..e -> x 0, 3, .. 12; rank 5..1 -> y 0, 3, .. 12) with 1-pixel gaps.  A stack fills
its block like writing read upward: the bottom piece bottom left, then bottom right, top left,
top right; unused pixels of a block are dim grey, so the height is the count of lit pixels and
the last lit one is the top piece.  Empty squares are tinted in the mover's colour while an
entry is possible.  The gaps carry the marks: a ring around a square is the cursor (white,
blinking; magenta on a refused press), its corner pixels amber for the last move (bright where it
went, dim where it came from), its side pixels a legal target of the lifted pieces (TARGET green,
no side's colour and not the cursor's white), the whole ring steady magenta a target barred only by the reversal ban.  A stack removed
by scoring flashes in the scorer's colour.  White's reserve is the bottom row (y 15, from the
left), Red's the right column (x 15, from the top): one pixel per two pieces, a dim one for an
odd piece; the side to act bright, the other dim.  With points_to_win above 1 each arm ends in
that many score pips by the corner (white: scored, grey: to go; a longer race shows its first
five).  The corner pixel (15, 15) is the side to act, blinking when it must pass.
Controls: arrows move the cursor.  OK on an empty square enters a piece there; OK on a stack
lifts its top piece, OK again on it lifts one more (after the whole stack, one again): the
lifted part blinks and the squares it may go to are hinted; OK on a hinted square moves it
there, OK on another stack lifts that one instead; BACK puts the pieces down.  When no entry
or move is left, the board and a PASS card take turns: OK passes (an arrow shows the card in
magenta).  A pass shows PASS in the passer's colour once, and until the next action the gap
crossings glow in that colour."""
from shared_rules.mixtour import PASS, SQUARES, move
from views import UI as _UI, bar, palette, route
from views.canvas import dim

LABELS = {"points_to_win": "PTS"}
HELP = {"points_to_win": "POINTS TO WIN: STACKS OF 5 SCORE 1"}
CHOICES = {"points_to_win": (1, 2, 3, 5)}

CX = bytes(3 * (i % 5) for i in range(25))  # left pixel column of each square's block
CY = bytes(3 * (4 - i // 5) for i in range(25))  # top pixel row
DX = (0, 1, 0, 1)  # where the k-th piece from the bottom sits in the block
DY = (1, 1, 0, 0)
EDGE = 13  # the board's last pixel row and column; marks stop there
PIPS = 5  # score pips shown at most
BLINK_MS = 400
PASS_MS = 1500  # how long the opponent's pass is announced
FORCED_MS = (1200, 2000)  # a forced pass: the board until the first, then the PASS card
SCORE_MS = 1500  # how long a removed stack flashes in the scorer's colour
BANNED = palette.REFUSED
TARGET_COLOUR = 0x00A050  # where the lifted pieces may go: green, unlike the white cursor
TARGET, BARRED = 1, 2  # ui.hints: a legal target, one barred by the reversal ban alone


class UI(_UI):
    def __init__(self):
        self.cursor = 12  # c3
        self.sel = None  # the square whose pieces are lifted
        self.n = 1  # how many of its top pieces
        self.last = None  # (to, from) of the last move; from None for an entry
        self.passer = None  # the side that passed last, while that is the last action
        self.forced = False  # the side to act can only pass
        self.scores = None  # the scores at the last sync, to see who just scored
        self.scored = None  # (square, player) of a stack just removed
        self.cells = bytearray(25)  # per square its height | owners << 3 (bit k: k-th piece)
        self.hints = bytearray(25)  # per square, for the lifted pieces: TARGET, BARRED or 0
        self.shown = None  # when the pass or score announcement was first drawn

    def drop(self):
        if self.sel is None:
            return False
        _lift(None, self, None, 1)  # put down: no game needed
        return True


def new_ui(game):
    ui = UI()
    sync(game, ui)
    return ui


def step(i, arrow):
    """The square the cursor goes to from square i; itself at the edge."""
    x, y = i % 5, i // 5
    if arrow == "up":
        return i + 5 if y < 4 else i
    if arrow == "down":
        return i - 5 if y else i
    if arrow == "left":
        return i - 1 if x else i
    return i + 1 if x < 4 else i


def _parse(text):
    """(from, n, to) of a move's notation; from None for an entry, None for a pass."""
    if text == "pass":
        return None
    if "-" not in text:
        return None, 1, SQUARES.index(text)
    src, dst = text.split("-")
    n = 1
    if ":" in src:
        src, count = src.split(":")
        n = int(count)
    return SQUARES.index(src), n, SQUARES.index(dst)


def sync(game, ui):
    """Recompute what the view shows after the game changed (a move here or elsewhere, undo)."""
    _lift(game, ui, None, 1)
    ui.last = None
    ui.passer = None
    ui.scored = None
    ui.shown = None
    mover = game.to_move
    if game.plies():
        m = _parse(game.text(game.last()))
        if m is None:
            if mover is not None:
                ui.passer = 1 - mover
        else:
            ui.last = (m[2], m[0])
    scores = (game.score(0), game.score(1))
    if ui.last is not None and ui.last[1] is not None and ui.scores is not None \
            and not game.height(ui.last[0]):
        for p in (0, 1):
            if scores[p] == ui.scores[p] + 1:
                ui.scored = (ui.last[0], p)
    ui.scores = scores
    cells = ui.cells
    empty = False
    for i in range(25):  # the stacks, read once per change rather than on every frame
        h = game.height(i)
        v = h
        if h:
            stack = game.stack(i)
            for k in range(h):
                v |= stack[k] << (3 + k)
        else:
            empty = True
        cells[i] = v
    # a piece in reserve and an empty square: an entry, so no pass (without listing every
    # action, which takes the chip some ms after each one)
    ui.forced = mover is not None and not (empty and game.reserve(mover)) \
        and game.legal() == [PASS]


def _lift(game, ui, sel, n):
    """Lift the top n pieces of square sel (None: put them down); note where they may go."""
    ui.sel, ui.n = sel, n
    hints = ui.hints
    for i in range(25):
        hints[i] = 0
    if sel is not None:
        for t in game.targets(sel, n):
            hints[t] = TARGET
        for t in game.banned_targets(sel, n):
            hints[t] = BARRED


def _movable(game, i):
    """Whether the stack on square i can go anywhere with some number of its pieces."""
    for n in range(1, game.height(i) + 1):
        if game.targets(i, n):
            return True
    return False


def keys_for(game, ui, action):
    ok = ("ok", "press")
    if action == PASS:
        return [ok]
    f, n, t = _parse(game.text(action))
    keys, cursor = [], ui.cursor
    if ui.sel is not None and ui.sel != f:
        keys.append(("back", "press"))  # put the wrong pieces down first
    if f is not None:
        lifted = ui.n if ui.sel == f else 0
        presses = (n - lifted) % game.height(f) if lifted else n
        if presses:
            keys += [(a, "press") for a in route(cursor, f, step)]
            keys += [ok] * presses
            cursor = f
    keys += [(a, "press") for a in route(cursor, t, step)]
    keys.append(ok)
    return keys


def arrow(game, action):
    """The pixels of an action: the middles of its squares' 2x2 blocks, (from, to) for a
    move, one for an entry, none for a pass."""
    if action == PASS:
        return ()
    f, _, t = _parse(game.text(action))
    return tuple((CX[i] + 0.5, CY[i] + 0.5) for i in ((t,) if f is None else (f, t)))


def handle(game, ui, button, kind, now=0):
    if game.to_move is None:
        return None
    if ui.shown is not None:  # a press ends what the last move announces (a pass, a
        ui.shown = min(ui.shown, now - PASS_MS - SCORE_MS)  # stack scored): the board shows
    if button == "back":
        return ui.back()
    if button in ("up", "down", "left", "right"):
        if ui.forced:
            ui.refuse(now)  # nothing to choose: OK passes
        else:
            ui.cursor = step(ui.cursor, button)
        return None
    if button != "ok":
        return None
    if ui.forced:
        return PASS
    legal = game.legal()
    c, sel = ui.cursor, ui.sel
    if sel is not None:
        if c == sel:  # one more piece, or one again after the whole stack
            _lift(game, ui, sel, ui.n % game.height(sel) + 1)
            return None
        a = move(sel, ui.n, c)
        if a in legal:
            _lift(game, ui, None, 1)
            return a
        if ui.hints[c] != BARRED and game.height(c) and _movable(game, c):
            _lift(game, ui, c, 1)  # lift another stack instead
            return None
    elif c in legal:
        return c  # an entry
    elif game.height(c) and _movable(game, c):
        _lift(game, ui, c, 1)
        return None
    ui.refuse(now)
    return None


def _ring(canvas, i, colour, sides, corners):
    """Light the gap pixels around square i: the 8 beside its sides and/or its 4 corners."""
    x0, y0 = CX[i] - 1, CY[i] - 1
    for dy in range(4):
        y = y0 + dy
        if y < 0 or y > EDGE:
            continue
        rim_y = dy == 0 or dy == 3
        for dx in range(4):
            x = x0 + dx
            if x < 0 or x > EDGE:
                continue
            rim_x = dx == 0 or dx == 3
            if rim_x and rim_y:
                if corners:
                    canvas.set(x, y, colour)
            elif rim_x or rim_y:
                if sides:
                    canvas.set(x, y, colour)


def _card(canvas, colour, ok, blink):
    canvas.text(0, 2, "PASS", colour)
    if ok:
        canvas.text(4, 9, "OK", palette.CURSOR if blink else palette.TEXT)


def render(game, ui, canvas, now):
    canvas.clear()
    over = game.to_move is None
    blink = ui.blink(now, BLINK_MS)
    if ui.shown is None or now < ui.shown:
        ui.shown = now
    since = now - ui.shown
    if not over and not ui.board_only and _announced(ui, canvas, now, since, blink,
                                                      game.to_move):
        return
    sel = None if over else ui.sel
    _stacks(game, ui, canvas, sel, blink, since)
    _marks(ui, canvas, sel, over)
    if not over and not ui.cursor_hidden and not ui.forced:
        if now < ui.refused:
            _ring(canvas, ui.cursor, palette.REFUSED, True, True)
        elif blink:
            _ring(canvas, ui.cursor, palette.CURSOR, True, True)
    _bars(game, ui.colours, canvas, over)
    canvas.set(15, 15, _side_colour(game, ui, blink))


def _announced(ui, canvas, now, since, blink, mover):
    """The pass card, shown instead of the board: the other side passed, or this side can
    only pass (by turns with the board, or at once after an arrow).  True if shown."""
    colours = ui.colours
    if ui.passer is not None and since < PASS_MS:
        _card(canvas, colours[ui.passer], False, blink)  # the other side passed
    elif ui.forced and now < ui.refused:  # an arrow: nothing to choose, only the pass
        _card(canvas, palette.REFUSED, True, True)
    elif ui.forced and now % FORCED_MS[1] >= FORCED_MS[0]:
        _card(canvas, colours[mover], True, blink)
    else:
        return False
    return True


def _stacks(game, ui, canvas, sel, blink, since):
    """The 25 squares: the stacks' pieces, the lifted ones gone on every other blink; the
    empty squares tinted while entries are open, a stack just scored flashing."""
    colours, mover = ui.colours, game.to_move
    lifted = 4
    if sel is not None and not blink:
        lifted = (ui.cells[sel] & 7) - ui.n
    tint = palette.POINT
    if mover is not None and sel is None and not ui.cursor_hidden and game.reserve(mover) \
            and not ui.forced:
        tint = dim(colours[mover], 1, 4)  # entries are open
    flash = ui.scored is not None and since < SCORE_MS and since // 150 % 2 == 0
    cells, point, put = ui.cells, palette.POINT, canvas.set  # looked up once: every frame
    for i in range(25):  # draws 100 pixels
        x, y = CX[i], CY[i]
        v = cells[i]
        h = v & 7
        if not h:
            colour = colours[ui.scored[1]] if flash and ui.scored[0] == i else tint
            put(x, y, colour)
            put(x + 1, y, colour)
            put(x, y + 1, colour)
            put(x + 1, y + 1, colour)
            continue
        if i == sel and lifted < h:
            h = lifted  # the lifted pieces are not on the square
        for k in range(4):
            put(x + DX[k], y + DY[k], colours[v >> (3 + k) & 1] if k < h else point)


def _marks(ui, canvas, sel, over):
    """In the gaps: who passed, the last move's squares, where the lifted pieces may go."""
    if ui.passer is not None and not over:  # the gap crossings: that side passed
        c = dim(ui.colours[ui.passer], 1, 4)
        for y in (2, 5, 8, 11):
            for x in (2, 5, 8, 11):
                canvas.set(x, y, c)
    if ui.last is not None:
        to, frm = ui.last
        if frm is not None:
            _ring(canvas, frm, dim(palette.LAST, 1, 2), False, True)
        _ring(canvas, to, palette.LAST, False, True)
    if sel is not None:
        hints = ui.hints
        for t in range(25):
            if hints[t] == TARGET and ui.targets_shown:  # (a ban is shown whatever)
                _ring(canvas, t, TARGET_COLOUR, True, False)
            elif hints[t] == BARRED:
                _ring(canvas, t, BANNED, True, True)


def _bars(game, colours, canvas, over):
    """Each side's reserve (a pixel for two pieces, dim for one) and its points (pips) along
    its bar, the side not acting dimmed."""
    goal = game.options["points_to_win"]
    pips = goal if goal < PIPS else PIPS
    for p in (0, 1):
        colour = colours[p] if over or p == game.to_move else dim(colours[p], 1, 2)
        r = game.reserve(p)
        for k in range((r + 1) // 2):
            bar(canvas, p, k, colour if 2 * k + 1 < r else dim(colour, 1, 3))
        if goal > 1:
            s = game.score(p)
            for k in range(pips):
                bar(canvas, p, 15 - pips + k, palette.CURSOR if k < s else palette.POINT)


def _side_colour(game, ui, blink):
    """The corner pixel: the side to act (off on every other blink when it must pass), the
    winner, or both colours by turns after a draw."""
    result, colours = game.result(), ui.colours
    if result is None:
        return colours[game.to_move] if blink or not ui.forced else 0
    if result[0] is not None:
        return colours[result[0]]
    return colours[0] if blink else colours[1]
