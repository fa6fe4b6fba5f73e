"""The menu (choose a game, or resume the one left) and the setup screen (players and
options).  Loaded when shown, forgotten while a game is played (app.heap.forget)."""
from views import load as load_view
from views import palette

from app.heap import only
from app.screen import Screen
from app.session import AIDS, AT, PLAYERS, Session, players_of

SHORT = {"human": "HUM", "device:beginner": "BEG", "device:easy": "EASY",
         "device:normal": "NORM", "device:hard": "HARD"}


def short(who):
    """A player's label: HUM, BEG, EASY... and N+1, N+2... for the steps between normal and
    hard (shared_rules.search.levels)."""
    return SHORT.get(who) or "N+" + who.split("+")[-1]


def player_help(key, players):
    """What a players' item means, scrolled the first time it shows (the options': views'
    HELP): its side, and the choices, the device's levels weakest first."""
    return "%s PLAYS %s: HUM A PERSON - %s THE DEVICE" % (
        key, "FIRST" if key == "P1" else "SECOND", " ".join(short(p) for p in players[1:]))


LINKED_HELP = "WHO BEGINS: ME OR YOU AT THE OTHER BOARD"
HINTS = "hints"
# the Setup items of a person's aids (app.session.AIDS, not rules options): label and help
AID_ITEMS = {HINTS: ("HNT", "HNT ON: HOLD OK AND THE DEVICE SHOWS A GOOD MOVE"),
             "warn": ("WRN", "WRN ON: THE DEVICE WARNS ONCE BEFORE A MOVE IT SEES LOSE"),
             "targets": ("TGT", "TGT ON: WHERE OK WOULD ACT GLOWS")}
SCROLL_MS = 70  # a pixel of scrolled help: about 3.5 letters a second


RESUME = None  # the menu's first item while a game is left unfinished
LEARN = "guides"  # after the games: the first-game guides (app.learn.Guides's NAME)
TEST = "selftest"  # its last item: the hardware self-test (app.selftest)


class Menu(Screen):
    """Choose a game: left/right, OK.  While a game left by a long BACK is unfinished the
    first item resumes it (RES and the game's name)."""

    NAME = "menu"

    def __init__(self, app, game_id=None):
        self.app = app
        self.games = ([RESUME] if app.unfinished else []) + app.games + [LEARN, TEST]
        self.i = self.games.index(game_id) if game_id in self.games else 0

    def handle(self, button, kind, now):
        if button in ("left", "up"):
            self.i = (self.i - 1) % len(self.games)
        elif button in ("right", "down"):
            self.i = (self.i + 1) % len(self.games)
        elif button == "ok":
            game_id = self.games[self.i]
            if game_id == TEST:
                from app.selftest import SelfTest

                return SelfTest(self)
            if game_id == LEARN:
                from app.learn import Guides

                return Guides(self.app)
            if game_id is not RESUME:
                return Setup(self.app, game_id)
            game_id = self.app.unfinished[0]
            if not self.app.resume_unfinished():  # the journal no longer has it
                return Menu(self.app, game_id)
        return None

    def render(self, c, now):
        c.clear()
        game = self.games[self.i]
        if game is RESUME:
            c.text(1, 1, "RES", palette.CURSOR)
            game = self.app.unfinished[0]
            c.text(1, 8, game[:3].upper(), palette.TEXT)
        elif game == LEARN:
            c.text(1, 1, "LRN", palette.TEXT)
            c.rect(3, 8, 10, 1, palette.CURSOR)  # a page of a book, its lines
            c.rect(3, 10, 10, 1, palette.POINT)
            c.rect(3, 12, 7, 1, palette.POINT)
        elif game == TEST:
            c.text(1, 1, "TST", palette.TEXT)
            for k, colour in enumerate((0xFF0000, 0x00FF00, 0x0000FF)):
                c.rect(2 + 4 * k, 8, 3, 4, colour)
        else:
            c0, c1 = palette.stones(game)
            c.text(1, 1, game[:3].upper(), palette.TEXT)
            c.rect(3, 8, 4, 4, c0)
            c.rect(9, 8, 4, 4, c1)
        for k in range(len(self.games)):
            c.set(6 + 2 * k - len(self.games) + 2, 14, palette.CURSOR if k == self.i
                  else palette.POINT)


