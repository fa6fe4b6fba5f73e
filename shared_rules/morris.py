"""Nine Men's Morris, to the letter of the seed text and RULINGS.md.

Points are numbered ring by ring (outer, middle, inner), eight per ring, clockwise from the
bottom-left corner; stones live in two 24-bit boards (one int per player, below 2^30).
Atomic actions are small ints:
  0..23      place on a point            "d7"
  24..599    move or fly from f to t     "d7-d6"   (24 + f*24 + t)
  600..623   remove the opponent's stone "xa1"
A turn that closes a mill is the move then one removal (two with double_mill_takes_two when
two mills close at once), all by the same player.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from shared_rules.core import (Game as _Game, IllegalMove, NotationError, BLOCKED, MEN,
                               REPETITION)

# one look-up where play() tests the type of every action (see shared_rules/core.py)
_type, _int = type, int
ID = "morris"
NAME = "Nine Men's Morris"
PLAYERS = ("Red", "Green")

MOVE = const(24)  # the action ranges (above), public for the view
REMOVE = const(600)
_END = const(624)
_FULL = const(0xFFFFFF)
_STONES = const(9)

POINTS = ("a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4",
          "b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4",
          "c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4")

# Geometry as literal tables: computing them at import would need a heap peak that a small
# device lacks.  Point i = ring*8 + k, k going round the ring from its bottom-left corner; odd
# k are the midpoints, joined across the rings.  tests/both/test_morris.py derives them again.
# Neighbours of each point as a bit mask:
_ADJ = (
    0x000082, 0x000205, 0x00000a, 0x000814, 0x000028, 0x002050, 0x0000a0, 0x008041,
    0x008200, 0x020502, 0x000a00, 0x081408, 0x002800, 0x205020, 0x00a000, 0x804180,
    0x820000, 0x050200, 0x0a0000, 0x140800, 0x280000, 0x502000, 0xa00000, 0x418000,
)
# The two mills through point i, at [i] and [i + 24]:
_MILLS_AT = (
    0x000007, 0x000007, 0x00001c, 0x00001c, 0x000070, 0x000070, 0x0000c1, 0x0000c1,
    0x000700, 0x000700, 0x001c00, 0x001c00, 0x007000, 0x007000, 0x00c100, 0x00c100,
    0x070000, 0x070000, 0x1c0000, 0x1c0000, 0x700000, 0x700000, 0xc10000, 0xc10000,
    0x0000c1, 0x020202, 0x000007, 0x080808, 0x00001c, 0x202020, 0x000070, 0x808080,
    0x00c100, 0x020202, 0x000700, 0x080808, 0x001c00, 0x202020, 0x007000, 0x808080,
    0xc10000, 0x020202, 0x070000, 0x080808, 0x1c0000, 0x202020, 0x700000, 0x808080,
)
MILLS = (
    0x000007, 0x00001c, 0x000070, 0x0000c1, 0x000700, 0x001c00, 0x007000, 0x00c100,
    0x020202, 0x070000, 0x080808, 0x1c0000, 0x202020, 0x700000, 0x808080, 0xc10000,
)


_BIT = {1 << i: i for i in range(24)}  # point of a one-bit mask
_STAY = {1 << i: MOVE + 25 * i for i in range(24)}  # the action f-f of a one-bit mask at f
_EACH = tuple(range(24))
_NO_KEY = b"\0\0"  # the key of a position that cannot repeat (stones in hand, turn unfinished)
# play_unchecked's scratch for a key, one for every game (filled and used at once): an
# attribute less on each game, whose attributes MicroPython searches for each method first
_KEY = bytearray(2)


def _next_to(points):
    """Mask of the points joined by a line to some point of `points`: the union of their
    _ADJ, bit-parallel (each ring is a cycle of 8, the odd midpoints join across rings), so
    that no loop over 24 points is needed."""
    return ((points & 0x7F7F7F) << 1 | points >> 7 & 0x010101      # k -> k+1 round the ring
            | points >> 1 & 0x7F7F7F | (points & 0x010101) << 7    # k -> k-1
            | (points & 0x00AAAA) << 8 | points >> 8 & 0x00AAAA)   # across rings


def neighbours(i):
    """The points joined to point i by a line."""
    return [t for t in range(24) if _ADJ[i] >> t & 1]


def _points(mask, offset):
    """The points of `mask`, lowest first, each plus `offset` (an action's range)."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(offset + _BIT[low])
    return out


def _steps(own, empty):
    """The moves of stones `own` to adjacent `empty` points, direction by direction: for
    each, a mask of the stones that can step that way, and each bit's action is its f-f
    action plus the step (t - f).  Fewer operations than stone by stone on both runtimes,
    and few enough locals that MicroPython keeps the frame off the heap.  The six loops are
    written out: a helper called per direction cost MicroPython a third more a call."""
    out = []
    append = out.append
    stay = _STAY  # a local: one look-up instead of a module global's for each move
    m = own & empty >> 1 & 0x7F7F7F  # k -> k+1 round the ring
    while m:
        low = m & -m
        m ^= low
        append(stay[low] + 1)
    m = own & empty >> 7 & 0x010101  # k = 0 -> 7
    while m:
        low = m & -m
        m ^= low
        append(stay[low] + 7)
    m = own & empty << 1 & 0xFEFEFE  # k -> k-1
    while m:
        low = m & -m
        m ^= low
        append(stay[low] - 1)
    m = own & (empty & 0x010101) << 7  # k = 7 -> 0 (masked first: below 2^30, no long int)
    while m:
        low = m & -m
        m ^= low
        append(stay[low] - 7)
    m = own & empty >> 8 & 0x00AAAA  # inwards, from a midpoint
    while m:
        low = m & -m
        m ^= low
        append(stay[low] + 8)
    m = own & (empty & 0x00AAAA) << 8  # outwards
    while m:
        low = m & -m
        m ^= low
        append(stay[low] - 8)
    return out


def _flights(own, empty):
    """The moves of three stones `own` to any `empty` point."""
    to = [t for t in _EACH if empty >> t & 1]
    bases = [MOVE + 24 * f for f in _points(own, 0)]  # each stone's action to point 0
    return [b + t for b in bases for t in to]  # one comprehension: no list per stone


def _in_mills(board):
    """Mask of the stones of `board` that stand in a complete mill, bit-parallel: a side
    mill is three points from an even k round a ring (the last wraps to k = 0), a cross mill
    the odd k of all three rings."""
    side = board & board >> 1 & (board >> 2 & 0x151515 | board << 6 & 0x404040)
    side |= side << 1 | (side & 0x3F3F3F) << 2 | side >> 6 & 0x010101
    cross = board & board >> 8 & board >> 16 & 0xAA
    return side | cross | cross << 8 | cross << 16


def _read_position(s):
    """The fields of a position text, its two boards, hands, side to act and removals owed;
    NotationError for text that is not one."""
    fields = s.split() if isinstance(s, str) else ()
    if len(fields) != 7 or len(fields[0]) != 24:
        raise NotationError("a morris position is 24 of '.RG' and six fields, not %r" % (s,))
    board = [0, 0]
    for i, c in enumerate(fields[0]):
        if c not in ".RG":
            raise NotationError("point %s holds %r; use '.', 'R' or 'G'" % (POINTS[i], c))
        if c != ".":
            board[c == "G"] |= 1 << i
    try:
        hand = [int(fields[1]), int(fields[2])]
        p, pending = int(fields[3]), int(fields[4])
    except ValueError:
        raise NotationError("hands, side and removals must be numbers in %r" % s)
    if p not in (0, 1) or not 0 <= pending <= 2:
        raise NotationError("side to act is 0 or 1 and removals owed 0..2 in %r" % s)
    return fields, board, hand, p, pending


def _refuse(field, why, text):
    """The error for position text that play cannot reach: it names the field and says why
    (one format, so that the messages stay short: they are strings on the device's heap)."""
    return NotationError("%s: %s, in %r" % (field, why, text))


def _owed(own, pending, double):
    """Why stones `own` cannot owe `pending` removals (a mill closed by the last placement or
    move: two need two mills through one point and double_mill_takes_two), or None."""
    mills = [m for m in MILLS if own & m == m]
    if not mills:
        return "no mill stands"
    if pending == 2:
        if not double:
            return "two need double_mill_takes_two"
        for m in mills:
            for m2 in mills:
                if m != m2 and m & m2:
                    return None
        return "two need two mills on one point"
    return None


def _point(name, s):
    if name not in POINTS:
        raise NotationError("unknown point %r in %r (points are a1..g7 on the lines)" % (name, s))
    return POINTS.index(name)


class Game(_Game):
    ID = ID
    OPTIONS = (("double_mill_takes_two", True), ("no_immediate_returns", False))
    result = _Game.result  # bound here as well: see core's docstring

    def __init__(self, **options):
        _Game.__init__(self, **options)
        self._double = self.options["double_mill_takes_two"]
        self._no_returns = self.options["no_immediate_returns"]
        self.board = [0, 0]
        self.hand = [_STONES, _STONES]
        self.men = [0, 0]
        self._ban = [0, 0]  # the move each player may not make next (0: none)
        self.acting = 0  # the side to act, also once the game is over
        self.pending = 0  # removals still owed by the side to act
        # Per action, in bytearrays (a list of ints costs 8 bytes an item on a 64-bit port and
        # doubles as it grows): 2 bytes of the action and what undo cannot derive from it,
        # a | owed << 10 | p << 12 (removals owed and the mover, before it); and 2 bytes of
        # the key of the position after it (play_unchecked) if that position can repeat,
        # else zeros.  With no_immediate_returns, each move also keeps the mover's ban
        # before it, 2 bytes in _bans (without the option every ban is 0: no bytes a ply).
        self._hist = bytearray()
        self._keys = bytearray()
        self._bans = bytearray()
        # Where in _keys each placement and removal wrote (0 first, for the start): no
        # position before the last of them can come back, so the repetition test looks at
        # the keys since then only.
        self._fixed = [0]

    def _check_option(self, name, value):
        return self._check_bool(name, value)

    # -- what a display needs ---------------------------------------------------------------
    def stone_at(self, i):
        """0 or 1 for the owner of the stone on point i, None when empty."""
        if self.board[0] >> i & 1:
            return 0
        return 1 if self.board[1] >> i & 1 else None

    def in_hand(self, p):
        return self.hand[p]

    def on_board(self, p):
        return self.men[p]

    def removals_pending(self):
        return self.pending

    def flying(self, p):
        return self.hand[p] == 0 and self.men[p] == 3

    def actions(self):
        h = self._hist
        return [(h[i] | h[i + 1] << 8) & 1023 for i in range(0, len(h), 2)]

    def plies(self):
        return len(self._hist) >> 1

    def last(self, back=1):
        h, i = self._hist, len(self._hist) - 2 * back
        return (h[i] | h[i + 1] << 8) & 1023 if back > 0 and i >= 0 else None

    # -- rules -----------------------------------------------------------------------------
    def _removable(self):
        opp = self.board[1 - self.acting]
        free = opp & ~_in_mills(opp)
        return free if free else opp

    def legal(self):
        p = self.to_move
        if p is None:
            return []
        board = self.board
        if self.pending:
            free = self._removable()
            return _points(free, REMOVE)
        empty = _FULL & ~(board[0] | board[1])
        if self.hand[p]:
            return [t for t in _EACH if empty >> t & 1]
        out = _flights(board[p], empty) if self.men[p] == 3 else _steps(board[p], empty)
        if self._no_returns:  # bans come with the option only
            ban = self._ban[p]
            if ban and ban in out:
                out.remove(ban)
        return out

    def play(self, a):
        # the legality test inline (a call less on every ply of a game or a playout), with
        # few enough locals that MicroPython keeps the frame off the heap; anything else, and
        # every error, goes core's way (where parse() tests membership of legal())
        p = self.to_move
        if _type(a) is _int and p is not None:
            board = self.board
            empty = _FULL & ~(board[0] | board[1])
            if self.pending:
                if REMOVE <= a < _END and self._removable() >> a - REMOVE & 1:
                    self.play_unchecked(a)
                    return
            elif self.hand[p]:
                if 0 <= a < MOVE and empty >> a & 1:
                    self.play_unchecked(a)
                    return
            else:
                f = (a - MOVE) // 24  # no divmod: its tuple is garbage on the device
                t = a - MOVE - f * 24
                # a step or flight: own stone at f, t empty, not banned, t next to f or flying
                if (MOVE <= a < REMOVE and board[p] >> f & empty >> t & 1
                        and (_ADJ[f] >> t & 1 or self.men[p] == 3)
                        and not (self._no_returns and a == self._ban[p])):
                    self.play_unchecked(a)
                    return
        _Game.play(self, a)

    def _has_move(self, p):
        if self.men[p] == 3:
            return True  # at least 12 points are empty and only one move is ever banned
        # (no local for the boards: one more would put the frame on MicroPython's heap)
        empty = _FULL & ~(self.board[0] | self.board[1])
        own = self.board[p] & _next_to(empty)  # the stones that can step
        ban = self._ban[p]
        if not own or not ban or own & (own - 1):
            return own != 0  # the ban forbids one move: a second stone that can step has another
        f = (ban - MOVE) // 24
        return own != 1 << f or _ADJ[f] & empty & ~(1 << (ban - MOVE - f * 24)) != 0

    def play_unchecked(self, a):
        # Few names, each reused (b: the history, then the boards; f: the history record,
        # then the point the action empties; m: a mask or a count; t: the mills closed), so
        # that MicroPython keeps the frame (11 words) off the heap: the search plays every
        # action through here, and in a heap full of live objects a frame taken from it
        # costs more than the rest of a ply.
        p = self.acting
        b = self._hist
        f = a | self.pending << 10 | p << 12
        b.append(f & 255)
        b.append(f >> 8)
        b = self.board
        if a >= REMOVE:
            self._fixed.append(len(self._hist) - 2)
            f = a - REMOVE  # the point emptied
            m = ~(1 << f)  # (apart: the frame holds a shallow stack only)
            b[1 - p] &= m
            self.men[1 - p] -= 1
            self.pending -= 1
            if self.men[1 - p] + self.hand[1 - p] < 3:
                self._keys.extend(_NO_KEY)
                self._result, self.to_move = (p, MEN), None
                return
            if self.pending and self.men[1 - p] == 0:
                self.pending = 0
            if self.pending:
                self._keys.extend(_NO_KEY)
                return
        else:
            if a < MOVE:
                self._fixed.append(len(self._hist) - 2)
                f = -1  # a placement empties no point
                m = 1 << a
                b[p] |= m
                self.hand[p] -= 1
                self.men[p] += 1
            else:
                a -= MOVE
                f = a // 24  # the point emptied
                a -= f * 24  # where the stone goes
                m = 1 << f | 1 << a
                b[p] ^= m
                if self._no_returns:
                    m = self._ban[p]
                    self._bans.append(m & 255)
                    self._bans.append(m >> 8)
                    self._ban[p] = MOVE + a * 24 + f
            # the mills through the point the stone went to (a): no tuple of the two, this
            # is the search's inner loop
            m = _MILLS_AT[a]
            t = b[p] & m == m
            m = _MILLS_AT[a + 24]
            t += b[p] & m == m
            if t and self.men[1 - p]:
                self.pending = 2 if t == 2 and self._double else 1
                self._keys.extend(_NO_KEY)
                return
        # The turn has ended, emptying point f (-1: none).  a, m and t are free now: a
        # becomes the side to act.  Record the key of the position (in _keys, as the last
        # action's 2 bytes) if it can repeat, and decide the game's end.
        a = 1 - p
        self.to_move = self.acting = a
        if self.hand[a]:
            self._keys.extend(_NO_KEY)
            return
        # Equal keys are a fast necessary test (bytearray.count runs in C): a third
        # occurrence needs the key written just now and two before it, or one when the
        # stretch reaches back to the position set_position() began with (no action wrote
        # its key).  The walk back decides exactly, side and bans too.  Only a record's
        # first byte has the top bit set, so a match can never straddle two records.  The
        # key is written into the games' scratch: a new bytes object per turn would be
        # garbage on the device.  A hash of the boards alone, modulo a prime below 2^14, is
        # enough: a false match only costs a walk.
        m = (b[0] ^ b[1] << 5) % 16381
        _KEY[0] = 128 | m & 127
        _KEY[1] = m >> 7
        self._keys.extend(_KEY)
        m = self._fixed[-1]  # (apart: the frame holds a shallow stack only)
        m = self._keys.count(_KEY, m)
        if (m >= 3 or m == 2 and len(self._fixed) == 1) and self._repetitions() >= 3:
            self._result, self.to_move = (None, REPETITION), None
            return
        # The side to act can step to the point the turn emptied from next to it (unless a
        # ban forbids that step), which most often settles at once that he is not blocked.
        if ((f < 0 or self._no_returns and self._ban[a] or not _ADJ[f] & b[a])
                and not self._has_move(a)):
            self._result, self.to_move = (p, BLOCKED), None

    def _repetitions(self):
        """How often the current position has occurred.  Placements and removals cannot be
        undone, so only the moves since the last of them are walked back, on copies of the
        boards; this keeps no table of past positions, which would outgrow a small heap."""
        b0, b1 = self.board
        ban = self._ban[:]
        hist, bans = self._hist, self._bans
        j = len(bans)  # the bans kept by the moves walked back so far end here
        seen = 1
        i = len(hist) - 2
        while i >= 0:
            h = hist[i] | hist[i + 1] << 8
            a = h & 1023
            if a < MOVE or a >= REMOVE:
                break
            p = h >> 12
            f = (a - MOVE) // 24
            t = a - MOVE - f * 24
            if p:
                b1 ^= 1 << f | 1 << t
            else:
                b0 ^= 1 << f | 1 << t
            if self._no_returns:
                j -= 2
                ban[p] = bans[j] | bans[j + 1] << 8
            if (p == self.acting and b0 == self.board[0] and b1 == self.board[1]
                    and ban[0] == self._ban[0] and ban[1] == self._ban[1]):
                seen += 1
            i -= 2
        return seen

    def undo(self):
        # few names, each reused, so that MicroPython keeps the frame (11 words) off the
        # heap: the search undoes every action it plays
        hist = self._hist
        if not hist:
            raise IllegalMove("nothing to take back")
        n = len(hist) - 2
        h = hist[n] | hist[n + 1] << 8
        hist[n:] = b""
        self._keys[n:] = b""
        p = h >> 12
        self.to_move = self.acting = p
        self.pending = h >> 10 & 3
        self._result = None
        h &= 1023  # the action
        hist = self.board
        if h >= REMOVE:
            self._fixed.pop()
            hist[1 - p] |= 1 << (h - REMOVE)
            self.men[1 - p] += 1
        elif h < MOVE:
            self._fixed.pop()
            hist[p] &= ~(1 << h)
            self.men[p] -= 1
            self.hand[p] += 1
        else:
            h -= MOVE
            n = h // 24  # from
            h = 1 << n | 1 << (h - n * 24)  # from and to (a shallow stack, a small frame)
            hist[p] ^= h
            if self._no_returns:
                hist = self._bans
                n = len(hist) - 2
                self._ban[p] = hist[n] | hist[n + 1] << 8
                hist[n:] = b""

    def copy(self):
        g = Game(**self.options)
        g.board = self.board[:]
        g.hand = self.hand[:]
        g.men = self.men[:]
        g._ban = self._ban[:]
        g.acting, g.to_move = self.acting, self.to_move
        g.pending = self.pending
        g._hist = self._hist[:]
        g._keys = self._keys[:]
        g._bans = self._bans[:]
        g._fixed = self._fixed[:]
        g._result = self._result
        g._start = self._start
        return g

    # -- notation --------------------------------------------------------------------------
    def text(self, a):
        if not isinstance(a, int) or not 0 <= a < _END:
            raise NotationError("not a morris action: %r" % (a,))
        if a < MOVE:
            return POINTS[a]
        if a >= REMOVE:
            return "x" + POINTS[a - REMOVE]
        f, t = divmod(a - MOVE, 24)
        if f == t:
            raise NotationError("not a morris action: %r (a move to its own point)" % a)
        return POINTS[f] + "-" + POINTS[t]

    def _parse(self, s):
        if s.startswith("x"):
            return REMOVE + _point(s[1:], s)
        if "-" in s:
            parts = s.split("-")
            if len(parts) != 2:
                raise NotationError("a move is two points joined by '-', not %r" % s)
            f, t = _point(parts[0], s), _point(parts[1], s)
            if f == t:
                raise NotationError("a move must change the point: %r" % s)
            return MOVE + f * 24 + t
        return _point(s, s)

    def _turn_start(self):
        return self.pending == 0

    def split_turn(self, s):
        parts = s.strip().split("x")
        if not parts[0] or "" in parts[1:]:
            raise NotationError("a turn is a placement or move, then 'x' and a point for "
                                "each removal: %r" % s)
        return [parts[0]] + ["x" + r for r in parts[1:]]

    def join_turn(self, texts):
        return "".join(texts)

    # -- compact position: 24 points (. R G), hands, side to act, removals owed, bans ----
    def position(self):
        cells = "".join(".RG"[0 if s is None else s + 1]
                        for s in (self.stone_at(i) for i in range(24)))
        bans = ["-" if b == 0 else self.text(b) for b in self._ban]
        return "%s %d %d %d %d %s %s" % (cells, self.hand[0], self.hand[1], self.acting,
                                         self.pending, bans[0], bans[1])

    def set_position(self, s):
        """Set up a position written by position(); the history starts afresh here."""
        fields, board, hand, p, pending = _read_position(s)
        men = [bin(b).count("1") for b in board]
        short = self._check_counts(board, men, hand, p, pending, s)
        bans = self._read_bans(fields[5:], hand, s)
        self.board, self.hand, self.men, self._ban = board, hand, men, bans
        self.to_move = self.acting = p
        self.pending = pending
        self._hist, self._keys, self._bans = bytearray(), bytearray(), bytearray()
        self._fixed, self._result = [0], None
        self._start = self.position()
        q = 1 - p
        if short[q]:  # the removal that left him short ended the game (removals may be owed)
            self._result, self.to_move = (p, MEN), None
        elif pending == 0 and not hand[p] and not self._has_move(p):
            self._result, self.to_move = (q, BLOCKED), None  # as play_unchecked decides

    def _check_counts(self, board, men, hand, p, pending, s):
        """NotationError unless the stones, the side to act and the removals owed can come
        about in play; returns which sides are short of 3 stones."""
        for side in (0, 1):
            if not 0 <= hand[side] or men[side] + hand[side] > _STONES:
                raise _refuse("stones in hand", "%s's on the board and in hand are not 0 to %d"
                              % (PLAYERS[side], _STONES), s)
        q = 1 - p
        short = [men[side] + hand[side] < 3 for side in (0, 1)]
        if short[p]:  # play ends the game as the other side drops below 3 (he is left to act)
            raise _refuse("side to act", PLAYERS[p] + " has fewer than 3 stones", s)
        if pending:
            why = _owed(board[p], pending, self._double)
            if not why and not men[q] and not short[q]:
                why = "no stone to take"
            if why:
                raise _refuse("removals owed", why, s)
        acted = pending or short[q]  # p has acted this turn: his placement is counted
        if hand[0] or hand[1]:
            ahead = hand[1] - hand[0]  # Red places first: 0 or 1 placements ahead of Green
            if ahead != (1 if (p == 1) != bool(acted) else 0):
                raise _refuse("stones in hand", "Red places first, then each in turn", s)
        return short

    def _read_bans(self, fields, hand, s):
        """The two moves that may not be undone at once (no_immediate_returns), 0 for none."""
        bans = []
        for b in fields:
            a = 0 if b == "-" else self._parse(b)
            if a and not MOVE <= a < REMOVE:
                raise NotationError("a ban is a move like d7-d6 or '-', not %r" % b)
            if a and not self._no_returns:
                raise _refuse("ban", "only with no_immediate_returns", s)
            if a and (hand[0] or hand[1]):
                raise _refuse("ban", "no move while stones are in hand", s)
            bans.append(a)
        return bans
