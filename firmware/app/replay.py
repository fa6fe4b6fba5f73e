"""Show a game record on the display step by step (the serial command "replay").  Loaded
when needed, forgotten while a game is played (app.heap.forget)."""
from views import load as load_view
from views import palette

from app import wire
from app.screen import Screen


class Replay(Screen):
    """A game record shown step by step: left/right step, up/down to either end, OK or BACK
    leaves."""

    NAME = "replay"

    def __init__(self, app, game_id, game, actions):
        self.app = app
        self.game_id = game_id
        self.game = game
        self.actions = actions
        self.view = load_view(game_id)
        self.ui = self.view.new_ui(game)
        self.ui.paint(palette.stones(game_id), cursor_hidden=True)

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
            from app.menu import Menu

            return Menu(self.app, self.game_id)
        self.view.sync(g, self.ui)
        return None

    def extend(self, actions):
        """More of the record (the command's "append")."""
        self.actions += actions
        self.view.sync(self.game, self.ui)

    def render(self, c, now):
        self.view.render(self.game, self.ui, c, now)


def load_record(app, cmd, game):
    """A game record to show: (game id, game, actions) for a new Replay screen, or None when
    the moves went on the one shown ("append": true: a line is limited, so "moves" - a list, or one
    string of moves split by spaces - may come in several commands).  `game`: the new game,
    built and checked by app.commands (None with append)."""
    moves = cmd.get("moves", ())
    if isinstance(moves, str):
        moves = moves.split()
    replay = app.screen
    if cmd.get("append"):
        if not isinstance(replay, Replay):
            raise ValueError("append: no replay is being loaded")
        game, actions, game_id = replay.game, replay.actions, replay.game_id
    else:  # the record checked whole before the game being played is let go of
        replay = None
        game_id = cmd.get("game")
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
    wire.send({"t": "ok", "cmd": "replay", "plies": len(actions) + len(added)})
    if replay is not None:
        replay.extend(added)
        return None
    return game_id, game, added
