"""The app: screens (menu, setup, play, replay), the main loop, and the serial commands."""
import gc

# Collect the garbage after every GC_EVERY bytes allocated rather than when the heap is full:
# the device's search leaves tens of KB of garbage per move (lists of actions, the rules'
# temporaries), and a heap left to fill up between collections ends up in fragments too small
# for the next list (tests/bench/ai.py measures the smallest heap either way).  Set as soon
# as the app is imported, before its own modules load.
GC_EVERY = 8192
if hasattr(gc, "threshold"):  # MicroPython (CPython has no such call)
    gc.threshold(GC_EVERY)

import asyncio  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

from shared_rules import GAMES, load, record
from views import load as load_view
from views.canvas import Canvas
from views import palette

from app import VERSION, journal, link
from app.session import PLAYERS, Session

REASONS = {"men": "MEN", "blocked": "BLK", "repetition": "REP", "reserve": "RES",
           "double_pass": "PAS", "points": "PTS", "score": "SCO"}
CODES = {"morris": "MOR", "gipf": "GIP", "mixtour": "MIX", "rhombus": "RHO"}
DEVICE_DELAY_MS = 500  # let people see the device's move coming
THINK_MS = 25  # the device thinks at most about this long per pass of the main loop
THINK_STEP = 4  # work units of the search between two looks at the clock
SHORT = {"human": "HUM", "device:easy": "EASY", "device:normal": "NORM", "device:hard": "HARD"}
FRAME_MS = 100  # redraw at least this often, for blinking


def playable():
    """The games that have a view on this device (wherever the views package was found)."""
    import views
    folder = views.__path__ if isinstance(views.__path__, str) else views.__path__[0]
    out = []
    for g in GAMES:
        for ext in (".py", ".mpy"):
            try:
                os.stat(folder + "/" + g + ext)
                out.append(g)
                break
            except OSError:
                pass
    return out


def only(game_id):
    """Forget the other games' rules, views and opponents, so that one game's code is in
    the heap at a time (a heap of 128 KB holds one game and its opponent, not four).  Only
    on the device: on a host the modules are shared with other code (tests, replays)."""
    import sys
    if sys.implementation.name != "micropython":
        return
    for other in GAMES:
        if other == game_id:
            continue
        for package, name in (("shared_rules", other), ("shared_rules", other + "_ai"),
                              ("views", other)):
            if sys.modules.pop(package + "." + name, None) is not None:
                parent = sys.modules.get(package)
                if parent is not None and hasattr(parent, name):
                    delattr(parent, name)
    gc.collect()


class Menu:
    """Choose a game: left/right, OK."""

    def __init__(self, app, game_id=None):
        self.app = app
        self.games = playable()
        self.i = self.games.index(game_id) if game_id in self.games else 0

    def handle(self, button, kind, now):
        if button in ("left", "up"):
            self.i = (self.i - 1) % len(self.games)
        elif button in ("right", "down"):
            self.i = (self.i + 1) % len(self.games)
        elif button == "ok":
            self.app.screen = Setup(self.app, self.games[self.i])

    def render(self, c, now):
        c.clear()
        game = self.games[self.i]
        c0, c1 = palette.stones(game, self.app.scheme)
        c.text(1, 1, CODES[game], palette.TEXT)
        c.rect(3, 8, 4, 4, c0)
        c.rect(9, 8, 4, 4, c1)
        for k in range(len(self.games)):
            c.set(6 + 2 * k - len(self.games) + 2, 14, palette.CURSOR if k == self.i
                  else palette.POINT)

    def tick(self, now):
        pass


