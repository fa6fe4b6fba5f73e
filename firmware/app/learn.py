"""The first-game guides (the menu's LRN): a newcomer learns a game by playing it.

A guide is data, one file per game (guides/<game>.py: STEPS and END, described there).  Each
step's words scroll across the display, then the board shows the position, the move the step
is about blinking (its points: the view's optional arrow()), and waits for the player to make
that move with the game's own controls.  Any other move is refused: its reason scrolls, and
the position stays as it was.  BACK shows the step's words again; a long BACK, the menu.
The rules and views are the game's own, so nothing here knows one game from another; nothing
is journalled (a guide is no game)."""
from shared_rules import load
from views import BACK, load as load_view, palette

from app.heap import forget, on_flash, only
from app.screen import Screen

SCROLL_MS = 70  # a pixel of scrolled words: about 3.5 letters a second, as the Setup help


def guide(game_id):
    """The guide module of a game (loaded), or None when the flash has none."""
    try:
        return getattr(__import__("guides." + game_id), game_id)
    except ImportError:
        return None


def has_guide(game_id):
    """True when the flash has the game's guide (not loaded to find out)."""
    import guides

    return on_flash(guides, game_id)


class Guides(Screen):
    """LRN: left/right chooses the game whose guide to follow, OK starts it, BACK the menu."""

    NAME = "guides"

    def __init__(self, app, game_id=None):
        self.app = app
        self.games = [g for g in app.games if has_guide(g)]
        self.i = self.games.index(game_id) if game_id in self.games else 0

    def handle(self, button, kind, now):
        if button == "back" or not self.games:
            return self.app.menu(Guides.NAME)
        if button in ("left", "right", "up", "down"):
            step = 1 if button in ("right", "down") else -1
            self.i = (self.i + step) % len(self.games)
        elif button == "ok":
            return Learn(self.app, self.games[self.i])
        return None

    def render(self, c, now):
        c.clear()
        c.text(1, 1, "LRN", palette.CURSOR)
        if self.games:
            game = self.games[self.i]
            c.text(1, 8, game[:3].upper(), palette.TEXT)
            c0, c1 = palette.stones(game)
            c.rect(14, 8, 2, 2, c0)
            c.rect(14, 11, 2, 2, c1)


class Learn(Screen):
    """One game's guide, step by step."""

    NAME = "learn"

    def __init__(self, app, game_id):
        only(game_id)
        self.app = app
        self.game_id = game_id
        self.guide = guide(game_id)
        self.rules = load(game_id)
        self.view = load_view(game_id)
        self.game = None
        self.ui = None
        self.k = -1  # the step under way (len(STEPS): the guide is done)
        self.want = None  # the action the step waits for
        self.words = None  # what scrolls now (None: the board)
        self.since = None  # when it began to scroll (its first frame)
        self.refused = False  # the words say why a move was refused
        self.next_step()

    def next_step(self):
        """Set up the next step: its position (or the last one's, played on), its words."""
        self.k += 1
        steps = self.guide.STEPS
        if self.k == len(steps):
            self.want = None
            self._say(self.guide.END)
            return
        say, start, want, _, _ = steps[self.k]
        if start is not None or self.game is None:
            self.game = self.rules.Game()
            if start:
                self.game.set_position(start)
            self.ui = self.view.new_ui(self.game)
            self.ui.paint(palette.stones(self.game_id))
        self.want = self.game.parse(want)
        self.view.sync(self.game, self.ui)
        self._say(say)

    def _say(self, words, refused=False):
        self.words, self.since, self.refused = words, None, refused

    def handle(self, button, kind, now):
        if button == "back" and kind == "long":
            self.leave()
            return self.app.menu(Guides.NAME)
        if self.want is None:  # done: OK plays a game of it, BACK the guides
            if button not in ("ok", "back"):
                return None
            self.leave()
            return self.app.setup(self.game_id) if button == "ok" else \
                Guides(self.app, self.game_id)
        if self.words is not None:  # any press: the board
            self.words = None
            return None
        self.ui.touch(now)
        a = self.view.handle(self.game, self.ui, button, kind, now)
        if a == BACK:
            self._say(self.guide.STEPS[self.k][0])
        elif a is not None:
            self.act(a, now)
        return None

    def leave(self):
        """Let go of the guide's positions, its steps and this module; the game's rules and
        view stay for the game that may follow (the heap does not get all of a module back
        when it is let go of: loading it again would cost it twice)."""
        self.game = self.ui = self.view = self.rules = self.guide = None
        forget("guides", self.game_id)
        forget("app", "learn")  # imported again with the next guide
        only(self.game_id)

    def act(self, a, now):
        """The player's move: the step's, played (and the other side's reply the step gives),
        or refused with the step's reason, the position as it was."""
        g = self.game
        if a != self.want:
            self.ui.refuse(now)
            self.view.sync(g, self.ui)  # what was picked up is put down
            self._say(self.guide.STEPS[self.k][3], refused=True)
            return
        g.play(a)
        for reply in self.guide.STEPS[self.k][4].split():
            g.play(g.parse(reply))
        self.next_step()

    def render(self, c, now):
        if self.words is not None:
            self._scroll(c, now)
            return
        self.view.render(self.game, self.ui, c, now)
        arrow = getattr(self.view, "arrow", None)  # optional in the views' protocol
        if arrow is not None and self.ui.blink(now, 600):
            for x, y in arrow(self.game, self.want):  # x.5: the middle of two pixels
                for px in (int(x), int(x + 0.5)):
                    for py in (int(y), int(y + 0.5)):
                        c.set(px, py, palette.GUIDE)

    def _scroll(self, c, now):
        """The words, once across the display, then the board (a press skips them); the
        step's number and the count of steps above them."""
        c.clear()
        if self.since is None:
            self.since = now
        x = 16 - (now - self.since) // SCROLL_MS
        c.text(x, 6, self.words, palette.REFUSED if self.refused else palette.TEXT)
        steps = len(self.guide.STEPS)
        for k in range(steps):  # a dot a step: done, under way, to come
            c.set(k, 0, palette.CURSOR if k == self.k else
                  palette.TEXT if k < self.k else palette.POINT)
        if x + 4 * len(self.words) <= 0 and self.want is not None:
            self.words = None  # read: the board
        elif x + 4 * len(self.words) <= 0:
            self.since = now  # the end's words go round until a press
