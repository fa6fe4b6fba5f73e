"""Raspberry Pi Pico / Pico 2 on stock MicroPython: a WS2812B panel on one data pin and
buttons to ground on pins with pull-ups, all named in the board profile (hardware/README.md).

The panel's current is bounded in code: every byte sent goes through scale_table(level) with
level = min(brightness, cap), and cap itself is at most power_cap(LEDs, supply_ma), the level
at which a frame of all 255s stays within the profile's supply rating."""
import time
from array import array

import machine
import neopixel

from hal import scale_table
from hal.buttons import Buttons

try:
    from hal.place import place as native_place
except (ImportError, SyntaxError):  # no native code here: the same in Python
    native_place = None


def _place_python(dst, src, order, table, n, layout):
    bpp = layout >> 6
    for p in range(n):
        for c in range(3):
            dst[order[p] * bpp + (layout >> 2 * c & 3)] = table[src[p * 3 + c]]


place = native_place or _place_python

MA_PER_CHANNEL = 20  # one WS2812B colour channel at 255 (datasheet: up to ~20 mA)
IDLE_MA = 1  # each LED's own driver chip, lit or not (about 0.5-1 mA)
CONTROLLER_MA = 50  # the Pico, the level shifter and the buttons
USB_MA = 500  # the supply assumed when a profile does not name one: a USB 2.0 port


def power_cap(leds, supply_ma):
    """The highest level 0..255 at which `leds` LEDs showing all channels at 255, plus their
    idle draw and the controller's, stay within supply_ma milliamps."""
    spare = supply_ma - leds * IDLE_MA - CONTROLLER_MA
    return max(0, min(255, spare * 255 // (leds * 3 * MA_PER_CHANNEL)))


class Board:
    def __init__(self, profile):
        self.width = profile.get("width", 16)
        self.height = profile.get("height", 16)
        leds = self.width * self.height
        self.cap = max(0, min(profile.get("brightness_cap", 40),
                              power_cap(leds, profile.get("supply_ma", USB_MA))))
        self.brightness = self.cap
        self._np = neopixel.NeoPixel(machine.Pin(profile["data_pin"]), leds)
        order = _led_order(self.width, self.height, profile.get("wiring", "serpentine"),
                           profile.get("rotation", 0), profile.get("mirror", False))
        colours = profile.get("color_order", "GRB")  # byte order on the wire; WS2812B: GRB
        # neopixel's buffer holds the bytes as sent, in the panel's LED and colour order
        self._order = array("H", order)
        self._layout = (colours.index("R") | colours.index("G") << 2
                        | colours.index("B") << 4 | self._np.bpp << 6)
        self._level = min(self.brightness, self.cap)
        self._table = scale_table(self._level)
        pins = {}
        for name, gpio in profile["buttons"].items():
            pins[name] = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
        self._pins = pins
        self._buttons = Buttons(list(pins), lambda name: pins[name].value() == 0)

    def wake_on_press(self, wake):
        """Call wake() whenever a button pin changes (from its interrupt): the app reads
        the buttons then, not at its next pass."""
        for pin in self._pins.values():
            pin.irq(lambda _pin: wake(), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)

    def set_brightness(self, level):
        self.brightness = level

    def show(self, frame):
        level = max(0, min(self.brightness, self.cap))
        if level != self._level:
            self._table, self._level = scale_table(level), level
        place(self._np.buf, frame, self._order, self._table, len(self._order), self._layout)
        self._np.write()

    def poll(self):
        self._buttons.update(time.ticks_ms())
        return self._buttons.poll()

    def held(self, name):
        return self._buttons.held(name)


def _led_order(w, h, wiring, rotation, mirror=False):
    """LED index of each pixel (row-major, y=0 top) for a panel wired from its first LED at
    the top-left, row by row ("progressive") or back and forth ("serpentine"), flipped left to
    right if `mirror`, then turned by `rotation` degrees clockwise as mounted."""
    order = []
    for y in range(h):
        for x in range(w):
            px, py = (w - 1 - x if mirror else x), y  # where it sits on the panel (square)
            for _ in range(rotation // 90 % 4):
                px, py = py, w - 1 - px
            order.append(py * w + (w - 1 - px if wiring == "serpentine" and py % 2 else px))
    return order


def make(profile):
    return Board(profile)
