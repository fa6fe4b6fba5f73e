"""What the device opponent knows about Nine Men's Morris (see shared_rules/search.py).

For speed it reads the rules' public state, read-only (morris.py: the two 24-bit boards
board, hand, men, pending, acting) instead of calling stone_at() 24 times per position.
"""
from shared_rules.morris import MILLS, MOVE, REMOVE

NODES = (68, 68, 353, 2100)  # beginner, easy, normal, hard (tests/bench/ladder.py)
OVERLOOK = 15  # % of its moves the beginner overlooks (tests/bench/ladder.py spaces the levels)
LOADS = ("morris_endgame",)  # by perfect(), once an endgame can arise
UNIT = 1000  # evaluate() of a stone: the scale of stonegrid replay --analyse's marks

_FULL = 0xFFFFFF
_BITS = bytes(bin(i).count("1") for i in range(256))  # set bits per byte


def _movable(own, empty):
    """How many of the stones in own have an empty neighbour.  The points go round each
    ring in eights (morris.POINTS), the odd ones joined to the same point of the next ring:
    a point's neighbours are one step round its ring and, at the odd ones, one ring in or
    out, so all of empty's neighbours are a few shifts (no loop over the points)."""
    near = (((empty << 1) & 0xFEFEFE) | ((empty >> 7) & 0x010101)
            | ((empty >> 1) & 0x7F7F7F) | ((empty & 0x010101) << 7)
            | ((empty & 0x00AAAA) << 8) | ((empty >> 8) & 0x00AAAA))
    x = own & near
    return _BITS[x & 255] + _BITS[x >> 8 & 255] + _BITS[x >> 16]


def evaluate(g, p):
    """Stones (a removal owed counted almost done), then closed mills and open twos (a mill
    one stone short with its third point empty), then threats: a hole of an open two that
    its owner can fill next (any while placing or flying, else from a neighbour outside that
    mill) is a mill closed if he acts next, and two such holes cannot both be blocked; then
    mobility: stones that can move, while moving (not flying), or that keep a free
    neighbour, while placing; then forks, while placing (_forks): the side acting next
    gains by one, and the side that waits by two (one can be taken away).  (Each side's
    share comes from _mills, in few locals: the frame stays on the C stack at every leaf of
    the search.)"""
    q = 1 - p
    v = (g.men[p] + g.hand[p] - g.men[q] - g.hand[q]) * 1000
    x = g.pending
    if x:
        v += x * 900 if g.acting == p else -x * 900
    x = 16 if (g.acting == p) != bool(x) else 0  # p acts next (after the removals owed, if any)
    e = ~(g.board[0] | g.board[1]) & _FULL
    t = _FULL if g.hand[p] or g.men[p] == 3 else 0
    t = _mills(g.board[p], e, t)
    v += t >> 7
    if g.hand[0] or g.hand[1]:  # placing: stones with free neighbours keep options
        v += (t >> 2 & 31) * 4
    elif g.men[p] > 3:  # moving, not flying
        v += (t >> 2 & 31) * 25
    x |= (t & 3) << 2
    t = _FULL if g.hand[q] or g.men[q] == 3 else 0
    t = _mills(g.board[q], e, t)
    v -= t >> 7
    if g.hand[0] or g.hand[1]:
        v -= (t >> 2 & 31) * 4
    elif g.men[q] > 3:
        v -= (t >> 2 & 31) * 25
    x |= t & 3
    if g.hand[p] > 1 or g.hand[q] > 1:  # placing, a fork still to be made
        t = _forks(g.board[p], g.board[q]) if g.hand[p] > 1 else 0
        e = _forks(g.board[q], g.board[p]) if g.hand[q] > 1 else 0
        if x & 16:  # p acts next: a fork of p's makes two open twos, one of them a mill
            v = ((600 if t else 0) - (300 if e & (e - 1) else 0)) + v
        else:
            v = ((300 if t & (t - 1) else 0) - (600 if e else 0)) + v
    return _THREAT[x] + v


