"""What the app (app.core) asks of the screen on display: the base class of Menu, Setup,
Confirm, SelfTest, Replay and Play."""


class Screen:
    """A screen offers handle(button, kind, now), a press ("press" or "long" `kind`) that
    returns the screen to show next or None to stay, and render(canvas, now), drawn at time
    `now` (ms, for blinking and scrolling).  NAME is what the serial `state` command reports
    as "screen": part of the protocol, so that a class can be renamed without changing the
    wire.  A screen never sets the app's fields: what handle() returns, and the app's
    methods (start, play, leave_game...), do the rest."""

    NAME = ""
    session = None  # the game being played here (Play), else None
    game_id = None  # the game this screen is about (Setup, Replay), else None

    def tick(self, now):
        """Each pass of the main loop: the device's turn, on Play."""

    def busy(self):
        """True while tick() has work left (the device's search): the loop only yields."""
        return False