class Setup:
    """Players and rules options, one item a screen: up/down item, left/right value,
    OK starts, BACK returns to the menu."""

    def __init__(self, app, game_id, options=None, players=("human", "device:normal")):
        self.app = app
        self.game_id = game_id
        only(game_id)
        view = load_view(game_id)
        players = ["device:normal" if who == "device" else who for who in players]
        self.values = {"P1": players[0], "P2": players[1]}
        self.items = [("P1", "P1", PLAYERS), ("P2", "P2", PLAYERS)]
        for name, choices in sorted(view.CHOICES.items()):
            self.items.append((name, view.LABELS[name], choices))
            self.values[name] = (options or {}).get(name, choices[0])
        self.i = 0

    def handle(self, button, kind, now):
        if button == "up":
            self.i = (self.i - 1) % len(self.items)
        elif button == "down":
            self.i = (self.i + 1) % len(self.items)
        elif button in ("left", "right"):
            key, _, choices = self.items[self.i]
            k = choices.index(self.values[key]) if self.values[key] in choices else 0
            self.values[key] = choices[(k + (1 if button == "right" else -1)) % len(choices)]
        elif button == "back":
            self.app.screen = Menu(self.app, self.game_id)
        elif button == "ok":
            options = dict((k, v) for k, v in self.values.items() if k not in ("P1", "P2"))
            self.app.start(Session(self.game_id, options, (self.values["P1"],
                                                            self.values["P2"])))

    def render(self, c, now):
        c.clear()
        key, label, _ = self.items[self.i]
        c.text(0, 1, label, palette.TEXT)
        value = self.values[key]
        if key in ("P1", "P2"):
            colour = palette.stones(self.game_id, self.app.scheme)[key == "P2"]
            c.text(0, 8, SHORT.get(value, "DEV"), colour)
        else:
            c.text(0, 8, "ON" if value is True else "OFF" if value is False else
                   str(value).replace(" ", "").replace("(", "").replace(")", "").replace(",", "/"),
                   palette.CURSOR)
        for k in range(len(self.items)):
            c.set(k, 15, palette.CURSOR if k == self.i else palette.POINT)

    def tick(self, now):
        pass


class Play:
    """A game in progress, drawn and driven by its view; the device moves for its sides."""

    def __init__(self, app, session):
        self.app = app
        self.session = session
        self.view = load_view(session.game_id)
        self.ui = self.view.new_ui(session.game)
        self.ui.colours = palette.stones(session.game_id, app.scheme)
        self.device_at = None
        self.thinker = None  # the device's search for the action it is about to play

    def handle(self, button, kind, now):
        s, g = self.session, self.session.game
        if button == "back" and kind == "long":
            self.app.screen = Menu(self.app, s.game_id)
            return
        if g.result() is not None:
            if button == "ok":
                self.app.screen = Setup(self.app, s.game_id, s.options, s.players)
            return
        if not s.human_to_move():
            return
        a = self.view.handle(g, self.ui, button, kind, now)
        if a == self.view.BACK:
            if not s.has_device() and g.actions():  # take back, human vs human
                s.undo()
                while g.hidden() and g.actions():  # a secret made visible by the undo
                    s.undo()
                self.view.sync(g, self.ui)
        elif a is not None:
            self.app.play(a)

    def changed(self):
        self.thinker = None  # its memory is free before the view does its work
        self.device_at = None
        self.view.sync(self.session.game, self.ui)

    def thinking(self):
        """True while the device's search has work left: the main loop then only yields."""
        return self.thinker is not None and not self.thinker.done

    def tick(self, now):
        """The device's turn: search in slices of about THINK_MS (the main loop serves the
        buttons and the serial link in between), then play once DEVICE_DELAY_MS have passed
        since the turn began."""
        s, g = self.session, self.session.game
        if g.result() is not None or s.human_to_move():
            return
        t = self.thinker
        if t is None:
            self.device_at = time.ticks_add(now, self.app.settings.get("device_delay_ms",
                                                                        DEVICE_DELAY_MS))
            gc.collect()  # the search's copy of the game low in a clean heap
            self.thinker = t = s.think(random.getrandbits(30))
        if not t.done:
            while not t.step(THINK_STEP) and time.ticks_diff(time.ticks_ms(), now) < THINK_MS:
                pass
            if t.done:
                gc.collect()  # its garbage gone before the action is journalled and shown
        elif time.ticks_diff(now, self.device_at) >= 0:
            a = t.best
            self.thinker = t = None
            self.app.play(a)

    def render(self, c, now):
        g = self.session.game
        result = g.result()
        show_card = not getattr(self.view, "SHOWS_RESULT", False)
        if result is not None and show_card and now // 1500 % 2:  # board and result by turns
            c.clear()
            winner, reason = result
            if winner is None:
                c.text(0, 1, "DRAW", palette.TEXT)
            else:
                c.text(0, 1, "WIN", palette.TEXT)
                c.rect(13, 1, 3, 5, self.ui.colours[winner])
            c.text(0, 9, REASONS.get(reason, "END"), palette.TEXT)
            return
        self.view.render(g, self.ui, c, now)


