"""What the device opponent knows about GIPF (see shared_rules/search.py).

A player loses when he must push with an empty reserve; pieces on the board may come back to
the reserve through one's own rows, captured ones never do.  The search looks two plies deep
at once (FIRST_DEPTH): one ply only tells pushes apart by what they capture at once.
Reads the rules' public state, read-only (gipf.py: reserves, lost, totals, cells and the ray tables
RAY_SPOTS/RAY_START).
"""
from shared_rules.gipf import RAY_SPOTS, RAY_START, NRAYS as _NRAYS

NODES = (150, 150, 308, 600, 1000, 1500)  # beginner, easy, normal, normal+1, +2, hard (ladder.py)
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


_ENTRY = bytes(RAY_SPOTS[RAY_START[r]] for r in range(_NRAYS))  # the spot a push enters


def order(g, acts):
    """Pushes that move a chain first; of the pushes onto an empty spot only one per spot:
    they all leave the same position, whichever dot they come from.  In place."""
    if not acts or acts[0] >= _NRAYS:
        return acts
    return _order(g.cells, acts)


def _order(cell, acts):
    # (apart from order: a frame of 11 words, on the C stack, at every node of the search;
    # x is an action in the first loop, then a spot)
    entry = _ENTRY
    j = 0
    for i in range(len(acts)):  # the chains to the front
        x = acts[i]
        if cell[entry[x]]:
            acts[i] = acts[j]
            acts[j] = x
            j += 1
    for i in range(j, len(acts)):  # then the first push onto each empty spot, marked 3
        x = entry[acts[i]]
        if not cell[x]:
            cell[x] = 3
            acts[j] = acts[i]
            j += 1
    for i in range(j):  # the spots marked are empty again
        x = entry[acts[i]]
        if cell[x] == 3:
            cell[x] = 0
    del acts[j:]
    return acts
