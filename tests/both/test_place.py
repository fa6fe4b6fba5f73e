"""hal.place: the WS2812 backend's loop in machine code places every byte as the loop in
Python that stands in for it where native code is missing (CPython: it does not load)."""
import sys
from array import array


def test_the_native_loop_places_every_byte_through_the_table():
    try:
        from hal.place import place
    except ImportError:
        assert sys.implementation.name != "micropython", "no native code on MicroPython"
        return
    n = 3 * 256
    dest = [(i * 373 + 11) % n for i in range(n)]  # a permutation, as a panel's wiring makes
    src = bytes((i * i + 5 * i) & 255 for i in range(n))
    table = bytes((v * 7 + 3) & 255 for v in range(256))
    dst = bytearray(n)
    place(dst, src, array("H", dest), table, n)
    for i in range(n):
        assert dst[dest[i]] == table[src[i]], i
