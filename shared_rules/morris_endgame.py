"""Solved Nine Men's Morris endgames: 3 against 3 stones and 4 against 3, all placed.

The table, written on the host by `stonegrid endgames` (host/stonegrid/endgames.py, which
says how it is solved), gives a position at the start of a turn its value for the side to
move with best play: won or lost in n plies, or drawn.  The device reads it from its flash a
few bytes at a time; only the lists of canonical stone sets (3 KB) are held in the heap.

A position is numbered under the board's 16 symmetries (4 rotations, a mirror, the inner and
outer rings swapped): a "pivot" set of stones (the side with 4, else the side to move) is
mapped to the least of its 16 images, whose rank among those least sets is the block, and
the other side's stones are ranked as a combination of the points left (the least rank where
several symmetries give the least pivot).

The file: a line of text naming the format and the rules the table was solved under, then
  the canonical 3-sets and 4-sets: each a count (2 bytes) and the sets (3 bytes each, rising);
  the lost 4-3 positions: a count (4 bytes), then each number (3 bytes, rising) and plies;
  a byte per 3-3 position: 0 drawn, n < 128 won in n plies, 128 + n lost in n;
  a bit per 3-4 position, lowest first: set when won.
All numbers are little-endian.  What the tables need not hold, the solver checks: a 4-3
position (the side with 4 to move) is won only by a mill closed at once, else lost when
listed, else drawn; a 3-4 position is never lost.
"""
from shared_rules.morris import MILLS, neighbours

try:  # CPython: a read at an offset, which moves none; processes forked after the table
    from os import pread  # was opened share its file's offset, and would cross seek and read
except (ImportError, AttributeError):  # MicroPython: one process, seek and read (a stand-in
    pread = None  # os, as the virtual board's, says AttributeError)

FORMAT = "stonegrid morris endgames 1"
ANY = "*"  # an option's value in the header when the table holds for every value
DRAWN, WON, LOST = 0, 1, 2
_LOST_AT = 128  # a 3-3 byte from here on is a loss

# The 16 symmetries as maps of the 24 points (point = ring * 8 + k, morris.POINTS): k goes
# to (e*k + 2*j) % 8 (rotations and the mirror keep corners corners), the rings stay or swap.
SYMMETRIES = tuple(bytes((2 - r if swap else r) * 8 + (e * k + 2 * j) % 8
                         for r in range(3) for k in range(8))
                   for swap in (0, 1) for e in (1, -1) for j in range(4))


def choose(n, k):
    """C(n, k), the count of k-sets of n points."""
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


def image(s, mask):
    """The stones of mask under the symmetry s (a bytes of 24 points)."""
    out = 0
    for p in range(24):
        if mask >> p & 1:
            out |= 1 << s[p]
    return out


def rank_in(other, pivot):
    """The rank of the set `other` among the sets of its size on the points outside pivot
    (colex order of their places among those points)."""
    r = 0
    i = 0
    place = 0  # the place among the free points of the point looked at
    for p in range(24):
        if pivot >> p & 1:
            continue
        if other >> p & 1:
            i += 1
            r += choose(place, i)
        place += 1
    return r


def canonical(pivot):
    """The least of the 16 images of the stone set pivot."""
    return min(image(s, pivot) for s in SYMMETRIES)


def key(pivot, other):
    """(canonical pivot, rank of the other's stones) of a position under its symmetries."""
    best = best_rank = None
    for s in SYMMETRIES:
        c = image(s, pivot)
        if best is None or c < best:
            best, best_rank = c, rank_in(image(s, other), c)
        elif c == best:
            r = rank_in(image(s, other), c)
            if r < best_rank:
                best_rank = r
    return best, best_rank


def _u(b, i, n):
    """The little-endian number of n bytes at b[i:]."""
    v = 0
    for k in range(n - 1, -1, -1):
        v = v << 8 | b[i + k]
    return v


