"""GIPF as text: the hexagon with its columns upright, as the notation counts them."""
from shared_rules.gipf import NSPOTS, PLAYERS, name

EXAMPLES = ("e1-e2 (push from dot e1 onto spot e2), xb2-b5 (take the row b2..b5 when you "
            "must choose), e1-e2 xb2-e2 (a whole turn)")
_POINTS = 61  # spots 0..36, then the dots of the rim


def draw(g):
    rows = [[" "] * 38 for _ in range(17)]
    for i in range(_POINTS):
        c, n = ord(name(i)[0]) - 97, int(name(i)[1:])
        y = 16 - (2 * (n - 1) + abs(c - 4))  # columns a..i rise from the bottom rim
        if i >= NSPOTS:
            mark = "."
        else:
            owner = g.piece_at(i)
            mark = "+" if owner is None else PLAYERS[owner][0]
        rows[y][2 + 4 * c] = mark
        if n == 1:  # the first point of each column carries its name
            rows[y][3 + 4 * c:5 + 4 * c] = name(i)
    lines = ["".join(r).rstrip() for r in rows]
    lines += ["", "dots (.) on the rim, spots (+) inside; each column counts up from 1 at its "
              "lowest dot", ""]
    lines += ["%s (%s): %d in reserve, %d on the board, %d lost to captures"
              % (PLAYERS[p], PLAYERS[p][0], g.reserve(p), g.on_board(p), g.captured(p))
              for p in (0, 1)]
    if g.removal_pending():
        lines.append("Rows cross: %s chooses the row to take (x and its end spots)"
                     % PLAYERS[g.to_move])
    return "\n".join(lines)
