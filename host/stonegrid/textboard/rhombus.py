"""Rhombus as text: the board stands on its a1 corner, as the players see it."""
from shared_rules.rhombus import PLAYERS, cell_name

EXAMPLES = ("bid2 or 2 (your secret bid of 1 to 4 stones, typed unseen), e4 (place a stone), "
            "3:2 a1 b1 a2 c1 b2 (a whole turn)")


def ask(g):
    if g.bidding():
        return "your bid: how many stones, 1 to 4"
    return "a free cell for your stone (e.g. %s)" % (
        cell_name(g.next_cell()) if g.next_cell() is not None else "a1")


def understand(g, text):
    """A bid may be its number alone."""
    return "bid" + text if g.bidding() and text in ("1", "2", "3", "4") else text


def draw(g):
    initial = [PLAYERS[p][0] for p in (0, 1)]
    lines = []
    for k in range(14, -1, -1):  # Line k (file + rank = k) is one row of text, h8 on top
        row = [" "] * 33
        for f in range(8):
            r = k - f
            if 0 <= r < 8:
                owner = g.stone_at(r * 8 + f)
                row[2 + 2 * (f - r + 7)] = "." if owner is None else initial[owner]
        if k < 8:  # the lower edges: ranks up the left (a1..a8), files up the right (a1..h1)
            row[2 * (7 - k)] = str(k + 1)
            row[2 * (k + 7) + 4] = "abcdefgh"[k]
        lines.append("".join(row).rstrip())
    lines += ["", "a1 at the bottom, h1 right, a8 left, h8 on top; the Lines run across", ""]
    for p in (0, 1):
        bid = g.bid(p)
        said = {0: "no bid yet", -1: "has bid (secret)"}.get(bid, "bid %d" % bid)
        lines.append("%s (%s): %s, %d to place, score %d" % (PLAYERS[p], initial[p], said,
                                                             g.to_place(p), g.score(p)))
    if g.next_cell() is not None:
        lines.append("Next stone on %s (the Current Line)" % cell_name(g.next_cell()))
    elif not g.bidding() and g.result() is None:
        lines.append("The Current Line is full: any free edge cell")
    return "\n".join(lines)
