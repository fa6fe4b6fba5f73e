"""The WS2812 backend's inner loop in machine code (MicroPython's viper emitter): every byte
of a frame, through the brightness table, to its place in the panel's buffer. hal.ws2812
falls back to the same loop in Python where this does not load (CPython, a port without
native code, a .mpy built for another chip)."""
import micropython


@micropython.viper
def place(dst: ptr8, src: ptr8, dest: ptr16, table: ptr8, n: int):  # type: ignore[name-defined]  # noqa: F821 - viper's types
    for i in range(n):
        dst[dest[i]] = table[src[i]]
