"""Mixtour, to the letter of the seed text (German) and RULINGS.md.

Squares are numbered a1=0, b1=1, .. e1=4, a2=5, .. e5=24 (index = rank * 5 + file).
The board is one bytearray: per square h | c << 3, where h is the height (0..4; a stack that
reaches 5 is removed at once, so no taller one ever stands) and bit k of c is the owner of the
k-th piece from the bottom (0 White, 1 Red).  Two more bytes after the 25 squares hold the
side to move and the restriction while a repetition key is taken.
Reserves follow from the board: every piece not on it is in its owner's reserve.
Beside it, _masks holds the squares by height as 25-bit masks (index 0 the empty squares,
1..4 the stacks of that height), kept in step by play and undo, so that legal() finds every
move with a few shifts per direction instead of walking each ray square by square.

Repetition: (score sum, pieces on the board) only grows, strictly with every entry and every
scoring move, so no position from before such an action can come back.  The counts
(_seen) therefore cover only the stretch since the last one; they start afresh there, and
undoing that action rebuilds them by replaying the stretch before it.  Within a stretch the
scores and reserves are fixed, so the key is the board, the side to move and the restriction.

Atomic actions are small ints, and each is a whole turn:
  0..24                 enter a piece          "b2"
  25..2524              move the top n pieces  "c4:3-d3", one piece "a1-b2" (a1:1-b2 parses)
                        (25 + ((n - 1) * 25 + from) * 25 + to, n = 1..4, on a straight line)
  2525                  pass                   "pass"
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from shared_rules.core import (Game as _Game, IllegalMove, NotationError, OptionError,
                               DOUBLE_PASS, POINTS, REPETITION)
from shared_rules.history import history, pop

ID = "mixtour"
NAME = "Mixtour"
PLAYERS = ("White", "Red")

PIECES = const(20)  # pieces per player
MAX_POINTS = const(0x3FFFFFFF)  # largest points_to_win: ints stay below 2^30
# Private (out of the module's globals: two more names there cost random games 0.4% of their
# instructions); other modules derive them from move().
_MOVE = const(25)
_PAIRS = const(625)  # (from, to) square pairs: the action step from n to n + 1 pieces
PASS = const(2525)
_END = const(2526)
_COUNTED = const(1 << 13)  # history flag: the position after this action was counted
_FRESH = const(1 << 22)  # history flag: an entry or a scoring move (a new stretch begins)

SQUARES = ("a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2",
           "a3", "b3", "c3", "d3", "e3", "a4", "b4", "c4", "d4", "e4",
           "a5", "b5", "c5", "d5", "e5")


STEP = (1, -1, 5, -5, 6, -4, 4, -6)  # E W N S NE SE NW SW as square index steps

_FULL = const(0x1FFFFFF)  # the 25 squares
# Per direction, at the index of its step (a negative one counts from the end): the squares
# that have a neighbour that way | the next direction's step << 25, in STEP's order, 0 after
# the last.  legal() walks the directions by it with a small frame; |ints| stay below 2^28.
_DIRECTIONS = (
    0,
    0xF7BDEF | -1 << 25,  # 1: E, then W
    0, 0,
    0xF7BDE | -6 << 25,  # 4: NW, then SW
    0xFFFFF | -5 << 25,  # 5: N, then S
    0x7BDEF | -4 << 25,  # 6: NE, then SE
    0x1EF7BC0,  # -6: SW, the last
    0x1FFFFE0 | 6 << 25,  # -5: S, then NE
    0xF7BDE0 | 4 << 25,  # -4: SE, then NW
    0, 0,
    0x1EF7BDE | 5 << 25,  # -1: W, then N
)
# The square of a one-bit mask: 2^i % 37 differs for every i < 36 (2 generates the units
# mod 37), so one small table stands in for a loop or a dict (255: no square).
_SQUARE_OF = (b"\xff\x00\x01\xff\x02\x17\xff\xff\x03\x10\x18\xff\xff\x0b\xff\x0d\x04\x07\x11"
              b"\xff\xff\x16\xff\x0f\xff\x0a\x0c\x06\xff\x15\x0e\x09\x05\x14\x08\x13\x12")


def distance(f, t):
    """Squares from f to t along a straight orthogonal or diagonal line; 0 if not on one."""
    fy, fx = divmod(f, 5)
    ty, tx = divmod(t, 5)
    dx = tx - fx if tx > fx else fx - tx
    dy = ty - fy if ty > fy else fy - ty
    if dx and dy and dx != dy:
        return 0
    return dx if dx > dy else dy


def move(f, n, t):
    """The action that moves the top n pieces from square f onto square t."""
    return _MOVE + ((n - 1) * 25 + f) * 25 + t


def _square(name, s):
    if len(name) == 2:
        x, y = "abcde".find(name[0]), "12345".find(name[1])
        if x >= 0 and y >= 0:
            return y * 5 + x
    raise NotationError("unknown square %r in %r (squares are a1..e5)" % (name, s))


def _count_red(c, h):
    reds = 0
    for _ in range(h):
        reds += c & 1
        c >>= 1
    return reds


# The rules' private helpers are functions, not methods: MicroPython grows a class's dict only
# when it is full and looks every method call on a game up there (after missing it among the
# instance's attributes), and on the emulated RP2040 such a lookup took ~14 us with 38 names in
# 47 slots and ~20 us, ~23 us missed, with 36 in 37; Game now has 32 names in 37 slots.


def _fits(b, a):
    """Whether move a may be played on board b, the reversal ban aside: its squares on a line,
    as far apart as the target is high, nothing between, the pieces there to move."""
    # Few names (a reused): a frame above 11 words goes on the heap at every call.
    a -= _MOVE
    f = a % _PAIRS // 25
    t = a % 25
    d = b[t] & 7  # the distance the target's height asks for
    if not d or f == t or b[f] & 7 <= a // _PAIRS:
        return False
    a = t % 5 - f % 5  # files apart, then ranks apart: each 0 or d on a line
    if a and a != d and a != -d:
        return False
    a = t // 5 - f // 5
    if a and a != d and a != -d:
        return False
    a = (t - f) // d  # the step; at most three squares lie between
    return d < 2 or not (b[f + a] or d > 2 and (b[f + a + a] or d > 3 and b[t - a]))


def _key(g):
    """The repetition key of g's position: the board, the side to act and the restriction."""
    b, ban = g.board, g._ban
    b[25] = ban >> 8 | g.acting << 4
    b[26] = ban & 255
    return bytes(b)


