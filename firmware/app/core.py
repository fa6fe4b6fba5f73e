"""The app: the main loop, and the one owner of what is on the screen, the game being
played and the game left unfinished.  The screens (app.play, and app.menu, app.confirm,
app.replay, app.selftest, loaded when needed and forgotten while a game is played) and the
serial commands (app.commands, loaded with the first one) ask for changes through its
methods, or return the screen to show."""
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

from shared_rules import record
from views.canvas import Canvas
from views import palette

from app import VERSION, journal, wire
from app.heap import forget, only, playable
from app.session import Session

FRAME_MS = 100  # redraw at least this often, for blinking
PASS_MS = 20  # the main loop's pass when idle (sooner on a button, where the board says)
NOTICE_MS = 2000  # how long "CUT" shows at boot when the journal was cut short


SETTINGS = ("brightness", "device_delay_ms", "ponder")


def load_settings(path="settings.json"):
    """Settings a maker may put on the flash: {"brightness": 0..255, "device_delay_ms": pause
    before the device moves, "ponder": 0 to keep the device from thinking on the player's
    time}.  Missing or bad: defaults."""
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
            hal.set_brightness(self.settings["brightness"])  # the board caps it
        self.games = playable()  # the views on this board's flash: fixed until the next boot
        self.unfinished = None  # (game, public ply) of a game left by a long BACK
        from app.menu import Menu

        self.screen = Menu(self)
        self.next_frame = 0
        self.dirty = True
        self.restarted = 0  # restarts for want of memory just before this boot (journal)
        self.peer = None  # the other board of a linked game (app.peer), once there is one
        self.notice_until = None  # "CUT" is shown until then (resume)
        self.edged = False  # a button changed since the loop last read them (wake_on_press)

    # -- the screen and the game on it ---------------------------------------------------
    def show(self, screen):
        self.screen = screen
        self.dirty = True

    def redraw(self):
        """Something the screen shows changed outside its handle() (the other board)."""
        self.dirty = True

    def session(self):
        """The game being played on the screen, or None."""
        return self.screen.session if self.screen is not None else None

    def start(self, session):
        """Begin a new game (journalled and sent) and play it."""
        if self.unfinished:  # the game left by a long BACK ends for good (the menu asked):
            # its end record, journalled and sent, at the last ply the wire has seen (a
            # secret bid never was)
            line = record.abandoned_line(self.unfinished[1])
            self.unfinished = None
            journal.append(line)
            wire.send(line)
        session.begin()
        self._progress()
        self._playing(session)

    def _playing(self, session):
        forget("app", "menu")  # back in the heap when the game is over
        forget("app", "replay")
        forget("app", "confirm")
        forget("app", "selftest")
        forget("app", "learn")
        forget("guides", session.game_id)  # a guide just followed (the others: heap.only)
        self.screen = None  # what the last screen held goes before the game's view loads
        gc.collect()
        from app.play import Play  # loaded with the first game: not in a boot's heap

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

    def leave_game(self, keep=None, top=False):
        """A long BACK: to the menu, the game kept in the journal (the menu offers to resume
        it while it is unfinished), and no game's code left in the heap but `keep`'s (the
        game about to start: loading it again would cut the heap into pieces).  The menu is
        at the game left, or at its first item with `top` (the serial `menu` command: tools
        count from there)."""
        g, game_id = self.screen.session.game, self.screen.session.game_id
        self.unfinished = None if g.result() is not None else (game_id, g.plies() - g.hidden())
        g = None  # not held here while the garbage is collected
        from app.menu import Menu

        # at the game just left, in every game: OK sets up a new one of it, left/right choose
        # another, and RES (resume it) is the first item, before the games
        self.show(Menu(self, None if top else game_id))
        only(keep)

    def menu(self, at=None):
        """The menu screen, at the item `at` (a game's id, or a screen's NAME), for screens
        that app.menu itself shows (no two modules import each other)."""
        from app.menu import Menu

        return Menu(self, at)

    def setup(self, game_id):
        """The Setup screen of a new game of `game_id`, as menu() (the guides end there)."""
        from app.menu import Setup

        return Setup(self, game_id)

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
            session, cut, self.restarted = recovery.resume()
        finally:
            forget("app", "recovery")
            forget("app", "journal_read")
            forget("shared_rules", "reader")
        if cut:  # the game was cut short: say so, for a moment, on screen too
            self.notice_until = time.ticks_add(time.ticks_ms(), NOTICE_MS)
        if session is None:
            return False
        self._playing(session)
        wire.send({"t": "resumed", "game": session.game_id, "ply": session.game.plies()})
        return True

    def resume_unfinished(self):
        """Play the game left by a long BACK again (the menu's RES, or the other board back
        for a linked one): True, or False when the journal no longer has it."""
        only(self.unfinished[0])  # room for the journalled game
        self.unfinished = None
        return self.resume()

    # -- the main loop -------------------------------------------------------------------
    async def run(self):
        random.seed(time.ticks_ms() ^ int.from_bytes(os.urandom(2), "little")
                    if hasattr(os, "urandom") else time.ticks_ms())
        wire.send(self.hello())
        self.resume()
        asyncio.create_task(self._serve())
        wake = self._waker()
        while True:
            now = time.ticks_ms()
            self.edged = False
            event = self.hal.poll()
            pressed = event is not None
            while event:
                self.press(event[0], event[1], now)
                event = self.hal.poll()
            if not pressed:  # a press is shown first, before the device thinks on
                self.screen.tick(now)  # the device's turn (Play); others answer buttons
                if self.edged:  # a button changed while the device thought: read it
                    await asyncio.sleep_ms(0)  # first (the serial wire's turn, still)
                    continue
            if self.dirty or time.ticks_diff(now, self.next_frame) >= 0:
                self.draw(now, pressed)
            if pressed:  # the garbage collected now, once the press is shown, rather than
                gc.collect()  # when the heap's threshold falls in the middle of the next
            # busy() in a statement of its own: the await's arguments then take the stack
            # slots where the call left the screen, which the collector would still find in
            # this coroutine's frame, holding a game being let go of, while it sleeps
            busy = self.screen.busy()
            if busy or wake is None:
                await asyncio.sleep_ms(0 if busy else PASS_MS)
            else:
                await wake.wait()

    def _waker(self):
        """A flag that a button's interrupt sets, and a task every PASS_MS, on a board that
        can call back on a press (hal: wake_on_press): the loop then sleeps until either.
        None elsewhere: the loop sleeps PASS_MS."""
        hook = getattr(self.hal, "wake_on_press", None)  # optional in the hal's protocol
        flag = getattr(asyncio, "ThreadSafeFlag", None)  # not on every port's asyncio
        if hook is None or flag is None:
            return None
        wake = flag()

        def edge():
            self.edged = True
            wake.set()
        hook(edge)
        asyncio.create_task(self._every_pass(wake))
        return wake

    async def _every_pass(self, wake):
        while True:
            await asyncio.sleep_ms(PASS_MS)
            wake.set()

    async def _serve(self):
        """The serial wire as long as the app runs: should its reader ever end, it starts
        again (wire.serve answers every line itself; this is the last guard)."""
        while True:
            try:
                await wire.serve(self.command, getattr(self.hal, "serial", None))
            except Exception as e:  # noqa: BLE001 - reported, then the wire reads again
                wire.report(e)
            await asyncio.sleep_ms(100)

    def draw(self, now, pressed=True):
        """Draw the screen and show it if it changed; not when a button changed while a
        frame that no press asked for was drawn: the press comes first, and the next frame
        shows both (a press's own frame is shown, whatever its contacts bounce)."""
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
            if self.edged and not pressed:
                self.dirty = True
                return
            self._shown[:] = self.canvas.buf
            self.hal.show(self._shown)

    def press(self, button, kind, now):
        if button == "ok" and kind == "long" and self.session() is None:
            return  # a hold of OK asks for a hint in a game; elsewhere its press has acted
        screen = self.screen.handle(button, kind, now)
        if screen is not None:
            self.show(screen)
        screen = None
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

        outcome = run(self, cmd)
        self.dirty = True
        if type(outcome) is tuple:  # "new": the game is started here, out of the commands'
            self._new(*outcome)  # frames
        elif outcome is not None:
            self.show(outcome)

    def _new(self, game_id, players, game):
        self.screen = None  # the game or menu on screen let go of, and their code with it,
        forget("app", "menu")  # to make room for the new game's opponent and view
        only(game_id)
        try:
            self.start(Session(game_id, players=players, game=game))
        except MemoryError:
            raise  # the board restarts: no room for a menu
        except Exception:  # noqa: BLE001 - a full flash: the menu; the error is answered
            from app.menu import Menu

            self.screen = Menu(self, game_id)
            raise
