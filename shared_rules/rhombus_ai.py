"""What the device opponent knows about Rhombus (see shared_rules/search.py).

The evaluation guesses the score at the end: every empty cell is given to one side or the
other by each of FILLS fixed random patterns, once the stones still owed along the Current
Line have gone where they must, and the score differences of the full boards are added up
(Black needs strictly more).  The board as it stands, or with every empty cell one side's,
foretells the end less well: the towers of a full board are what will be scored, and their
heights hang on cells not yet played, which no side can count on.
It is kept cheap: 8-bit masks per rank (Black's towers) and per file (White's), whose run
lengths a 256-entry table packs into one small int; prepare() builds the masks of each
pattern at the root of a search and evaluate() changes only those of the stones placed
since.  The bids are the search's generic simultaneous choice.
Reads the rules' public state, read-only (rhombus.py: cells, 0 empty, 1 Black, 2 White, cell
i = rank * 8 + file; hist, one int per action with the action in its low 7 bits; state, the
stones to place, the side to act and the Current Line's next cell and direction).
"""
from array import array

from shared_rules.rhombus import LINE
from shared_rules.search import Rng

NODES = (49, 100, 200, 1249)  # beginner, easy, normal, hard (tests/bench/ladder.py)
OVERLOOK = 60  # % of its moves the beginner overlooks (tests/bench/ladder.py spaces the levels)
UNIT = 20  # evaluate() of a few points: the scale of stonegrid replay --analyse's marks

_NONE = 64  # rhombus._cur when no Line is under way
FILLS = 8  # patterns: fewer foretell the end worse (at 230 units 6 won 57%, 8 won 77%)


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


def _patterns():
    """_BLACK[k * 8 + v]: the cells of rank v (bit u) that pattern k gives Black; the others
    are White's, as _WHITE[k * 8 + u] has them per file (bit v)."""
    rng = Rng(19)
    black = bytearray(8 * FILLS)
    white = bytearray(8 * FILLS)
    for k in range(FILLS):
        for i in range(64):
            u, v = i & 7, i >> 3
            if rng.below(2):
                black[k * 8 + v] |= 1 << u
            else:
                white[k * 8 + u] |= 1 << v
    return bytes(black), bytes(white)


_RUNS = _runs()
_BLACK, _WHITE = _patterns()
del _runs, _patterns
# the root of the current search: [id of the game (not the game: it would stay alive
# after the search), history length, the last history entry then,
# then each pattern's full board at the root, Black's ranks and White's files (8 masks per
# pattern), and their packed runs, Black's and White's per pattern]
_root = [None, 0, None, None, None, None, None]
_masks = ([0] * (8 * FILLS), [0] * (8 * FILLS))  # the working copies
_sums = ([0] * FILLS, [0] * FILLS)  # packed runs of the position evaluated last


def _sum8(m, at):
    """The packed runs of the 8 masks m[at:at + 8]."""
    return (_RUNS[m[at]] + _RUNS[m[at + 1]] + _RUNS[m[at + 2]] + _RUNS[m[at + 3]]
            + _RUNS[m[at + 4]] + _RUNS[m[at + 5]] + _RUNS[m[at + 6]] + _RUNS[m[at + 7]])


def prepare(g):
    """Called by the search at its root: the masks of the position as it stands."""
    cells = g.cells
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
    fb = [0] * (8 * FILLS)
    fw = [0] * (8 * FILLS)
    for k in range(0, 8 * FILLS, 8):
        for j in range(8):
            fb[k + j] = bm[j] | bem[j] & _BLACK[k + j]
            fw[k + j] = wm[j] | wem[j] & _WHITE[k + j]
    r = _root
    n = len(g.hist)
    r[0], r[1], r[2] = id(g), n, g.hist[n - 1] if n else None
    r[3], r[4] = fb, fw
    r[5] = [_sum8(fb, k) for k in range(0, 8 * FILLS, 8)]
    r[6] = [_sum8(fw, k) for k in range(0, 8 * FILLS, 8)]


def _update(g):
    """Fill _sums for g: the root's, changed by the stones placed since the root and by those
    still owed along the Current Line."""
    r = _root
    hist = g.hist
    n = r[1]
    if r[0] != id(g) or len(hist) < n or (n and hist[n - 1] != r[2]):
        prepare(g)
    fb, fw = _masks
    fb[:] = r[3]  # in place: nothing for the collector
    fw[:] = r[4]
    fsb, fsw = _sums
    fsb[:] = r[5]
    fsw[:] = r[6]
    runs, cells, black = _RUNS, g.cells, _BLACK
    i = r[1]
    s = g.state  # its fields (rhombus.py): stones to place at bits 6 and 9, side 12, cursor 14-21
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
        elif cur != _NONE and (left0 or left1) and g.to_move is not None:
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
        bu, bv = 1 << u, 1 << v
        other = 0 if c == 1 else bu  # a pattern that gave the cell to the other side
        for k in range(FILLS):
            j = k * 8
            if black[j + v] & bu == other:  # changes: the cell goes over to c, both masks
                old = fb[j + v]
                new = old ^ bu
                fb[j + v] = new
                fsb[k] += runs[new] - runs[old]
                old = fw[j + u]
                new = old ^ bv
                fw[j + u] = new
                fsw[k] += runs[new] - runs[old]


def evaluate(g, p):
    """The score differences of the patterns' full boards, added up (see the module text)."""
    _update(g)
    fsb, fsw = _sums
    v = 0
    for k in range(2 * FILLS):
        # rhombus.score_counts of the packed runs, inline: with m2, m3, m4 the least of
        # the counts of heights 1..2, 1..3, 1..4, the greedy combinations are worth
        # ones - 2 twos - 3 threes - 4 fours - cells in 5+ + 5 m2 + 8 m3 + 11 m4
        s = fsb[k] if k < FILLS else fsw[k - FILLS]
        a, m = s & 63, s >> 6 & 31
        x = a - 2 * m - 3 * (s >> 11 & 31) - 4 * (s >> 16 & 15) - (s >> 20)
        if a < m:
            m = a
        x += 5 * m
        a = s >> 11 & 31
        if a < m:
            m = a
        x += 8 * m
        a = s >> 16 & 15
        if a < m:
            m = a
        x += 11 * m
        v += x if k < FILLS else -x
    v -= FILLS >> 1  # Black needs strictly more: a tie is half a point short
    return v if p == 0 else -v