class Setup(Screen):
    """Players and rules options, one item a screen: up/down item, left/right value,
    OK starts, BACK returns to the menu.  While another board is linked (app.peer) the
    players are the people at the two boards: P1 (who begins) is ME or YOU.  The first time
    an item shows on the screen, what it means scrolls along the top row, then its label
    stays (a press does not wait for it)."""

    NAME = "setup"

    def __init__(self, app, game_id, options=None, players=("human", "device:normal"),
                 aids=None):
        self.app = app
        self.game_id = game_id
        players = ["device:normal" if who == "device" else who for who in players]
        peer = app.peer
        if peer is not None and peer.present and peer.id is not None:
            self.boards = (AT + peer.me, AT + peer.id)
            self.values = {"P1": self.boards[0], "P2": self.boards[1]}
            self.items = [("P1", "P1", self.boards)]
        else:
            self.boards = None
            self.values = {"P1": players[0], "P2": players[1]}
            self.items = [("P1", "P1", PLAYERS), ("P2", "P2", PLAYERS)]
            for name, on in AIDS:  # at one board only; the default first
                self.items.append((name, AID_ITEMS[name][0], (on, not on)))
                self.values[name] = (aids or {}).get(name, on)
        self.help = dict((key, LINKED_HELP if self.boards else AID_ITEMS[key][1]
                          if key in AID_ITEMS else player_help(key, PLAYERS))
                         for key, _, _ in self.items)
        self.options = options or {}  # the rules options asked for (load_options)
        self.loaded = False
        self.i = 0
        self.since = None  # when the item's help began to scroll (its first render)

    def tick(self, now):
        if self.since is not None:  # shown: now the slow part
            self.load_options()

    def load_options(self):
        """The game's rules options, from its view: loaded after the screen's first frame
        (a module from flash takes the chip about 100 ms), or at the first press."""
        if self.loaded:
            return
        only(self.game_id)
        if self.boards is None:  # the game's levels: some add steps between normal and hard
            from shared_rules import search

            players = players_of(search.load_ai(self.game_id))
            for k in (0, 1):  # (the help changes far along, after what scrolled so far)
                key = self.items[k][0]
                self.items[k] = self.items[k][:2] + (players,)
                if key in self.help:
                    self.help[key] = player_help(key, players)
        view = load_view(self.game_id)
        for name, choices in sorted(view.CHOICES.items()):
            self.items.append((name, view.LABELS[name], choices))
            self.values[name] = self.options.get(name, choices[0])
            self.help[name] = view.HELP[name]
        self.loaded = True

    def handle(self, button, kind, now):
        self.load_options()
        if button in ("up", "down"):
            self.help.pop(self.items[self.i][0], None)  # shown once is enough
            self.i = (self.i + (1 if button == "down" else -1)) % len(self.items)
            self.since = None
        elif button in ("left", "right"):
            key, _, choices = self.items[self.i]
            k = choices.index(self.values[key]) if self.values[key] in choices else 0
            self.values[key] = choices[(k + (1 if button == "right" else -1)) % len(choices)]
        elif button == "back":
            return Menu(self.app, self.game_id)
        elif button == "ok":
            if self.app.unfinished:
                from app.confirm import Confirm

                return Confirm(self.app, self)
            self.start()
        return None

    def start(self):
        options = dict((k, v) for k, v in self.values.items()
                       if k not in ("P1", "P2") and k not in AID_ITEMS)
        aids = dict((k, v) for k, v in self.values.items() if k in AID_ITEMS)
        p1 = self.values["P1"]
        p2 = self.values["P2"] if self.boards is None else self.boards[p1 == self.boards[0]]
        self.app.start(Session(self.game_id, options, (p1, p2), aids=aids))

    def render(self, c, now):
        c.clear()
        key, label, _ = self.items[self.i]
        text = self.help.get(key)
        if text is not None:
            if self.since is None:
                self.since = now
            x = 16 - (now - self.since) // SCROLL_MS
            if x + 4 * len(text) > 0:
                label = None
                c.text(x, 1, text, palette.TEXT)
            else:
                del self.help[key]  # scrolled past: the label from now on
        if label is not None:
            c.text(0, 1, label, palette.TEXT)
        value = self.values[key]
        if key in ("P1", "P2"):
            colour = palette.stones(self.game_id)[key == "P2"]
            c.text(0, 8, short(value) if self.boards is None else
                   "ME" if value == self.boards[0] else "YOU", colour)
        else:
            c.text(0, 8, "ON" if value is True else "OFF" if value is False else
                   str(value).replace(" ", "").replace("(", "").replace(")", "").replace(",", "/"),
                   palette.CURSOR)
        for k in range(len(self.items)):
            c.set(k, 15, palette.CURSOR if k == self.i else palette.POINT)

