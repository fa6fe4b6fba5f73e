"""What the device opponent knows about Rhombus (see shared_rules/search.py).

The evaluation is the score of the board as it stands (towers so far, combinations formed
greedily, unused towers counted against; Black needs strictly more), once the stones still
owed along the Current Line have gone where they must, blended 3:1 with the score each side
would have if every empty cell were his (which sees runs that may still grow too long).
It is kept cheap: 8-bit masks per rank (Black's towers) and per file (White's), whose run
lengths a 256-entry table packs into one small int; prepare() builds the masks at the root
of a search and evaluate() adds only the stones placed since.  The bids are the search's
generic simultaneous choice.
Reads the rules' documented state (rhombus.py: _cells, 0 empty, 1 Black, 2 White, cell
i = rank * 8 + file; _hist, one int per action with the action in its low 7 bits; _s, the
stones to place, the side to act and the Current Line's next cell and direction).
"""
from array import array

from shared_rules.rhombus import LINE, score_counts

NODES = (133, 536, 3349)  # work budgets of easy, normal, hard (tests/bench/ai.py)

_NONE = 64  # rhombus._cur when no Line is under way


def _runs():
    """Per 8-bit mask, its runs packed: ones | twos << 6 | threes << 11 | fours << 16 |
    (cells in runs of 5+) << 20 (fields wide enough for the sum over 8 masks)."""
    t = array("i", range(256))  # 4 bytes an entry, not a list's 8 on a 64-bit port
    for m in range(256):
        v = run = 0
        for k in range(9):
            if k < 8 and m >> k & 1:
                run += 1
            elif run:
                v += (1, 1 << 6, 1 << 11, 1 << 16)[run - 1] if run < 5 else run << 20
                run = 0
        t[m] = v
    return t


_RUNS = _runs()
del _runs
# the root of the current search: [id of the game (not the game: it would stay alive
# after the search), history length, the last history entry then,
# then the masks at the root: Black's per rank, White's per file, Black-or-empty per rank,
# White-or-empty per file; then their packed runs: sb, sw, sbe, swe]
_root = [None, 0, None, None, None, None, None, 0, 0, 0, 0]
_masks = ([0] * 8, [0] * 8, [0] * 8, [0] * 8)  # the working copies
_sums = [0, 0, 0, 0]  # packed runs of the position evaluated last


def _combo(s):
    """A player's score from his packed runs (see rhombus.combination_score)."""
    return score_counts(s & 63, s >> 6 & 31, s >> 11 & 31, s >> 16 & 15, s >> 20)


def prepare(g):
    """Called by the search at its root: the masks of the position as it stands."""
    cells = g._cells
    bm, wm, bem, wem = [0] * 8, [0] * 8, [255] * 8, [255] * 8
    for i in range(64):
        c = cells[i]
        u, v = i & 7, i >> 3
        if c == 1:
            bm[v] |= 1 << u
            wem[u] &= ~(1 << v)
        elif c == 2:
            wm[u] |= 1 << v
            bem[v] &= ~(1 << u)
    r = _root
    n = len(g._hist)
    r[0], r[1], r[2] = id(g), n, g._hist[n - 1] if n else None
    r[3], r[4], r[5], r[6] = bm, wm, bem, wem
    for k in range(4):
        m = r[3 + k]
        r[7 + k] = (_RUNS[m[0]] + _RUNS[m[1]] + _RUNS[m[2]] + _RUNS[m[3]] + _RUNS[m[4]]
                    + _RUNS[m[5]] + _RUNS[m[6]] + _RUNS[m[7]])


def _update(g):
    """Fill _sums for g: the root's, plus the stones placed since the root, plus those still
    owed along the Current Line."""
    r = _root
    hist = g._hist
    n = r[1]
    if r[0] != id(g) or len(hist) < n or (n and hist[n - 1] != r[2]):
        prepare(g)
    bm, wm, bem, wem = _masks
    bm[:] = r[3]  # in place: nothing for the collector
    wm[:] = r[4]
    bem[:] = r[5]
    wem[:] = r[6]
    sb, sw, sbe, swe = r[7], r[8], r[9], r[10]
    runs, cells = _RUNS, g._cells
    i = r[1]
    s = g._s  # its fields (rhombus.py): stones to place at bits 6 and 9, side 12, cursor 14-21
    cur, step = s >> 14 & 127, -7 if s >> 21 & 1 else 7
    p = s >> 12 & 1
    left0, left1 = s >> 6 & 7, s >> 9 & 7
    while True:
        if i < len(hist):
            a = hist[i] & 127
            i += 1
            if a >= 64:
                continue
            c = cells[a]
        elif cur != _NONE and (left0 or left1) and g._result is None:
            a = cur
            n = a + step
            cur = n if 0 <= n < 64 and LINE[n] == LINE[a] else _NONE
            if p:
                c = 2
                left1 -= 1
                if not left1:
                    p = 0
            else:
                c = 1
                left0 -= 1
                if not left0:
                    p = 1
        else:
            break
        u, v = a & 7, a >> 3
        if c == 1:  # Black: his rank run grows, White's file loses a free cell
            old = bm[v]
            new = old | 1 << u
            bm[v] = new
            sb += runs[new] - runs[old]
            old = wem[u]
            new = old & ~(1 << v)
            wem[u] = new
            swe += runs[new] - runs[old]
        else:
            old = wm[u]
            new = old | 1 << v
            wm[u] = new
            sw += runs[new] - runs[old]
            old = bem[v]
            new = old & ~(1 << u)
            bem[v] = new
            sbe += runs[new] - runs[old]
    t = _sums
    t[0], t[1], t[2], t[3] = sb, sw, sbe, swe


def scores(g):
    """(Black's, White's) score of the board as it stands, owed stones placed."""
    _update(g)
    return _combo(_sums[0]), _combo(_sums[1])


def evaluate(g, p):
    """The score difference as it stands, blended 3:1 with the one it would be if every
    empty cell were one's own (long runs that may still grow into unusable towers)."""
    _update(g)
    t = _sums
    v = (3 * (_combo(t[0]) - _combo(t[1])) + _combo(t[2]) - _combo(t[3])) * 2 - 4
    return v if p == 0 else -v  # -4: Black needs strictly more