def _count(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


class TableError(ValueError):
    """A file that is not an endgame table of this format."""


class Table:
    """An open endgame table file (binary, seekable)."""
    DRAWN, WON, LOST = DRAWN, WON, LOST  # value() says these

    def __init__(self, f):
        self.f = f
        self.fd = None  # the file's descriptor, where reads go through pread
        if pread is not None:
            try:
                self.fd = f.fileno()
            except (AttributeError, OSError, ValueError):  # not a file (io.BytesIO)
                pass
        line = f.readline()
        try:
            words = line.decode().split()
        except UnicodeError:
            words = []
        if " ".join(words[:4]) != FORMAT:
            raise TableError("not a table of %r: it begins %r" % (FORMAT, line[:40]))
        self.rules = [tuple(w.split("=")) for w in words[4:]]
        # the sets of 3 and of 4 stones, each (where in the file, how many), read there
        # when looked up (in the heap, they would take 2.7 KB from the endgame's search)
        self.sets = []
        for _ in (3, 4):
            n = _u(f.read(2), 0, 2)
            self.sets.append((f.tell(), n))
            f.seek(3 * n, 1)
        self.lost = f.tell() + 4  # the 4-3 losses
        self.losses = _u(f.read(4), 0, 4)
        self.at33 = self.lost + 4 * self.losses
        self.at34 = self.at33 + self.sets[0][1] * choose(21, 3)

    def fits(self, options):
        """Whether the table was solved under these game options (a dict)."""
        return (len(self.rules) == len(options)
                and all(name in options and value in (ANY, str(int(options[name])))
                        for name, value in self.rules))

    def _read(self, at, n):
        if self.fd is not None:
            return _u(pread(self.fd, n, at), 0, n)
        self.f.seek(at)
        return _u(self.f.read(n), 0, n)

    def _find(self, which, mask):
        """The place of mask among the 3-byte sets `which` (0: of 3 stones, 1: of 4), rising,
        by halves."""
        at, hi = self.sets[which]
        lo = 0
        while lo < hi:
            mid = (lo + hi) // 2
            if self._read(at + 3 * mid, 3) < mask:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def value(self, mine, theirs):
        """(WON, LOST or DRAWN, plies) for the side to move with stones mine against theirs;
        plies is None where the table does not keep it (a won 3-4 position); None when the
        position is not in the table."""
        a, b = _count(mine), _count(theirs)
        if (a, b) == (3, 3):
            c, r = key(mine, theirs)
            v = self._read(self.at33 + self._find(0, c) * choose(21, 3) + r, 1)
            return (DRAWN, 0) if v == 0 else (WON, v) if v < _LOST_AT else (LOST, v - _LOST_AT)
        if (a, b) == (3, 4):
            c, r = key(theirs, mine)
            i = self._find(1, c) * choose(20, 3) + r
            return (WON, None) if self._read(self.at34 + i // 8, 1) >> i % 8 & 1 else (DRAWN, 0)
        if (a, b) == (4, 3):
            if closes_now(mine, theirs):
                return (WON, 1)
            c, r = key(mine, theirs)
            i = self._find(1, c) * choose(20, 3) + r
            lo, hi = 0, self.losses
            while lo < hi:
                mid = (lo + hi) // 2
                j = self._read(self.lost + 4 * mid, 3)
                if j == i:
                    return (LOST, self._read(self.lost + 4 * mid + 3, 1))
                if j < i:
                    lo = mid + 1
                else:
                    hi = mid
            return (DRAWN, 0)
        return None


def closes_now(mine, theirs):
    """Whether stones mine, moving (not flying), can close a mill in one step."""
    empty = 0xFFFFFF & ~(mine | theirs)
    for m in MILLS:
        hole = m & ~mine
        if hole & empty and hole & (hole - 1) == 0:  # two of the mill's three, the third empty
            for p in range(24):
                if hole >> p & 1:
                    t = p
            for f in neighbours(t):
                if mine >> f & 1 and not m >> f & 1:
                    return True
    return False


NAME = "morris_endgames.sgt"
_opened = []  # the Table, or None, once looked for


def table():
    """The table beside this module (a checkout) or in the current folder (the board's
    flash root, where `stonegrid flash` puts it), opened once; None when there is none or it
    is not one."""
    if not _opened:
        here = globals().get("__file__", "")
        places = [NAME]
        if "/" in here:
            places.insert(0, here[:here.rfind("/") + 1] + NAME)
        found = None
        for path in places:
            try:
                found = Table(open(path, "rb"))
                break
            except (OSError, TableError):
                pass
            except MemoryError:  # a heap too full now: look again next time
                return None
        _opened.append(found)
    return _opened[0]
