"""What the device opponent knows about GIPF (see shared_rules/search.py).

A player loses when he must push with an empty reserve; pieces on the board may come back to
the reserve through one's own rows, captured ones never do.  The search looks two plies deep
at once (FIRST_DEPTH): one ply only tells pushes apart by what they capture at once.
Reads the rules' public state, read-only (gipf.py: reserves, lost, totals, cells and the ray tables
RAY_SPOTS/RAY_START).
"""
from shared_rules.gipf import RAY_SPOTS, RAY_START, NRAYS as _NRAYS

NODES = (150, 150, 234, 1100)  # beginner, easy, normal, hard (tests/bench/ladder.py)
UNIT = 100  # evaluate() of a piece: the scale of stonegrid replay --analyse's marks
FIRST_DEPTH = 2  # my push and every answer to it, from the first iteration on


def evaluate(g, p):
    """The pieces each side still has in play (reserve and board: those captured are gone
    for good), p's minus the other's.  Weighing the board as much as the reserve proved
    best against the greedy player (tests/bench/ai.py: 97% with these weights, 79% with
    board pieces at a third of a reserve piece); running out of reserve is found by the
    search itself."""
    q = 1 - p
    lost, total = g.lost, g.totals
    return 100 * (total[p] - lost[p] - total[q] + lost[q])


_seen = bytearray(37)  # order()'s scratch: the empty spots already entered
_ENTRY = bytes(RAY_SPOTS[RAY_START[r]] for r in range(_NRAYS))  # the spot a push enters


def order(g, acts):
    """Pushes that move a chain first; of the pushes onto an empty spot only one per spot:
    they all leave the same position, whichever dot they come from.  In place."""
    n = len(acts)
    if not n or acts[0] >= _NRAYS:
        return acts
    cell, seen, entry = g.cells, _seen, _ENTRY
    k = 0
    for i in range(n):  # the chains to the front
        a = acts[i]
        if cell[entry[a]]:
            acts[i], acts[k] = acts[k], a
            k += 1
    j = k
    for i in range(k, n):  # then the first push onto each empty spot
        a = acts[i]
        s = entry[a]
        if not seen[s]:
            seen[s] = 1
            acts[j] = a
            j += 1
    for i in range(k, j):
        seen[entry[acts[i]]] = 0
    del acts[j:]
    return acts