def _count(g, by):
    """Add by (1 or -1) to the count of g's position in its stretch."""
    key, seen = _key(g), g._seen
    n = seen.get(key, 0) + by
    if n:
        seen[key] = n
    else:
        del seen[key]


def _back(g):
    """Take back g's last action, the counts aside."""
    # Few names, each reused, and short expressions (masks[i] = masks[i] ^ bit, not ^=): a
    # frame above 11 words goes on the heap at every call.
    x = g._hist
    y = pop(x)  # the packed state before the action
    a = pop(x)
    x = 1 - g.acting
    g.to_move = g.acting = x
    g._ban = y & 4095
    g._passed = y >> 12 & 1
    g._result = None
    b, masks = g.board, g._masks
    if a < _MOVE:
        b[a] = 0
        masks[0] = masks[0] ^ 1 << a
        masks[1] = masks[1] ^ 1 << a
        g._res[x] += 1
    elif a != PASS:
        a -= _MOVE  # n - 1 = a // _PAIRS, from = a % _PAIRS // 25, to = a % 25
        f = a % 25  # the square moved onto
        x = b[f]
        if x:
            y = x & 7
            masks[y] = masks[y] ^ 1 << f
            y -= a // _PAIRS + 1  # the pieces that stay
            masks[y] = masks[y] ^ 1 << f
            b[f] = ((1 << y) - 1 & x >> 3) << 3 | y
            x >>= 3 + y  # the colours moved back, bottom first
        else:  # the move scored: rebuild the stack it removed
            x = distance(a % _PAIRS // 25, f)  # its height before
            y = y >> 14 & 255  # the colours of the stack removed, bottom first
            b[f] = ((1 << x) - 1 & y) << 3 | x
            masks[0] = masks[0] ^ 1 << f
            masks[x] = masks[x] ^ 1 << f
            f = x + a // _PAIRS + 1  # the height removed
            f = _count_red(y, f)
            g._res[1] -= f
            f = x + a // _PAIRS + 1 - f
            g._res[0] -= f
            f = y >> (x + a // _PAIRS) & 1  # the owner of its top piece
            g.scores[f] -= 1
            x = y >> x
        f = a % _PAIRS // 25  # the square moved from
        y = b[f]
        x = y >> 3 | x << (y & 7)
        y &= 7
        masks[y] = masks[y] ^ 1 << f
        y += a // _PAIRS + 1
        masks[y] = masks[y] ^ 1 << f
        b[f] = y | x << 3


def _read_stacks(field, s):
    """The board of a position text's first field (25 stacks joined by ','): the squares'
    bytes, the masks by height and the pieces of each side; NotationError if it is none."""
    cells = field.split(",")
    if len(cells) != 25:
        raise NotationError("a mixtour position has 25 stacks (a1 b1 .. e5), not %d in %r"
                            % (len(cells), s))
    b = bytearray(27)
    masks = [_FULL, 0, 0, 0, 0]
    count = [0, 0]
    for i in range(25):
        c = cells[i]
        if c == ".":
            continue
        if not 1 <= len(c) <= 4:
            raise NotationError("square %s holds %r; a stack is '.' or 1 to 4 of 'W' "
                                "and 'R' (5 or more leave the board)" % (SQUARES[i], c))
        bits = 0
        for k in range(len(c)):
            if c[k] not in "WR":
                raise NotationError("square %s holds %r; use 'W' and 'R'"
                                    % (SQUARES[i], c))
            side = c[k] == "R"
            bits |= side << k
            count[side] += 1
        b[i] = len(c) | bits << 3
        masks[0] ^= 1 << i
        masks[len(c)] ^= 1 << i
    for side in (0, 1):
        if count[side] > PIECES:
            raise NotationError("%s has more than %d pieces in %r"
                                % (PLAYERS[side], PIECES, s))
    return b, masks, count


class Game(_Game):
    ID = ID
    OPTIONS = (("points_to_win", 1),)
    play = _Game.play  # bound here as well: see core's docstring
    result = _Game.result

    def __init__(self, **options):
        _Game.__init__(self, **options)
        self.goal = self.options["points_to_win"]
        self.board = bytearray(27)  # 25 squares, then the key trailer (see _key)
        self._masks = [_FULL, 0, 0, 0, 0]  # the squares by height (module docstring)
        self._res = [PIECES, PIECES]
        self.scores = [0, 0]
        self.acting = 0  # the side to act, also once the game is over
        self._ban = 0  # the move the side to act may not make (the reversal), 0: none
        self._passed = 0  # 1 when the last action was a pass
        self._hist = history()  # flat: action, packed state before it, ...
        self._seen = {}  # repetition counts in this stretch: position key -> occurrences
        _count(self, 1)

    def _check_option(self, name, value):
        if (value is True or value is False or not isinstance(value, int)
                or not 1 <= value <= MAX_POINTS):
            raise OptionError("option points_to_win must be an integer from 1 to %d, not %r"
                              % (MAX_POINTS, value))
        return value

    # -- what a display needs ---------------------------------------------------------------
    def height(self, i):
        return self.board[i] & 7

    def stack(self, i):
        """The owners (0 White, 1 Red) of the pieces on square i, bottom first."""
        v = self.board[i]
        return tuple(v >> (3 + k) & 1 for k in range(v & 7))

    def top(self, i):
        """The owner of the top piece on square i, None when empty."""
        v = self.board[i]
        return v >> (2 + (v & 7)) & 1 if v else None

    def reserve(self, p):
        return self._res[p]

    def score(self, p):
        return self.scores[p]

    def restriction(self):
        """The move the side to act may not make (the reversal of the last move), or None."""
        return self._ban or None

    def last_was_pass(self):
        return self._passed == 1

    def targets(self, f, n):
        """Squares the top n pieces of square f may move onto now."""
        if self._result is not None or not 1 <= n <= 4:
            return []
        ban = self._ban
        return [t for t in range(25) if move(f, n, t) != ban and _fits(self.board, move(f, n, t))]

    def banned_targets(self, f, n):
        """Squares the top n pieces of square f could reach but for the reversal ban."""
        ban = self._ban
        if self._result is not None or not ban or not 1 <= n <= 4:
            return []
        return [t for t in range(25) if move(f, n, t) == ban and _fits(self.board, ban)]

    def actions(self):
        hist = self._hist
        return [hist[i] for i in range(0, len(hist), 2)]

    def plies(self):
        return len(self._hist) // 2

    def last(self, back=1):
        i = len(self._hist) - 2 * back
        return self._hist[i] if back > 0 and i >= 0 else None

    # -- rules -----------------------------------------------------------------------------
    def legal(self):
        """Entries, then moves by direction in STEP's order, then distance, then the square
        moved onto, then pieces; or the pass when there is neither."""
        # Few names, each reused: a frame above 11 words goes on the heap at every call.
        if self._result is not None:
            return []
        # Room for most positions' actions at once: grown from empty it doubles to 128 items
        # past 64, a kilobyte in one piece (what the smallest heap ran out of).
        out = [0] * 36
        del out[:]  # keeps the room
        add = out.append
        if self._res[self.acting]:
            reach = self._masks[0]
            while reach:  # the empty squares, lowest first
                a = _SQUARE_OF[(reach & -reach) % 37]
                reach ^= 1 << a
                add(a)
        s = STEP[0]
        while s:
            # All stacks at once: the squares k steps away along empty squares; those that
            # hold a stack k high are targets (the first stack on a line ends it).
            lane = _DIRECTIONS[s]
            reach = (_FULL ^ self._masks[0]) & lane
            lane &= self._masks[0]  # the empty squares a line goes on from
            reach = reach << s if s > 0 else reach >> -s
            k = 1
            while reach:
                while True:
                    a = self._masks[k] & reach  # the targets left
                    if not a:
                        break
                    a = _SQUARE_OF[(a & -a) % 37]
                    reach ^= 1 << a
                    a = a * 26 - k * s * 25 + _MOVE  # move(a - k * s, 1, a)
                    add(a)
                    if self.board[(a - _MOVE) // 25] & 7 > 1:  # the stack moved from
                        add(a + _PAIRS)
                        if self.board[(a - _MOVE) // 25] & 7 > 2:
                            add(a + 2 * _PAIRS)
                            if self.board[(a - _MOVE) // 25] & 7 > 3:
                                add(a + 3 * _PAIRS)
                reach &= lane
                reach = reach << s if s > 0 else reach >> -s
                k += 1
            s = _DIRECTIONS[s] >> 25
        if self._ban:  # always among the moves found: a reversal is banned only when possible
            out.remove(self._ban)
        return out or [PASS]

    def _is_legal(self, a):
        if self._result is not None or not 0 <= a < _END:
            return False
        if a < _MOVE:
            return self._res[self.acting] > 0 and self.board[a] == 0
        if a == PASS:
            return self.legal() == [PASS]
        if a == self._ban:
            return False
        return _fits(self.board, a)

    def play_unchecked(self, a):
        # history per action: the action, then the restriction before it (12 bits) | the pass
        # flag before it << 12 | _COUNTED | the colours of a removed stack << 14 | _FRESH
        # Few names, each reused, and short expressions (masks[i] = masks[i] ^ bit, not ^=): a
        # frame above 11 words goes on the heap at every call.
        x = self._hist
        x.append(a)
        x.append(self._passed << 12 | self._ban | _COUNTED)  # unset if the game ends here
        y = self.acting
        self.to_move = self.acting = 1 - y
        self._ban = 0
        b = self.board
        if a == PASS:
            if self._passed:
                self._result = (None, DOUBLE_PASS)
                self.to_move = None
                x[-1] ^= _COUNTED
                return
            self._passed = 1
        else:
            self._passed = 0
            masks = self._masks
            if a < _MOVE:
                b[a] = 1 | y << 3
                masks[0] = masks[0] ^ 1 << a
                masks[1] = masks[1] ^ 1 << a
                self._res[y] -= 1
                x[-1] |= _FRESH
                self._seen.clear()
            else:
                a -= _MOVE  # n - 1 = a // _PAIRS, from = a % _PAIRS // 25, to = a % 25
                f = a % _PAIRS // 25  # no divmod: its tuples are garbage on the device
                x = b[f]
                y = x & 7
                masks[y] = masks[y] ^ 1 << f
                y -= a // _PAIRS + 1  # the pieces that stay
                masks[y] = masks[y] ^ 1 << f
                b[f] = ((1 << y) - 1 & x >> 3) << 3 | y
                x >>= 3 + y  # the colours moved, bottom first
                if y == b[a % 25] & 7:  # the exact reversal is possible (no score): forbid it
                    self._ban = _MOVE + a + (a % 25 - f) * 24  # move(to, n, from)
                f = a % 25
                y = b[f]
                x = y >> 3 | x << (y & 7)  # the colours of the stack made
                y &= 7
                masks[y] = masks[y] ^ 1 << f
                y += a // _PAIRS + 1
                if y >= 5:  # the stack leaves the board, its top piece's owner scores
                    b[f] = 0
                    masks[0] = masks[0] ^ 1 << f
                    a = _count_red(x, y)
                    self._res[1] += a
                    a = y - a
                    self._res[0] += a
                    a = x << 14 | _FRESH
                    self._hist[-1] |= a
                    f = x >> (y - 1) & 1
                    self.scores[f] += 1
                    if self.scores[f] >= self.goal:
                        self._result = (f, POINTS)
                        self.to_move = None
                        self._hist[-1] ^= _COUNTED
                        return
                    self._seen.clear()
                else:
                    b[f] = y | x << 3
                    masks[y] = masks[y] ^ 1 << f
        # _count(self, 1), inline: two calls less per action
        f = self._ban
        b[25] = f >> 8 | self.acting << 4
        b[26] = f & 255
        f = bytes(b)
        x = self._seen
        y = x.get(f, 0) + 1
        x[f] = y
        if y >= 3:
            self._result = (None, REPETITION)
            self.to_move = None

    def undo(self):
        if not self._hist:
            raise IllegalMove("nothing to take back")
        info = self._hist[-1]
        if info & _COUNTED and not info & _FRESH:
            _count(self, -1)
        _back(self)
        if info & _COUNTED and info & _FRESH:
            # an entry or a score undone: count the stretch that is current again
            hist = self._hist
            redo = []
            while hist and not hist[-1] & _FRESH:
                redo.append(hist[-2])
                _back(self)
            self._seen.clear()
            _count(self, 1)
            while redo:
                self.play_unchecked(redo.pop())

    def copy(self):
        g = Game(**self.options)
        g.board = bytearray(self.board)
        g._masks = self._masks[:]
        g._res = self._res[:]
        g.scores = self.scores[:]
        g.acting = self.acting
        g.to_move = self.to_move
        g._ban = self._ban
        g._passed = self._passed
        g._hist = self._hist[:]
        g._result = self._result
        g._seen = dict(self._seen)
        g._start = self._start
        return g

    # -- notation --------------------------------------------------------------------------
    def text(self, a):
        if not isinstance(a, int) or not 0 <= a < _END:
            raise NotationError("not a mixtour action: %r" % (a,))
        if a < _MOVE:
            return SQUARES[a]
        if a == PASS:
            return "pass"
        n, r = divmod(a - _MOVE, _PAIRS)
        f, t = divmod(r, 25)
        if not distance(f, t):
            raise NotationError("not a mixtour action: %r (%s and %s are not on a line)"
                                % (a, SQUARES[f], SQUARES[t]))
        if n:
            return "%s:%d-%s" % (SQUARES[f], n + 1, SQUARES[t])
        return SQUARES[f] + "-" + SQUARES[t]

    def _parse(self, s):
        if s == "pass":
            return PASS
        if "-" not in s:
            return _square(s, s)
        parts = s.split("-")
        if len(parts) != 2:
            raise NotationError("a move is 'from-to' or 'from:n-to', not %r" % s)
        src, n = parts[0], 1
        if ":" in src:
            src, count = src.split(":", 1)
            if count not in ("1", "2", "3", "4"):
                raise NotationError("a move takes 1 to 4 pieces (no stack stands higher), "
                                    "not %r in %r" % (count, s))
            n = int(count)
        f, t = _square(src, s), _square(parts[1], s)
        if f == t:
            raise NotationError("a move must change the square: %r" % s)
        if not distance(f, t):
            raise NotationError("%s and %s are not on a straight line: %r"
                                % (SQUARES[f], SQUARES[t], s))
        return move(f, n, t)

    def _turn_start(self):
        return True

    def split_turn(self, s):
        if not isinstance(s, str):
            raise NotationError("expected notation text, got %r" % (s,))
        return [s.strip()]

    def join_turn(self, texts):
        return "".join(texts)

    # -- compact position: stacks, scores, side to act, restriction or pass ---------------
    def position(self):
        """E.g. `.,W,RW,.,... 0 1 0 b2-a1`: the 25 stacks a1 b1 .. e1 a2 .. e5 bottom first
        ('.' empty), White's and Red's scores, the side to act, then the banned move, '-' for
        none or 'pass' when the last action was a pass.  Reserves: the pieces not on the board."""
        b = self.board
        cells = []
        for i in range(25):
            v = b[i]
            cells.append("".join("WR"[v >> (3 + k) & 1] for k in range(v & 7)) or ".")
        last = "pass" if self._passed else self.text(self._ban) if self._ban else "-"
        return "%s %d %d %d %s" % (",".join(cells), self.scores[0], self.scores[1], self.acting,
                                   last)

    def _check_restriction(self, b, masks, count, p, last, ban, won, s):
        """NotationError unless the restriction can stand in this position; returns the
        reserves."""
        g = Game(**self.options)
        g.board, g._masks, g._res = b, masks, [PIECES - count[0], PIECES - count[1]]
        why = None
        if won and last != "-":  # the scoring move ended the game and bans nothing
            why = "none after the winning score"
        elif ban:
            if not _fits(b, ban):  # recorded only when the reversal is possible
                why = "not possible here"
        elif last == "pass":
            g.acting = 1 - p  # the one who passed had nothing else but, at most, a banned move
            acts = g.legal()
            if len(acts) > 1 or acts[0] < _MOVE:
                why = "the one who passed had a move"
        if why:
            raise NotationError("restriction: %s, in %r" % (why, s))
        return g._res

    def set_position(self, s):
        """Set up a position written by position(); the history starts afresh here."""
        fields = s.split() if isinstance(s, str) else ()
        if len(fields) != 5:
            raise NotationError("a mixtour position is 25 stacks joined by ',', two scores, "
                                "the side to act and the restriction, not %r" % (s,))
        b, masks, count = _read_stacks(fields[0], s)
        score = []
        for f in fields[1:3]:
            if not f.isdigit() or int(f) > self.goal:
                raise NotationError("scores: each 0 to points_to_win, in %r" % s)
            score.append(int(f))
        if fields[3] not in ("0", "1"):
            raise NotationError("the side to act is 0 or 1, not %r in %r" % (fields[3], s))
        p = int(fields[3])
        last, ban = fields[4], 0
        if last not in ("-", "pass"):
            ban = self._parse(last)
            if not _MOVE <= ban < PASS:
                raise NotationError("the restriction is a move like b2-a1, '-' or 'pass', "
                                    "not %r" % last)
        won = [side for side in (0, 1) if score[side] == self.goal]
        if len(won) == 2:
            raise NotationError("scores: both reached points_to_win, in %r" % s)
        reserve = self._check_restriction(b, masks, count, p, last, ban, won, s)
        self.board, self._masks, self.scores, self.acting, self._res = b, masks, score, p, reserve
        self._passed = 1 if last == "pass" else 0
        self._ban = ban
        self._hist, self._seen = history(), {}
        self._result = (won[0], POINTS) if won else None
        self.to_move = None if won else p
        _count(self, 1)
        self._start = self.position()
