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

ID = "morris"
NAME = "Nine Men's Morris"
PLAYERS = ("Red", "Green")

_MOVE = const(24)
_REMOVE = const(600)
_END = const(624)
_FULL = const(0xFFFFFF)
_STONES = const(9)
_COUNTED = const(1 << 21)  # history flag: the position after this action was counted

POINTS = ("a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4",
          "b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4",
          "c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4")
_INDEX = {name: i for i, name in enumerate(POINTS)}
# (file, rank) of each point, 0-based, for views
COORDS = tuple(("abcdefg".index(n[0]), int(n[1]) - 1) for n in POINTS)


def _geometry():
    neigh, mills = [], []
    for i in range(24):
        ring, k = divmod(i, 8)
        n = [ring * 8 + (k + 1) % 8, ring * 8 + (k - 1) % 8]
        if k % 2:  # the midpoints of the sides are joined across the rings
            n += [i + 8] if ring < 2 else []
            n += [i - 8] if ring > 0 else []
        neigh.append(tuple(n))
    for ring in range(3):
        for k in (0, 2, 4, 6):
            mills.append(sum(1 << (ring * 8 + (k + j) % 8) for j in range(3)))
    for k in (1, 3, 5, 7):
        mills.append(sum(1 << (ring * 8 + k) for ring in range(3)))
    mills_at = tuple(tuple(m for m in mills if m >> i & 1) for i in range(24))
    return tuple(neigh), tuple(mills), mills_at


NEIGHBOURS, MILLS, _MILLS_AT = _geometry()
_ADJ = tuple(sum(1 << t for t in n) for n in NEIGHBOURS)


def _in_mills(board):
    """Mask of the stones of `board` that stand in a complete mill."""
    inside = 0
    for m in MILLS:
        if board & m == m:
            inside |= m
    return inside


def _point(name, s):
    i = _INDEX.get(name)
    if i is None:
        raise NotationError("unknown point %r in %r (points are a1..g7 on the lines)" % (name, s))
    return i


