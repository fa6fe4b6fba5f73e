"""Choices made at the same time (a sealed bid): the search's matrix game, solved by
fictitious play (see shared_rules/search.py, "Hidden information").  A module of its own so
that only games with secrets (Rhombus) load it: the others keep its heap.  The search hands it
the Search class that values the cells, so that this module imports nothing of the search's.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_CLAMP = const(20000)  # matrix payoffs are clamped to this (wins included)
ROUNDS = const(64)  # fictitious-play rounds that solve a matrix game


class Simultaneous:
    """A choice made at the same time as the other player's (see the module text): rows are
    my actions, columns the other player's; each cell is valued by a short Search, then the
    matrix game is solved by fictitious play and my action is drawn from the result.

    g is positioned where the first of the two actions is chosen; mine_first says whose it
    is (mine: the other chooses without seeing it; theirs: it was hidden from me and undone).
    search: the class whose value mode values a cell (shared_rules.search.Search)."""

    def __init__(self, g, me, ai, nodes, rng, mine_first, search):
        self.g, self.me, self.ai, self.rng = g, me, ai, rng
        self.search = search
        self.mine_first = mine_first
        first = g.legal()
        g.play(first[0])
        second = g.legal()
        g.undo()
        self.rows, self.cols = (first, second) if mine_first else (second, first)
        n = len(self.rows) * len(self.cols)
        self.cell_budget = nodes // n if nodes >= 2 * n else 2
        self.pay = [0] * n
        self.cell = 0
        self.sub = None
        self.nodes = 0
        self.best = None
        self.value = 0
        self.mix = None  # my mixed strategy: a weight per row (they sum to ROUNDS)
        self.done = False

    def step(self, work=64):
        if self.done:
            return True
        g, n = self.g, len(self.pay)
        while work > 0:
            if self.sub is None:
                if self.cell == n:
                    self._solve()
                    self.done = True
                    return True
                i, j = divmod(self.cell, len(self.cols))
                if self.mine_first:
                    g.play(self.rows[i])
                    g.play(self.cols[j])
                else:
                    g.play(self.cols[j])
                    g.play(self.rows[i])
                self.nodes += 2
                work -= 2
                self.sub = self.search(g, self.me, self.ai, self.cell_budget, value_only=True,
                                  max_depth=1)
            sub = self.sub
            before = sub.nodes
            finished = sub.step(work if work > 0 else 1)
            work -= sub.nodes - before
            self.nodes += sub.nodes - before
            if finished:
                v = sub.value
                self.pay[self.cell] = _CLAMP if v > _CLAMP else -_CLAMP if v < -_CLAMP else v
                g.undo()
                g.undo()
                self.sub = None
                self.cell += 1
        return False

    def _solve(self):
        self.mix = mine = mixed(self.pay, len(self.rows), len(self.cols))
        pick = self.rng.below(ROUNDS)
        for i in range(len(mine)):
            pick -= mine[i]
            if pick < 0:
                break
        self.best = self.rows[i]


def mixed(pay, nr, nc):
    """An approximate optimal mixed strategy of the row player (who maximises) in the
    zero-sum matrix game pay[i * nc + j], by fictitious play: each side in turn answers the
    other's empirical mixture.  Returns how often each row was the answer: weights that add
    up to ROUNDS."""
    mine = [0] * nr
    gain = [0] * nr  # each row's payoff against the columns played so far
    loss = [0] * nc  # each column's payoff (to me) against the rows played so far
    r, worst = 0, None  # start from my maximin row
    for i in range(nr):
        w = min(pay[i * nc:i * nc + nc])
        if worst is None or w > worst:
            r, worst = i, w
    for _ in range(ROUNDS):
        mine[r] += 1
        base = r * nc
        c = 0
        for j in range(nc):
            loss[j] += pay[base + j]
            if loss[j] < loss[c]:
                c = j
        r = 0
        for i in range(nr):
            gain[i] += pay[i * nc + c]
            if gain[i] > gain[r]:
                r = i
    return mine
