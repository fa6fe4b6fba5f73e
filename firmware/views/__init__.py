"""Game views: pure Python (no hardware), so the host can draw exactly what the device draws.

A view module for game G (views/G.py) offers:
  LABELS                         {option name: short label} for the setup screen
  HELP                           {option name: what it does, in a few words of the 3x5
                                 font's letters}: scrolled the first time the option shows
  CHOICES                        {option name: tuple of values to cycle through}
  new_ui(game)                   the view's state for a game (cursor, selection, ...): a views.UI
  handle(game, ui, button, kind) -> an action to play, or None (ui may change); an illegal
                                 press sets ui.refused so the screen can show a cue
  render(game, ui, canvas, t)    draw the game on the canvas at time t (ms, for blinking)
  sync(game, ui)                 after an action made elsewhere (device, serial, undo)
  keys_for(game, ui, action)     the (button, kind) presses that make `action` from this ui
                                 state (for tests, demos and help), without changing ui
  BACK                           what handle returns for a BACK press it did not use
  SHOWS_RESULT (optional)        True if render draws the game-over screen itself
  holds(game, ui, now) (optional) True while the view shows what the player must see before
                                 the device acts (Rhombus's reveal of both bids): it waits
"""

from views import palette

ARROWS = ("up", "down", "left", "right")
# the result card's second word, by the rules' reason (shared_rules.core)
REASONS = {"men": "MEN", "blocked": "BLK", "repetition": "REP", "reserve": "RES",
           "double_pass": "PAS", "points": "PTS", "score": "SCO"}


class UI:
    """What every view's state (its new_ui) has besides its own: the colours of the two
    sides, the moment until which a refused press shows its cue, and no cursor in replays."""
    colours = palette.SAFE
    refused = 0  # ms
    cursor_hidden = False


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
