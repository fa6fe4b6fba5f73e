"""The serial commands (firmware/README.md), loaded by app.core with the first one."""
import gc
import time

from hal import BUTTONS
from shared_rules import load, record

from app import link
from app.core import Play, only
from app.session import Session, check_players

MAX_TEXT = 16  # characters of an action's notation, a game id, a button name
MAX_START = 128  # characters of a position text (the longest is Mixtour's, 82)
TEXT, NUMBER, FLAG, OBJECT, LIST, START, MOVES = (
    "text of up to %d characters" % MAX_TEXT, "notation text or an action number",
    "true or false", "an object", "a list", "a position text of up to %d characters"
    % MAX_START, "moves: a list of notation texts, or one text of them split by spaces")
# The arguments of each command and what each must be, exactly (true is no number here):
# checked before a command allocates or changes anything.
ARGS = {"hello": {}, "state": {"turns": FLAG}, "undo": {}, "menu": {},
        "new": {"game": TEXT, "options": OBJECT, "players": LIST},
        "play": {"action": NUMBER},
        "press": {"button": TEXT, "kind": TEXT},
        "replay": {"game": TEXT, "options": OBJECT, "start": START, "moves": MOVES,
                   "append": FLAG}}


def check(cmd):
    """ValueError unless each argument of cmd is one its command takes, of the exact type
    and within the length it must have."""
    args = ARGS.get(cmd["cmd"])
    if args is None:
        raise ValueError("unknown command %r (%s)" % (cmd["cmd"][:MAX_TEXT], " ".join(ARGS)))
    for key, value in cmd.items():
        if key != "cmd" and key not in args:
            raise ValueError("no argument %r (it takes: %s)" % (key[:MAX_TEXT],
                                                                " ".join(args) or "none"))
        if key != "cmd" and not _fits(args[key], value):
            raise ValueError("%s must be %s" % (key, args[key]))


def _fits(want, value):
    kind = type(value)
    if want is TEXT:
        return kind is str and len(value) <= MAX_TEXT
    if want is NUMBER:
        return kind is int or kind is str and len(value) <= MAX_TEXT
    if want is START:
        return kind is str and len(value) <= MAX_START
    if want is MOVES:
        return _words(value)
    return kind is {FLAG: bool, OBJECT: dict, LIST: list}[want]


def _words(moves):
    """Whether `moves` (a list, or one text split by spaces) holds short texts only."""
    if type(moves) is list:
        return all(type(t) is str and len(t) <= MAX_TEXT for t in moves)
    if type(moves) is not str:
        return False
    run = 0  # a scan, not split(): no list of a thousand texts to check their lengths
    for c in moves:
        run = 0 if c == " " else run + 1
        if run > MAX_TEXT:
            return False
    return True


def on_screen(app):
    """The id of the game played or replayed on screen, or None.  A function of its own so
    that no reference to the game is left in the caller's frame, where the garbage
    collector would still find it after the game is let go of."""
    session = getattr(app.screen, "session", None)
    return getattr(app.screen, "game_id", None) if session is None else session.game_id


def build_game(app, game_id, options):
    """A new game of `game_id` with `options` (JSON), or ValueError naming what is wrong.
    Another game's code needs the room of the game on screen: that one is let go of first,
    and run() brings it back from the journal if the command is refused."""
    if game_id not in app.games:
        raise ValueError("no game %r here (games: %s)" % (game_id, ", ".join(app.games)))
    options = record.options(options)
    playing = on_screen(app)
    if playing is not None and playing != game_id:
        from app.menu import let_go

        let_go(app, game_id)
    return load(game_id).Game(**options)


def run(app, cmd):
    check(cmd)
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
    elif name in ("new", "replay"):
        playing = on_screen(app) if isinstance(app.screen, Play) else None
        try:
            if name == "new":
                _new(app, cmd)
            else:
                from app.replay import load_record

                load_record(app, cmd)
        except (ValueError, TypeError, KeyError):
            if playing and not isinstance(app.screen, Play):  # let go of for room
                only(playing)  # (build_game); the journal has it all
                app.resume()
            raise
    elif name in ("play", "undo"):
        if session is None:
            raise ValueError("no game is being played")
        if name == "undo":
            session.undo()
            app.screen.changed()
        elif not session.human_to_move():
            raise ValueError("the game is over" if session.game.result() is not None
                             else "the device is to move")
        elif "action" not in cmd:
            raise ValueError("play needs an action (notation text or an action number)")
        else:
            app.play(cmd["action"])
    elif name == "press":
        button, kind = cmd.get("button"), cmd.get("kind", "press")
        if button not in BUTTONS or kind not in ("press", "long"):
            raise ValueError("press needs a button (up down left right ok back) and kind "
                             "press or long")
        app.press(button, kind, time.ticks_ms())
    elif name == "menu":
        from app.menu import Menu

        app.screen = Menu(app)
    app.dirty = True


def _new(app, cmd):
    # all checked and the game built before the game on screen is let go of
    game_id = cmd.get("game")
    players = cmd.get("players", ("human", "human"))
    check_players(players)
    game = build_game(app, game_id, cmd.get("options", {}))
    from app.menu import let_go

    let_go(app, game_id)
    app.start(Session(game_id, players=players, game=game))