# evaluate's threats by who acts next (16: p) | p's holes << 2 | the other's holes (0, 1, or
# 2 for two or more): a hole the side acting next fills is a mill; the other must hold two
_THREAT = tuple(((300 if hp else 0) - (150 if hq > 1 else 0)) if first else
                ((150 if hp > 1 else 0) - (300 if hq else 0))
                for first in (0, 1) for hp in range(4) for hq in range(4))


def _mills(own, e, reach):
    """evaluate's share of one side, packed: 30 a closed mill of own and 70 an open two
    (two stones and the third point empty, of the empty points e), << 7; the stones that can
    move, << 2; and the holes of open twos that own can fill next: 1 for one, 2 for two or
    more.  A hole is filled from a neighbour outside its mill, or from anywhere when placing
    or flying (reach: _FULL).  Bit-parallel as _thirds: a side mill is found at its
    midpoint c (corners c - 1 and c + 1 round the ring), a cross mill at its outer midpoint
    j (j, j + 8, j + 16).  (Sums are written `v = x + v`, each at most three values deep,
    for a frame of 11 words.)"""
    u = (own << 1) & 0xFEFEFE | (own >> 7) & 0x010101  # has c where own has c - 1
    d = (own >> 1) & 0x7F7F7F | (own & 0x010101) << 7  # has c where own has c + 1
    # open twos of side mills, with the hole at c + 1 (a corner, filled from c + 2), at c
    # (filled from the ring in or out) or at c - 1; t the midpoints, v all of them
    t = ((e >> 1) & 0x7F7F7F | (e & 0x010101) << 7) & u & own & 0xAAAAAA
    h = ((t << 1) & 0xFEFEFE | (t >> 7) & 0x010101) & (d | reach)
    v = t
    t = u & d & e & 0xAAAAAA
    h = ((own & 0xFFFF) << 8 | own >> 8 | reach) & t | h
    v |= t
    t = ((e << 1) & 0xFEFEFE | (e >> 7) & 0x010101) & own & d & 0xAAAAAA
    h = ((t >> 1) & 0x7F7F7F | (t & 0x010101) << 7) & (u | reach) | h
    t |= v
    v = _BITS[t >> 16]
    v = _BITS[t >> 8 & 255] + v
    v = _BITS[t & 255] + v
    # of cross mills, the hole filled from round its ring: at j, j + 8, j + 16
    t = own >> 8 & own >> 16 & e & 0xAA
    v = _BITS[t] + v
    h = (u | d | reach) & t | h
    t = own >> 16 & e >> 8 & own & 0xAA
    v = _BITS[t] + v
    h = (u | d | reach) & t << 8 | h
    t = own >> 8 & e >> 16 & own & 0xAA
    v = _BITS[t] + v
    h = (u | d | reach) & t << 16 | h
    # closed mills: side, then cross
    t = u & own & d & 0xAAAAAA
    v *= 70
    v = _BITS[t >> 16] * 30 + v
    v = _BITS[t >> 8 & 255] * 30 + v
    v = _BITS[t & 255] * 30 + v
    t = own >> 8 & own >> 16 & own & 0xAA
    v = _BITS[t] * 30 + v
    v = _movable(own, e) << 2 | v << 7
    return (2 if h & (h - 1) else 1 if h else 0) | v


def _forks(own, other):
    """The empty points where a stone of own would make two open twos at once (a fork):
    each in two mills that hold one stone of own and none of other."""
    one = two = 0  # the points in one such mill, in two
    for i in range(16):
        m = MILLS[i]  # (not `for m in MILLS`: its iterator is garbage on the device)
        x = own & m
        if x and not x & (x - 1) and not other & m:
            x ^= m  # the mill's two empty points
            two |= one & x
            one |= x
    return two


def _thirds(own, other):
    """The empty points that would complete a mill of `own` (two stones and a hole),
    bit-parallel like _movable: up(x) / down(x) hold x's stones one step on / back round
    their rings.  A side mill is corner, midpoint, corner round a ring; a cross mill the
    same midpoint of the three rings."""
    up = (own << 1) & 0xFEFEFE | (own >> 7) & 0x010101
    down = (own >> 1) & 0x7F7F7F | (own & 0x010101) << 7
    holes = (up & down & 0xAAAAAA  # a midpoint between two own corners
             | (((down >> 1) & 0x7F7F7F | (down & 0x010101) << 7) & down  # a corner before
                | ((up << 1) & 0xFEFEFE | (up >> 7) & 0x010101) & up) & 0x555555)  # or after two
    mid = own & 0xAAAAAA
    holes |= (mid >> 8 & mid >> 16 | (mid & 0xFFFF) << 8 & mid >> 8
              | (mid & 0xFFFF) << 8 & (mid & 0xFF) << 16) & 0xAAAAAA
    return holes & _FULL & ~(own | other)


