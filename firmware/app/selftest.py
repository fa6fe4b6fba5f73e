"""The hardware self-test, the first thing to run after soldering a board (hardware/README.md):
the menu's last item, TST. Every LED lights in red, then green, then blue (a second each, at
the board's brightness cap), then white; then each button, as it is pressed, shows its name
and lights its pixel on the bottom row, so a dead LED, a swapped colour order or a button
wired to the wrong pin shows at once. A long BACK returns to the menu it came from. Loaded only when
chosen: a board never holds it while a game is played."""
from hal import BUTTONS
from views import palette

from app.screen import Screen

CHANNELS = (0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF)  # each for STEP_MS, in this order
STEP_MS = 1000
NAMES = {"up": "UP", "down": "DN", "left": "LT", "right": "RT", "ok": "OK", "back": "BK"}


class SelfTest(Screen):
    NAME = "selftest"

    def __init__(self, menu):
        self.menu = menu  # the menu it came from (at TST), shown again at a long BACK
        self.start = None  # the first frame's time
        self.seen = set()  # the buttons pressed so far
        self.last = None  # the last one

    def handle(self, button, kind, now):
        if button == "back" and kind == "long":
            return self.menu
        self.seen.add(button)
        self.last = button
        return None

    def render(self, c, now):
        if self.start is None:
            self.start = now
        step = (now - self.start) // STEP_MS
        if step < len(CHANNELS) and self.last is None:
            c.rect(0, 0, 16, 16, CHANNELS[step])
            return
        c.clear()
        if self.last is None:
            c.text(0, 1, "PRESS", palette.TEXT)
        else:
            c.text(1, 4, NAMES[self.last], palette.CURSOR, 2)
        for k, button in enumerate(BUTTONS):  # a pixel pair a button, lit once it worked
            c.rect(1 + 2 * k + k // 3, 15, 2, 1, palette.CURSOR if button in self.seen
                   else palette.POINT)

