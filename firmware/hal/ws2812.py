"""Raspberry Pi Pico / Pico 2 on stock MicroPython: a WS2812B panel on one data pin and
buttons to ground on pins with pull-ups, all named in the board profile."""
import time

import machine
import neopixel

from hal import Buttons, scale_table


class Board:
    def __init__(self, profile):
        self.width = profile.get("width", 16)
        self.height = profile.get("height", 16)
        self.cap = profile.get("brightness_cap", 40)
        self.brightness = self.cap
        self._np = neopixel.NeoPixel(machine.Pin(profile["data_pin"]), self.width * self.height)
        self._order = _led_order(self.width, self.height, profile.get("wiring", "serpentine"),
                                 profile.get("rotation", 0))
        self._table = scale_table(min(self.brightness, self.cap))
        self._level = min(self.brightness, self.cap)
        pins = {}
        for name, gpio in profile["buttons"].items():
            pins[name] = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
        self._buttons = Buttons(list(pins), lambda name: pins[name].value() == 0)

    def show(self, frame):
        level = min(self.brightness, self.cap)
        if level != self._level:
            self._table, self._level = scale_table(level), level
        t, buf, order = self._table, self._np.buf, self._order
        bpp = self._np.bpp
        # neopixel keeps bytes in the panel's order (GRB for WS2812B)
        for pixel in range(len(order)):
            src = pixel * 3
            dst = order[pixel] * bpp
            buf[dst] = t[frame[src + 1]]
            buf[dst + 1] = t[frame[src]]
            buf[dst + 2] = t[frame[src + 2]]
        self._np.write()

    def poll(self):
        self._buttons.update(time.ticks_ms())
        return self._buttons.poll()

    def held(self, name):
        return self._buttons.held(name)


def _led_order(w, h, wiring, rotation):
    """LED index of each pixel (row-major, y=0 top) for a panel wired from its first LED at
    the top-left, row by row ("progressive") or back and forth ("serpentine"), turned by
    `rotation` degrees clockwise as mounted."""
    order = []
    for y in range(h):
        for x in range(w):
            px, py = x, y  # where this pixel sits on the panel as wired (square panels)
            for _ in range(rotation // 90 % 4):
                px, py = py, w - 1 - px
            order.append(py * w + (w - 1 - px if wiring == "serpentine" and py % 2 else px))
    return order


def make(profile):
    return Board(profile)
