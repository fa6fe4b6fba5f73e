"""Canvas.set for a board whose logical pixel is one pixel, and Canvas.clear, in machine
code (MicroPython's viper emitter): the views set every point of every frame, and a press
waits for the frame.  The code is compiled on the board by its own native emitter (so it
is the board's machine code, and this file compiles with a plain mpy-cross); views.canvas
keeps the same in Python where it does not load (CPython: no micropython module; the
browser's port: no native emitter, a SyntaxError)."""
import micropython  # noqa: F401 - ImportError on CPython

put = wipe = None  # what the code below defines, for readers and the type checker
exec("""
@micropython.viper
def put(self, x: int, y: int, rgb: int):
    if uint(x) < uint(16) and uint(y) < uint(16):  # below 0 is above 15 as uint
        buf = ptr8(self.buf)
        i = (y * int(self.width) + x) * 3
        buf[i] = rgb >> 16  # a byte store keeps the low 8 bits
        buf[i + 1] = rgb >> 8
        buf[i + 2] = rgb


@micropython.viper
def wipe(self):
    buf = ptr8(self.buf)
    for i in range(int(len(self.buf))):
        buf[i] = 0
""")