class Replay:
    """A game record shown step by step: left/right step, up/down to either end, OK or BACK
    leaves."""

    def __init__(self, app, game_id, game, actions):
        self.app = app
        self.game_id = game_id
        self.game = game
        self.actions = actions
        self.view = load_view(game_id)
        self.ui = self.view.new_ui(game)
        self.ui.colours = palette.stones(game_id, app.scheme)
        self.ui.cursor_hidden = True

    def handle(self, button, kind, now):
        g, n = self.game, len(self.game.actions())
        if button == "right" and n < len(self.actions):
            g.play(self.actions[n])
        elif button == "left" and n:
            g.undo()
        elif button == "down":
            while len(g.actions()) < len(self.actions):
                g.play(self.actions[len(g.actions())])
        elif button == "up":
            while g.actions():
                g.undo()
        elif button in ("ok", "back"):
            self.app.screen = Menu(self.app, self.game_id)
            return
        self.view.sync(g, self.ui)

    def render(self, c, now):
        self.view.render(self.game, self.ui, c, now)

    def tick(self, now):
        pass


def load_settings(path="settings.json"):
    """Settings a maker may put on the flash: {"scheme": "safe" | "game", "brightness":
    0..255, "device_delay_ms": pause before the device moves}.  Missing or bad: defaults."""
    import json
    try:
        with open(path) as f:
            settings = json.load(f)
        return settings if isinstance(settings, dict) else {}
    except (OSError, ValueError):
        return {}


