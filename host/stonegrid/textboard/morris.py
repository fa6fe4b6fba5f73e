"""Nine Men's Morris as text."""
from shared_rules.morris import PLAYERS, POINTS

EXAMPLES = "d7 (place a stone), d7-d6 (move one), xa1 (take one after a mill), d7-d6xa1 (a whole turn)"

_ART = """\
7 {a7}-----------{d7}-----------{g7}
  |           |           |
6 |   {b6}-------{d6}-------{f6}   |
  |   |       |       |   |
5 |   |   {c5}---{d5}---{e5}   |   |
  |   |   |       |   |   |
4 {a4}---{b4}---{c4}       {e4}---{f4}---{g4}
  |   |   |       |   |   |
3 |   |   {c3}---{d3}---{e3}   |   |
  |   |       |       |   |
2 |   {b2}-------{d2}-------{f2}   |
  |           |           |
1 {a1}-----------{d1}-----------{g1}
  a   b   c   d   e   f   g"""


def draw(g):
    marks = {}
    for i, name in enumerate(POINTS):
        owner = g.stone_at(i)
        marks[name] = "+" if owner is None else PLAYERS[owner][0]
    lines = [_ART.format(**marks), ""]
    lines += ["%s (%s): %d in hand, %d on the board" % (PLAYERS[p], PLAYERS[p][0], g.in_hand(p),
                                                        g.on_board(p)) for p in (0, 1)]
    if g.removals_pending():
        lines.append("A mill: take %d of the other side's stones (x and the point)"
                     % g.removals_pending())
    return "\n".join(lines)
