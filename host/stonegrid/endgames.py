"""`stonegrid endgames`: solve Nine Men's Morris endgames by retrograde analysis and write the
table the device plays them from (shared_rules/morris_endgame.py reads it).

Every position with 3 or 4 stones of one side and 3 of the other, all placed, side to move
first, is numbered as the device numbers it (its 16 symmetries folded); the moves of every
position are generated once, as arrays of the numbers they lead to, and then the values are
settled ply by ply: a position is won in n plies when some move leads to one lost in n - 1
(a mill closed at once is won in 1), lost in n when every move leads to one won in fewer, and
whatever is never settled is drawn (neither side can force a mill; threefold repetition ends
such play).  The rules are RULINGS.md's with their defaults: closing a mill takes a stone not
in a mill if there is one, a player left with 2 stones loses, one unable to move loses, three
stones fly.  Two mills at once cannot happen with 4 stones or fewer (the moved stone would
need 4 others beside it): the solver checks that no move closes two, and tags the table
double_mill_takes_two=* (either way), no_immediate_returns=0; the device refuses it under
other options.

It needs numpy (requirements.lock): `make endgames` runs `stonegrid endgames`, and
tests/test_endgames.py checks that the table in shared_rules/ is what it writes.
"""
import itertools
import os
import sys
import time

from shared_rules import morris_endgame as E
from stonegrid import TREE
from shared_rules.morris import MILLS

# the options the table holds for (E.ANY: either value, the solver having checked that it
# changes nothing)
OPTIONS = (("double_mill_takes_two", E.ANY), ("no_immediate_returns", "0"))
# the six ways a stone steps (morris._steps): (shift, the stones that can step so)
STEPS = ((1, 0x7F7F7F), (-7, 0x808080), (-1, 0xFEFEFE), (7, 0x010101),
         (8, 0x00AAAA), (-8, 0xAAAA00))


def _np():
    try:
        import numpy
    except ImportError:
        raise SystemExit("stonegrid endgames needs numpy: `make test` or `make play` installs "
                         "it from requirements.lock")
    return numpy


class Numbering:
    """The numbering of one table's positions: pivot sets (their canonical sets `canon`,
    ascending), the other side's `other_size` stones ranked among the points left."""

    def __init__(self, np, canon, other_size):
        self.np = np
        self.canon = np.array(canon, dtype=np.int64)
        self.other_size = other_size
        self.free = 24 - bin(canon[0]).count("1")
        self.block = E.choose(self.free, other_size)
        self.size = len(canon) * self.block

    def positions(self):
        """(pivot, other) masks of every number, in order."""
        np = self.np
        combos = np.zeros(self.block, dtype=np.int64)  # rank -> the places it holds
        for c in itertools.combinations(range(self.free), self.other_size):
            r = sum(E.choose(p, i + 1) for i, p in enumerate(c))
            combos[r] = sum(1 << p for p in c)
        pivots = np.repeat(self.canon, self.block)
        others = np.zeros(self.size, dtype=np.int64)
        for i, pivot in enumerate(self.canon.tolist()):
            points = [p for p in range(24) if not pivot >> p & 1]  # place -> point
            lo = i * self.block
            for place, point in enumerate(points):
                others[lo:lo + self.block] |= ((combos >> place) & 1) << point
        return pivots, others


class Folder:
    """The device's key() over arrays of positions (vectorised)."""

    def __init__(self, np):
        self.np = np
        # per symmetry, per byte of a mask, the image of that byte's points
        luts = np.zeros((16, 3, 256), dtype=np.int64)
        for s, sym in enumerate(E.SYMMETRIES):
            for b in range(3):
                for v in range(256):
                    luts[s, b, v] = E.image(sym, v << 8 * b)
        self.luts = luts
        self.choose = np.array([[E.choose(n, k) for k in range(5)] for n in range(25)],
                               dtype=np.int64)

    def image(self, s, mask):
        lut = self.luts[s]
        return lut[0][mask & 255] | lut[1][mask >> 8 & 255] | lut[2][mask >> 16 & 255]

    def rank_in(self, other, pivot):
        np = self.np
        r = np.zeros_like(other)
        i = np.zeros_like(other)
        place = np.zeros_like(other)
        for p in range(24):
            free = (pivot >> p & 1) == 0
            here = free & ((other >> p & 1) == 1)
            i += here
            r += np.where(here, self.choose[place, i], 0)
            place += free
        return r

    def key(self, pivot, other):
        """(canonical pivots, ranks) as key() gives them."""
        np = self.np
        images = np.stack([self.image(s, pivot) for s in range(16)])
        least = images.min(axis=0)
        rank = np.full(pivot.shape, 1 << 40, dtype=np.int64)
        for s in range(16):
            hit = images[s] == least
            if hit.any():
                r = self.rank_in(self.image(s, other[hit]), least[hit])
                rank[hit] = np.minimum(rank[hit], r)
        return least, rank

    def number(self, numbering, pivot, other):
        """The numbers of positions in a table."""
        least, rank = self.key(pivot, other)
        block = self.np.searchsorted(numbering.canon, least)
        return block * numbering.block + rank


