"""The device opponent: one lean search for every game, through the game API only.

Alpha-beta with iterative deepening over atomic actions, on one copy of the game (play/undo,
no tree of objects), as an explicit stack so that it can stop after any amount of work and go
on later: the app awaits between steps.  A turn of several actions by one player (Morris
removals, GIPF row choices, where the side to act may even be the player who did not push) is
simply several plies: each node maximises when the side to act is the searching player and
minimises otherwise; nothing assumes that the players alternate.

What is game-specific lives in a companion module per game, shared_rules/<game>_ai.py, which
only the opponent imports (human-vs-human games do not pay its memory):
  evaluate(g, p) -> int    the position from p's point of view, |value| < 100000; it may be
                           asked in the middle of a turn (e.g. with a removal owed)
  order(g, acts) -> list   optional: acts (a fresh legal() list) best-first; it must not
                           depend on sort stability (MicroPython's sort is not stable), so
                           that the search is the same on every runtime
  NODES = (beginner, easy, normal, [normal+1, ...], hard)   optional: the work budgets of
                           the levels; budgets between normal's and hard's add steps to
                           the ladder (see levels())
  OVERLOOK = percent       optional: the share of its moves the beginner overlooks
  FIRST_DEPTH = n          optional: plies of the first iteration when the budget allows
  prepare(g)               optional: called at the root of every search, before any
                           evaluate(), e.g. to cache what evaluate() then updates cheaply
  perfect(g) -> action     optional: the best action where the game is solved (Morris
                           endgames: shared_rules/morris_endgame.py), else None; the
                           search then plays it without searching
  LOADS = (name, ...)      optional: the shared_rules modules it imports only when
                           needed (the app lets go of them with it at a game's end)

Work is counted in units: one unit per action played and one per evaluate().  Inside the
search, actions taken from legal() are played with the game's play_unchecked(a) (core.Game's
contract: play() without its legality check).  A level is a budget of units, not of time,
so the device plays the same moves on every runtime and at any speed; tests/bench/ai.py
translates budgets into think time on an RP2040.

Hidden information, generically (games whose Game.SECRETS is True): the search only ever
sees game.view_for(p).  When the last
action(s) of that view are hidden (view.hidden() > 0), it undoes them and tries every
alternative; when the searching player's own action would be hidden from the other player
(playing it makes hidden() > 0), the other player's reply is made without seeing it.  Either
way the two choices are simultaneous in effect: a small matrix game (my actions x theirs,
each cell valued by a short search) is solved approximately and the action is drawn from the
mixed strategy (shared_rules/simultaneous.py, which only games with secrets load).  The
choice therefore never depends on the secret.

Deterministic for a given seed: a tiny PRNG below 2^30 (identical on every runtime and cheap
on the device), no hashing of objects, no reliance on sort stability.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

LEVELS = ("beginner", "easy", "normal", "hard")  # every game's; the top is always "hard"
DEFAULT = "normal"
STEP = "normal+"  # the steps a game adds between normal and hard: "normal+1", "normal+2"...
# The beginner, like a newcomer, overlooks some of its moves: it chooses the best of the
# others (the seed decides which; OVERLOOK how many), and never from a solved endgame's table.
BEGINNER = "beginner"
NODES = (60, 60, 300, 1500)  # budgets when the companion module does not give its own
OVERLOOK = 50  # the share of its moves (%) the beginner overlooks, unless the companion says

WIN = const(1000000)  # a won position is worth WIN - plies to get there
INF = const(1000000000)  # below 2^30: a small int on every runtime
MAX_PLIES = const(32)  # plies from the root, forced-move extensions included


class Rng:
    """A linear congruential generator modulo 2^30 (multiplier 32749, increment 12345: full
    period), computed in 15-bit halves so that no intermediate reaches 2^30."""

    def __init__(self, seed=1):
        self.x = seed & 0x3FFFFFFF
        for _ in range(4):  # near seeds give far apart numbers from the first on
            self.below(2)

    def below(self, n):
        """The next number in 0..n-1 (n <= 32768), from the generator's high bits."""
        x = self.x
        t = 32749 * (x & 0x7FFF) + 12345
        x = ((32749 * (x >> 15) + (t >> 15)) & 0x7FFF) << 15 | (t & 0x7FFF)
        self.x = x
        return (x >> 15) * n >> 15


def levels(ai):
    """A game's levels, weakest first: LEVELS, with a step between normal and hard for each
    budget its companion's NODES has beyond four.  Where the hard level, the strongest that
    fits the chip's time, is far above the normal one (whose time is held), the steps keep
    each level about two wins in three above the one below (tests/bench/ladder.py)."""
    steps = len(getattr(ai, "NODES", NODES)) - len(LEVELS)
    return LEVELS[:3] + tuple(STEP + str(k) for k in range(1, steps + 1)) + LEVELS[3:]


def budget(ai, level=DEFAULT):
    """The work units of a level for a game (its companion module may set NODES)."""
    names = levels(ai)
    if level not in names:
        raise ValueError("level is one of %s, not %r" % (", ".join(names), level))
    return getattr(ai, "NODES", NODES)[names.index(level)]


