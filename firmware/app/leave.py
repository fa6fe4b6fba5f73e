"""Leaving a game unfinished (a long BACK), and ending it for good when a new game begins:
the question, and the end record with reason abandoned.  Loaded only for that (app.core
forgets it while a game is played), to keep the menu small."""
from shared_rules import record
from views import palette

from app import journal, link
from app.heap import only


class Confirm:
    """Asked once before a new game replaces the one left unfinished: END? and its name.
    OK ends it for good (an end record, reason abandoned) and starts the new game; BACK
    returns to the setup."""

    NAME = "confirm"  # the serial state's "screen" (see app.core.Play)

    def __init__(self, app, setup):
        self.app = app
        self.setup = setup

    def handle(self, button, kind, now):
        if button == "ok":
            self.setup.start()  # app.start ends the game left
        elif button == "back":
            self.app.screen = self.setup

    def render(self, c, now):
        c.clear()
        c.text(0, 1, "END?", palette.REFUSED)
        c.text(1, 8, self.app.unfinished[0][:3].upper(), palette.TEXT)


def leave(app, session, keep=None, top=False):
    """A long BACK: to the menu, the game kept in the journal (the menu offers to resume it
    while it is unfinished), and no game's code left in the heap but `keep`'s (the game about
    to start: loading it again would cut the heap into pieces).  The menu is at the game
    left, or at its first item with `top` (the serial `menu` command: tools count from there)."""
    g, game_id = session.game, session.game_id
    app.unfinished = None if g.result() is not None else (game_id, g.plies() - g.hidden())
    session = g = None  # not held here while the garbage is collected
    from app.menu import Menu

    # at the game just left, in every game: OK sets up a new one of it, left/right choose
    # another, and RES (resume it) is the first item, before the games
    app.screen = Menu(app, None if top else game_id)
    only(keep)


def abandon(app):
    """End the game left unfinished for good: its end record, journalled and sent (at the
    last ply the link has seen: a secret bid never was)."""
    line = record.abandoned_line(app.unfinished[1])
    app.unfinished = None
    journal.append(line)
    link.send(line)