def _bits(mask, n):
    """The n set bits of each mask, lowest first, as n arrays of one-bit masks."""
    out = []
    for _ in range(n):
        low = mask & -mask
        out.append(low)
        mask = mask ^ low
    return out


def _closes(np, own, to):
    """How many mills the stones own close through the one-bit masks `to`."""
    hit = np.zeros(own.shape, dtype=np.int8)
    for m in MILLS:
        hit += ((to & m) != 0) & ((own & m) == m)
    return hit


def _in_mills(np, own):
    out = np.zeros_like(own)
    for m in MILLS:
        out |= np.where((own & m) == m, m, 0)
    return out


class Solver:
    """The three tables (mover's stones, other's): 3-3, 4-3 and 3-4."""
    TABLES = ((3, 3), (4, 3), (3, 4))

    def __init__(self, log=None):
        np = self.np = _np()
        self.log = log or (lambda s: None)
        self.fold = Folder(np)
        sets = {}
        for n in (3, 4):
            sets[n] = sorted(set(E.canonical(sum(1 << p for p in c))
                                 for c in itertools.combinations(range(24), n)))
        self.sets = sets
        self.numbering = {(3, 3): Numbering(np, sets[3], 3), (4, 3): Numbering(np, sets[4], 3),
                          (3, 4): Numbering(np, sets[4], 3)}
        # edges[t] = list of (child table, from numbers, child numbers) and wins[t]: the
        # numbers that close a mill at once
        self.edges = {t: [] for t in self.TABLES}
        self.wins = {t: np.zeros(self.numbering[t].size, dtype=bool) for t in self.TABLES}
        self.moves = {t: np.zeros(self.numbering[t].size, dtype=np.int32) for t in self.TABLES}

    def _child(self, table, child, frm, pivot, other):
        self.edges[table].append((child, frm, self.fold.number(self.numbering[child],
                                                               pivot, other)))

    def generate(self):
        np = self.np
        for table in self.TABLES:
            t0 = time.time()
            pivot, other = self.numbering[table].positions()
            mover, them = (other, pivot) if table == (3, 4) else (pivot, other)
            ids = np.arange(len(pivot))
            empty = 0xFFFFFF & ~(mover | them)
            if table[0] == 3:  # flying
                frms = _bits(mover, 3)
                tos = _bits(empty, 24 - 3 - table[1])
                pairs = [(f, t) for f in frms for t in tos]
            else:
                pairs = []
                for f in _bits(mover, 4):
                    for shift, can in STEPS:
                        t = (f << shift) if shift > 0 else (f >> -shift)
                        ok = ((f & can) != 0) & ((t & empty) != 0)
                        pairs.append((np.where(ok, f, 0), np.where(ok, t, 0)))
            for f, t in pairs:
                ok = t != 0
                moved = mover ^ f ^ t
                closed = np.where(ok, _closes(np, moved, t), 0)
                if (closed > 1).any():
                    raise SolverError("a move closes two mills: double_mill_takes_two matters")
                mill = closed == 1
                self.wins[table] |= mill & (table[1] == 3)
                self.moves[table] += ok
                rest = ok & ~mill
                if table == (3, 3):
                    self._child(table, (3, 3), ids[rest], them[rest], moved[rest])
                elif table == (4, 3):
                    self._child(table, (3, 4), ids[rest], moved[rest], them[rest])
                else:
                    self._child(table, (4, 3), ids[rest], them[rest], moved[rest])
                    takes = np.flatnonzero(mill)
                    if len(takes):
                        b, a = them[takes], moved[takes]
                        free = b & ~_in_mills(np, b)
                        free = np.where(free != 0, free, b)
                        for r in _bits(free, 4):
                            has = r != 0
                            self._child(table, (3, 3), takes[has], (b ^ r)[has], a[has])
            self.log("moves of the %d-%d table: %d positions, %.1f s"
                     % (table + (len(pivot), time.time() - t0)))

    def solve(self):
        """(state, plies) per table and position: state WON, LOST or DRAWN (0: never
        settled) for the side to move, plies to the end with best play."""
        np = self.np
        state = {t: np.zeros(self.numbering[t].size, dtype=np.int8) for t in self.TABLES}
        plies = {t: np.zeros(self.numbering[t].size, dtype=np.int16) for t in self.TABLES}
        for t in self.TABLES:
            state[t][self.wins[t]] = E.WON
            plies[t][self.wins[t]] = 1
            state[t][self.moves[t] == 0] = E.LOST  # blocked: lost now
        n = 1
        while True:
            n += 1
            settled = {}
            for t in self.TABLES:
                size = len(state[t])
                if n % 2:  # won in n: a move to a position lost in n - 1
                    hits = np.zeros(size, dtype=np.int64)
                    for child, frm, to in self.edges[t]:
                        hits += np.bincount(frm[state[child][to] == E.LOST], minlength=size)
                    settled[t] = (state[t] == E.DRAWN) & (hits > 0)
                else:  # lost in n: every move to a position won in fewer
                    unwon = np.zeros(size, dtype=np.int64)
                    for child, frm, to in self.edges[t]:
                        unwon += np.bincount(frm[state[child][to] != E.WON], minlength=size)
                    settled[t] = (state[t] == E.DRAWN) & (unwon == 0)
            count = 0
            for t in self.TABLES:
                state[t][settled[t]] = E.WON if n % 2 else E.LOST
                plies[t][settled[t]] = n
                count += int(settled[t].sum())
            self.log("ply %d: %d positions settled" % (n, count))
            if not count:
                return state, plies