def load_ai(game_id):
    """The companion module shared_rules/<game>_ai.py."""
    name = game_id + "_ai"
    return getattr(__import__("shared_rules." + name), name)


class Search:
    """Alpha-beta with iterative deepening on game g (which it plays and undoes, and leaves as
    it found it), for player me.  Call step(work) until it returns True; then `best` is the
    chosen action (None in value mode or with nothing to choose) and `value` its value for me.

    value_only: do not stop early on a single legal action; the root may be any player's
    (used to value the cells of a matrix game).  Work done so far: `nodes`; deepest iteration
    completed: `depth`."""

    def __init__(self, g, me, ai, nodes, rng=None, value_only=False, max_depth=MAX_PLIES,
                 overlook=False):
        self.g, self.me, self.ai = g, me, ai
        self.budget = nodes
        self.max_iter = max_depth  # the deepest iteration (plies, forced actions free)
        self.nodes = 0
        self.depth = 0
        self.best = None
        self.value = 0
        self.done = False
        # per frame (one per ply from the root), grown on demand (see _grow):
        self._acts = [None]  # the actions, best-first
        self._idx = [0]  # next action to try
        self._lo = [0]  # alpha
        self._hi = [0]  # beta
        self._val = [0]  # best value so far
        self._arg = [None]  # best action so far
        self._max = [False]  # the side to act there is me
        self._rem = [0]  # plies left before the horizon
        self._killer = [None]  # an action that cut off at this depth
        self._d = -1  # the frame being searched; -1 between iterations
        self._cut = False  # the iteration met the horizon (a deeper one may differ)
        prepare = getattr(ai, "prepare", None)
        if prepare is not None:
            prepare(g)
        # an action that the next player answers without seeing it ends a line of play:
        # the position after it is evaluated (only the root treats it as a matrix game)
        self._secret = g.SECRETS
        r = g.result()
        if r is not None:  # (step() answers at once)
            self.value = _terminal(r, me, 0)
            self.done = True
            return
        perfect = getattr(ai, "perfect", None)
        if perfect is not None and not value_only and not overlook:
            a = perfect(g)
            if a is not None:  # a solved position: its best action, no search
                self.best, self.done = a, True
                return
        acts = g.legal()
        if rng is not None:  # equal actions: the seed decides
            for i in range(len(acts) - 1, 0, -1):
                j = rng.below(i + 1)
                acts[i], acts[j] = acts[j], acts[i]
        if overlook:  # the beginner's (see BEGINNER)
            del acts[max(1, len(acts) - len(acts) * getattr(ai, "OVERLOOK", OVERLOOK) // 100):]
        acts = getattr(ai, "order", _as_given)(g, acts)
        self._acts[0] = acts
        self._max[0] = g.to_move == me
        # the first iteration may go deeper at once when the budget can pay for it (about
        # one reply to every action and all the replies to one): the shallow one is the cost
        self._skip = 1
        deep = getattr(ai, "FIRST_DEPTH", 1)
        if deep > 1 and nodes >= 3 * len(acts):
            self._skip = deep
        if value_only:  # the answer if the budget runs out before one iteration is done
            self.value = ai.evaluate(g, me)
            self.nodes = 1
        elif len(acts) == 1:
            self.best = acts[0]
            self.done = True

    def step(self, work=64):
        """Search on for at most about `work` units; True once the answer is ready.  The
        tree is walked with play/undo on one game, a frame per ply (see __init__)."""
        g, me = self.g, self.me
        do = g.play_unchecked  # no legality check: the actions come from legal()
        evaluate, order = self.ai.evaluate, getattr(self.ai, "order", _as_given)
        acts, idx, lo, hi = self._acts, self._idx, self._lo, self._hi
        val, arg, ismax, rem, killer = self._val, self._arg, self._max, self._rem, self._killer
        d, nodes = self._d, self.nodes
        stop, budget = nodes + work, self.budget
        top = MAX_PLIES
        secret = self._secret
        while True:
            if d < 0:  # done, or a new iteration one ply deeper
                if self.done or nodes >= budget or self.depth >= self.max_iter:
                    self._finish(-1, nodes)
                    return True
                self._begin_iteration()
                d = 0
            la = acts[d]
            i = idx[d]
            if i < len(la) and lo[d] < hi[d]:
                if nodes >= budget or nodes >= stop:
                    if nodes >= budget:
                        self._finish(d, nodes)
                        return True
                    self._d, self.nodes = d, nodes
                    return False
                a = la[i]
                idx[d] = i + 1
                do(a)
                nodes += 1
                r = g.result()
                left = rem[d] - 1 if len(la) > 1 else rem[d]  # a forced action is free
                if r is not None:
                    v = _terminal(r, me, d + 1)
                elif secret and g.hidden():
                    # the actions here are answered unseen (a sealed bid): no line of play
                    # through them means anything, so this node is a leaf, valued once
                    v = evaluate(g, me)
                    nodes += 1
                    idx[d] = len(la)
                elif left <= 0 or d + 1 >= top:
                    v = evaluate(g, me)
                    nodes += 1
                    self._cut = True
                else:  # open the child frame
                    d += 1
                    if d == len(acts):
                        self._grow()
                    acts[d] = _killer_first(order(g, g.legal()), killer[d])
                    idx[d] = 0
                    lo[d], hi[d] = lo[d - 1], hi[d - 1]
                    m = g.to_move == me
                    ismax[d] = m
                    val[d] = -INF if m else INF
                    arg[d] = None
                    rem[d] = left
                    continue
                g.undo()
            else:  # frame d is finished: its value goes to its parent
                v = val[d]
                if d == 0:
                    self._iteration_done(v, arg[0])  # done, or one ply deeper next
                    d = -1
                    continue
                acts[d] = None
                d -= 1
                a = acts[d][idx[d] - 1]
                g.undo()
            # back up v, the value of action a, into frame d
            if v > val[d] if ismax[d] else v < val[d]:
                val[d], arg[d] = v, a
                if ismax[d]:
                    lo[d] = v if v > lo[d] else lo[d]
                else:
                    hi[d] = v if v < hi[d] else hi[d]
                if lo[d] >= hi[d]:  # a cut-off (the window was open before a)
                    killer[d] = a

    def allow(self, nodes):
        """Work up to `nodes` units in all from now on (shared_rules.ponder, once the line
        it searched is played)."""
        self.budget = nodes

    def _begin_iteration(self):
        self._idx[0] = 0
        self._lo[0], self._hi[0] = -INF, INF
        self._val[0] = -INF if self._max[0] else INF
        self._arg[0] = None
        self._rem[0] = self.depth + self._skip
        self._cut = False

    def _grow(self):
        for frame in (self._acts, self._arg, self._killer):
            frame.append(None)
        for frame in (self._idx, self._lo, self._hi, self._val, self._rem):
            frame.append(0)
        self._max.append(False)

    def _iteration_done(self, v, a):
        self.depth += self._skip
        self._skip = 1
        self.value = v
        if a is not None:
            self.best = a
            root = self._acts[0]
            if root[0] != a:  # first in the next iteration, the others keep their order
                root.remove(a)
                root.insert(0, a)
        if (not self._cut or v >= WIN - MAX_PLIES or v <= MAX_PLIES - WIN
                or self.depth >= self.max_iter):
            self.done = True

    def _finish(self, d, nodes):
        """Out of budget: unwind to the root.  A half-done iteration's best root action is
        kept (its first action is the previous best, so any other one found beat it); before
        any iteration is done, the best found so far at the first choice on the line being
        searched (the frames before it being forced) gives the value."""
        g = self.g
        acts, arg = self._acts, self._arg
        k = 0
        if self.depth == 0:
            while k < d and len(acts[k]) == 1:
                k += 1
        if d >= 0 and arg[k] is not None:
            if k == 0:
                self.best = arg[0]
            self.value = self._val[k]
        while d > 0:
            acts[d] = None
            g.undo()
            d -= 1
        if self.best is None and self.depth == 0 and acts[0]:
            self.best = acts[0][0]
        self._d, self.nodes, self.done = -1, nodes, True


def _killer_first(acts, k):
    """acts with k, an action that cut off at this depth, moved to the front (in place)."""
    if k is not None and k != acts[0] and k in acts:
        i = acts.index(k)
        acts[i] = acts[0]
        acts[0] = k
    return acts


def _as_given(g, acts):
    """The order of a companion module that gives none."""
    return acts


def _terminal(r, me, ply):
    w = r[0]
    if w is None:
        return 0
    return WIN - ply if w == me else ply - WIN


def start(game, p, ai, level=DEFAULT, seed=1, nodes=None):
    """Begin choosing an action for player p in game (the game itself is never changed nor
    read beyond game.view_for(p)).  Returns an object with step(work) -> True when done, and
    then `best`; level is one of levels(ai), or nodes gives the budget directly."""
    if nodes is None:
        nodes = budget(ai, level)
    rng = Rng(seed)
    g = game.view_for(p)
    if g.to_move != p:
        raise ValueError("player %r is not to act" % (p,))
    if g.SECRETS:
        k = g.hidden()
        if k > 1:
            raise ValueError("%d hidden actions: only one is handled" % k)
        from shared_rules.simultaneous import Simultaneous  # only games with secrets load it
        if k:  # the other player's last action is secret: undo it and try every alternative
            g.undo()
            return Simultaneous(g, p, ai, nodes, rng, False, Search)
        acts = g.legal()
        g.play(acts[0])
        k = g.hidden()
        g.undo()
        if k and len(acts) > 1:  # mine will be secret when the other player answers it
            return Simultaneous(g, p, ai, nodes, rng, True, Search)
    return Search(g, p, ai, nodes, rng, overlook=level == BEGINNER)


def choose(game, p, ai, level=DEFAULT, seed=1, nodes=None):
    """The action the device plays for p: start() run to the end at once."""
    s = start(game, p, ai, level, seed, nodes)
    while not s.step(1000):
        pass
    return s.best
