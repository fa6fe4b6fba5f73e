"""Canvas.set for a board whose logical pixel is one pixel, and Canvas.clear, in machine
code (MicroPython's viper emitter): the views set every point of every frame, and a press
waits for the frame.  views.canvas keeps the same in Python where this does not load
(CPython, the browser's port, a .mpy built for another chip)."""
import micropython


@micropython.viper
def put(self, x: int, y: int, rgb: int):
    if uint(x) < uint(16) and uint(y) < uint(16):  # type: ignore[name-defined]  # noqa: F821 - viper's cast: below 0 is above 15
        buf = ptr8(self.buf)  # type: ignore[name-defined]  # noqa: F821 - viper's cast
        i = (y * int(self.width) + x) * 3
        buf[i] = rgb >> 16  # a byte store keeps the low 8 bits
        buf[i + 1] = rgb >> 8
        buf[i + 2] = rgb


@micropython.viper
def wipe(self):
    buf = ptr8(self.buf)  # type: ignore[name-defined]  # noqa: F821 - viper's cast
    for i in range(int(len(self.buf))):
        buf[i] = 0
