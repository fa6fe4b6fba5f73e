"""The app: the main loop and the play screen.  The other screens live in app.menu and
app.replay, loaded when needed and forgotten while a game is played; the serial commands in
app.commands, loaded with the first one."""
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

from views import BACK, load as load_view, result_card
from views.canvas import Canvas
from views import palette

from app import VERSION, journal, link
from app.heap import forget, playable
from app.session import Session

# What the display says, by turns with the board, while a linked game waits: the other board
# away (unplugged, restarted, the network down), or the game stopped (app.peer.halt).
HOLDS = {"away": "OFF", "halt": "BAD"}
DEVICE_DELAY_MS = 500  # let people see the device's move coming
THINK_MS = 25  # the device thinks at most about this long per pass of the main loop
THINK_STEP = 4  # work units of the search between two looks at the clock
FRAME_MS = 100  # redraw at least this often, for blinking
GIVE_UP_AFTER = 3  # boots in a row that ran out of memory before the journalled game is set aside
NOTICE_MS = 2000  # how long "CUT" shows at boot when the journal was cut short


class Play:
    """A game in progress, drawn and driven by its view; the device moves for its sides.
    Each screen names itself in NAME, what the serial `state` command reports as "screen":
    part of the protocol, so a class can be renamed without changing the wire."""

    NAME = "play"

    def __init__(self, app, session):
        self.app = app
        self.session = session
        self.view = load_view(session.game_id)
        self.ui = self.view.new_ui(session.game)
        self.ui.colours = palette.stones(session.game_id)
        self.device_at = None
        self.thinker = None  # the device's search for the action it is about to play
        self.choice = None  # the action it found, played once DEVICE_DELAY_MS have passed
        self.work = 0  # the work units of the device's last search (benchmarks)

    def handle(self, button, kind, now):
        s, g = self.session, self.session.game
        if button == "back" and kind == "long":
            from app.leave import leave

            leave(self.app, s)
            return
        if g.result() is not None:
            if button == "ok":
                from app.menu import Setup

                self.app.screen = Setup(self.app, s.game_id, s.options, s.players)
            return
        if not s.human_to_move():
            return
        a = self.view.handle(g, self.ui, button, kind, now)
        if a == BACK:
            if not s.has_device() and s.seat is None and g.plies():  # take back, one board
                s.undo()
                while g.hidden() and g.plies():  # a secret made visible by the undo
                    s.undo()
                self.view.sync(g, self.ui)
        elif a is not None:
            self.app.play(a)

    def changed(self):
        self.thinker = self.choice = self.device_at = None
        s = self.session
        if s.seat is not None:  # linked: a cursor only while this board's side may act
            self.ui.cursor_hidden = not s.human_to_move()
        self.view.sync(s.game, self.ui)

    def thinking(self):
        """True while the device's search has work left: the main loop then only yields."""
        return self.thinker is not None

    def tick(self, now):
        """The device's turn: search in slices of about THINK_MS (the main loop serves the
        buttons and the serial link in between), then play once DEVICE_DELAY_MS have passed
        since the turn began."""
        s, g = self.session, self.session.game
        if g.result() is not None or s.human_to_move() or s.seat is not None:
            return  # no device plays in a linked game: the other board's side comes from it
        if self.choice is None:
            t = self.thinker
            if t is None:
                self.device_at = time.ticks_add(now, self.app.settings.get("device_delay_ms",
                                                                            DEVICE_DELAY_MS))
                gc.collect()  # the search's copy of the game low in a clean heap
                self.thinker = t = s.think(random.getrandbits(30))
            while not t.step(THINK_STEP) and time.ticks_diff(time.ticks_ms(), now) < THINK_MS:
                pass
            if t.done:  # keep the answer only: the search's copy of the game and its lists
                self.choice, self.work, self.thinker = t.best, t.nodes, None
                t = None
                gc.collect()  # are gone before the action is journalled and shown
        elif time.ticks_diff(now, self.device_at) >= 0 and not self.holds(now):
            a, self.choice = self.choice, None
            self.app.play(a)

    def holds(self, now):
        """The view shows what the player must see before the device acts (views: holds)."""
        holds = getattr(self.view, "holds", None)
        return holds is not None and holds(self.session.game, self.ui, now)

    def render(self, c, now):
        g = self.session.game
        hold = self.session.hold
        if hold in HOLDS and now // 1500 % 2:  # a linked game paused or stopped: by turns
            c.clear()
            c.text(0, 1, "LINK", palette.TEXT)
            c.text(0, 9, HOLDS[hold], palette.REFUSED)
            return
        result = g.result()
        show_card = not getattr(self.view, "SHOWS_RESULT", False)
        if result is not None and show_card and now // 1500 % 2:  # board and result by turns
            result_card(result, self.ui.colours, c)
            return
        self.view.render(g, self.ui, c, now)


SETTINGS = ("brightness", "device_delay_ms")


def load_settings(path="settings.json"):
    """Settings a maker may put on the flash: {"brightness": 0..255, "device_delay_ms": pause
    before the device moves}.  Missing or bad: defaults."""
    import json

    from shared_rules.record import check_json
    try:
        with open(path, "rb") as f:
            text = f.read(1024)  # a few settings: no flash can fill the heap from here
        check_json(text)  # UTF-8 and shallow, before json.loads
        settings = json.loads(text)
    except (OSError, ValueError):
        return {}
    if type(settings) is not dict:
        return {}
    # only the settings the app reads, each a number, or the default: a bad file never stops
    # the boot, and a setting nothing reads (a colour scheme, once) is not kept
    return dict((k, v) for k, v in settings.items() if k in SETTINGS and type(v) is int)


