"""The serial commands (firmware/README.md), loaded by app.core with the first one."""
import gc
import time

from hal import BUTTONS
from shared_rules import load, record

from app import wire
from app.heap import only
from app.session import check_levels, check_players

MAX_TEXT = 16  # characters of an action's notation, a game id, a button name
MAX_START = 128  # characters of a position text (the longest is Mixtour's, 82)
# What each argument must be, exactly (true is no number here), checked before a command
# allocates or changes anything: "t" text of up to MAX_TEXT characters, "n" such text or a
# number, "s" text of up to MAX_START, "m" a list of such texts or one text of them.
MUST_BE = {"game": "t", "button": "t", "kind": "t", "action": "n", "start": "s", "moves": "m",
           "options": {}, "players": [], "turns": True, "append": True, "peer": True}


TAKES = {"hello": "", "state": "turns", "undo": "", "menu": "", "play": "action",
         "new": "game options players", "press": "button kind", "link": "peer",
         "replay": "game options start moves append"}


def check(cmd):
    """ValueError unless cmd is a command whose every argument is one it takes, of the exact
    type and length in MUST_BE."""
    takes = TAKES.get(cmd["cmd"])
    if takes is None:
        raise ValueError("unknown command %r (%s)" % (cmd["cmd"][:MAX_TEXT], " ".join(TAKES)))
    for key, value in cmd.items():
        if key != "cmd" and not (key in takes.split() and _fits(MUST_BE[key], value)):
            raise ValueError("%s: no such argument, or not what it must be (firmware/README.md:"
                             " Serial protocol)" % key[:MAX_TEXT])


def _fits(want, value):
    if type(want) is not str:
        return type(value) is type(want)
    if want == "m":
        value = value.split(" ") if type(value) is str else value
        return type(value) is list and all(type(t) is str and len(t) <= MAX_TEXT
                                           for t in value)
    if want == "n" and type(value) is int:
        return True
    return type(value) is str and len(value) <= (MAX_START if want == "s" else MAX_TEXT)


def run(app, cmd):
    """Act on a command: what the app should do next comes back - a screen to show, or for
    "new" (game id, players, game) to start - or None."""
    check(cmd)
    name = cmd["cmd"]
    if name == "hello":
        wire.send(app.hello())
    elif name == "state":
        gc.collect()  # the reply is the largest thing the wire builds
        session = app.session()
        reply = state(session, cmd.get("turns") is True) if session else {
            "t": "state", "game": None}
        reply["screen"] = app.screen.NAME
        wire.send(reply)
    elif name in ("play", "undo"):
        _act(app, cmd)
    elif name == "press":
        button, kind = cmd.get("button"), cmd.get("kind", "press")
        if button not in BUTTONS or kind not in ("press", "long"):
            raise ValueError("press needs a button (up down left right ok back) and kind "
                             "press or long")
        app.press(button, kind, time.ticks_ms())
    elif name == "link":
        if "peer" not in cmd:
            raise ValueError("link needs peer: true (the other board is there) or false")
        wire.send({"t": "ok", "cmd": "link"})
        app.linked().connect(cmd["peer"])
    elif name == "menu":
        if app.session() is None:
            from app.menu import Menu

            return Menu(app)
        app.leave_game(top=True)  # as a long BACK: the menu offers to resume it
    else:
        return _new_or_replay(app, cmd)
    return None


def _act(app, cmd):
    session = app.session()
    if session is None:
        raise ValueError("no game is being played")
    if cmd["cmd"] == "undo":
        if session.seat is not None:
            raise ValueError("no take-backs in a game of two linked boards")
        session.undo()
        app.screen.changed()
        return
    if not session.human_to_move():
        raise ValueError("the game is over" if session.game.result() is not None
                         else "the device is to move" if session.seat is None
                         else "the other board's side is to move, or the link holds it")
    if "action" not in cmd:
        raise ValueError("play needs an action (notation text or an action number)")
    session = None
    app.play(cmd["action"])


def on_screen(app, playing=False):
    """The id of the game played (or replayed, unless `playing`) on screen, or None.  A
    function of its own so that no reference to the screen is left in the caller's frame,
    where the garbage collector would still find it after the game is let go of."""
    screen = app.screen
    if screen.session is not None:
        return screen.session.game_id
    return None if playing else screen.game_id


def let_go(app, game_id):
    """Leave the game on screen for the menu, keeping only `game_id`'s code (the commands new
    and replay; build_game has checked that this board has that game).  A game left
    unfinished stays so (App.start ends it when a new game begins)."""
    if app.session() is not None and app.session().game.result() is None:
        app.leave_game(game_id)
    from app.menu import Menu

    app.show(Menu(app, game_id))
    only(game_id)


def build_game(app, game_id, options):
    """A new game of `game_id` with `options` (JSON), or ValueError naming what is wrong.
    Another game's code needs the room of the game on screen (and of any other game's code
    still loaded): that one is let go of first, and _new_or_replay() brings it back from the
    journal if the command is refused."""
    if game_id not in app.games:
        raise ValueError("no game %r here (games: %s)" % (game_id, ", ".join(app.games)))
    options = record.options(options)
    if on_screen(app) != game_id:  # only a game of the same kind can stay while checked
        let_go(app, game_id)
    elif app.session() is not None:  # the device's search, if any, starts again: its
        app.screen.stop_thinking()  # copy of the game and lists make room for the check
        gc.collect()
    return load(game_id).Game(**options)


def _new_or_replay(app, cmd):
    """Run "new" or "replay": the arguments are checked and the game built before the game
    on screen is let go of; a refused command leaves it as it was."""
    playing = on_screen(app, playing=True)
    try:
        if cmd["cmd"] == "new":
            return _new(app, cmd)
        from app.replay import Replay, load_record

        game = None if cmd.get("append") else build_game(app, cmd.get("game"),
                                                         cmd.get("options", {}))
        new = load_record(app, cmd, game)
        if new is None:  # appended to the replay on screen
            return None
        let_go(app, new[0])
        return Replay(app, *new)
    except (ValueError, TypeError, KeyError):
        if playing and on_screen(app, playing=True) is None:  # let go of for room
            only(playing)  # (build_game); the journal has it all
            app.resume()
        raise


def _new(app, cmd):
    game_id = cmd.get("game")
    players = cmd.get("players", ("human", "human"))
    check_players(players)
    game = build_game(app, game_id, cmd.get("options", {}))
    check_levels(game_id, players)  # refused here, the game on screen comes back
    return game_id, players, game


def state(session, turns):
    """The `state` reply for the game being played: what the side to move may see (the
    serial wire is public: no secrets)."""
    g = session.game
    if g.to_move is not None:
        g = g.view_for(g.to_move)
    return {"t": "state", "game": session.game_id, "options": session.options,
            "players": list(session.players), "ply": g.plies(), "to_move": g.to_move,
            "position": g.position(), "legal": [g.text(a) for a in g.legal()],
            "result": g.result(), "turns": g.turns() if turns else None}