class App:
    def __init__(self, hal):
        self.hal = hal
        self.canvas = Canvas(hal.width, hal.height)
        self._shown = bytearray(len(self.canvas.buf))
        self.settings = load_settings()
        self.scheme = self.settings.get("scheme", "safe")
        if "brightness" in self.settings:
            hal.brightness = self.settings["brightness"]  # the board caps it
        self.screen = Menu(self)
        self.next_frame = 0
        self.dirty = True

    def start(self, session):
        session.begin()
        self.screen = Play(self, session)
        self.dirty = True

    def play(self, a):
        """Play for the side to move in the current game (journalled, logged, then shown)."""
        self.screen.session.play(a)
        self.screen.changed()
        self.dirty = True

    def resume(self):
        reader = journal.recover()
        if reader is None or reader.ended:
            return False
        h = reader.header
        session = Session(h["game"], players=h.get("players", ("human", "human")),
                          game=reader.game)
        self.screen = Play(self, session)
        link.send({"t": "resumed", "game": h["game"], "ply": len(reader.game.actions())})
        return True

    async def run(self):
        random.seed(time.ticks_ms() ^ int.from_bytes(os.urandom(2), "little")
                    if hasattr(os, "urandom") else time.ticks_ms())
        link.send(self.hello())
        self.resume()
        asyncio.create_task(link.serve(self.command, getattr(self.hal, "serial", None)))
        while True:
            now = time.ticks_ms()
            event = self.hal.poll()
            while event:
                self.press(event[0], event[1], now)
                event = self.hal.poll()
            self.screen.tick(now)
            if self.dirty or time.ticks_diff(now, self.next_frame) >= 0:
                self.draw(now)
            thinking = getattr(self.screen, "thinking", None)
            await asyncio.sleep_ms(0 if thinking is not None and thinking() else 20)

    def draw(self, now):
        self.screen.render(self.canvas, now)
        self.dirty = False
        self.next_frame = time.ticks_add(now, FRAME_MS)
        if self.canvas.buf != self._shown:
            self._shown[:] = self.canvas.buf
            self.hal.show(self._shown)

    def press(self, button, kind, now):
        self.screen.handle(button, kind, now)
        self.dirty = True

    def hello(self):
        return {"t": "hello", "fw": VERSION, "games": playable()}

    # -- serial commands (see docs/serial-protocol.md) ----------------------------------
    def command(self, cmd):
        name = cmd["cmd"]
        session = getattr(self.screen, "session", None)
        if name == "hello":
            link.send(self.hello())
        elif name == "state":
            gc.collect()  # the reply is the largest thing the link builds
            reply = session.state(cmd.get("turns") is True) if session else {
                "t": "state", "game": None}
            reply["screen"] = type(self.screen).__name__.lower()
            link.send(reply)
        elif name == "new":
            game_id = cmd.get("game")
            if game_id not in playable():
                raise ValueError("no game %r here (games: %s)" % (game_id, ", ".join(playable())))
            self.screen = Menu(self, game_id)  # let go of the game being played
            only(game_id)
            self.start(Session(game_id, record.options(cmd.get("options") or {}),
                               cmd.get("players") or ("human", "human")))
        elif name in ("play", "undo"):
            if session is None:
                raise ValueError("no game is being played")
            if name == "undo":
                session.undo()
                self.screen.changed()
            elif not session.human_to_move():
                raise ValueError("the game is over" if session.game.result() is not None
                                 else "the device is to move")
            else:
                action = cmd.get("action")
                if not isinstance(action, (str, int)) or isinstance(action, bool):
                    raise ValueError("action must be notation text or an action number")
                self.play(action)
        elif name == "press":
            button, kind = cmd.get("button"), cmd.get("kind", "press")
            if button not in ("up", "down", "left", "right", "ok", "back") or kind not in (
                    "press", "long"):
                raise ValueError("press needs a button (up down left right ok back) and kind "
                                 "press or long")
            self.press(button, kind, time.ticks_ms())
        elif name == "menu":
            self.screen = Menu(self)
        elif name == "replay":
            self.replay(cmd)
        else:
            raise ValueError("unknown command %r (hello state new play undo press menu replay)"
                             % name)
        self.dirty = True

    def replay(self, cmd):
        """Show a game record; "moves" (a list, or one string of moves split by spaces) may
        come in several commands, the later ones with "append": true (a line is limited)."""
        moves = cmd.get("moves") or ()
        if isinstance(moves, str):
            moves = moves.split()
        if cmd.get("append"):
            if not isinstance(self.screen, Replay):
                raise ValueError("append: no replay is being loaded")
            game, actions, game_id = self.screen.game, self.screen.actions, self.screen.game_id
        else:
            game_id = cmd.get("game")
            if game_id not in playable():
                raise ValueError("no game %r here" % (game_id,))
            self.screen = Menu(self, game_id)
            only(game_id)
            game = load(game_id).Game(**record.options(cmd.get("options") or {}))
            if cmd.get("start"):
                game.set_position(cmd["start"])
            actions = []
        shown = len(game.actions())
        while len(game.actions()) < len(actions):  # to the end of what came before
            game.play(actions[len(game.actions())])
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
            while len(game.actions()) > shown:
                game.undo()
        actions += added
        if not cmd.get("append"):
            self.screen = Replay(self, game_id, game, actions)
        else:
            self.screen.view.sync(game, self.screen.ui)
        link.send({"t": "ok", "cmd": "replay", "plies": len(actions)})