class SolverError(RuntimeError):
    """A solution the table's layout cannot hold (the rules changed under it)."""


def table_bytes(solver, state, plies):
    """The table file (shared_rules/morris_endgame.py gives its layout)."""
    np = solver.np
    out = bytearray(("%s %s\n" % (E.FORMAT, " ".join("%s=%s" % (n, v) for n, v in OPTIONS))
                     ).encode())
    for n in (3, 4):
        out += len(solver.sets[n]).to_bytes(2, "little")
        for m in solver.sets[n]:
            out += m.to_bytes(3, "little")
    s, p = state[(4, 3)], plies[(4, 3)]
    if ((s == E.WON) != solver.wins[(4, 3)]).any():
        raise SolverError("a 4-3 position is won other than by a mill closed at once")
    lost = np.flatnonzero(s == E.LOST)
    out += len(lost).to_bytes(4, "little")
    for i in lost.tolist():
        out += i.to_bytes(3, "little") + int(p[i]).to_bytes(1, "little")
    s, p = state[(3, 3)], plies[(3, 3)]
    if p.max() >= E._LOST_AT:
        raise SolverError("a 3-3 position takes %d plies: more than a byte holds" % p.max())
    out += np.where(s == E.WON, p, np.where(s == E.LOST, p + E._LOST_AT, 0)).astype(
        np.uint8).tobytes()
    s = state[(3, 4)]
    if (s == E.LOST).any():
        raise SolverError("a 3-4 position is lost: the table keeps only won or drawn")
    out += np.packbits(s == E.WON, bitorder="little").tobytes()
    return bytes(out)


def counts(state, plies):
    """{table: (won, drawn, lost, most plies)} for the report."""
    return dict((t, (int((s == E.WON).sum()), int((s == E.DRAWN).sum()),
                     int((s == E.LOST).sum()), int(plies[t].max())))
                for t, s in state.items())


DEFAULT_OUT = os.path.join(TREE, "shared_rules", E.NAME)  # where the build takes it from


def run(out, log=None):
    """Solve, write the table to `out`, print what it took."""
    say = log or (lambda s: print(s, file=sys.stderr))
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):  # said before the minute of solving, not after
        raise ValueError("%s: there is no folder %s to write the table in" % (out, folder))
    t0 = time.time()
    solver = Solver(log=say)
    solver.generate()
    state, plies = solver.solve()
    data = table_bytes(solver, state, plies)
    with open(out + ".tmp", "wb") as f:  # then renamed over: a stopped run leaves the old
        f.write(data)
    os.replace(out + ".tmp", out)
    for (a, b), (won, drawn, lost, most) in sorted(counts(state, plies).items()):
        print("%d-%d: %d positions (16 symmetries folded): %d won, %d drawn, %d lost for the "
              "side to move; the longest takes %d plies" % (a, b, won + drawn + lost, won,
                                                            drawn, lost, most))
    positions = sum(solver.numbering[t].size for t in solver.TABLES)
    print("wrote %s: %d bytes, %.2f bits a position, in %.0f s"
          % (out, len(data), 8.0 * len(data) / positions, time.time() - t0))
    return 0

