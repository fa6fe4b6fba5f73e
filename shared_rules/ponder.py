"""Thinking on the other player's time: the device's reply to the line it expects a person
to play, searched while they think (app.play, between their presses).  Its own module: only
a game of a person against the device loads it."""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from shared_rules.search import DEFAULT, Rng, Search, budget

PONDER_MOST = const(4)  # a ponder's search goes this many times the level's budget at most


class Ponder:
    """Thinking on the other player's time, for p while the other is to act (not in games
    with secrets: their actions are not there to foresee).  It guesses the other's line,
    each action its search at the easy level, until p is to act, then searches p's reply to
    it with up to PONDER_MOST times `level`'s budget.  step(work) like a search's: True once
    there is nothing more to do.  Once p is to act in the real game, hit(game) gives that
    search if the other played the line guessed, allowed the level's budget more than it has
    done (as deep as it can go in the usual time), else None."""

    def __init__(self, game, p, ai, level=DEFAULT, seed=1):
        if game.SECRETS or game.to_move in (None, p):
            raise ValueError("nothing to ponder: the other player is not to act, or acts "
                             "in secret")
        self.p, self.ai, self.seed = p, ai, seed
        self.level, self.guess = budget(ai, level), budget(ai, "easy")
        self.first = game.plies()
        self.line = []  # the other's actions guessed so far
        self.reply = None  # p's search, once the line is guessed
        self.g = g = game.view_for(game.to_move)  # a copy: the line is played on it
        self.search = Search(g, g.to_move, ai, self.guess, Rng(seed))

    def step(self, work):
        s = self.search
        if s is None:
            return True
        if not s.step(work):
            return False
        if s is self.reply:  # the reply is as deep as a ponder goes
            self.search = None
            return True
        best = s.best
        self.search = s = None  # the guess's lists go before the next search makes its own
        g = self.g
        g.play(best)
        self.line.append(best)
        if g.result() is not None:
            self.search = None  # the line ends the game: no reply to find
        elif g.to_move == self.p:
            self.search = self.reply = Search(g, self.p, self.ai, PONDER_MOST * self.level,
                                              Rng(self.seed))
        else:  # the other acts again (a removal owed...): guess that too
            self.search = Search(g, g.to_move, self.ai, self.guess, Rng(self.seed))
        return False

    def hit(self, game):
        """p's search of the reply, if the other played the line guessed in `game` (where p
        is now to act), with the level's budget more than its work so far; else None."""
        r = self.reply
        if r is None or game.actions()[self.first:] != self.line:
            return None
        r.allow(min(r.budget, r.nodes + self.level))
        return r
