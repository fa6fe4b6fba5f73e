"""Mixtour as text: each square shows its stack, bottom first."""
from shared_rules.mixtour import PLAYERS

EXAMPLES = ("b2 (enter a piece), c4:3-d3 (move the top 3 pieces of c4 onto d3), a1-b2 (move "
            "one piece), pass (only when nothing else is legal)")


def draw(g):
    initial = [PLAYERS[p][0] for p in (0, 1)]
    lines = []
    for rank in range(4, -1, -1):
        cells = []
        for f in range(5):
            stack = "".join(initial[p] for p in g.stack(rank * 5 + f))
            cells.append("%-4s" % (stack or "."))
        lines.append(("%d  %s" % (rank + 1, " ".join(cells))).rstrip())
    lines += ["   " + "    ".join("abcde"), "",
              "stacks bottom first: the last letter is the top piece", ""]
    lines += ["%s (%s): %d in reserve, %d point%s" % (PLAYERS[p], initial[p], g.reserve(p),
                                                      g.score(p), "" if g.score(p) == 1 else "s")
              for p in (0, 1)]
    ban = g.restriction()
    if ban is not None:
        lines.append("Banned now (it would reverse the last move): %s" % g.text(ban))
    return "\n".join(lines)
