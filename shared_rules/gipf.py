"""GIPF, basic version, to the letter of the seed text and RULINGS.md.

Board: 61 points (c, u): column c = 0..8 (a..i), u = 0..8 with |u - c| <= 4, so that the
hexagonal neighbours of a point differ by (0, 1), (1, 1) or (1, 0); the name's number is
u + 1 - max(0, c - 4) (a1 = (0, 0), e1 = (4, 0), e9 = (4, 8), i5 = (8, 8)).  The 24 rim points
are dots, the 37 inner ones spots, numbered 0..36 in name order (b2 b3 b4 b5 c2 .. h5).  The
spots lie on 21 lines; a push enters a line from the dot at one of its ends: 42 rays, numbered
in notation order.  State: a bytearray of 37 (0 empty, 1 White, 2 Black), the number of empty
spots on each line, reserves, and what each side has lost.

Atomic actions are small ints:
  0..41            push along ray r                     "e1-e2"  (dot, first spot)
  42 + lo*37 + hi  the owner's choice of a row to take  "xb2-b5" (the segment's end spots)
A turn is one push, then the owners' choices between intersecting rows, if any: the side to act
is then the owner of those rows, who may be the player who did not push.  Rows that need no
choice go inside the action that made them; the whole-turn text lists them as well
("e1-e2 xb2-b5"): see turns(), play_turn() and last_removed().
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from shared_rules.core import Game as _Game, IllegalMove, NotationError, OptionError, RESERVE
from shared_rules.history import history, pop

ID = "gipf"
NAME = "GIPF"
PLAYERS = ("White", "Black")

NSPOTS = const(37)
NRAYS = const(42)
NLINES = const(21)
_REMOVE = const(42)
_END = const(1411)  # 42 + 37 * 37
_BASE = const(15)  # pieces per side in the basic game, before the handicap
# A segment (the stretch a row takes off a line) packed in one int: line | first place <<
# _FIRST_AT | last place << _LAST_AT, places 0..6 along the line.
_LINE_BITS = const(31)
_FIRST_AT = const(5)
_LAST_AT = const(8)
_PLACE_BITS = const(7)
_SEGMENT_BITS = const(2047)
_PER_DIRECTION = const(7)  # lines 0..6 go up the columns, 7..13 rise right, 14..20 fall
_ALL_LINES = const(0x1FFFFF)  # a set of lines as a mask: bit l for line l
# The history holds, per action, its removal records and then its action record.
# Removal record: segment | black << _BLACK_AT | owner << _OWNER_AT | _CHOSEN (taken by the
# owner's choice, not by the rules), where bit i of black is place i.
_BLACK_AT = const(11)
_BLACK_BITS = const(127)
_OWNER_AT = const(18)
_CHOSEN = const(1 << 19)
# Action record, all before the action: action | side to act << _SIDE_AT | mover <<
# _MOVER_AT | pending << _PENDING_AT | chain end << _CHAIN_AT (the ray's k-th spot, the empty
# one a push filled) | number of removal records before it << _RECORDS_AT.
_ACTION_BITS = const(2047)
_SIDE_AT = const(11)
_MOVER_AT = const(12)
_PENDING_AT = const(13)
_CHAIN_AT = const(14)
_CHAIN_BITS = const(7)
_RECORDS_AT = const(17)

# -- geometry ----------------------------------------------------------------------------
# Points: spots 0..36, then dots 37..60, each in name order; _NAMES holds two characters each.
# Rays in notation order: ray r walks the spots
# RAY_SPOTS[RAY_START[r]:RAY_START[r + 1]] from its dot RAY_DOT[r] (a point index) inward,
# along line RAY_LINE[r].  The 21 lines, _PER_DIRECTION per direction d = l // _PER_DIRECTION
# (0 up the columns, 1 rising to the right, 2 falling): line l holds _LINE_LENGTH[l] spots from
# RAY_SPOTS[_LINE_START[l]] on (a line is the spots of one of its rays); its two rays are
# _LINE_RAYS[2 * l] and _LINE_RAYS[2 * l + 1].
# _SPOT_LINE[s*3+d] / _SPOT_PLACE[s*3+d]: the line through spot s in direction d and the place
# of s on it.  tests/both/test_gipf.py derives every table again from the coordinates.
_NAMES = ("b2b3b4b5c2c3c4c5c6d2d3d4d5d6d7e2e3e4e5e6e7e8f2f3f4f5f6f7g2g3g4g5g6h2h3h4h5"
          "a1a2a3a4a5b1b6c1c7d1d8e1e9f1f8g1g7h1h6i1i2i3i4i5")
RAY_SPOTS = (b"\x00\x05\x0b\x12\x19\x1f\x24\x00\x04\x09\x0f\x01\x06\x0c\x13\x1a"
              b"\x20\x01\x05\x0a\x10\x16\x02\x07\x0d\x14\x1b\x02\x06\x0b\x11\x17"
              b"\x1c\x03\x08\x0e\x15\x03\x07\x0c\x12\x18\x1d\x21\x00\x01\x02\x03"
              b"\x04\x0a\x11\x18\x1e\x23\x03\x02\x01\x00\x08\x0d\x13\x19\x1e\x22"
              b"\x04\x05\x06\x07\x08\x09\x10\x17\x1d\x22\x08\x07\x06\x05\x04\x0e"
              b"\x14\x1a\x1f\x23\x09\x0a\x0b\x0c\x0d\x0e\x0f\x16\x1c\x21\x0e\x0d"
              b"\x0c\x0b\x0a\x09\x15\x1b\x20\x24\x0f\x10\x11\x12\x13\x14\x15\x15"
              b"\x14\x13\x12\x11\x10\x0f\x0f\x09\x04\x00\x16\x17\x18\x19\x1a\x1b"
              b"\x15\x0e\x08\x03\x1b\x1a\x19\x18\x17\x16\x16\x10\x0a\x05\x01\x1c"
              b"\x1d\x1e\x1f\x20\x1b\x14\x0d\x07\x02\x20\x1f\x1e\x1d\x1c\x1c\x17"
              b"\x11\x0b\x06\x02\x21\x22\x23\x24\x20\x1a\x13\x0c\x06\x01\x24\x23"
              b"\x22\x21\x21\x1d\x18\x12\x0c\x07\x03\x21\x1c\x16\x0f\x22\x1e\x19"
              b"\x13\x0d\x08\x22\x1d\x17\x10\x09\x23\x1f\x1a\x14\x0e\x23\x1e\x18"
              b"\x11\x0a\x04\x24\x20\x1b\x15\x24\x1f\x19\x12\x0b\x05\x00")
RAY_START = (b"\x00\x07\x0b\x11\x16\x1b\x21\x25\x2c\x30\x36\x3a\x40\x45\x4a\x4f"
              b"\x54\x5a\x5e\x64\x68\x6f\x76\x7a\x80\x84\x8a\x8f\x94\x99\x9e\xa4"
              b"\xa8\xae\xb2\xb9\xbd\xc3\xc8\xcd\xd3\xd7\xde")
RAY_DOT = (b"\x25\x26\x26\x27\x27\x28\x28\x29\x2a\x2a\x2b\x2b\x2c\x2c\x2d\x2d"
           b"\x2e\x2e\x2f\x2f\x30\x31\x32\x32\x33\x33\x34\x34\x35\x35\x36\x36"
           b"\x37\x37\x38\x39\x39\x3a\x3a\x3b\x3b\x3c")
RAY_LINE = (b"\x07\x0e\x08\x0f\x09\x10\x0a\x11\x00\x0b\x00\x12\x01\x0c\x01\x13"
            b"\x02\x0d\x02\x14\x03\x03\x0e\x04\x0a\x04\x0f\x05\x09\x05\x10\x06"
            b"\x08\x06\x11\x0d\x12\x0c\x13\x0b\x14\x07")
_LINE_START = (b"\x2c\x40\x54\x68\x7a\x8f\xa4\x00\x0b\x16\x21\x30\x45\x5a\x07\x11"
               b"\x1b\x25\x3a\x4f\x64")
_LINE_LENGTH = (b"\x04\x05\x06\x07\x06\x05\x04\x07\x06\x05\x04\x06\x05\x04\x04\x05"
                b"\x06\x07\x06\x05\x04")
_LINE_END = bytes(_LINE_START[l] + _LINE_LENGTH[l] for l in range(NLINES))
# where each line's middle spot stands in RAY_SPOTS
_LINE_MIDDLE = bytes(_LINE_START[l] + (_LINE_LENGTH[l] - 1 >> 1) for l in range(NLINES))
_LINE_RAYS = (b"\x08\x0a\x0c\x0e\x10\x12\x14\x15\x17\x19\x1b\x1d\x1f\x21\x00\x29"
              b"\x02\x20\x04\x1c\x06\x18\x09\x27\x0d\x25\x11\x23\x01\x16\x03\x1a"
              b"\x05\x1e\x07\x22\x0b\x24\x0f\x26\x13\x28")
_SPOT_LINE = (b"\x00\x07\x0e\x00\x08\x0f\x00\x09\x10\x00\x0a\x11\x01\x0b\x0e\x01"
              b"\x07\x0f\x01\x08\x10\x01\x09\x11\x01\x0a\x12\x02\x0c\x0e\x02\x0b"
              b"\x0f\x02\x07\x10\x02\x08\x11\x02\x09\x12\x02\x0a\x13\x03\x0d\x0e"
              b"\x03\x0c\x0f\x03\x0b\x10\x03\x07\x11\x03\x08\x12\x03\x09\x13\x03"
              b"\x0a\x14\x04\x0d\x0f\x04\x0c\x10\x04\x0b\x11\x04\x07\x12\x04\x08"
              b"\x13\x04\x09\x14\x05\x0d\x10\x05\x0c\x11\x05\x0b\x12\x05\x07\x13"
              b"\x05\x08\x14\x06\x0d\x11\x06\x0c\x12\x06\x0b\x13\x06\x07\x14")
# _SPOT_LINES[s]: the three lines through spot s, as a mask (a push's changed lines)
_SPOT_LINES = tuple(1 << _SPOT_LINE[3 * s] | 1 << _SPOT_LINE[3 * s + 1] | 1 << _SPOT_LINE[3 * s + 2]
                    for s in range(NSPOTS))
_SPOT_PLACE = (b"\x00\x00\x00\x01\x00\x00\x02\x00\x00\x03\x00\x00\x00\x00\x01\x01"
               b"\x01\x01\x02\x01\x01\x03\x01\x01\x04\x01\x00\x00\x00\x02\x01\x01"
               b"\x02\x02\x02\x02\x03\x02\x02\x04\x02\x01\x05\x02\x00\x00\x00\x03"
               b"\x01\x01\x03\x02\x02\x03\x03\x03\x03\x04\x03\x02\x05\x03\x01\x06"
               b"\x03\x00\x00\x01\x04\x01\x02\x04\x02\x03\x04\x03\x04\x03\x04\x04"
               b"\x02\x05\x04\x01\x00\x02\x05\x01\x03\x05\x02\x04\x04\x03\x05\x03"
               b"\x04\x05\x02\x00\x03\x06\x01\x04\x05\x02\x05\x04\x03\x06\x03")
# _LINE_OF_BIT[(1 << l) % 37] = l: the line of a mask's lowest bit in one look-up (the powers
# of 2 below 2^36 differ modulo 37), so that a scan visits only the lines of its mask.
_LINE_OF_BIT = (b"\x00\x00\x01\x00\x02\x00\x00\x00\x03\x10\x00\x00\x00\x0b\x00\x0d"
                b"\x04\x07\x11\x00\x00\x00\x00\x0f\x00\x0a\x0c\x06\x00\x00\x0e\x09"
                b"\x05\x14\x08\x13\x12")
_START = (15, 3, 36, 0, 21, 33)  # White e2 b5 h5, Black b2 e8 h2
# every push, which legal() copies: copying a list costs a sixth of growing one from a range
_ALL_RAYS = list(range(NRAYS))


def name(i):
    """The name of point i: spots 0..36, dots 37..60."""
    return _NAMES[2 * i:2 * i + 2]


def index(name):
    """The point called name (spots 0..36, dots 37..60); NotationError if none is."""
    i = _NAMES.find(name) if isinstance(name, str) and len(name) == 2 else -1
    if i < 0 or i % 2:
        raise NotationError("no point is called %r (spots b2..h5, dots on the rim)" % (name,))
    return i // 2


def coords(i):
    """(c, u) of point i: see the module text."""
    c = ord(_NAMES[2 * i]) - 97
    return c, ord(_NAMES[2 * i + 1]) - 49 + max(0, c - 4)


def ray_spots(r):
    """The spots a push along ray r walks, from its dot inward."""
    return tuple(RAY_SPOTS[RAY_START[r]:RAY_START[r + 1]])


def _segment(a):
    """The segment of a removal action, packed as for _code; None if it names none."""
    lo, hi = divmod(a - _REMOVE, NSPOTS)
    if lo < hi:
        for d in range(3):
            if _SPOT_LINE[lo * 3 + d] == _SPOT_LINE[hi * 3 + d]:
                lo, hi = lo * 3 + d, hi * 3 + d
                if _SPOT_PLACE[hi] - _SPOT_PLACE[lo] >= 3:
                    return _SPOT_LINE[lo] | _SPOT_PLACE[lo] << _FIRST_AT | _SPOT_PLACE[hi] << _LAST_AT
                break
    return None


def _code(r):
    """The removal action of a packed segment."""
    o = _LINE_START[r & _LINE_BITS]
    return (_REMOVE + RAY_SPOTS[o + (r >> _FIRST_AT & _PLACE_BITS)] * NSPOTS
            + RAY_SPOTS[o + (r >> _LAST_AT & _PLACE_BITS)])


def _crosses(r1, r2):
    """Whether two rows' segments (packed as for _code) share a spot.

    RULINGS: intersecting rows are the owner's choice.  A row is taken with its whole
    segment, so rows intersect when the segments they would take share a spot (the
    conformance vectors agree); rows taken "at once" then never overlap."""
    l2 = r2 & _LINE_BITS
    d2 = l2 // _PER_DIRECTION
    if (r1 & _LINE_BITS) // _PER_DIRECTION == d2:
        return False  # parallel
    o = _LINE_START[r1 & _LINE_BITS]
    for i in range(r1 >> _FIRST_AT & _PLACE_BITS, (r1 >> _LAST_AT & _PLACE_BITS) + 1):
        k = RAY_SPOTS[o + i] * 3 + d2
        if _SPOT_LINE[k] == l2:
            place = _SPOT_PLACE[k]
            return (r2 >> _FIRST_AT & _PLACE_BITS) <= place <= (r2 >> _LAST_AT & _PLACE_BITS)
    return False


def _alone(r, rows):
    """Whether row r crosses none of the others."""
    for r2 in rows:
        if r2 != r and _crosses(r, r2):
            return False
    return True


class Game(_Game):
    ID = ID
    OPTIONS = (("handicap", (0, 0)),)
    play = _Game.play  # bound here as well: see core's docstring
    result = _Game.result

    def __init__(self, **options):
        _Game.__init__(self, **options)
        h = self.options["handicap"]
        self.totals = (_BASE + h[0], _BASE + h[1])
        self.cells = bytearray(NSPOTS)
        self._room = bytearray(_LINE_LENGTH)  # empty spots per line: 0 when it is full
        for i in range(6):
            self._put(_START[i], 1 + i // 3)
        self.reserves = [self.totals[0] - 3, self.totals[1] - 3]
        self.lost = [0, 0]  # pieces of each colour captured by the other side
        self._p = 0  # the side to act (also once the game is over)
        self._mover = 0  # the player whose turn is under way
        self._pending = 0  # 1: the side to act must choose one of its intersecting rows
        # Flat history: per action its removal records, then its action record (see above).
        self._hist = history()
        self._plies = 0  # actions in it (records vary in length: counted, not walked)

    def _check_option(self, name, value):
        ok = isinstance(value, (tuple, list)) and len(value) == 2
        for v in (value if ok else ()):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3:
                ok = False
        if not ok:
            raise OptionError("handicap must be two ints 0..3 (for White, Black), not %r"
                              % (value,))
        return (value[0], value[1])

    # -- what a display needs ---------------------------------------------------------------
    def piece_at(self, s):
        """0 (White) or 1 (Black) for the piece on spot s, None when empty."""
        v = self.cells[s]
        return v - 1 if v else None

    def reserve(self, p):
        return self.reserves[p]

    def captured(self, p):
        """How many of p's pieces the other side has captured."""
        return self.lost[p]

    def on_board(self, p):
        n = 0
        for v in self.cells:
            if v == p + 1:
                n += 1
        return n

    def total(self, p):
        """All of p's pieces: 15 plus his handicap."""
        return self.totals[p]

    def mover(self):
        """The player whose turn is under way; to_move differs while the other player
        chooses which of his intersecting rows to take."""
        return self._mover

    def removal_pending(self):
        return self._pending == 1 and self._result is None

    def legal_dots(self):
        """The dots (point indices) with a legal push now, ascending."""
        out = []
        for a in self.legal():
            if a < NRAYS and RAY_DOT[a] not in out:
                out.append(RAY_DOT[a])
        return out

    def pushed(self, a):
        """For push a: (the spots whose pieces it moves, from the dot inward; the empty spot
        the chain ends on, None when the line is full)."""
        o, cell = RAY_START[a], self.cells
        for k in range(RAY_START[a + 1] - o):
            if not cell[RAY_SPOTS[o + k]]:
                return tuple(RAY_SPOTS[o:o + k]), RAY_SPOTS[o + k]
        return ray_spots(a), None

    def segment(self, a):
        """The spots of removal action a, in line order."""
        seg = _segment(a) if _REMOVE <= a < _END else None
        if seg is None:
            raise NotationError("not a gipf removal: %r" % (a,))
        o = _LINE_START[seg & _LINE_BITS]
        return tuple(RAY_SPOTS[o + (seg >> _FIRST_AT & _PLACE_BITS):
                               o + (seg >> _LAST_AT & _PLACE_BITS) + 1])

    def last_removed(self):
        """The segments the last atomic action took off the board, in order, as
        (owner, removal action): segment(a) gives the spots, text(a) the notation."""
        hist = self._hist
        n = hist[-1] >> _RECORDS_AT if hist else 0
        return [(rec >> _OWNER_AT & 1, _code(rec))
                for rec in hist[len(hist) - 1 - n:len(hist) - 1]]

    def last_taken(self):
        """The pieces the last atomic action took off the board: spot, colour (0 White,
        1 Black) pairs in a bytearray, from the colours each removal record keeps."""
        hist, out = self._hist, bytearray()
        n = hist[-1] >> _RECORDS_AT if hist else 0
        for rec in hist[len(hist) - 1 - n:len(hist) - 1]:
            o, blk = _LINE_START[rec & _LINE_BITS], rec >> _BLACK_AT
            for i in range(rec >> _FIRST_AT & _PLACE_BITS, (rec >> _LAST_AT & _PLACE_BITS) + 1):
                out.append(RAY_SPOTS[o + i])
                out.append(blk >> i & 1)
        return out

    def actions(self):
        hist, out = self._hist, []
        i = len(hist) - 1
        while i >= 0:
            out.append(hist[i] & _ACTION_BITS)
            i -= 1 + (hist[i] >> _RECORDS_AT)
        out.reverse()
        return out

    def plies(self):
        return self._plies

    def last(self, back=1):
        hist, i = self._hist, len(self._hist) - 1
        while i >= 0:
            back -= 1
            if not back:
                return hist[i] & _ACTION_BITS
            i -= 1 + (hist[i] >> _RECORDS_AT)
        return None

    # -- board primitives ------------------------------------------------------------------
    def _put(self, s, v):
        self.cells[s] = v
        room = self._room
        s *= 3
        room[_SPOT_LINE[s]] -= 1
        room[_SPOT_LINE[s + 1]] -= 1
        room[_SPOT_LINE[s + 2]] -= 1

    def _vacate(self, s):
        """Empty spot s; returns what stood there."""
        v = self.cells[s]
        self.cells[s] = 0
        room = self._room
        s *= 3
        room[_SPOT_LINE[s]] += 1
        room[_SPOT_LINE[s + 1]] += 1
        room[_SPOT_LINE[s + 2]] += 1
        return v

    def _rows(self, v, lines=_ALL_LINES):
        """The rows of colour v (1 White, 2 Black; 0 either) on the lines of the mask
        `lines`, each as the segment it takes, packed (see _FIRST_AT); None when none."""
        rows = None
        while lines:
            l = _LINE_OF_BIT[(lines & -lines) % 37]
            lines &= lines - 1
            if self._room[l] > _LINE_LENGTH[l] - 4:  # fewer than 4 pieces: no row
                continue
            # 4 in a row on 4 to 7 places always cover the middle place (hence one row a
            # line at most): the run of its colour through it, if 4 long, is the row
            c = self.cells[RAY_SPOTS[_LINE_MIDDLE[l]]]
            if not c or v and c != v:
                continue
            c = self._row(l, c)
            if c >= 0:
                if rows is None:
                    rows = []
                rows.append(c)
        return rows

    def _row(self, l, c):
        """The row of colour c through the middle of line l, packed; -1 if the run is short."""
        cell = self.cells
        i = _LINE_MIDDLE[l] - 1  # i and j: the places round
        j = i + 2  # the run, as indices into RAY_SPOTS
        while i >= _LINE_START[l] and cell[RAY_SPOTS[i]] == c:
            i -= 1
        while j < _LINE_END[l] and cell[RAY_SPOTS[j]] == c:
            j += 1
        if j - i < 5:
            return -1
        while i >= _LINE_START[l] and cell[RAY_SPOTS[i]]:  # the segment: every piece beside it
            i -= 1
        while j < _LINE_END[l] and cell[RAY_SPOTS[j]]:
            j += 1
        i += 1 - _LINE_START[l]
        j -= 1 + _LINE_START[l]
        return l | i << _FIRST_AT | j << _LAST_AT

    def _take(self, r):
        """Take a segment (packed as for _code) off the board for the player to act, who
        owns the row; return its removal record."""
        o = _LINE_START[r & _LINE_BITS]  # i runs over RAY_SPOTS, the place is i - o
        # every spot of a segment is occupied
        for i in range(o + (r >> _FIRST_AT & _PLACE_BITS), o + (r >> _LAST_AT & _PLACE_BITS) + 1):
            v = self._vacate(RAY_SPOTS[i]) - 1  # 0 White, 1 Black
            r |= v << _BLACK_AT << i - o
            (self.reserves if v == self._p else self.lost)[v] += 1
        return r | self._p << _OWNER_AT

    def _untake(self, rec):
        o = _LINE_START[rec & _LINE_BITS]  # as in _take
        for i in range(o + (rec >> _FIRST_AT & _PLACE_BITS),
                       o + (rec >> _LAST_AT & _PLACE_BITS) + 1):
            c = (rec >> _BLACK_AT >> i - o & 1) + 1
            self._put(RAY_SPOTS[i], c)
            (self.reserves if c - 1 == rec >> _OWNER_AT & 1 else self.lost)[c - 1] -= 1

    def _resolve(self, lines):
        """Take rows, the mover's colour first, until a choice is owed or the turn is over.
        Rows stand only on the mask `lines`: a turn starts without rows, so after a push
        only the lines through the spots it changed can hold one, and taking rows makes
        none.  Returns how many rows it took (removal records added to the history)."""
        c = 1 - self._mover  # who moves next when no row stands
        taken = 0
        if self._rows(0, lines):  # most pushes make no row of either colour: one look
            while True:
                c = self._p
                rows = self._rows(c + 1, lines)
                if rows:
                    rows = self._take_alone(rows)
                    if not rows:
                        self._pending = 1
                        return taken
                    taken += rows
                elif c == self._mover:
                    self.to_move = self._p = 1 - c
                else:
                    break
        self.to_move = self._p = c
        self._pending = 0
        self._mover = c
        if not self.reserves[c]:
            self._result, self.to_move = (1 - c, RESERVE), None
        return taken

    def _take_alone(self, rows):
        """Take the rows of the player to act that cross no other (all at once: they are
        disjoint), with their removal records in notation order; returns how many (0: the
        owner chooses)."""
        rows.sort(key=_code)
        n = len(self._hist)
        for r in rows:
            if _alone(r, rows):
                r = self._take(r)
                self._hist.append(r)
        return len(self._hist) - n

    # -- rules -----------------------------------------------------------------------------
    def legal(self):
        if self._result is not None:
            return []
        if self._pending:
            return [_code(r) for r in self._rows(self._p + 1) or ()]
        # every push but the two rays of each full line (a push needs an empty spot on its
        # line): the few full lines found by find() rather than 42 rays tested in turn
        # (a full line's room is 0; find() takes it as bytes, not an int, which the rp2 port's
        # v1.28 refuses; a literal, not a global: one more name grew the module's dict)
        room, out = self._room, _ALL_RAYS[:]
        l = room.find(b"\x00")
        while l >= 0:
            out.remove(_LINE_RAYS[2 * l])
            out.remove(_LINE_RAYS[2 * l + 1])
            l = room.find(b"\x00", l + 1)
        return out

    def _is_legal(self, a):
        if self._result is not None or not 0 <= a < _END:
            return False
        if self._pending:
            return a >= _REMOVE and a in self.legal()
        return a < NRAYS and self._room[RAY_LINE[a]] > 0

    # (the search plays and takes back at every node: these functions and the ones they call
    # keep their frames within 11 words, on the C stack: see tests/bench/frames.py)
    def play_unchecked(self, a):
        p = self._p
        info = a | p << _SIDE_AT | self._mover << _MOVER_AT | self._pending << _PENDING_AT
        if a < NRAYS:
            lines = self._push(a, p)
            info |= lines >> NLINES << _CHAIN_AT
            lines &= _ALL_LINES
            self.reserves[p] -= 1
        else:
            lines = self._take(_segment(a)) | _CHOSEN
            self._hist.append(lines)
            lines = _ALL_LINES  # the rows still owed stand where the push put them
            info |= 1 << _RECORDS_AT
        info += self._resolve(lines) << _RECORDS_AT
        self._hist.append(info)
        self._plies += 1

    def _push(self, a, p):
        """Push a piece of p's in along ray a: each piece of the chain moves on one spot.
        Returns the lines through the spots whose colour changed (a chain of one colour
        moves on without changing its spots), with at bit NLINES the chain's end k (the
        ray's k-th spot, the empty one the push fills)."""
        cell = self.cells
        i = RAY_START[a]
        lines = 1 << RAY_LINE[a]
        p += 1  # the colour moving onto spot s
        s = RAY_SPOTS[i]
        while cell[s]:
            if cell[s] != p:
                lines |= _SPOT_LINES[s]
                cell[s], p = p, cell[s]
            i += 1
            s = RAY_SPOTS[i]
        self._put(s, p)
        return lines | _SPOT_LINES[s] | (i - RAY_START[a]) << NLINES

    def undo(self):
        hist = self._hist
        if not hist:
            raise IllegalMove("nothing to take back")
        info = pop(hist)
        self._plies -= 1
        for _ in range(info >> _RECORDS_AT):
            self._untake(pop(hist))
        p = info >> _SIDE_AT & 1
        if info & _ACTION_BITS < NRAYS:
            self._unpush(info)
            self.reserves[p] += 1
        self.to_move = self._p = p
        self._mover = info >> _MOVER_AT & 1
        self._pending = info >> _PENDING_AT & 1
        self._result = None

    def _unpush(self, info):
        """Take back the push of action record `info`: the chain moves back one spot."""
        cell = self.cells
        i = RAY_START[info & _ACTION_BITS]
        end = i + (info >> _CHAIN_AT & _CHAIN_BITS)
        while i < end:
            cell[RAY_SPOTS[i]] = cell[RAY_SPOTS[i + 1]]
            i += 1
        self._vacate(RAY_SPOTS[end])

    def copy(self):
        g = Game(**self.options)
        g.cells = bytearray(self.cells)
        g._room = bytearray(self._room)
        g.reserves = self.reserves[:]
        g.lost = self.lost[:]
        g._p, g._mover, g._pending = self._p, self._mover, self._pending
        g.to_move = self.to_move
        g._hist = self._hist[:]
        g._plies = self._plies
        g._result = self._result
        g._start = self._start
        return g

    # -- notation --------------------------------------------------------------------------
    def text(self, a):
        if not isinstance(a, int) or not 0 <= a < _END:
            raise NotationError("not a gipf action: %r" % (a,))
        if a < NRAYS:
            return name(RAY_DOT[a]) + "-" + name(RAY_SPOTS[RAY_START[a]])
        if _segment(a) is None:
            raise NotationError("not a gipf action: %r (no segment of 4+ spots)" % a)
        lo, hi = divmod(a - _REMOVE, NSPOTS)
        return "x" + name(lo) + "-" + name(hi)

    def _parse(self, s):
        x = s.startswith("x")
        parts = (s[1:] if x else s).split("-")
        if len(parts) != 2:
            raise NotationError("%r is neither a push (e1-e2) nor a removal (xb2-b5)" % s)
        f, t = index(parts[0]), index(parts[1])
        if t >= NSPOTS or (f >= NSPOTS) != (not x):
            raise NotationError("%r: a push goes from a dot to a spot, a removal names two "
                                "spots" % s)
        if x:
            a = _REMOVE + min(f, t) * NSPOTS + max(f, t)
            if _segment(a) is None:
                raise NotationError("%r: not the end spots of 4+ on a line" % s)
            return a
        for r in range(NRAYS):
            if RAY_DOT[r] == f and RAY_SPOTS[RAY_START[r]] == t:
                return r
        raise NotationError("%r: the spot is not next to the dot on a line" % s)

    def _turn_start(self):
        return not self._pending

    def split_turn(self, s):
        parts = s.replace("x", " x").split() if isinstance(s, str) else ()
        if not parts or "x" in parts:
            raise NotationError("a turn is a push and the segments removed (e1-e2 xb2-b5), "
                                "not %r" % (s,))
        return parts

    def join_turn(self, texts):
        return " ".join(texts)

    def _auto(self, end):
        """The removals the rules made by themselves in the action whose history ends at
        hist[end - 1], as removal actions."""
        hist = self._hist
        return [_code(rec) for rec in hist[end - 1 - (hist[end - 1] >> _RECORDS_AT):end - 1]
                if not rec & _CHOSEN]

    def play_turn(self, s):
        """Play a whole turn: the push, then every segment removed, chosen or not, in order
        (those the rules take must be listed and must match).  All or nothing."""
        parts = self.split_turn(s)
        done = i = 0
        try:
            while i < len(parts):
                if i and parts[i][0] != "x":
                    raise NotationError("a turn has one push, then removals: %r" % s)
                self.play(parts[i])
                done += 1
                auto = self._auto(len(self._hist))
                i += 1 + len(auto)
                if sorted(self._parse(t) for t in parts[i - len(auto):i]) != sorted(auto):
                    raise IllegalMove("turn %r: after %s the rules take %s" % (
                        s, parts[i - 1 - len(auto)], " ".join(self.text(x) for x in auto)))
            if self._result is None and self._pending:
                raise IllegalMove("incomplete turn %r: a row must be chosen" % s)
        except ValueError:
            for _ in range(done):
                self.undo()
            raise

    def turns(self):
        """The game so far as whole turns, every segment removed listed."""
        hist, turns, t = self._hist, [], []
        end = len(hist)
        while end:  # backwards, one action at a time
            a = hist[end - 1] & _ACTION_BITS
            t = [self.text(a)] + [self.text(x) for x in self._auto(end)] + t
            end -= 1 + (hist[end - 1] >> _RECORDS_AT)
            if a < NRAYS or not end:
                turns.append(self.join_turn(t))
                t = []
        turns.reverse()
        return turns

    # -- position: the spots column by column, b2..b5/c2..c6/../h2..h5 ('.', 'W', 'B'), the
    # reserves, the side to act, and '-' at the start of a turn or else the turn's mover ---
    def position(self):
        cells = []
        for s in range(NSPOTS):
            if s in (4, 9, 15, 22, 28, 33):
                cells.append("/")
            cells.append(".WB"[self.cells[s]])
        return "%s %d %d %d %s" % ("".join(cells), self.reserves[0], self.reserves[1], self._p,
                                   str(self._mover) if self._pending else "-")

    def set_position(self, s):
        """Set up a position written by position(); the history starts afresh here."""
        f = s.split() if isinstance(s, str) else ()
        g = Game(**self.options)
        cell, room = g.cells, bytearray(_LINE_LENGTH)
        g._room = room
        why = "7 columns of 4,5,6,7,6,5,4 of '.WB' joined by '/', then 4 fields"
        try:
            if len(f) != 5 or [len(c) for c in f[0].split("/")] != [4, 5, 6, 7, 6, 5, 4]:
                raise ValueError
            for k, ch in enumerate(f[0].replace("/", "")):
                cell[k] = 0
                if ".WB".index(ch):
                    g._put(k, ".WB".index(ch))
            why = "reserves, side to act 0/1, mover 0/1 or '-'"
            res, p = [int(f[1]), int(f[2])], int(f[3])
            m = p if f[4] == "-" else int(f[4])
            if p not in (0, 1) or m not in (0, 1):
                raise ValueError
            why = "more pieces than the game has"
            for i in (0, 1):
                if not 0 <= res[i] <= self.totals[i] - g.on_board(i):
                    raise ValueError
            rows = (g._rows(1), g._rows(2))
            mine = rows[p] or ()
            if f[4] == "-":
                why = "rows of 4 at the start of a turn"
                mine = rows[0] or rows[1]
            else:
                why = "removals owed only between the intersecting rows of the side to act"
                if m != p and rows[m]:
                    raise ValueError
                for r in mine:
                    if not [r2 for r2 in mine if r2 != r and _crosses(r, r2)]:
                        raise ValueError
                mine = not mine
            if mine:
                raise ValueError
        except ValueError:
            raise NotationError("not a gipf position (%s): %r" % (why, s))
        self.cells, self._room, self.reserves = cell, room, res
        self.lost = [self.totals[i] - res[i] - g.on_board(i) for i in (0, 1)]
        self._p, self._mover, self._pending = p, m, 0 if f[4] == "-" else 1
        self._hist, self._plies, self._result = history(), 0, None
        self.to_move = p
        self._start = self.position()
        if not self._pending and not res[p]:
            self._result, self.to_move = (1 - p, RESERVE), None
