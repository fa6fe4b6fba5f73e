"""`stonegrid replay --analyse`: the device's search, given more work than any level, looks at
every position of a game and marks the action played by the evaluation it threw away.

Each position is searched once, for its best action and its value; the action played is
worth the value of the position after it.  Where the two searches disagree on a forced end,
both are searched again with more work.  The loss is measured in the game's unit (its
companion's UNIT: a Morris stone, a GIPF piece, a Mixtour point, a few Rhombus points): under
a hundredth of one is as good as the best, under a quarter good, under one an inaccuracy, a
whole one or more a blunder; and so is a forced loss walked into, or a forced win given away
(an inaccuracy where the position after is still two units up: a longer win, perhaps, beyond
what the search sees).
Actions the search would play a matrix game for (a Rhombus bid, made without seeing the
other's) are not marked.  Deterministic: the budgets are units of work and the seeds the
ply, so the same file gives the same marks on every machine.
"""
from shared_rules import search

from stonegrid import records

WORK = 3  # times the hard level's budget, per search
AGAIN = 4  # times that, where two searches disagree on a forced end
MARKS = ("best", "good", "inaccuracy", "blunder")
SOLVED = search.WIN // 2  # a value beyond this is a forced end the search saw


class Mark:
    """What the analysis says of one action: the best action and the value of the position
    before it, the evaluation the action played threw away (0 or more), its mark."""

    def __init__(self, ply, side, action, best, value, loss, mark):
        self.ply, self.side, self.action, self.best = ply, side, action, best
        self.value, self.loss, self.mark = value, loss, mark


def _search(h, p, ai, nodes, seed):
    """(best action, value) for p at h: the plain search (no endgame table, which gives an
    action but no value), seen as p may see it."""
    s = search.Search(h.view_for(p), p, ai, nodes, search.Rng(seed), value_only=True)
    while not s.step(4096):
        pass
    return s.best, s.value


def _mark(before, after, unit):
    """The mark of an action that took p's value from `before` (the best line's) to `after`:
    a forced loss walked into is a blunder, and so is a forced win given away, unless the
    position after is still won by two units or more (a longer win, perhaps, beyond what
    the search sees: an inaccuracy)."""
    if after <= -SOLVED < before:
        return MARKS[3]
    if before >= SOLVED > after:
        return MARKS[2] if after >= 2 * unit else MARKS[3]
    loss = before - after
    return MARKS[0] if 100 * loss < unit else MARKS[1] if 4 * loss < unit else \
        MARKS[2] if loss < unit else MARKS[3]


def analyse(header, g, advance=lambda n: None):
    """[Mark or None (not marked)] for each action of g; advance(1) after each position.
    Each position is searched once: an action's value is that of the position after it."""
    ai = search.load_ai(header["game"])
    unit = getattr(ai, "UNIT", 100)
    nodes = WORK * search.budget(ai, "hard")
    h = records.fresh(header, g)
    seen = []  # (side, best, value, matrix game) of each position, the last one's included
    for ply, a in enumerate(g.actions() + [None]):
        r = h.result()
        if r is not None:
            seen.append((None, None, r, False))
            break
        p = h.to_move
        # a matrix game only where there are secrets (start() says; it costs a search's set-up)
        matrix = h.SECRETS and not isinstance(search.start(h, p, ai, nodes=1, seed=ply),
                                              search.Search)
        best, value = _search(h, p, ai, nodes, ply)
        seen.append((p, best, value, matrix))
        advance(1)
        if a is not None:
            h.play(a)
    out = []
    h = records.fresh(header, g)
    for ply, a in enumerate(g.actions()):
        p, best, before, matrix = seen[ply]
        q, _, after, _ = seen[ply + 1] if ply + 1 < len(seen) else (None, None, None, False)
        if q is None:  # the game ended with this action
            after = search.WIN if after and after[0] == p else \
                -search.WIN if after and after[0] is not None else 0
        else:
            if q != p:
                after = -after
            if (before >= SOLVED) != (after >= SOLVED) or (before <= -SOLVED) != (
                    after <= -SOLVED):  # one search saw a forced end, the other not: look again
                before = _search(h, p, ai, AGAIN * nodes, ply)[1]
                h.play(a)
                after = _search(h, p, ai, AGAIN * nodes, ply + 1)[1]
                h.undo()
        h.play(a)
        if matrix:
            out.append(None)
        else:
            mark = MARKS[0] if a == best else _mark(before, after, unit)
            out.append(Mark(ply, p, a, best, before, max(0, before - after), mark))
    return out


def _outcome(value, side, names):
    """The forced end a value from `side`'s view says, or ''."""
    if abs(value) < SOLVED:
        return ""
    plies = search.WIN - abs(value)
    winner = side if value > 0 else 1 - side
    return "solved: %s wins in %d plies" % (names[winner], plies)


def report(header, g, marks):
    """The text of the analysis: every action with its mark, then the turning points."""
    names = records.player_names(header["game"])
    unit = float(getattr(search.load_ai(header["game"]), "UNIT", 100))
    h = records.fresh(header, g)
    lines = []
    turning = []
    for m, a in zip(marks, g.actions()):
        text = h.text(a)
        if m is None:
            lines.append("%4d  %-6s %-14s (not marked: chosen without seeing the other's)"
                         % (h.plies() + 1, names[h.to_move], text))
        else:
            note = "" if m.mark == MARKS[0] else "better %s %s" % (
                h.text(m.best), "wins by force" if m.value >= SOLVED > m.value - m.loss else
                "avoids the loss" if m.value > -SOLVED >= m.value - m.loss else
                "(%.2f less)" % (m.loss / unit))
            solved = _outcome(m.value, m.side, names)
            lines.append(("%4d  %-6s %-14s %-10s %s" % (
                m.ply + 1, names[m.side], text, m.mark,
                "; ".join(x for x in (note, solved) if x))).rstrip())
            if m.mark in MARKS[2:]:
                turning.append("  ply %d, %s: %s, a%s %s; better %s" % (
                    m.ply + 1, names[m.side], text, "n" if m.mark[0] == "i" else "", m.mark,
                    h.text(m.best)))
        h.play(a)
    counts = ", ".join("%d %s" % (sum(1 for m in marks if m and m.mark == k), k)
                       for k in MARKS)
    return "\n".join(lines + ["", "marks: " + counts,
                              "turning points:" if turning else "turning points: none"]
                     + turning) + "\n"
