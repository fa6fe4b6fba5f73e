"""Pimoroni Stellar Unicorn (16x16, Pico W / Pico 2 W) through Pimoroni's firmware modules.
Buttons map to the app's names through the profile's "buttons" table, e.g. {"ok": "A"}."""
import time

from picographics import DISPLAY_STELLAR_UNICORN, PicoGraphics
from stellar import StellarUnicorn

from hal import Buttons

_SWITCHES = {
    "A": StellarUnicorn.SWITCH_A, "B": StellarUnicorn.SWITCH_B,
    "C": StellarUnicorn.SWITCH_C, "D": StellarUnicorn.SWITCH_D,
    "VOL+": StellarUnicorn.SWITCH_VOLUME_UP, "VOL-": StellarUnicorn.SWITCH_VOLUME_DOWN,
    "LUX+": StellarUnicorn.SWITCH_BRIGHTNESS_UP, "LUX-": StellarUnicorn.SWITCH_BRIGHTNESS_DOWN,
    "SLEEP": StellarUnicorn.SWITCH_SLEEP,
}


class Board:
    def __init__(self, profile):
        self._unicorn = StellarUnicorn()
        self._graphics = PicoGraphics(display=DISPLAY_STELLAR_UNICORN)
        self.width, self.height = self._graphics.get_bounds()
        self.cap = profile.get("brightness_cap", 255)
        self.brightness = self.cap
        self._level = -1
        pins = dict((name, _SWITCHES[key]) for name, key in profile["buttons"].items())
        self._buttons = Buttons(list(pins), lambda name: self._unicorn.is_pressed(pins[name]))

    def show(self, frame):
        level = min(self.brightness, self.cap)
        if level != self._level:  # the board dims in hardware, with gamma correction
            self._unicorn.set_brightness(level / 255)
            self._level = level
        g = self._graphics
        w = self.width
        for i in range(0, len(frame), 3):
            g.set_pen(g.create_pen(frame[i], frame[i + 1], frame[i + 2]))
            g.pixel((i // 3) % w, (i // 3) // w)
        self._unicorn.update(g)

    def poll(self):
        self._buttons.update(time.ticks_ms())
        return self._buttons.poll()

    def held(self, name):
        return self._buttons.held(name)


def make(profile):
    return Board(profile)
