"""What the device opponent knows about Mixtour (see shared_rules/search.py).

A stack whose top piece is yours, moved onto a stack as high as the distance to it, scores
when the two make five: such a move is a threat, and the side to act with one wins.
Reads the rules' public state, read-only (mixtour.py: board, one byte per square, height |
colours << 3 with bit k the owner of the k-th piece from the bottom; scores, goal, acting).
"""
from shared_rules.mixtour import STEP, PASS, move

NODES = (36, 36, 138, 670)  # beginner, easy, normal, hard (tests/bench/ladder.py)
UNIT = 2000  # evaluate() of a point: the scale of stonegrid replay --analyse's marks

_HEIGHT = (0, 1, 3, 7, 12)  # worth of a stack you top, by height
_MOVE = move(0, 1, 0)  # the first move action
_PAIRS = move(0, 2, 0) - _MOVE  # the action step from n to n + 1 pieces


def _limits():
    """Byte 8f+d: how many squares square f sees in direction d before the edge (only the
    opponent walks lines: the rules find moves with masks)."""
    lim = bytearray(200)
    for f in range(25):
        x, y = f % 5, f // 5
        e, w, n, s = 4 - x, x, 4 - y, y
        lim[8 * f:8 * f + 8] = bytes((e, w, n, s, min(e, n), min(e, s), min(w, n), min(w, s)))
    return lim


_LIM = _limits()
del _limits


def _threats(b):
    """Threats of White | threats of Red << 8: moves that would make a stack of five or
    more topped by the mover's piece."""
    t0 = t1 = 0
    lim = _LIM
    for f in range(25):
        v = b[f]
        h = v & 7
        if h < 1:
            continue
        need = 5 - h  # the target must be at least this high (and as high as its distance)
        for d in range(8):
            n = lim[8 * f + d]
            if n < need:
                continue
            t = f
            step = STEP[d]
            for k in range(1, n + 1):
                t += step
                w = b[t]
                if w:
                    if w & 7 == k and k >= need:
                        if v >> (2 + h) & 1:
                            t1 += 1
                        else:
                            t0 += 1
                    break
    return t0 | t1 << 8


def evaluate(g, p):
    """Points (when more than one is needed to win), then threats: the side to act with one
    scores at once (so wins when one point is all it needs), two or more threats of the side
    that waits cannot all be parried; then the stacks each side tops, by height."""
    b, score, q = g.board, g.scores, 1 - p
    d = score[p] - score[q]
    v = 2000 * (d if -30 < d < 30 else 30 if d > 0 else -30)  # |v| stays far below WIN
    t = _threats(b)
    mine, theirs = (t >> 8, t & 255) if p else (t & 255, t >> 8)
    if g.acting == p:
        if mine:
            return v + (30000 if g.goal - score[p] == 1 else 1800)
        if theirs > 1:
            v -= 1500
    else:
        if theirs:
            return v - (30000 if g.goal - score[q] == 1 else 1800)
        if mine > 1:
            v += 1500
    v += 300 * (mine - theirs)
    hw = _HEIGHT
    for i in range(25):
        x = b[i]
        h = x & 7
        if h:
            if x >> (2 + h) & 1 == p:
                v += hw[h]
            else:
                v -= hw[h]
    return v


def order(g, acts):
    """Scoring moves of one's own colour first, then moves that top a stack of 3 or 4, then
    the rest (entries, small moves and the pass) as they come.  In place."""
    b = g.board
    p = g.acting
    n = len(acts)
    k = 0
    for level in (5, 3):
        for i in range(k, n):
            a = acts[i]
            if a < _MOVE or a == PASS:
                continue
            m, r = divmod(a - _MOVE, _PAIRS)
            f, t = divmod(r, 25)
            v = b[f]
            # the moved part's top is f's top
            if v >> (2 + (v & 7)) & 1 == p and (b[t] & 7) + m + 1 >= level:
                acts[i], acts[k] = acts[k], a
                k += 1
    return acts
