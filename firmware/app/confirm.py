"""The question asked before a new game replaces the one left unfinished (a long BACK): END?
and its name.  Loaded only for that (the app forgets it while a game is played), to keep the
menu small."""
from views import palette

from app.screen import Screen


class Confirm(Screen):
    """OK ends the game left for good (app.core.App.start writes its end record, reason
    abandoned) and starts the new game; BACK returns to the setup."""

    NAME = "confirm"

    def __init__(self, app, setup):
        self.app = app
        self.setup = setup

    def handle(self, button, kind, now):
        if button == "ok":
            self.setup.start()  # the app ends the game left
        elif button == "back":
            return self.setup
        return None

    def render(self, c, now):
        c.clear()
        c.text(0, 1, "END?", palette.REFUSED)
        c.text(1, 8, self.app.unfinished[0][:3].upper(), palette.TEXT)