def _order_removals(acts, mine, theirs):
    """The removals of stones in the other's open twos first, in place."""
    hot = 0  # the other's stones in open twos
    for i in range(len(MILLS)):
        y = theirs & MILLS[i]
        if y and y != MILLS[i] and y & (y - 1) and not mine & MILLS[i]:
            hot |= y
    _to_front(acts, 0, hot, 0)
    return acts


def order(g, acts):
    """Mill-closing actions first, then blocks of the other's open twos; removals of stones
    in the other's open twos first.  In place (no list is made: less for the collector)."""
    mine = g.board[g.acting]
    theirs = g.board[1 - g.acting]
    if acts and acts[0] >= REMOVE:
        return _order_removals(acts, mine, theirs)
    k = _to_front(acts, 0, _thirds(mine, theirs), mine)
    _to_front(acts, k, _thirds(theirs, mine), 0)
    return acts


def _to_front(acts, k, holes, mine):
    """Move the actions onto the points `holes` to the front of acts[k:], in place, and
    return where the rest begin; with `mine` (not 0), a move only where it closes a mill of
    mine without the stone that moves.  (A removal's point is found as a move's:
    REMOVE - MOVE is 24 * 24.)"""
    if holes:
        for i in range(k, len(acts)):
            a = acts[i]
            if holes >> (a if a < MOVE else (a - MOVE) % 24) & 1 and (
                    a < MOVE or not mine or _closes(mine, a)):
                acts[i] = acts[k]
                acts[k] = a
                k += 1
    return k


def _closes(mine, a):
    """Whether move a closes a mill of mine that does not need the stone that moves."""
    f = (a - MOVE) // 24  # no divmod: its tuple is garbage
    a = (a - MOVE) % 24
    for m in MILLS:
        if m >> a & 1 and not m >> f & 1 and m & ~(1 << a) == mine & m:
            return True
    return False


def perfect(g):
    """The action of best play when every turn from g ends the game or reaches a solved
    endgame (shared_rules/morris_endgame.py): the quickest win, else a draw, else the
    longest loss.  None elsewhere, without a table solved under g's rules, or in a heap too
    full for it (the search answers then, as it did before the table)."""
    if g.hand[0] or g.hand[1] or g.men[0] + g.men[1] > 8:
        return None
    try:
        from shared_rules import morris_endgame  # in the heap from the endgame on only

        table = morris_endgame.table()
        if table is None or not table.fits(g.options):
            return None
        best = value = None
        for a in g.legal():
            v = _after(g, a, table)
            if v is None:
                return None
            if value is None or v > value:
                best, value = a, v
        return best
    except MemoryError:
        return None


def _after(g, a, table):
    """What action a is worth to the side playing it, from the table (1000 less the plies
    to a win, the plies to a loss less 1000, 0 for a draw); None if it leads out of it."""
    p = g.acting
    g.play_unchecked(a)
    try:
        return _value_after(g, p, table)
    finally:  # a MemoryError on the way too leaves g as it was
        g.undo()


def _value_after(g, p, table):
    r = g.result()
    if r is not None:
        v = 0 if r[0] is None else 1000 if r[0] == p else -1000
    elif g.pending:  # a removal is owed: the best of them
        v = None
        for x in g.legal():
            w = _after(g, x, table)
            if w is None:
                v = None
                break
            if v is None or w > v:
                v = w
    else:
        q = g.acting
        found = table.value(g.board[q], g.board[1 - q])
        if found is None:
            v = None
        else:
            state, plies = found
            plies = 99 if plies is None else plies  # a 3-4 win: the table keeps no plies
            v = 0 if state == table.DRAWN else (
                plies - 1000 if state == table.WON else 1000 - plies)
    return v
