"""What the app (app.core) asks of the screen on display: the base class of Menu, Setup,
Confirm, SelfTest, Replay and Play."""


class Screen:
    """A screen.  NAME is what the serial `state` command reports as "screen": part of the
    protocol, so that a class can be renamed without changing the wire.  A screen never
    sets the app's fields: handle() returns the screen to show next, and the app's methods
    (start, play, leave_game...) do the rest."""

    NAME = ""
    session = None  # the game being played here (Play), else None
    game_id = None  # the game this screen is about (Setup, Replay), else None

    def handle(self, button, kind, now):
        """A press ("press" or "long" `kind`): the screen to show next, or None to stay."""
        return None

    def render(self, canvas, now):
        """Draw the screen at time `now` (ms, for blinking and scrolling)."""
        canvas.clear()

    def tick(self, now):
        """Each pass of the main loop: the device's turn, on Play."""

    def busy(self):
        """True while tick() has work left (the device's search): the loop only yields."""
        return False
