"""What the device opponent knows about GIPF (see shared_rules/search.py).

A player loses when he must push with an empty reserve; pieces on the board may come back to
the reserve through one's own rows, captured ones never do.  The search looks two plies deep
at once (FIRST_DEPTH): one ply only tells pushes apart by what they capture at once.
Reads the rules' documented state (gipf.py: _res, _lost, _total, _cell and the ray tables
_RAY_SPOTS/_RAY_START).
"""
from shared_rules.gipf import _RAY_SPOTS, _RAY_START, NRAYS as _NRAYS

NODES = (52, 234, 1439)  # work budgets of easy, normal, hard (tests/bench/ai.py)
FIRST_DEPTH = 2  # my push and every answer to it, from the first iteration on


def evaluate(g, p):
    """The pieces each side still has in play (reserve and board: those captured are gone
    for good), p's minus the other's.  Weighing the board as much as the reserve proved
    best against the greedy player (tests/bench/ai.py: 97% with these weights, 79% with
    board pieces at a third of a reserve piece); running out of reserve is found by the
    search itself."""
    q = 1 - p
    lost, total = g._lost, g._total
    return 100 * (total[p] - lost[p] - total[q] + lost[q])


_seen = bytearray(37)  # order()'s scratch: the empty spots already entered
_ENTRY = bytes(_RAY_SPOTS[_RAY_START[r]] for r in range(_NRAYS))  # the spot a push enters


def order(g, acts):
    """Pushes that move a chain first; of the pushes onto an empty spot only one per spot:
    they all leave the same position, whichever dot they come from.  In place."""
    n = len(acts)
    if not n or acts[0] >= _NRAYS:
        return acts
    cell, seen, entry = g._cell, _seen, _ENTRY
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
