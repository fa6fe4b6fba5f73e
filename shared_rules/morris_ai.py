"""What the device opponent knows about Nine Men's Morris (see shared_rules/search.py).

For speed it reads the rules' public state, read-only (morris.py: the two 24-bit boards
board, hand, men, pending, acting) instead of calling stone_at() 24 times per position.
"""
from shared_rules.morris import MILLS, MOVE, REMOVE

NODES = (68, 68, 350, 1750)  # beginner, easy, normal, hard (tests/bench/ladder.py)
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
            | ((empty >> 1) & 0x7F7F7F) | ((empty << 7) & 0x808080)
            | ((empty << 8) & 0xAAAA00) | ((empty >> 8) & 0x00AAAA))
    x = own & near
    return _BITS[x & 255] + _BITS[x >> 8 & 255] + _BITS[x >> 16]


def evaluate(g, p):
    """Stones (a removal owed counted almost done), then closed mills and open twos (a mill
    one stone short with its third point empty), then threats: a hole of an open two that
    its owner can fill next (any while placing or flying, else from a neighbour outside that
    mill) is a mill closed if he acts next, and two such holes cannot both be blocked; then
    mobility: stones that can move, while moving (not flying), or that keep a free
    neighbour, while placing."""
    q = 1 - p
    b, hand, men = g.board, g.hand, g.men
    mine, theirs = b[p], b[q]
    v = (men[p] + hand[p] - men[q] - hand[q]) * 1000
    owed = g.pending
    if owed:
        v += owed * 900 if g.acting == p else -owed * 900
    jump_p = hand[p] or men[p] == 3  # reaches any hole
    jump_q = hand[q] or men[q] == 3
    holes_p = holes_q = 0  # the holes each side can fill next
    for m in MILLS:
        x = mine & m
        y = theirs & m
        if not y:
            if x == m:
                v += 30
            elif x & (x - 1):
                v += 70
                h = m & ~x
                if jump_p or _movable(mine & ~m, h):
                    holes_p |= h
        elif not x:
            if y == m:
                v -= 30
            elif y & (y - 1):
                v -= 70
                h = m & ~y
                if jump_q or _movable(theirs & ~m, h):
                    holes_q |= h
    # a hole the side acting next fills is a mill; the other must hold two to get one
    if (g.acting == p) != bool(owed):  # p acts next (after the removals owed, if any)
        v += (300 if holes_p else 0) - (150 if holes_q & (holes_q - 1) else 0)
    else:
        v += (150 if holes_p & (holes_p - 1) else 0) - (300 if holes_q else 0)
    empty = _FULL & ~(mine | theirs)
    if not hand[p] and not hand[q]:  # moving: mobility, unless flying
        if men[p] > 3:
            v += 25 * _movable(mine, empty)
        if men[q] > 3:
            v -= 25 * _movable(theirs, empty)
    else:  # placing: stones with free neighbours keep options for the moving phase
        v += 4 * (_movable(mine, empty) - _movable(theirs, empty))
    return v


def _thirds(own, other):
    """The empty points that would complete a mill of `own` (two stones and a hole),
    bit-parallel like _movable: up(x) / down(x) hold x's stones one step on / back round
    their rings.  A side mill is corner, midpoint, corner round a ring; a cross mill the
    same midpoint of the three rings."""
    up = (own << 1) & 0xFEFEFE | (own >> 7) & 0x010101
    down = (own >> 1) & 0x7F7F7F | (own << 7) & 0x808080
    holes = (up & down & 0xAAAAAA  # a midpoint between two own corners
             | (((down >> 1) & 0x7F7F7F | (down << 7) & 0x808080) & down  # a corner before
                | ((up << 1) & 0xFEFEFE | (up >> 7) & 0x010101) & up) & 0x555555)  # or after two
    mid = own & 0xAAAAAA
    holes |= (mid >> 8 & mid >> 16 | mid << 8 & mid >> 8 | mid << 8 & mid << 16) & 0xAAAAAA
    return holes & _FULL & ~(own | other)


def _order_removals(acts, mine, theirs):
    """The removals of stones in the other's open twos first, in place."""
    hot = 0  # the other's stones in open twos
    for m in MILLS:
        y = theirs & m
        if y and y != m and y & (y - 1) and not mine & m:
            hot |= y
    k = 0
    for i in range(len(acts)):
        a = acts[i]
        if hot >> (a - REMOVE) & 1:
            acts[i], acts[k] = acts[k], a
            k += 1
    return acts


def order(g, acts):
    """Mill-closing actions first, then blocks of the other's open twos; removals of stones
    in the other's open twos first.  In place (no list is made: less for the collector)."""
    p = g.acting
    mine, theirs = g.board[p], g.board[1 - p]
    n = len(acts)
    if n and acts[0] >= REMOVE:
        return _order_removals(acts, mine, theirs)
    close = _thirds(mine, theirs)
    k = 0
    if close:
        for i in range(n):
            a = acts[i]
            if a >= MOVE:
                t = (a - MOVE) % 24
                if not close >> t & 1:
                    continue
                f = (a - MOVE) // 24  # no divmod before: its tuple is garbage for most moves
                for m in MILLS:  # the mill must not need the stone that moves
                    if m >> t & 1 and not m >> f & 1 and mine & m == m & ~(1 << t):
                        break
                else:
                    continue
            elif not close >> a & 1:
                continue
            acts[i], acts[k] = acts[k], a
            k += 1
    block = _thirds(theirs, mine)
    if block:
        for i in range(k, n):
            a = acts[i]
            t = a if a < MOVE else (a - MOVE) % 24
            if block >> t & 1:
                acts[i], acts[k] = acts[k], a
                k += 1
    return acts


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
