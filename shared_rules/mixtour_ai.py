"""What the device opponent knows about Mixtour (see shared_rules/search.py).

A stack whose top piece is yours, moved onto a stack as high as the distance to it, scores
when the two make five: such a move is a threat, and the side to act with one wins.
Reads the rules' public state, read-only (mixtour.py: board, one byte per square, height |
colours << 3 with bit k the owner of the k-th piece from the bottom; scores, goal, acting).
"""
from shared_rules.mixtour import STEP, PASS, move

NODES = (36, 36, 138, 200, 300, 650, 950)  # beginner, easy, normal, +1..+3, hard (ladder.py)
UNIT = 2000  # evaluate() of a point: the scale of stonegrid replay --analyse's marks

_HEIGHT = (0, 1, 3, 7, 12)  # worth of a stack you top, by height
_MOVE = move(0, 1, 0)  # the first move action
_PAIRS = move(0, 2, 0) - _MOVE  # the action step from n to n + 1 pieces


def _limits():
    """Nine bytes a square f, from 9f: the rays from f, longest first, each n << 4 | step + 8
    with n the squares it sees before the edge and step its square index step (STEP), then 0
    (only the opponent walks lines: the rules find moves with masks)."""
    lim = bytearray(225)
    for f in range(25):
        x, y = f % 5, f // 5
        e, w, n, s = 4 - x, x, 4 - y, y
        rays = [k << 4 | d + 8 for k, d in zip((e, w, n, s, min(e, n), min(e, s), min(w, n),
                                                 min(w, s)), STEP)]
        lim[9 * f:9 * f + 8] = bytes(sorted(rays, reverse=True))
    return lim


_LIM = _limits()
del _limits


def _threats(b):
    """Threats of White | threats of Red << 8: moves that would make a stack of five or
    more topped by the mover's piece."""
    # Few names, each reused, and short expressions: a frame above 11 words goes on the heap
    # at every call.
    c = 0  # White's threats + 256 * Red's (either has fewer than 256)
    for i in range(25):
        h = b[i] & 7
        if h:
            h = 5 - h << 4  # as _LIM's lengths: a threat needs a ray of 5 - h squares or more
            i *= 9  # i's rays in _LIM (the for loop counts on regardless)
            while True:
                n = _LIM[i]
                if n < h:  # too short, and so are the rest
                    break
                step = (n & 15) - 8
                n >>= 4
                t = i // 9
                while n:  # to the first stack on the ray
                    n -= 1
                    t += step
                    if b[t]:
                        n = (_LIM[i] >> 4) - n  # its distance
                        if b[t] & 7 == n and n << 4 >= h:  # as high as it is far: a threat
                            t = i // 9
                            t = b[t]
                            step = t & 7
                            t >>= step
                            if t & 4:  # the mover's top piece is Red's
                                c += 256
                            else:
                                c += 1
                        break
                i += 1
    return c


def evaluate(g, p):
    """Points (when more than one is needed to win), then threats: the side to act with one
    scores at once (so wins when one point is all it needs), two or more threats of the side
    that waits cannot all be parried; then the stacks each side tops, by height."""
    # Few names, each reused, and v = w + v rather than v += w in the loop (one value less on
    # the stack): a frame above 11 words goes on the heap at every call.
    b = g.board
    v = g.scores[p] - g.scores[1 - p]
    v = 2000 * (v if -30 < v < 30 else 30 if v > 0 else -30)  # |v| stays far below WIN
    h = _threats(b)
    if p:  # p's threats in the low byte, the other side's above
        h = h >> 8 | (h & 255) << 8
    if g.acting == p:
        if h & 255:
            return v + (30000 if g.goal - g.scores[p] == 1 else 1800)
        if h >> 8 > 1:
            v -= 1500
    else:
        if h >> 8:
            return v - (30000 if g.scores[1 - p] + 1 == g.goal else 1800)
        if h & 255 > 1:
            v += 1500
    v += ((h & 255) - (h >> 8)) * 300
    hw = _HEIGHT
    for i in range(25):
        i = b[i]  # the square's stack
        h = i & 7
        if h:
            if i >> h >> 2 & 1 == p:
                v = hw[h] + v
            else:
                v = -hw[h] + v
    return v


def order(g, acts):
    """Scoring moves of one's own colour first, then moves that top a stack of 3 or 4, then
    the rest (entries, small moves and the pass) as they come.  In place."""
    # Few names, each reused: a frame above 11 words goes on the heap at every call.
    b = g.board
    k = 0
    g = 10 | g.acting  # the level << 1 | the side to act: 5 (a score), then 3
    while g > 4:
        for i in range(k, len(acts)):
            a = acts[i] - _MOVE  # no divmod: its tuples are garbage on the device
            if 0 <= a < PASS - _MOVE and (b[a % 25] & 7) + a // _PAIRS + 1 >= g >> 1:
                a = b[a % _PAIRS // 25]  # the moved part's top is this stack's top
                if not (a >> (a & 7) + 2 ^ g) & 1:  # and its top piece is the side to act's
                    a = acts[i]
                    acts[i] = acts[k]
                    acts[k] = a
                    k += 1
        g -= 4
    return acts
