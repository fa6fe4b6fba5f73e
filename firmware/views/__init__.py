"""Game views: pure Python (no hardware), so the host can draw exactly what the device draws.

A view module for game G (views/G.py) offers:
  LABELS                         {option name: short label} for the setup screen
  HELP                           {option name: what it does, in a few words of the 3x5
                                 font's letters}: scrolled the first time the option shows
  CHOICES                        {option name: tuple of values to cycle through}
  new_ui(game)                   the view's state for a game (cursor, selection, ...): a
                                 subclass of views.UI
  handle(game, ui, button, kind, now)
                                 -> an action to play, BACK for a BACK press the view did not
                                 use (ui.back()), or None (ui may change); an illegal press
                                 calls ui.refuse(now) so the screen can show a cue; the
                                 app calls ui.touch(now) first, and views blink with
                                 ui.blink(now), lit at once after a press
  render(game, ui, canvas, now)  draw the game on the canvas at time now (ms, for blinking)
  sync(game, ui)                 after an action made elsewhere (device, serial, undo)
  keys_for(game, ui, action)     the (button, kind) presses that make `action` from this ui
                                 state (for tests, demos and help), without changing ui
  SHOWS_RESULT (optional)        True if render draws the game-over screen itself
  holds(game, ui, now) (optional) True while the view shows what the player must see before
                                 the device acts (Rhombus's reveal of both bids): it waits
  arrow(game, action) (optional) the pixels (x, y) of the board that `action` goes through
                                 in `game` (the position before it), in order: (from, to)
                                 for a move or a push, one for a placement or a removal,
                                 () for one off the board (a bid, a pass); a coordinate
                                 x.5 is the middle of a block of two pixels (Mixtour's
                                 2x2 squares).  A replay's GIF (`stonegrid replay --analyse
                                 --gif`) draws the better move through them, an arrow or a
                                 ring round one, on what render() draws with ui.board_only
                                 set: the board, not a card that stands for it at times
"""

from views import palette

ARROWS = ("up", "down", "left", "right")
# the result card's second word, by the rules' reason (shared_rules.core)
REASONS = {"men": "MEN", "blocked": "BLK", "repetition": "REP", "reserve": "RES",
           "double_pass": "PAS", "points": "PTS", "score": "SCO"}


BACK = "back"  # what handle() returns for a BACK press that the view did not use
REFUSED_MS = 400  # how long a refused press shows its cue


class UI:
    """What every view's state (its new_ui) has besides its own: the colours of the two
    sides, the moment until which a refused press shows its cue, and no cursor in replays
    or on the other board's turn.  The app sets the first and the last (paint); the view
    the rest."""
    colours = palette.SAFE
    refused = 0  # ms
    cursor_hidden = False
    board_only = False  # a replay draws on the board: render() shows no card instead
    targets_shown = True  # where OK would act glows (the Setup screen's TGT turns it off)
    pressed = 0  # ms of the last press: the blinking starts over, lit, from there

    def paint(self, colours, cursor_hidden=False):
        self.colours = colours
        self.cursor_hidden = cursor_hidden

    def show_targets(self, on):
        """Let what OK may act on glow (legal destinations, entries, pushes), or not."""
        self.targets_shown = on

    def touch(self, now):
        """A press at `now` (the app calls it before handle): what blinks shows at once, so
        that a cursor moved is seen where it went."""
        self.pressed = now

    def blink(self, now, period=400):
        """True in the lit half of a blink of `period` ms, lit first at the last press."""
        return blink(now - self.pressed, period)

    def refuse(self, now):
        """Show the cue of a press that does nothing here, for REFUSED_MS from now."""
        self.refused = now + REFUSED_MS

    def drop(self):
        """Let go of what the player holds (a stone picked up, a bid being chosen): True if
        there was something.  The views with something to hold override it."""
        return False

    def back(self):
        """A BACK press: it drops what is held, else it is the app's (take back, the menu)."""
        return None if self.drop() else BACK


def blink(now, period=400):
    """True in the lit half of a blink of `period` ms."""
    return now // period % 2 == 0


def bar(canvas, p, k, colour):
    """Pixel k of side p's bar: the bottom row for side 0, the right column for side 1."""
    if p:
        canvas.set(15, k, colour)
    else:
        canvas.set(k, 15, colour)


def route(start, goal, step):
    """The arrow presses that take a cursor from start to goal, where step(pos, arrow) is
    where one press goes; breadth-first, so the shortest.  None when unreachable."""
    paths = {start: ()}
    todo = [start]
    while todo:
        pos = todo.pop(0)
        if pos == goal:
            return list(paths[pos])
        for arrow in ARROWS:
            nxt = step(pos, arrow)
            if nxt not in paths:
                paths[nxt] = paths[pos] + (arrow,)
                todo.append(nxt)
    return None


def result_card(result, colours, c):
    """The game-over card: WIN and the winner's colour (or DRAW), and why. The board shows it
    by turns with the final position; a replay's GIF ends on it."""
    winner, reason = result
    c.clear()
    if winner is None:
        c.text(0, 1, "DRAW", palette.TEXT)
    else:
        c.text(0, 1, "WIN", palette.TEXT)
        c.rect(13, 1, 3, 5, colours[winner])
    c.text(0, 9, REASONS.get(reason, "END"), palette.TEXT)


def load(game_id):
    return getattr(__import__("views." + game_id), game_id)
