"""The play screen: a game in progress, drawn and driven by its view; the device moves for
its sides."""
import gc
import random
import time

from views import BACK, load as load_view, palette, result_card

from app.screen import Screen

# What the display says, by turns with the board, while a linked game waits: the other board
# away (unplugged, restarted, the network down), or the game stopped (app.peer.halt).
HOLDS = {"away": "OFF", "halt": "BAD"}
DEVICE_DELAY_MS = 500  # let people see the device's move coming
THINK_MS = 25  # the device thinks at most about this long per pass of the main loop
THINK_STEP = 4  # work units of the search between two looks at the clock


class Play(Screen):
    NAME = "play"

    def __init__(self, app, session):
        self.app = app
        self.session = session
        self.view = load_view(session.game_id)
        self.ui = self.view.new_ui(session.game)
        self.ui.paint(palette.stones(session.game_id))
        self.ui.show_targets(session.targets)
        self.device_at = None
        self.pondering = None  # the device thinking on the person's time (search.Ponder)
        self.pondered = None  # the ply at which the last ponder began (one a turn)
        self.thinker = None  # the device's search for the action it is about to play
        self.choice = None  # the action it found, played once DEVICE_DELAY_MS have passed
        self.hinting = None  # the search for a hint the person asked for (a hold of OK)
        self.checking = None  # (action, search): the person's action, looked at before it is
        self.warned = None  # played (Setup's WRN); (ply, action) warned about: played if made
        self.warning = False  # again; the warning card is up until the next press
        self.work = 0  # the work units of the device's last search (benchmarks)

    def handle(self, button, kind, now):
        s, g = self.session, self.session.game
        if button == "back" and kind == "long":
            self.app.leave_game()
            return None
        if g.result() is not None:
            if button == "ok":
                from app.menu import Setup

                return Setup(self.app, s.game_id, s.options, s.players, s.aids())
            return None
        if not s.human_to_move():
            return None
        self.ui.touch(now)
        self.warning = False
        if button == "ok" and kind == "long":  # a hold of OK: the device's suggestion
            self._ask_hint(now)
            return None
        a = self.view.handle(g, self.ui, button, kind, now)
        if a == BACK:
            self._take_back(now)
        elif a is not None:
            self._move(a)
        return None

    def _slice(self, t, now):
        """Step search `t` for about THINK_MS from `now` (the main loop serves the buttons
        and the wire in between); True once it is done."""
        while not t.step(THINK_STEP) and time.ticks_diff(time.ticks_ms(), now) < THINK_MS:
            pass
        return t.done

    def _move(self, a):
        """The person's action: played, or first looked at by the device when it is to warn
        of a loss it sees (once for each position and action)."""
        s = self.session
        if s.warn and self.warned != (s.game.plies(), a):
            t = s.foresee(a, random.getrandbits(30))
            if t is not None:
                self.pondering = None
                self.checking = (a, t)
                return
        self.app.play(a)

    def _check(self, now):
        """The look at the person's action in slices; then it is played, or the warning is
        up and the same action made again plays it."""
        a, t = self.checking
        if not self._slice(t, now):
            return
        self.checking = None
        if not self.session.sees_loss(t):
            self.app.play(a)
            return
        self.warned, self.warning = (self.session.game.plies(), a), True
        self.ui.refuse(now)
        self.app.redraw()

    def _take_back(self, now):
        """BACK at one board (Session.take_back); none between two boards."""
        s = self.session
        if s.seat is not None or not s.game.plies():
            return
        try:
            s.take_back()
        except ValueError:  # the device has made the only turn so far
            self.ui.refuse(now)
            return
        self.changed()

    def _ask_hint(self, now):
        """Start the search for a hint, unless the game has them turned off (Setup) or one
        is under way; the device's pondering gives way to it."""
        if not self.session.hints:
            self.ui.refuse(now)
        elif self.hinting is None:
            self.pondering = None
            self.hinting = self.session.hint(random.getrandbits(30))

    def _show_hint(self, a, now):
        """The view is brought to the hinted action, one press short of playing it (the
        presses keys_for gives, but the last): OK then plays it, anything else goes on."""
        keys = self.view.keys_for(self.session.game, self.ui, a)
        for button, kind in keys[:-1]:
            self.view.handle(self.session.game, self.ui, button, kind, now)
        self.ui.touch(now)  # the cursor lit where it went
        self.session.got_hint()
        self.app.redraw()

    def changed(self):
        """The game changed (an action here or from elsewhere, an undo, a hold)."""
        self.thinker = self.choice = self.device_at = self.hinting = self.checking = None
        self.warning = False
        s = self.session
        if self.pondering is not None and (s.game.plies() < self.pondering.first
                                           or s.game.result() is not None):
            self.pondering = None  # taken back past where it began, or over: nothing to see
        if s.seat is not None:  # linked: a cursor only while this board's side may act
            self.ui.paint(self.ui.colours, not s.human_to_move())
        self.view.sync(s.game, self.ui)

    def stop_thinking(self):
        """Let go of the device's search under way, if any, for its room (it starts again
        at the next tick)."""
        self.thinker = None

    def busy(self):
        return self.thinker is not None or self.hinting is not None or \
            self.checking is not None or \
            self.pondering is not None and self.pondering.search is not None

    def tick(self, now):
        """The device's turn: search in slices of about THINK_MS (the main loop serves the
        buttons and the serial wire in between), then play once DEVICE_DELAY_MS have passed
        since the turn began.  The person's turn: the device thinks on their time."""
        s, g = self.session, self.session.game
        if g.result() is not None or s.seat is not None:
            self.pondering = None  # (the person's last action ended the game)
            return  # no device plays in a linked game: the other board's side comes from it
        if s.human_to_move():
            if self.checking is not None:
                self._check(now)
            elif self.hinting is not None:
                self._hint(now)
            else:
                self._ponder(now)
            return
        if self.choice is None:
            t = self.thinker
            if t is None:
                self.device_at = time.ticks_add(now, self.app.settings.get("device_delay_ms",
                                                                            DEVICE_DELAY_MS))
                t = self.pondering.hit(g) if self.pondering is not None else None
                self.pondering = None  # foreseen, its search goes on; else it goes
                if t is None:
                    gc.collect()  # the search's copy of the game low in a clean heap
                    t = s.think(random.getrandbits(30))
                self.thinker = t
            if self._slice(t, now):  # keep the answer only: the search's copy of the game
                self.choice, self.work, self.thinker = t.best, t.nodes, None  # and its lists
                t = None
                gc.collect()  # are gone before the action is journalled and shown
        elif time.ticks_diff(now, self.device_at) >= 0 and not self.holds(now):
            a, self.choice = self.choice, None
            self.app.play(a)

    def _hint(self, now):
        """The hint's search in slices, as the device's own (tick); shown once done."""
        t = self.hinting
        if self._slice(t, now):
            self.hinting = None
            self._show_hint(t.best, now)

    def _ponder(self, now):
        """A unit of work at a time, for about THINK_MS, and not one more once a button has
        changed: a press is answered as fast as when the device is idle."""
        if self.pondering is None:
            g = self.session.game
            if self.pondered == g.plies() or not self.app.settings.get("ponder", 1):
                return
            self.pondered = g.plies()
            self.pondering = self.session.ponder(random.getrandbits(30))
        p, app = self.pondering, self.app
        while p is not None and not app.edged and not p.step(1) \
                and time.ticks_diff(time.ticks_ms(), now) < THINK_MS:
            pass

    def holds(self, now):
        """The view shows what the player must see before the device acts (views: holds)."""
        holds = getattr(self.view, "holds", None)  # optional in the views' protocol
        return holds is not None and holds(self.session.game, self.ui, now)

    def render(self, c, now):
        g = self.session.game
        hold = self.session.hold
        if hold in HOLDS and now // 1500 % 2:  # a linked game paused or stopped: by turns
            c.clear()
            c.text(0, 1, "LINK", palette.TEXT)
            c.text(0, 9, HOLDS[hold], palette.REFUSED)
            return
        if self.warning and now // 700 % 2:  # a move the device sees lose: by turns
            c.clear()
            c.text(0, 1, "SURE?", palette.REFUSED)
            c.text(0, 9, "LOSS", palette.TEXT)
            return
        result = g.result()
        show_card = not getattr(self.view, "SHOWS_RESULT", False)  # optional, as holds
        if result is not None and show_card and now // 1500 % 2:  # board and result by turns
            result_card(result, self.ui.colours, c)
            return
        self.view.render(g, self.ui, c, now)
