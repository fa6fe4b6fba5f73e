"""How an LED of the board looks in a picture: the terminal, PNGs, GIFs and the web page.

A WS2812's light is proportional to its drive value (PWM), and the eye sees a point light at
6/255 plainly, while a screen pixel of value 6 is black.  So each channel is shown with the
light the LED gives: the drive value taken as linear light and encoded in sRGB (what a
screen's 0..255 means), which lifts the dim levels the views use for lines and hints.  An
LED that is off is dark, darker than any lit one, as a real one is.

`python -m stonegrid.led` writes the same table for the web page (web/static/led.js)."""
import os

OFF = (8, 8, 8)


def _srgb(level):
    v = level / 255
    s = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(255 * s)


SHOWN = bytes(_srgb(level) for level in range(256))  # drive value -> value on a screen
JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web", "static", "led.js")


def shown(r, g, b):
    """The screen colour of an LED driven at (r, g, b)."""
    if r == g == b == 0:
        return OFF
    return SHOWN[r], SHOWN[g], SHOWN[b]


def picture(rgb):
    """A frame's RGB bytes (drive values) as the colours a screen shows for them."""
    out = bytearray(bytes(rgb).translate(SHOWN))
    for i in range(0, len(out), 3):
        if not (rgb[i] or rgb[i + 1] or rgb[i + 2]):
            out[i:i + 3] = bytes(OFF)
    return bytes(out)


def javascript():
    """The text of web/static/led.js: this module's table for the page."""
    return ("// Written by `python -m stonegrid.led` (host/stonegrid/led.py): how an LED looks on a\n"
            "// screen. SHOWN[drive value] is the screen value of one channel; OFF an LED that is off.\n"
            "export const SHOWN = [\n%s\n];\nexport const OFF = \"#%02x%02x%02x\";\n"
            % (",\n".join("  " + ", ".join(str(v) for v in SHOWN[k:k + 16])
                          for k in range(0, 256, 16)), *OFF))


if __name__ == "__main__":
    with open(JS, "w") as f:
        f.write(javascript())
    print("wrote " + JS)
