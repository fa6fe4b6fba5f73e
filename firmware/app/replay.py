"""Show a game record on the display step by step (the serial command "replay").  Loaded
when needed, forgotten while a game is played (app.heap.forget)."""
from views import load as load_view
from views import palette

from app import link
from app.commands import build_game
from app.menu import Menu, let_go


class Replay:
    """A game record shown step by step: left/right step, up/down to either end, OK or BACK
    leaves."""

    NAME = "replay"  # the serial state's "screen" (see app.core.Play)

    def __init__(self, app, game_id, game, actions):
        self.app = app
        self.game_id = game_id
        self.game = game
        self.actions = actions
        self.view = load_view(game_id)
        self.ui = self.view.new_ui(game)
        self.ui.colours = palette.stones(game_id)
        self.ui.cursor_hidden = True

    def handle(self, button, kind, now):
        g, n = self.game, self.game.plies()
        if button == "right" and n < len(self.actions):
            g.play(self.actions[n])
        elif button == "left" and n:
            g.undo()
        elif button == "down":
            while g.plies() < len(self.actions):
                g.play(self.actions[g.plies()])
        elif button == "up":
            while g.plies():
                g.undo()
        elif button in ("ok", "back"):
            self.app.screen = Menu(self.app, self.game_id)
            return
        self.view.sync(g, self.ui)

    def render(self, c, now):
        self.view.render(self.game, self.ui, c, now)


def load_record(app, cmd):
    """Show a game record; "moves" (a list, or one string of moves split by spaces) may
    come in several commands, the later ones with "append": true (a line is limited)."""
    moves = cmd.get("moves", ())
    if isinstance(moves, str):
        moves = moves.split()
    if cmd.get("append"):
        if not isinstance(app.screen, Replay):
            raise ValueError("append: no replay is being loaded")
        game, actions, game_id = app.screen.game, app.screen.actions, app.screen.game_id
    else:  # the record checked whole before the game being played is let go of
        game_id = cmd.get("game")
        game = build_game(app, game_id, cmd.get("options", {}))
        if cmd.get("start"):
            game.set_position(cmd["start"])
        actions = []
    shown = game.plies()
    while game.plies() < len(actions):  # to the end of what came before
        game.play(actions[game.plies()])
    added = []
    try:
        for text in moves:
            try:
                a = game.parse(text)
            except ValueError as e:
                raise ValueError("move %d: %s" % (len(actions) + len(added) + 1, e))
            game.play(a)
            added.append(a)
    finally:
        while game.plies() > shown:
            game.undo()
    actions += added
    if not cmd.get("append"):
        let_go(app, game_id)
        app.screen = Replay(app, game_id, game, actions)
    else:
        app.screen.view.sync(game, app.screen.ui)
    link.send({"t": "ok", "cmd": "replay", "plies": len(actions)})
