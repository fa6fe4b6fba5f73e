"""Rhombus (H. Glumpler, 2003), to the letter of the seed text and RULINGS.md.

Cells (u, v) are named like a chessboard (file a..h = u, rank 1..8 = v + 1) and numbered
i = v * 8 + u, so a1 = 0, h1 = 7, a8 = 56, h8 = 63 (a1 SOUTH, h1 EAST, a8 WEST, h8 NORTH).
The 15 Lines are the anti-diagonals u + v = 0..14; along a Line the index steps by +-7.
Atomic actions are small ints:
  0..63   place the next stone on cell i   "e4"
  64..67  bid 1..4 stones                  "bid1".."bid4"
  68      a bid hidden from this view      "bid?"  (only in view_for(); never legal)
A turn is Black's bid, White's bid, then the placements one cell at a time, in order (fewer
stones first; equal: whoever went first last turn; Black in the first turn).

Hidden bids: while Black's bid waits for White's, nothing public shows its value:
position() writes it as '?', bid(0) is -1, and view_for(1) is a copy in which the bid itself
(and its history entry) is replaced by a marker.  actions(), last(), turns(), copy() and the
private state of the game itself are full information, for the referee only.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from shared_rules.core import Game as _Game, IllegalMove, NotationError, SCORE

# one look-up where play() tests the type of every action (see shared_rules/core.py)
_type, _int = type, int
ID = "rhombus"
NAME = "Rhombus"
PLAYERS = ("Black", "White")

BID = const(64)        # action BID + k - 1 bids k stones
HIDDEN_BID = const(68)  # a pending bid as a view of the other player sees it
_END = const(69)
_NONE = const(64)      # no current Line with a free cell
_SECRET = const(5)     # a bid made whose value is hidden (views only)
_CELLS = const(64)
STONES = const(52)     # stones per player; always enough to place (see RULINGS.md)
# The state apart from the cells is one small int, state, so that a history entry is just
# action | state << 7 and undo() restores it in one store:
#   bits 0-2 Black's bid, 3-5 White's bid (0 not yet, 1..4, _SECRET), 6-8 / 9-11 stones
#   Black / White still place this turn, 12 the side to act, 13 who goes first, 14-20 the
#   next cell of the Current Line (_NONE: none), 21 set when that Line is filled downwards
#   (step -7).  Bits 14-21 together, the cursor, index the table _ALONG.
_BID_BITS = const(7)
_BIDS = const(63)  # both bids
_LEFT_AT = const(6)  # Black's stones to place; White's 3 bits higher
_LEFT = const(63 << 6)  # both
_P_AT = const(12)
_FIRST_AT = const(13)
_CUR_AT = const(14)
_CUR_BITS = const(127)
_CURSOR = const(255 << 14)
_DOWN = const(128)  # the cursor's direction bit: the Line is filled with step -7

# Flat byte strings, not tuples of tuples: each tuple would be a heap object on the device.
# LINE[i]: the Line (u + v) of cell i.  EDGES: the 28 edge cells, each the end of one Line.
LINE = bytes((i & 7) + (i >> 3) for i in range(64))
EDGES = bytes(i for i in range(64) if (i & 7) in (0, 7) or (i >> 3) in (0, 7))


def cell_name(i):
    """'a1' for cell 0, 'h8' for cell 63."""
    return "abcdefgh"[i & 7] + "12345678"[i >> 3]


def coords(i):
    """(u, v) of cell i: file a..h = u 0..7, rank 1..8 = v 0..7."""
    return i & 7, i >> 3


def line_cells(k):
    """The cells of Line k (u + v = k) from its file-a / rank-8 end to the other end."""
    return [(k - u) * 8 + u for u in range(k - 7 if k > 7 else 0, (k if k < 7 else 7) + 1)]


# Where the cursor goes after a stone, as tables so that a placement does no arithmetic on
# the geometry: _ALONG[cursor] for a stone on the cursor's cell (the next cell the same way,
# the direction kept), _OPENED[e] for a stone on edge cell e starting a Line (away from e).
def _cursor_tables():
    along = bytearray(192)  # cursors 64..127 (cell _NONE) are never looked up
    for c in range(64):
        for down in (0, _DOWN):
            n = c - 7 if down else c + 7
            along[c | down] = (n if 0 <= n < 64 and LINE[n] == LINE[c] else _NONE) | down
    opened = bytearray(64)
    for e in EDGES:  # away from e: down when the cell below e is on its Line
        opened[e] = along[e | _DOWN] if along[e | _DOWN] & _CUR_BITS != _NONE else along[e]
    return bytes(along), bytes(opened)


_ALONG, _OPENED = _cursor_tables()
del _cursor_tables  # its code is needed once


def combination_score(heights):
    """One player's points for a list of tower heights: combinations 1+2+3+4 = 16, 1+2+3 = 9,
    1+2 = 4, 1 = 1, formed greedily largest first (optimal), minus the height of every tower
    left unused (towers of 5 or more are never usable)."""
    c1 = c2 = c3 = c4 = 0
    unused = 0
    for h in heights:
        if h == 1:
            c1 += 1
        elif h == 2:
            c2 += 1
        elif h == 3:
            c3 += 1
        elif h == 4:
            c4 += 1
        elif isinstance(h, int) and h >= 5:
            unused += h
        else:
            raise ValueError("a tower height is a whole number of at least 1, not %r" % (h,))
    return score_counts(c1, c2, c3, c4, unused)


def score_counts(c1, c2, c3, c4, unused):
    """The score of c1..c4 towers of heights 1..4 and `unused` height in towers of 5+."""
    n4 = min(c1, c2, c3, c4)
    c1 -= n4
    c2 -= n4
    c3 -= n4
    c4 -= n4
    n3 = min(c1, c2, c3)
    c1 -= n3
    c2 -= n3
    c3 -= n3
    n2 = min(c1, c2)
    c1 -= n2
    c2 -= n2
    return 16 * n4 + 9 * n3 + 4 * n2 + c1 - 2 * c2 - 3 * c3 - 4 * c4 - unused


def _count(cells, v):
    n = 0
    for c in cells:
        if c == v:
            n += 1
    return n


def _history():
    """An empty history with room for a whole game (64 stones, at most 64 bids) from the
    start: grown by doubling, it needed a 1 KB block late in every game, beside the half-size
    one it replaced (MicroPython keeps a list's room when it is emptied)."""
    hist = [0] * 128
    del hist[:]
    return hist


def _cell(name, s):
    if len(name) != 2 or name[0] not in "abcdefgh" or name[1] not in "12345678":
        raise NotationError("unknown cell %r in %r (cells are a1..h8)" % (name, s))
    return "abcdefgh".index(name[0]) + 8 * "12345678".index(name[1])


class Game(_Game):
    ID = ID
    SECRETS = True  # the bids (hidden(), view_for())
    OPTIONS = ()

    def __init__(self, **options):
        _Game.__init__(self, **options)
        self.cells = bytearray(_CELLS)  # 0 empty, 1 Black, 2 White
        # the bids, stones to place, side to act (also once the game is over), who goes
        # first this turn (while placing) / went first last turn, and the Current Line's next
        # cell and direction: see the bits above _BID_BITS (to_move mirrors its side bit)
        self.state = _NONE << _CUR_AT
        self.hist = _history()  # one int per action: action | _s before it << 7
        # the free edge cells, ascending as in EDGES: what legal() offers when no Line is under
        # way, kept as they fill and empty rather than sought among the 28 every time
        self._free = list(EDGES)

    # -- what a display needs (none of it shows a pending bid) -------------------------------
    def stone_at(self, i):
        """0 or 1 for the owner of the stone on cell i, None when empty."""
        c = self.cells[i]
        return c - 1 if c else None

    def on_board(self, p):
        return _count(self.cells, p + 1)

    def filled(self):
        return _CELLS - _count(self.cells, 0)

    def bidding(self):
        """True while the bids of a turn are being chosen."""
        return self._result is None and not self.state & _LEFT

    def _bid(self, p):
        """p's bid as kept: 0 not yet, 1..4, _SECRET."""
        return self.state >> 3 * p & _BID_BITS

    def bid(self, p):
        """p's bid this turn: 0 not yet made, 1..4 once both are revealed, -1 made but secret.
        Bids of a finished turn are cleared when the next turn starts; at the end of the game
        the last turn's bids stay."""
        b, other = self._bid(p), self._bid(1 - p)
        if b == 0:
            return 0
        return b if other and b != _SECRET and other != _SECRET else -1

    def to_place(self, p):
        """Stones p still has to place this turn (after the end: the surplus dropped)."""
        return self.state >> _LEFT_AT + 3 * p & 7

    def first(self):
        """Who places first this turn (while placing), else who did in the last turn."""
        return self.state >> _FIRST_AT & 1

    def next_cell(self):
        """The cell the next stone must go on, or None when any free edge cell will do."""
        cur = self.state >> _CUR_AT & _CUR_BITS
        return None if cur == _NONE else cur

    def current_line(self):
        """The index k (u + v) of the Current Line while it has a free cell, else None."""
        cur = self.next_cell()
        return None if cur is None else LINE[cur]

    def towers(self, p):
        """Heights of p's Towers on the board as it stands: Black's maximal runs along the
        ranks (a->h), White's along the files (1->8)."""
        cells, own, out = self.cells, p + 1, []
        for a in range(8):
            run = 0
            for b in range(8):
                i = a * 8 + b if p == 0 else b * 8 + a
                if cells[i] == own:
                    run += 1
                elif run:
                    out.append(run)
                    run = 0
            if run:
                out.append(run)
        return out

    def score(self, p):
        """combination_score(self.towers(p))."""
        return self._scores()[p]

    def _scores(self):
        """Both scores, the towers tallied by height in one pass over the board in place of
        lists of them: both end every game."""
        cells = self.cells
        tally = bytearray(18)  # towers of each height: Black's at 1..8, White's at 10..17
        down = bytearray(8)  # the height of White's tower so far in each file
        i = 0
        for _ in range(8):
            run = 0  # Black's tower so far along this rank
            for u in range(8):
                c = cells[i]
                i += 1
                if c == 1:
                    run += 1
                else:
                    if run:
                        tally[run] += 1
                        run = 0
                    if c:
                        down[u] += 1
                        continue
                h = down[u]  # a cell not White's ends White's tower in the file
                if h:
                    tally[9 + h] += 1
                    down[u] = 0
            if run:
                tally[run] += 1
        for h in down:
            if h:
                tally[9 + h] += 1
        return [score_counts(tally[k + 1], tally[k + 2], tally[k + 3], tally[k + 4],
                             5 * tally[k + 5] + 6 * tally[k + 6] + 7 * tally[k + 7]
                             + 8 * tally[k + 8]) for k in (0, 9)]

    def actions(self):
        return [h & 127 for h in self.hist]

    def plies(self):
        return len(self.hist)

    def last(self, back=1):
        return self.hist[-back] & 127 if 0 < back <= len(self.hist) else None

    # -- hidden information --------------------------------------------------------------------
    def _hidden_from(self, p):
        """True when the other player has a bid pending that p must not see."""
        s = self.state  # the search asks at every node: the fields read in place
        return (self._result is None and not s & _LEFT and s >> 3 - 3 * p & _BID_BITS != 0
                and s >> 3 * p & _BID_BITS == 0)

    def hidden(self):
        """Black's bid stays secret until White's is in."""
        return 1 if self._hidden_from(1) else 0

    def view_for(self, p):
        """A copy for player p to look at or search: the opponent's pending bid is unknown
        (its value and its history entry are replaced by a marker), so the copy is the same
        whatever was bid.  In such a view p's own bid cannot be played; a search guesses the
        hidden bid with undo() and play('bidK') first.  Otherwise a plain copy."""
        if p != 0 and p != 1:
            raise ValueError("a view is for player 0 or 1, not %r" % (p,))
        g = self.copy()
        q = 1 - p
        if self._hidden_from(p) and self._bid(q) != _SECRET:
            g.state = g.state & ~(_BID_BITS << 3 * q) | _SECRET << 3 * q
            if g.hist:
                g.hist[-1] = g.hist[-1] & ~127 | HIDDEN_BID
        return g

    # -- rules -----------------------------------------------------------------------------
    def legal(self):
        s = self.state
        if not s & _LEFT:  # bidding, or the end with no stone left to place
            return [] if self._result is not None else [BID, BID + 1, BID + 2, BID + 3]
        cur = s >> _CUR_AT & _CUR_BITS
        if cur != _NONE:
            return [cur]
        # a copy: the caller may reorder it.  Once the board is full no Line is under way and
        # no edge cell is free, so the end needs no test of its own while placing.
        return self._free[:]

    def _is_legal(self, a):
        # what legal() offers, but a bid that waits on Black's hidden one (see view_for)
        return a in self.legal() and (a < BID or self.state & _BID_BITS != _SECRET)

    def play(self, a):
        # _is_legal(a) tested here without a call (or legal()'s list): a play of every ply
        if _type(a) is _int:
            s = self.state
            if s & _LEFT:  # placing: the Current Line's next cell, or a free edge cell
                cur = s >> _CUR_AT & _CUR_BITS
                if a == cur if cur != _NONE else a in self._free:
                    self.play_unchecked(a)
                    return
            # bidding (or the end with no stone left to place): a bid, unless Black's is
            # hidden (only his can be: he bids first)
            elif BID <= a < HIDDEN_BID and s & _BID_BITS != _SECRET and self._result is None:
                self.play_unchecked(a)
                return
        p = self.to_move
        if p is not None and self._bid(1 - p) == _SECRET and self._bid(p) == 0:
            if isinstance(a, str):
                self._parse(a.strip())  # text that is no action is still a NotationError
            raise IllegalMove("%s's bid is hidden in this view; undo() it and play a guessed "
                              "bid before %s bids" % (PLAYERS[1 - p], PLAYERS[p]))
        _Game.play(self, a)

    def play_unchecked(self, a):
        # (a frame of 11 words, on the C stack: the bids reuse a and p, see below)
        s = self.state
        self.hist.append(s << 7 | a)
        p = s >> _P_AT & 1
        if a >= BID:
            b = _SECRET if a == HIDDEN_BID else a - (BID - 1)
            if p == 0:
                self.state = s | b | 1 << _P_AT
                self.to_move = 1
                return
            a = s & _BID_BITS  # Black's bid; b is White's
            p = 0 if a < b else 1 if b < a else s >> _FIRST_AT & 1  # who places first
            self.state = (s & ~(1 << _P_AT | 1 << _FIRST_AT) | b << 3 | a << _LEFT_AT
                       | b << _LEFT_AT + 3 | p << _P_AT | p << _FIRST_AT)
            self.to_move = p
            return
        self.cells[a] = p + 1
        cursor = s >> _CUR_AT  # bits 14-21, the top of state
        if a == cursor & _CUR_BITS:
            cursor = _ALONG[cursor]
            if cursor & _CUR_BITS == _NONE:  # the Line's last cell, an edge cell
                self._free.remove(a)
        else:  # a free edge cell starts a Line
            cursor = _OPENED[a]
            self._free.remove(a)
        one = 1 << _LEFT_AT + 3 * p  # one of p's stones to place
        s = (s & ~_CURSOR | cursor << _CUR_AT) - one
        # the board is full once no Line is under way and no edge cell is free to start one
        if cursor & _CUR_BITS == _NONE and not self._free:
            self.state = s
            self._score_board()
            return
        if not s & 7 * one:  # p has placed his stones
            if s & _LEFT:  # the other's turn to place
                s ^= 1 << _P_AT
                self.to_move = 1 - p
            else:  # the turn is over: bids cleared, Black bids
                s &= ~(_BIDS | 1 << _P_AT)
                self.to_move = 0
        self.state = s

    def _score_board(self):
        """The board is full: decide the game by the two scores."""
        s0, s1 = self._scores()
        self._result = (0 if s0 > s1 else 1, SCORE)
        self.to_move = None

    def undo(self):
        if not self.hist:
            raise IllegalMove("nothing to take back")
        h = self.hist.pop()
        a = h & 127
        self.state = s = h >> 7
        self.to_move = s >> _P_AT & 1
        self._result = None
        if a < BID:
            self.cells[a] = 0
            if (a & 7) % 7 == 0 or (a >> 3) % 7 == 0:  # an edge cell, back among the free
                free = self._free
                free.append(a)
                free.sort()

    def copy(self):
        g = Game(**self.options)
        g.cells = bytearray(self.cells)
        g.state = self.state
        g.hist = self.hist[:]
        g._free = self._free[:]
        g._result = self._result
        g.to_move = self.to_move
        g._start = self._start
        return g

    def _state(self):
        """Everything, the secret included: for tests only."""
        return (bytes(self.cells), self.state, tuple(self.hist), tuple(self._free), self._result,
                self.to_move, self._start)

    # -- notation --------------------------------------------------------------------------
    def text(self, a):
        if not isinstance(a, int) or not 0 <= a < _END:
            raise NotationError("not a rhombus action: %r" % (a,))
        if a < BID:
            return cell_name(a)
        if a == HIDDEN_BID:
            return "bid?"
        return "bid%d" % (a - BID + 1)

    def _parse(self, s):
        if s.startswith("bid"):
            if len(s) == 4 and s[3] in "1234":
                return BID + int(s[3]) - 1
            if s == "bid?":
                return HIDDEN_BID
            raise NotationError("a bid is bid1..bid4, not %r" % s)
        return _cell(s, s)

    def _turn_start(self):
        return self._result is not None or not self.state & _BIDS

    def split_turn(self, s):
        """'3:2 a1 b1 a2 b2 c1' -> ['bid3', 'bid2', 'a1', 'b1', 'a2', 'b2', 'c1']."""
        parts = s.split() if isinstance(s, str) else ()
        if not parts:
            raise NotationError("a turn is 'B:W' (the bids) and the cells placed, not %r" % (s,))
        out = []
        if ":" in parts[0]:
            bids = parts[0].split(":")
            if (len(bids) != 2 or len(bids[0]) != 1 or len(bids[1]) > 1
                    or (not bids[1] and len(parts) > 1)):
                raise NotationError("a turn starts with Black's and White's bids like '3:2', "
                                    "not %r" % parts[0])
            out.append("bid" + bids[0])
            if bids[1]:
                out.append("bid" + bids[1])
            parts = parts[1:]
        for c in parts:
            _cell(c, s)
            out.append(c)
        return out

    def join_turn(self, texts):
        bids = [t[3:] for t in texts if t.startswith("bid")]
        cells = [t for t in texts if not t.startswith("bid")]
        if bids:
            cells.insert(0, bids[0] + ":" + (bids[1] if len(bids) > 1 else ""))
        return " ".join(cells)

    # -- compact position --------------------------------------------------------------------
    # "<64 cells a1..h1 a2..h8 of .BW> <bids B:W> <to place B:W> <first>", e.g. at the start
    # "................................................................ -:- 0:0 0".  A pending
    # bid is written '?'.  The side to act and the Current Line follow from these.
    def position(self):
        cells = "".join(".BW"[c] for c in self.cells)
        b0, b1 = self._bid(0), self._bid(1)
        if b0 and b1 and b0 != _SECRET and b1 != _SECRET:
            bids = "%d:%d" % (b0, b1)
        else:
            bids = ("?" if b0 else "-") + ":" + ("?" if b1 else "-")
        return "%s %s %d:%d %d" % (cells, bids, self.to_place(0), self.to_place(1), self.first())

    def set_position(self, s):
        """Set up a position written by position(); the history starts afresh here.
        A pending bid ('?:-') is not in the text, so it is withdrawn: Black bids again."""
        f = s.split() if isinstance(s, str) else ()
        if (len(f) != 4 or len(f[0]) != 64 or len(f[1]) != 3 or len(f[2]) != 3
                or f[1][1] != ":" or f[2][1] != ":" or len(f[3]) != 1):
            raise NotationError("a rhombus position is 64 of '.BW', the bids B:W, the stones "
                                "to place B:W and who goes first, not %r" % (s,))
        cells = bytearray(64)
        for i in range(64):
            c = ".BW".find(f[0][i])
            if c < 0:
                raise NotationError("cell %s holds %r; use '.', 'B' or 'W'"
                                    % (cell_name(i), f[0][i]))
            cells[i] = c
        # bids: '-' none, '?' pending (Black only), 1..4; to place 0..4; first 0 or 1
        b0, b1 = "-?1234".find(f[1][0]) - 1, "-1234".find(f[1][2])
        left = ["01234".find(f[2][0]), "01234".find(f[2][2])]
        first = "01".find(f[3])
        if min(b0 + 1, b1, left[0], left[1], first) < 0:
            raise NotationError("bids are '-:-', '?:-' or like '3:2', stones to place like "
                                "'1:2' and the first player 0 or 1, in %r" % s)
        n = 64 - _count(cells, 0)
        second = 1 - first
        bid = [b0, b1]
        if b1 == 0:  # bidding; a pending bid ('?', never its value) is withdrawn
            bid[0] = 0
            bad = b0 > 0 or left[0] or left[1] or (n == 0 and first)  # Black first in turn 1
        else:
            bad = (b0 < 1 or (b0 != b1 and bid[first] > bid[second]) or left[0] > b0
                   or left[1] > b1 or (left[first] and left[second] != bid[second])
                   or (n < 64 and not (left[0] or left[1])))
        if bad:
            raise NotationError("bids %s, stones to place %s and first player %s do not fit "
                                "a turn in %r" % (f[1], f[2], f[3], s))
        if _count(cells, 1) > STONES or _count(cells, 2) > STONES:
            raise NotationError("more than %d stones of one colour in %r" % (STONES, s))
        cur, step = _NONE, 7
        for k in range(15):
            line = line_cells(k)
            m = len(line)
            j = m - _count([cells[i] for i in line], 0)
            if j == 0 or j == m:
                continue
            if cur == _NONE and _count([cells[i] for i in line[:j]], 0) == 0:
                cur, step = line[j], -7
            elif cur == _NONE and _count([cells[i] for i in line[m - j:]], 0) == 0:
                cur, step = line[m - j - 1], 7
            else:
                raise NotationError("Line %s..%s is not the one Current Line, filled from an "
                                    "end, in %r" % (cell_name(line[0]), cell_name(line[-1]), s))
        p = (first if left[first] else second) if b1 else 0
        self.cells = cells
        self.state = (bid[0] | bid[1] << 3 | left[0] << _LEFT_AT | left[1] << _LEFT_AT + 3
                   | p << _P_AT | first << _FIRST_AT | cur << _CUR_AT
                   | (_DOWN if step < 0 else 0) << _CUR_AT)
        self.hist, self._result, self.to_move = _history(), None, p
        self._free = [e for e in EDGES if cells[e] == 0]
        self._start = self.position()
        if n == _CELLS:
            self._score_board()
