"""views.pixel: the machine-code Canvas.set and clear draw what the Python ones do, off-canvas
pixels ignored (CPython: it does not load, and the canvas keeps the Python ones)."""
import sys

from views import canvas

SPOTS = [(0, 0), (15, 15), (7, 3), (-1, 0), (0, -1), (16, 0), (0, 16), (3, 15), (15, 0),
         (-20, 40), (2, 2)]


def test_the_native_set_draws_as_the_python_one():
    if sys.implementation.name != "micropython":
        assert canvas.put is None and canvas.wipe is None
        return
    assert canvas.put is not None, "no native code on MicroPython"
    native, plain = canvas.Canvas(), canvas.Canvas()
    for k, (x, y) in enumerate(SPOTS):
        rgb = (0x10305 * (k + 1) * 37) & 0xFFFFFF
        native.set(x, y, rgb)
        plain._set_python(x, y, rgb)
    assert native.buf == plain.buf
    assert sum(native.buf) > 0 and native.get(2, 2) == (0x10305 * 11 * 37) & 0xFFFFFF
    native.clear()
    assert native.buf == bytearray(len(native.buf))
    plain._clear_python()
    assert plain.buf == native.buf
