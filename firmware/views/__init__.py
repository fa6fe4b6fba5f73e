"""Game views: pure Python (no hardware), so the host can draw exactly what the device draws.

A view module for game G (views/G.py) offers:
  LABELS                         {option name: short label} for the setup screen
  CHOICES                        {option name: tuple of values to cycle through}
  new_ui(game)                   the view's state for a game (cursor, selection, ...)
  handle(game, ui, button, kind) -> an action to play, or None (ui may change); an illegal
                                 press sets ui.refused so the screen can show a cue
  render(game, ui, canvas, t)    draw the game on the canvas at time t (ms, for blinking)
  sync(game, ui)                 after an action made elsewhere (device, serial, undo)
"""


def load(game_id):
    return getattr(__import__("views." + game_id), game_id)
