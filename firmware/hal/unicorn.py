"""What the Pimoroni Unicorn boards (Stellar 16x16, Cosmic 32x32) share, through Pimoroni's
firmware modules: hal.stellar and hal.cosmic pass in their board class and display constant,
so this module imports none of Pimoroni's modules itself.  The board dims in hardware (with
gamma correction) to min(brightness, cap); buttons map to the app's names through the
profile's "buttons" table, e.g. {"ok": "A"}."""
import time

from picographics import PicoGraphics

from hal.buttons import Buttons

TYPE_CHECKING = False  # true only for the type checker (tests/test_hardware.py): the board
if TYPE_CHECKING:  # classes' stubs, so that calls on them are checked; never run on a board
    from cosmic import CosmicUnicorn
    from stellar import StellarUnicorn


def switches(cls):
    """Switch name (as written in board profiles) -> the board class's switch number."""
    return {
        "A": cls.SWITCH_A, "B": cls.SWITCH_B, "C": cls.SWITCH_C, "D": cls.SWITCH_D,
        "VOL+": cls.SWITCH_VOLUME_UP, "VOL-": cls.SWITCH_VOLUME_DOWN,
        "LUX+": cls.SWITCH_BRIGHTNESS_UP, "LUX-": cls.SWITCH_BRIGHTNESS_DOWN,
        "SLEEP": cls.SWITCH_SLEEP,
    }


class Board:
    def __init__(self, profile, unicorn, display):
        # type: (dict, StellarUnicorn | CosmicUnicorn, int) -> None
        self._unicorn = unicorn
        self._graphics = PicoGraphics(display=display)
        self.width, self.height = self._graphics.get_bounds()
        self.cap = min(255, max(0, profile.get("brightness_cap", 255)))
        self.brightness = self.cap
        self._level = -1
        table = switches(type(unicorn))
        pins = dict((name, table[key]) for name, key in profile["buttons"].items())
        self._buttons = Buttons(list(pins), lambda name: unicorn.is_pressed(pins[name]))

    def set_brightness(self, level):
        self.brightness = level

    def show(self, frame):
        level = max(0, min(self.brightness, self.cap))
        if level != self._level:  # the board dims in hardware, with gamma correction
            self._unicorn.set_brightness(level / 255)
            self._level = level
        g = self._graphics
        w = self.width
        for i in range(0, min(len(frame), w * self.height * 3), 3):
            g.set_pen(g.create_pen(frame[i], frame[i + 1], frame[i + 2]))
            g.pixel((i // 3) % w, (i // 3) // w)
        self._unicorn.update(g)

    def poll(self):
        self._buttons.update(time.ticks_ms())
        return self._buttons.poll()

    def held(self, name):
        return self._buttons.held(name)
