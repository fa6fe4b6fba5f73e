"""The history of a long game (GIPF, Mixtour): ints below 2^31 in an array("i"), which takes
4 bytes an entry where a list takes 8 on a 64-bit port, and grows 8 entries at a time on
MicroPython, where a list doubles - a long game's list, and the search's copy of it, once ran
out of heap.  A module of its own so that the games with short histories do not load it."""
from array import array


def history():
    """An empty history."""
    return array("i")


class _Slicer:  # MicroPython cannot call slice(): a subscript makes the slice object
    def __getitem__(self, k):
        return k


_LAST = _Slicer()[-1:]
_NOTHING = array("i")


def pop(hist):
    """Remove and return the last entry of a history (MicroPython's arrays have no pop());
    a slice made once, so that the search's undo allocates nothing."""
    v = hist[-1]
    hist[_LAST] = _NOTHING
    return v
