"""The WS2812 backend's inner loop in machine code (MicroPython's viper emitter): every byte
of a frame, through the brightness table, to its place in the panel's buffer.  The code is
compiled on the board by its own native emitter (the board's machine code whatever its
chip, and this file compiles with a plain mpy-cross); hal.ws2812 falls back to the same
loop in Python where it does not load (CPython, a port without native code)."""
import micropython  # noqa: F401 - ImportError on CPython

# place(dst, src, order, table, n, layout): pixel p of src (RGB) to LED order[p] of dst, for
# n pixels; layout: where R, G and B go in an LED's bytes (2 bits each), and its bytes << 6
place = None  # what the code below defines, for readers and the type checker
exec("""
@micropython.viper
def place(dst: ptr8, src: ptr8, order: ptr16, table: ptr8, n: int, layout: int):
    ro = layout & 3  # one by one: a tuple would be a Python object, not viper's ints
    go = layout >> 2 & 3
    bo = layout >> 4 & 3
    bpp = layout >> 6
    for p in range(n):
        d = order[p] * bpp
        s = p * 3
        dst[d + ro] = table[src[s]]
        dst[d + go] = table[src[s + 1]]
        dst[d + bo] = table[src[s + 2]]
""")
