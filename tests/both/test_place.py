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
    n = 256
    order = [(i * 37 + 11) % n for i in range(n)]  # a permutation, as a panel's wiring makes
    src = bytes((i * i + 5 * i) & 255 for i in range(3 * n))
    table = bytes((v * 7 + 3) & 255 for v in range(256))
    for colours, bpp in (("GRB", 3), ("RGB", 3), ("BRG", 4)):
        dst = bytearray(bpp * n)
        layout = (colours.index("R") | colours.index("G") << 2 | colours.index("B") << 4
                  | bpp << 6)
        place(dst, src, array("H", order), table, n, layout)
        for p in range(n):
            for c in range(3):
                at = order[p] * bpp + colours.index("RGB"[c])
                assert dst[at] == table[src[3 * p + c]], (colours, p, c)
