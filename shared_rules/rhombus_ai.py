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
from shared_rules.rhombus import LINE
from shared_rules.search import Rng, const

NODES = (49, 100, 200, 1249)  # beginner, easy, normal, hard (tests/bench/ladder.py)
OVERLOOK = 60  # % of its moves the beginner overlooks (tests/bench/ladder.py spaces the levels)
UNIT = 20  # evaluate() of a few points: the scale of stonegrid replay --analyse's marks

_NONE = const(64)  # rhombus._cur when no Line is under way
FILLS = const(8)  # patterns: fewer foretell the end worse (at 230 units 6 won 57%, 8 won 77%)
# _work: one list, so that _update() reaches it all through one local (its frame must fit in
# 11 words): _work[256 + m] the packed runs of mask m (_runs()); from _MASKS, 16 masks per
# pattern, White's 8 files then Black's 8 ranks, each kept as 256 + the mask: its runs' index;
# _work[i >> 3] the sum of the runs of the 8 masks from i, so that from _SUMS White's and
# Black's sums alternate.  The rest is unused.
_MASKS = const(256 - 16 * FILLS)
_SUMS = const(_MASKS >> 3)


def _runs():
    """_work with the run table: per 8-bit mask, its runs packed: ones | twos << 6 |
    threes << 11 | fours << 16 | (cells in runs of 5+) << 20 (fields wide enough for the sum
    over 8 masks)."""
    t = [0] * 512
    for m in range(256):
        v = run = 0
        for k in range(9):
            if k < 8 and m >> k & 1:
                run += 1
            elif run:
                v += (1, 1 << 6, 1 << 11, 1 << 16)[run - 1] if run < 5 else run << 20
                run = 0
        t[256 + m] = v
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


_work = _runs()
_BLACK, _WHITE = _patterns()
del _runs, _patterns
# the root of the current search: [id of the game (not the game: it would stay alive
# after the search), history length, the last history entry then,
# then _work's sums and masks for each pattern's full board at the root]
_root = [None, 0, None, None, None]


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
    t = _work
    for k in range(FILLS):
        i = _MASKS + 16 * k
        w = b = 0
        for j in range(8):
            t[i + j] = c = 256 | wm[j] | wem[j] & _WHITE[k * 8 + j]
            w += t[c]
            t[i + 8 + j] = c = 256 | bm[j] | bem[j] & _BLACK[k * 8 + j]
            b += t[c]
        t[i >> 3] = w
        t[(i >> 3) + 1] = b
    r = _root
    n = len(g.hist)
    r[0], r[1], r[2] = id(g), n, g.hist[n - 1] if n else None
    r[3], r[4] = t[_SUMS:_SUMS + 2 * FILLS], t[_MASKS:256]


def _update(g):
    """Set _work's sums for g: the root's, changed by the stones placed since the root and by
    those still owed along the Current Line."""
    # (a frame of 11 words, on the C stack: i counts on past the history, the owed stones,
    # and j, old, bit and e serve for several things in turn)
    i = _root[1]
    if _root[0] != id(g) or len(g.hist) < i or (i and g.hist[i - 1] != _root[2]):
        prepare(g)
        i = _root[1]
    t = _work
    t[_SUMS:_SUMS + 2 * FILLS] = _root[3]  # in place: nothing for the collector
    t[_MASKS:256] = _root[4]
    while True:
        old = i - len(g.hist)
        i += 1
        if old < 0:  # history entry i - 1: a placement since the root, or a bid
            j = g.hist[old] & 127
            if j >= 64:
                continue
            old = g.cells[j]  # the stone's side, 1 Black, 2 White
        else:  # the old-th stone still owed along the Current Line, if any; the state's fields
            # (rhombus.py): stones to place at bits 6 and 9, side 12, the Line's next cell 14-20
            # and direction 21
            j = g.state
            bit = j >> 14 & 127
            e = bit - 7 * old if j >> 21 & 1 else bit + 7 * old  # the old-th cell from bit
            if bit == _NONE or g.to_move is None or not 0 <= e < 64 or LINE[e] != LINE[bit]:
                break
            bit = j >> 12 & 1  # the side to place, its stones first, then the other's
            if old >= j >> 3 * bit + 6 & 7:
                old -= j >> 3 * bit + 6 & 7
                bit ^= 1
                if old >= j >> 3 * bit + 6 & 7:
                    break
            old = bit + 1
            j = e
        # the cell goes over to the stone's side in the patterns that gave it to the other:
        # j steps over the other's masks that hold it (16 a pattern), where it is bit; the
        # stone's side's is at j + e, where it is the bit j & 7
        if old == 1:
            bit = 1 << (j >> 3)
            e = 8 + (j >> 3) - (j & 7)
            j = _MASKS + (j & 7)
        else:
            bit = 1 << (j & 7)
            e = (j & 7) - (j >> 3) - 8
            j = _MASKS + 8 + (j >> 3)
        while j < 256:
            old = t[j]
            if old & bit:
                t[j] = old ^ bit
                old = t[t[j]] - t[old]
                t[j >> 3] += old
                old = t[j + e]
                t[j + e] = old ^ 1 << (j & 7)
                old = t[t[j + e]] - t[old]
                t[j + e >> 3] += old
            j += 16


def evaluate(g, p):
    """The score differences of the patterns' full boards, added up (see the module text)."""
    _update(g)
    v = 0
    k = _SUMS
    while k < _SUMS + 2 * FILLS:
        # White's and Black's sums alternate: v changes sign before each, to end as Black's
        # less White's.  rhombus.score_counts of the packed runs, inline: with m the least of
        # the counts of heights 1..2, 1..3, 1..4 in turn, the greedy combinations are worth
        # ones - 2 twos - 3 threes - 4 fours - cells in 5+ + 5 m + 8 m + 11 m
        s = _work[k]
        k += 1
        a = s & 63
        m = s >> 6 & 31
        v = a - v - m * 2 - (s >> 11 & 31) * 3 - (s >> 16 & 15) * 4 - (s >> 20)
        if a < m:
            m = a
        v += 5 * m
        a = s >> 11 & 31
        if a < m:
            m = a
        v += 8 * m
        a = s >> 16 & 15
        if a < m:
            m = a
        v += 11 * m
    v -= FILLS >> 1  # Black needs strictly more: a tie is half a point short
    return v if p == 0 else -v