class App:
    def __init__(self, hal):
        self.hal = hal
        self.canvas = Canvas(hal.width, hal.height)
        self._shown = bytearray(len(self.canvas.buf))
        self.settings = load_settings()
        if "brightness" in self.settings:
            hal.brightness = self.settings["brightness"]  # the board caps it
        self.games = playable()  # the views on this board's flash: fixed until the next boot
        self.unfinished = None  # (game, public ply) of a game left by a long BACK (app.menu)
        from app.menu import Menu

        self.screen = Menu(self)
        self.next_frame = 0
        self.dirty = True
        self.restarted = 0  # restarts for want of memory just before this boot (journal)
        self.peer = None  # the other board of a linked game (app.peer), once there is one
        self.notice_until = None  # "CUT" is shown until then (resume)

    def start(self, session):
        if self.unfinished:  # the game left by a long BACK ends for good (app.menu asked)
            from app.leave import abandon

            abandon(self)
        session.begin()
        self._progress()
        self._playing(session)

    def _playing(self, session):
        forget("app", "menu")  # back in the heap when the game is over
        forget("app", "replay")
        forget("app", "leave")
        forget("app", "selftest")
        self.screen = None  # what the last screen held goes before the game's view loads
        gc.collect()
        self.screen = Play(self, session)
        if session.seat is not None:
            self.linked().attach(session)
            self.screen.changed()
        self.dirty = True

    def play(self, a):
        """Play for the side to move in the current game (journalled, logged, then shown)."""
        session = self.screen.session
        if session.seat is not None:  # linked: the other board gets it (or its commitment)
            self.peer.play(a)
        else:
            session.play(a)
        session = None
        self._progress()
        self.screen.changed()
        self.dirty = True

    def linked(self):
        """The other board's link (app.peer), made when first needed."""
        if self.peer is None:
            from app.peer import Peer

            self.peer = Peer(self)
        return self.peer

    def _progress(self):
        if self.restarted:  # the game goes on: a later restart for memory is a new one
            journal.progress()
            self.restarted = 0

    def resume(self):
        """Resume the journalled game, if any: True when it is being played again.  The
        code that reads the journal is in the heap for this only."""
        from app import recovery

        try:
            return recovery.resume(self)
        finally:
            forget("app", "recovery")
            forget("shared_rules", "reader")

    async def run(self):
        random.seed(time.ticks_ms() ^ int.from_bytes(os.urandom(2), "little")
                    if hasattr(os, "urandom") else time.ticks_ms())
        link.send(self.hello())
        self.resume()
        asyncio.create_task(self._serve())
        while True:
            now = time.ticks_ms()
            event = self.hal.poll()
            while event:
                self.press(event[0], event[1], now)
                event = self.hal.poll()
            play = isinstance(self.screen, Play)
            if play:  # the device's turn; the other screens only answer buttons
                self.screen.tick(now)
            if self.dirty or time.ticks_diff(now, self.next_frame) >= 0:
                self.draw(now)
            # a call, no bound method kept (it would hold a game being let go of)
            busy = play and self.screen.thinking()
            await asyncio.sleep_ms(0 if busy else 20)

    async def _serve(self):
        """The serial link as long as the app runs: should its reader ever end, it starts
        again (link.serve answers every line itself; this is the last guard)."""
        while True:
            try:
                await link.serve(self.command, getattr(self.hal, "serial", None))
            except Exception as e:  # noqa: BLE001 - reported, then the link reads again
                link.report(e)
            await asyncio.sleep_ms(100)

    def draw(self, now):
        self.screen.render(self.canvas, now)
        if self.notice_until is not None:
            if time.ticks_diff(self.notice_until, now) > 0:
                self.canvas.clear()
                self.canvas.text(1, 5, "CUT", palette.TEXT)
            else:
                self.notice_until = None
        self.dirty = False
        self.next_frame = time.ticks_add(now, FRAME_MS)
        if self.canvas.buf != self._shown:
            self._shown[:] = self.canvas.buf
            self.hal.show(self._shown)

    def press(self, button, kind, now):
        self.screen.handle(button, kind, now)
        self.dirty = True

    def hello(self):
        return {"t": "hello", "fw": VERSION, "games": self.games}

    def command(self, cmd):
        """Act on a serial command (firmware/README.md).  Their code is loaded with the first
        one: a board that no host talks to never holds it."""
        if "cmd" not in cmd:  # a line of the other board, relayed (firmware/README.md)
            if self.peer is None:
                raise ValueError("%s: no board is linked here (the host sends the link "
                                 "command first)" % cmd["t"][:16])
            self.peer.receive(cmd)
            return
        from app.commands import run

        new = run(self, cmd)
        if new is not None:  # "new": the game is started here, out of the commands' frames
            game_id, players, game = new
            new = None
            try:
                self.start(Session(game_id, players=players, game=game))
            except MemoryError:
                raise  # the board restarts: no room for a menu
            except Exception:  # noqa: BLE001 - a full flash: the menu; the error is answered
                from app.menu import Menu

                self.screen = Menu(self, game_id)
                raise