class Game(_Game):
    ID = ID
    OPTIONS = (("double_mill_takes_two", True), ("no_immediate_returns", False))

    def __init__(self, **options):
        _Game.__init__(self, **options)
        self._double = self.options["double_mill_takes_two"]
        self._no_returns = self.options["no_immediate_returns"]
        self._board = [0, 0]
        self._hand = [_STONES, _STONES]
        self._men = [0, 0]
        self._ban = [0, 0]  # the move each player may not make next (0: none)
        self._p = 0  # the side to act, also once the game is over
        self._pending = 0  # removals still owed by the side to act
        self._hist = []  # flat: action, packed state before it, ...

    def _check_option(self, name, value):
        return self._check_bool(name, value)

    @property
    def to_move(self):
        return None if self._result is not None else self._p

    # -- what a display needs ---------------------------------------------------------------
    def stone_at(self, i):
        """0 or 1 for the owner of the stone on point i, None when empty."""
        if self._board[0] >> i & 1:
            return 0
        return 1 if self._board[1] >> i & 1 else None

    def in_hand(self, p):
        return self._hand[p]

    def on_board(self, p):
        return self._men[p]

    def removals_pending(self):
        return self._pending

    def flying(self, p):
        return self._hand[p] == 0 and self._men[p] == 3

    def actions(self):
        return self._hist[0::2]

    # -- rules -----------------------------------------------------------------------------
    def _removable(self):
        opp = self._board[1 - self._p]
        free = opp & ~_in_mills(opp)
        return free if free else opp

    def legal(self):
        if self._result is not None:
            return []
        p = self._p
        if self._pending:
            free = self._removable()
            return [_REMOVE + s for s in range(24) if free >> s & 1]
        empty = _FULL & ~(self._board[0] | self._board[1])
        if self._hand[p]:
            return [s for s in range(24) if empty >> s & 1]
        out = []
        own, ban = self._board[p], self._ban[p]
        fly = self._men[p] == 3
        for f in range(24):
            if own >> f & 1:
                base = _MOVE + f * 24
                for t in (range(24) if fly else NEIGHBOURS[f]):
                    if empty >> t & 1 and base + t != ban:
                        out.append(base + t)
        return out

    def _is_legal(self, a):
        if self._result is not None or not 0 <= a < _END:
            return False
        p = self._p
        if self._pending:
            return a >= _REMOVE and self._removable() >> (a - _REMOVE) & 1 == 1
        empty = _FULL & ~(self._board[0] | self._board[1])
        if self._hand[p]:
            return a < _MOVE and empty >> a & 1 == 1
        if a < _MOVE or a >= _REMOVE or a == self._ban[p]:
            return False
        f, t = divmod(a - _MOVE, 24)
        return (self._board[p] >> f & 1 == 1 and empty >> t & 1 == 1
                and (self._men[p] == 3 or _ADJ[f] >> t & 1 == 1))

    def _has_move(self, p):
        empty = _FULL & ~(self._board[0] | self._board[1])
        own, ban = self._board[p], self._ban[p]
        if self._men[p] == 3:
            return True  # at least 12 points are empty and only one move is ever banned
        for f in range(24):
            if own >> f & 1:
                m = _ADJ[f] & empty
                if ban and (ban - _MOVE) // 24 == f:
                    m &= ~(1 << ((ban - _MOVE) % 24))
                if m:
                    return True
        return False

    def _do(self, a):
        p, hand = self._p, self._hand
        q = 1 - p
        hist = self._hist
        hist.append(a)
        hist.append(hand[0] | hand[1] << 4 | self._pending << 8 | p << 10 | self._ban[p] << 11)
        board = self._board
        if a >= _REMOVE:
            board[q] &= ~(1 << (a - _REMOVE))
            self._men[q] -= 1
            self._pending -= 1
            if self._men[q] + hand[q] < 3:
                self._result = (p, MEN)
                return
            if self._pending and self._men[q] == 0:
                self._pending = 0
            if self._pending:
                return
        else:
            if a < _MOVE:
                t = a
                board[p] |= 1 << t
                hand[p] -= 1
                self._men[p] += 1
            else:
                f, t = divmod(a - _MOVE, 24)
                board[p] ^= 1 << f | 1 << t
                if self._no_returns:
                    self._ban[p] = _MOVE + t * 24 + f
            mills = 0
            for m in _MILLS_AT[t]:
                if board[p] & m == m:
                    mills += 1
            if mills and self._men[q]:
                self._pending = 2 if mills == 2 and self._double else 1
                return
        self._p = q
        self._finish_turn()

    def _finish_turn(self):
        """Decide the game's end once the turn has passed to the side to act."""
        q = self._p
        if self._hand[0] == 0 and self._hand[1] == 0:
            if self._hist:
                self._hist[-1] |= _COUNTED
            if self._count_position() >= 3:
                self._result = (None, REPETITION)
                return
        if self._hand[q] == 0 and not self._has_move(q):
            self._result = (1 - q, BLOCKED)

    def _key(self):
        return (self._board[0], self._board[1], self._p, self._ban[0], self._ban[1])

    def undo(self):
        hist = self._hist
        if not hist:
            raise IllegalMove("nothing to take back")
        misc = hist.pop()
        a = hist.pop()
        if misc & _COUNTED:
            self._uncount_position()
        p = misc >> 10 & 1
        q = 1 - p
        self._p = p
        self._hand[0] = misc & 15
        self._hand[1] = misc >> 4 & 15
        self._pending = misc >> 8 & 3
        self._ban[p] = misc >> 11 & 1023
        self._result = None
        board = self._board
        if a >= _REMOVE:
            board[q] |= 1 << (a - _REMOVE)
            self._men[q] += 1
        elif a < _MOVE:
            board[p] &= ~(1 << a)
            self._men[p] -= 1
        else:
            f, t = divmod(a - _MOVE, 24)
            board[p] ^= 1 << f | 1 << t

    def copy(self):
        g = Game(**self.options)
        g._board = self._board[:]
        g._hand = self._hand[:]
        g._men = self._men[:]
        g._ban = self._ban[:]
        g._p = self._p
        g._pending = self._pending
        g._hist = self._hist[:]
        g._result = self._result
        g._seen = dict(self._seen)
        g._start = self._start
        return g

    # -- notation --------------------------------------------------------------------------
    def text(self, a):
        if not isinstance(a, int) or not 0 <= a < _END:
            raise NotationError("not a morris action: %r" % (a,))
        if a < _MOVE:
            return POINTS[a]
        if a >= _REMOVE:
            return "x" + POINTS[a - _REMOVE]
        f, t = divmod(a - _MOVE, 24)
        if f == t:
            raise NotationError("not a morris action: %r (a move to its own point)" % a)
        return POINTS[f] + "-" + POINTS[t]

    def _parse(self, s):
        if s.startswith("x"):
            return _REMOVE + _point(s[1:], s)
        if "-" in s:
            parts = s.split("-")
            if len(parts) != 2:
                raise NotationError("a move is two points joined by '-', not %r" % s)
            f, t = _point(parts[0], s), _point(parts[1], s)
            if f == t:
                raise NotationError("a move must change the point: %r" % s)
            return _MOVE + f * 24 + t
        return _point(s, s)

    def _turn_start(self):
        return self._pending == 0

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
        return "%s %d %d %d %d %s %s" % (cells, self._hand[0], self._hand[1], self._p,
                                         self._pending, bans[0], bans[1])

    def set_position(self, s):
        """Set up a position written by position(); the history starts afresh here."""
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
        men = [bin(b).count("1") for b in board]
        if p not in (0, 1) or not 0 <= pending <= 2:
            raise NotationError("side to act is 0 or 1 and removals owed 0..2 in %r" % s)
        for side in (0, 1):
            if not 0 <= hand[side] or men[side] + hand[side] > _STONES:
                raise NotationError("%s has more than %d stones in %r"
                                    % (PLAYERS[side], _STONES, s))
        bans = []
        for side, b in enumerate(fields[5:]):
            a = 0 if b == "-" else self._parse(b)
            if a and not _MOVE <= a < _REMOVE:
                raise NotationError("a ban is a move like d7-d6 or '-', not %r" % b)
            bans.append(a)
        self._board, self._hand, self._men, self._ban = board, hand, men, bans
        self._p, self._pending = p, pending
        self._hist, self._seen, self._result = [], {}, None
        self._start = self.position()
        if men[p] + hand[p] < 3:
            self._result = (1 - p, MEN)
        elif pending == 0:
            self._finish_turn()
