"""The serial commands (firmware/README.md), loaded by app.core with the first one."""
import gc
import time

from hal import BUTTONS
from shared_rules import record

from app import link
from app.session import Session, check_players


def run(app, cmd):
    name = cmd["cmd"]
    # the game being played, if any; not held while a command lets go of it ("new")
    session = getattr(app.screen, "session", None) if name in ("state", "play",
                                                                 "undo") else None
    if name == "hello":
        link.send(app.hello())
    elif name == "state":
        gc.collect()  # the reply is the largest thing the link builds
        reply = session.state(cmd.get("turns") is True) if session else {
            "t": "state", "game": None}
        reply["screen"] = type(app.screen).__name__.lower()
        link.send(reply)
    elif name == "new":
        options = record.options(cmd.get("options") or {})
        players = cmd.get("players") or ("human", "human")
        check_players(players)  # before the game being played is let go of
        from app.menu import let_go

        let_go(app, cmd.get("game"))
        app.start(Session(cmd["game"], options, players))
    elif name in ("play", "undo"):
        if session is None:
            raise ValueError("no game is being played")
        if name == "undo":
            session.undo()
            app.screen.changed()
        elif not session.human_to_move():
            raise ValueError("the game is over" if session.game.result() is not None
                             else "the device is to move")
        else:
            action = cmd.get("action")
            if not isinstance(action, (str, int)) or isinstance(action, bool):
                raise ValueError("action must be notation text or an action number")
            app.play(action)
    elif name == "press":
        button, kind = cmd.get("button"), cmd.get("kind", "press")
        if button not in BUTTONS or kind not in ("press", "long"):
            raise ValueError("press needs a button (up down left right ok back) and kind "
                             "press or long")
        app.press(button, kind, time.ticks_ms())
    elif name == "menu":
        from app.menu import Menu

        app.screen = Menu(app)
    elif name == "replay":
        from app.replay import load_record

        load_record(app, cmd)
    else:
        raise ValueError("unknown command %r (hello state new play undo press menu replay)"
                         % name)
    app.dirty = True
