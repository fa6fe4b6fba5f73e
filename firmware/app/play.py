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
        self.aid = None  # a person's aid under way (app.aids: a Hint, a Check), or None
        self.warned = None  # (ply, action) app.aids warned of: played if made again
        self.message = None  # (top, bottom): words by turns with the board until a press
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
        self.message = None
        hold = button == "ok" and kind == "long"  # a hold of OK: the device's suggestion
        a = None if hold else self.view.handle(g, self.ui, button, kind, now)
        if a is None and not (hold and self.aid is None) or \
                a == BACK and (s.seat is not None or not g.plies()):
            return None  # (nothing to take back: no ply yet, or between two boards)
        if a is not None and a != BACK and not (s.warn and self.warned != (g.plies(), a)):
            self.app.play(a)  # no aid looks at it first
            return None
        from app import aids  # loaded at the first use of one

        if a == BACK:
            aids.take_back(self, now)
        else:  # a hint (a hold of OK), or the look at an action (Setup's WRN)
            self.pondering = None  # the device's thinking gives way
            self.aid = aids.ask(self, a, random.getrandbits(30), now)
        return None

    def slice(self, t, now):
        """Step search `t` for about THINK_MS from `now` (the main loop serves the buttons
        and the wire in between); True once it is done."""
        while not t.step(THINK_STEP) and time.ticks_diff(time.ticks_ms(), now) < THINK_MS:
            pass
        return t.done

    def warn(self, a, message, now):
        """The person's action `a` is not played: `message` (top, bottom) says why until a press,
        and the same action made again is played (app.aids: a loss the device sees)."""
        self.warned, self.message = (self.session.game.plies(), a), message
        self.ui.refuse(now)
        self.app.redraw()

    def changed(self):
        """The game changed (an action here or from elsewhere, an undo, a hold)."""
        self.thinker = self.choice = self.device_at = self.aid = self.message = None
        s, p = self.session, self.pondering
        if p is not None and (s.game.plies() < p.first or s.game.result() is not None
                              or not s.human_to_move() and p.hit(s.game) is None):
            # taken back past where it began, over, or the person's move not foreseen:
            self.pondering = None  # nothing to see, and its room is the view's next
        p = None
        if s.seat is not None:  # linked: a cursor only while this board's side may act
            self.ui.paint(self.ui.colours, not s.human_to_move())
        self.view.sync(s.game, self.ui)

    def stop_thinking(self):
        """Let go of the device's search under way, if any, for its room (it starts again
        at the next tick)."""
        self.thinker = None

    def busy(self):
        return self.thinker is not None or self.aid is not None or \
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
            if self.aid is None:
                self._ponder(now)
            elif self.aid.step(self, now):
                self.aid = None
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
            if self.slice(t, now):  # keep the answer only: the search's copy of the game
                self.choice, self.work, self.thinker = t.best, t.nodes, None  # and its lists
                t = None
                gc.collect()  # are gone before the action is journalled and shown
        elif time.ticks_diff(now, self.device_at) >= 0 and not self.holds(now):
            a, self.choice = self.choice, None
            self.app.play(a)

    def _ponder(self, now):
        """A unit of work at a time, for about THINK_MS, and not one more once a button has
        changed: a press is answered as fast as when the device is idle."""
        if self.pondering is None:
            g = self.session.game
            if self.pondered == g.plies() or not self.app.settings.get("ponder", 1):
                return
            self.pondered = g.plies()
            gc.collect()  # as for the device's search: its copy of the game low in a clean heap
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
        if self.message is not None and now // 700 % 2:  # (app.aids: a warning) by turns
            c.clear()
            c.text(0, 1, self.message[0], palette.REFUSED)
            c.text(0, 9, self.message[1], palette.TEXT)
            return
        result = g.result()
        show_card = not getattr(self.view, "SHOWS_RESULT", False)  # optional, as holds
        if result is not None and show_card and now // 1500 % 2:  # board and result by turns
            result_card(result, self.ui.colours, c)
            return
        self.view.render(g, self.ui, c, now)
