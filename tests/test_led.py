"""An LED is drawn as a real one looks, the same in every host picture (stonegrid.led)."""
import os
import re

from stonegrid import led
from stonegrid.sim import png
from stonegrid.sim.render import ansi_lines

DIM = (6, 6, 6)  # Morris' lines: dim, but plainly lit on a real matrix


def _frame(*leds):
    """A 16x16 frame whose first LEDs are `leds`, the rest off."""
    rgb = bytearray(16 * 16 * 3)
    for k, c in enumerate(leds):
        rgb[3 * k:3 * k + 3] = bytes(c)
    return bytes(rgb)


def test_off_is_darker_than_any_lit_led_and_dim_ones_glow():
    assert all(led.SHOWN[a] <= led.SHOWN[a + 1] for a in range(255))
    assert all(led.SHOWN[a] < led.SHOWN[a + 1] for a in range(64))  # the dim levels apart
    assert led.SHOWN[0] == 0 and led.SHOWN[255] == 255
    assert max(led.OFF) < led.SHOWN[1]
    assert min(led.shown(*DIM)) >= 40  # a screen value of 6 would be black


def test_png_draws_off_dark_and_dim_leds_lit():
    w, h, pixels = png.decode(png.matrix(16, 16, _frame((255, 0, 0), DIM, (0, 0, 0)), scale=8))
    centre = lambda x: tuple(pixels[((1 + 3) * w + 1 + x * 8 + 3) * 3:][:3])
    assert centre(0) == (255, 0, 0) and centre(1) == led.shown(*DIM) and centre(2) == led.OFF
    assert sum(centre(2)) < sum(centre(1))


def test_terminal_draws_leds_as_the_pictures_do():
    line = ansi_lines(16, 16, _frame(DIM, (0, 0, 0)))[0]
    colours = re.findall(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", line)
    assert [tuple(map(int, c)) for c in colours[:2]] == [led.shown(*DIM), led.OFF]


def test_the_web_page_uses_the_same_table():
    with open(led.JS) as f:
        assert f.read() == led.javascript(), "run: python -m stonegrid.led"
    with open(os.path.join(os.path.dirname(led.JS), "board.js")) as f:
        assert 'import { SHOWN, OFF } from "./led.js";' in f.read()
