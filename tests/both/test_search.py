"""The device opponent (shared_rules/search.py and the <game>_ai modules), on both runtimes."""
import sys

from shared_rules import (GAMES, core, gipf, load, mixtour, morris, ponder, rhombus, search,
                          simultaneous)
from shared_rules.search import Rng, Search

from helpers import raises


def device(g, nodes=60, seed=1):
    """The device's action for the side to act, run to the end in small steps."""
    s = search.start(g, g.to_move, search.load_ai(g.ID), nodes=nodes, seed=seed)
    while not s.step(7):
        pass
    return s.best


def play_device_turn(g, nodes=200, seed=1):
    """The device plays for the side to act until that side's turn is over."""
    p = g.to_move
    while g.to_move == p:
        g.play(device(g, nodes, seed))


def state(g):
    return (g.position(), g.actions(), g.to_move, g.result())


def test_rng_is_the_same_on_every_runtime():
    r = Rng(12345)
    assert [r.below(1000) for _ in range(6)] == [142, 213, 649, 596, 62, 543]
    r = Rng(0)
    assert [r.below(32768) for _ in range(4)] == [8780, 4684, 6996, 21297]
    for _ in range(1000):
        assert 0 <= r.x < 1 << 30 and 0 <= r.below(7) < 7


def test_levels_are_budgets_that_grow():
    for game_id in GAMES:
        ai = search.load_ai(game_id)
        names = search.levels(ai)  # LEVELS, and the steps a game adds between normal and hard
        assert [lv for lv in names if lv in search.LEVELS] == list(search.LEVELS)
        assert names[3:-1] == tuple("normal+%d" % k for k in range(1, len(names) - 3))
        nodes = [search.budget(ai, lv) for lv in names]
        assert 0 < nodes[0] <= nodes[1] and all(a < b for a, b in zip(nodes[1:], nodes[2:]))
    assert len(search.levels(search.load_ai("gipf"))) > len(search.LEVELS)
    raises(ValueError, search.budget, search.load_ai("morris"), "normal+1")
    assert search.budget(search.load_ai("morris")) == search.budget(
        search.load_ai("morris"), search.DEFAULT)
    raises(ValueError, search.budget, search.load_ai("morris"), "expert")


def test_the_beginner_overlooks_some_of_its_moves_and_plays_the_best_of_the_rest():
    from shared_rules import morris
    g = morris.Game()  # Red can close a mill at g1 (a1 d1 placed) or block Green's at a7
    g.set_position("RR...GG................. 7 7 0 0 - -")
    ai = search.load_ai("morris")
    mill = g.parse("g1")
    missed = 0
    for seed in range(40):
        s = search.start(g, 0, ai, "beginner", seed)
        assert len(s._acts[0]) == 20 - 20 * ai.OVERLOOK // 100  # of the 20 empty points
        best = search.choose(g, 0, ai, "beginner", seed)
        assert best == mill or mill not in s._acts[0]  # the mill whenever it saw it
        missed += best != mill
        assert best == search.choose(g, 0, ai, "beginner", seed)
    assert 1 <= missed <= 40 * ai.OVERLOOK // 50

def test_device_plays_only_legal_actions_and_leaves_the_game_alone():
    for game_id in GAMES:
        mod = load(game_id)
        for seed in range(2):
            g = mod.Game()
            r = Rng(seed)
            while g.result() is None and len(g.actions()) < 60:
                before = state(g)
                a = device(g, nodes=25, seed=seed)
                assert state(g) == before, game_id
                assert a in g.legal(), (game_id, a)
                g.play(a)
                if g.result() is None:  # and a random reply, for variety
                    acts = g.legal()
                    g.play(acts[r.below(len(acts))])


def test_search_leaves_the_game_it_is_given_as_it_found_it():
    g = morris.Game()
    for a in (0, 1, 2, 8, 9):
        g.play(a)
    before = state(g)
    s = Search(g, g.to_move, search.load_ai("morris"), 150, Rng(3))
    for _ in range(5):
        s.step(9)  # stopped half-way: g is somewhere in the tree ...
    while not s.step(9):
        pass
    assert state(g) == before and s.best in g.legal()  # ... and unwound at the end


def test_finds_the_mill_that_wins_morris():
    # Red a1 d1, one in hand; Green has three stones in all (two on the board): g1 closes a
    # mill, the removal leaves Green two
    cells = ["."] * 24
    cells[0] = cells[1] = "R"
    cells[morris.POINTS.index("e4")] = cells[morris.POINTS.index("b6")] = "G"
    g = morris.Game()
    g.set_position("%s 1 1 0 0 - -" % "".join(cells))
    play_device_turn(g, nodes=100)
    assert g.result() == (0, "men"), g.turns()


def test_finds_the_row_that_saves_gipf():
    # White has one piece left in reserve and three in a row on b3 b4 b5: only pushing onto
    # b2 (from b1, or from b6 pushing the three along) makes a row and brings pieces back;
    # any other push loses when White must push again with an empty reserve
    g = gipf.Game()
    g.set_position(".WWW/...../....../......./....../...../.... 1 12 0 -")
    play_device_turn(g, nodes=150)
    assert g.reserve(0) >= 4 and g.result() is None, g.turns()


def test_finds_the_push_that_wins_gipf():
    # Black has nothing in reserve: any White push wins, except the two along column c
    # (from c1 or from c7) that would shift his c2 c3 c4 . c6 into a row and give him four
    g = gipf.Game()
    g.set_position("..../BBB.B/....../......./....../...../.... 5 0 0 -")
    a = device(g, nodes=130)
    assert g.text(a) not in ("c1-c2", "c7-c6"), g.text(a)
    g.play(a)
    assert g.result() == (0, "reserve")


def test_finds_the_winning_stack_in_mixtour():
    g = mixtour.Game()
    g.set_position("RRRW,R" + ",." * 23 + " 0 0 0 -")
    g.play(device(g, nodes=60))
    assert g.result() == (0, "points"), g.turns()


def _rhombus_outcome(g, p):
    """Exhaustive: 1 if p wins against any play from here (placements only), else -1."""
    r = g.result()
    if r is not None:
        return 1 if r[0] == p else -1
    best = None
    for a in g.legal():
        g.play(a)
        v = _rhombus_outcome(g, p)
        g.undo()
        if g.to_move == p:
            best = v if best is None or v > best else best
        else:
            best = v if best is None or v < best else best
    return best


def test_finds_the_winning_placement_in_rhombus():
    # near the end, with the last stones all bid: positions where one placement wins and
    # another loses, found in random games
    found = 0
    for seed in range(SEEDS):
        g = rhombus.Game()
        r = Rng(seed)
        while g.result() is None:
            if (not g.bidding() and 64 - g.filled() <= g.to_place(0) + g.to_place(1)
                    and len(g.legal()) > 1):
                p = g.to_move
                outcomes = []
                for a in g.legal():
                    g.play(a)
                    outcomes.append(_rhombus_outcome(g, p))
                    g.undo()
                if 1 in outcomes and -1 in outcomes:
                    a = device(g, nodes=300)
                    assert outcomes[g.legal().index(a)] == 1, g.position()
                    found += 1
                    break
            acts = g.legal()
            g.play(acts[r.below(len(acts))])
    assert found >= 3, found


SEEDS = 200


def test_same_seed_same_action_however_it_is_stepped():
    for game_id in GAMES:
        g = load(game_id).Game()
        r = Rng(7)
        for _ in range(12):
            acts = g.legal()
            g.play(acts[r.below(len(acts))])
        ai = search.load_ai(game_id)
        p = g.to_move
        firsts = []
        for work in (1, 5, 1000):
            s = search.start(g, p, ai, nodes=80, seed=42)
            while not s.step(work):
                pass
            firsts.append((s.best, s.nodes))
        assert firsts[0] == firsts[1] == firsts[2], (game_id, firsts)


def test_the_moves_are_the_same_on_every_runtime():
    # device against device, a few plies per game; the same digest under CPython and
    # MicroPython (a change to the search or an evaluation changes it on purpose: update it)
    digest = []
    for game_id in GAMES:
        g = load(game_id).Game()
        h = 0
        for ply in range(16):
            if g.result() is not None:
                break
            a = device(g, nodes=40, seed=ply)
            g.play(a)
            h = (h * 31 + a) % 1000003
        digest.append(h)
    assert digest == EXPECTED_DIGEST, digest


EXPECTED_DIGEST = [765860, 91512, 275865, 708184]


def test_budget_is_the_work_done():
    counts = [0, 0]

    class Counted(morris.Game):
        def play_unchecked(self, a):  # what play() does once the action is known to be legal
            counts[0] += 1
            morris.Game.play_unchecked(self, a)

    class Ai:
        NODES = (1, 2, 3)

        def __init__(self, ai):
            self.ai = ai
            self.order = ai.order

        def evaluate(self, g, p):
            counts[1] += 1
            return self.ai.evaluate(g, p)

    ai = Ai(search.load_ai("morris"))
    for nodes in (1, 10, 57, 300):
        g = Counted()
        for a in (0, 9, 3, 10):
            g.play(a)
        counts[0] = counts[1] = 0
        s = Search(g, 0, ai, nodes, Rng(1))
        assert counts == [0, 0]
        while not s.step(3):
            pass
        assert counts[0] + counts[1] == s.nodes, (counts, s.nodes)
        assert s.nodes <= nodes + 1, (nodes, s.nodes)  # a leaf's evaluation may end it
        assert s.best in g.legal()


def test_nothing_to_think_about():
    g = rhombus.Game()
    g.play("bid2")
    g.play("bid2")
    g.play("h1")  # Black starts the long Line a8..h1: his second stone has to follow
    assert len(g.legal()) == 1
    s = search.start(g, g.to_move, search.load_ai("rhombus"), "hard")
    assert s.step(1) and s.nodes == 0 and s.best == g.legal()[0]
    g = morris.Game()
    r = Rng(1)
    while g.result() is None:
        acts = g.legal()
        g.play(acts[r.below(len(acts))])
    raises(ValueError, search.start, g, 0, search.load_ai("morris"))  # over: nobody acts


# -- secret bids -------------------------------------------------------------------------
def test_rhombus_bid_does_not_depend_on_the_hidden_bid():
    ai = search.load_ai("rhombus")
    for seed in range(3):
        g = rhombus.Game()
        r = Rng(seed)
        for _ in range(seed * 9):  # into the game, then on to the next bidding
            acts = g.legal()
            g.play(acts[r.below(len(acts))])
        while not g.bidding() or g.to_move != 0:
            acts = g.legal()
            g.play(acts[r.below(len(acts))])
        bids = []
        for black in g.legal():
            g.play(black)
            assert g.to_move == 1 and g.hidden() == 1
            s = search.start(g, 1, ai, nodes=120, seed=5)
            while not s.step(16):
                pass
            bids.append((s.best, s.mix))
            g.undo()
        assert bids[0] == bids[1] == bids[2] == bids[3], bids


def test_matrix_games_are_solved_with_mixed_strategies():
    rounds = simultaneous.ROUNDS
    w = simultaneous.mixed([1, -1, -1, 1], 2, 2)  # matching pennies: half and half
    assert sum(w) == rounds and min(w) >= rounds * 3 // 8, w
    w = simultaneous.mixed([0, -1, 1, 1, 0, -1, -1, 1, 0], 3, 3)  # rock, paper, scissors
    assert sum(w) == rounds and min(w) >= rounds // 5, w
    w = simultaneous.mixed([5, 5, 1, 0, 3, 4], 3, 2)  # the first row dominates
    assert w == [rounds, 0, 0], w


def test_rhombus_bids_are_drawn_from_the_mixture():
    ai = search.load_ai("rhombus")
    g = rhombus.Game()
    r = Rng(3)
    while True:  # the first bidding of a random game whose solution is mixed
        while not (g.bidding() and g.to_move == 0):
            acts = g.legal()
            g.play(acts[r.below(len(acts))])
        chosen = []
        for seed in range(16):
            s = search.start(g, 0, ai, nodes=120, seed=seed)
            while not s.step(50):
                pass
            assert len(s.mix) == 4 and sum(s.mix) == simultaneous.ROUNDS
            assert s.mix[s.best - rhombus.BID] > 0  # drawn from the mixture
            chosen.append(s.best)
        if sorted(s.mix)[-2] >= simultaneous.ROUNDS // 8:  # two bids with a fair share
            break
        acts = g.legal()
        g.play(acts[r.below(len(acts))])
    assert len(set(chosen)) >= 2, (chosen, s.mix)


def test_only_games_with_secrets_load_the_matrix_game_solver():
    name = "shared_rules.simultaneous"
    sys.modules.pop(name, None)  # other tests here have loaded it
    for game_id in GAMES:
        g = load(game_id).Game()
        secret = type(g).hidden is not core.Game.hidden
        device(g)
        assert (name in sys.modules) == secret, game_id
        sys.modules.pop(name, None)


def test_rhombus_evaluation_counts_as_the_rules_do():
    # each pattern's full board, once the stones owed are placed
    ai = search.load_ai("rhombus")
    for seed in range(6):
        g = rhombus.Game()
        r = Rng(seed)
        while g.result() is None:
            if r.below(4) == 0:
                ai.prepare(g)  # a new root: later calls add only what was placed since
            h = g.copy()
            while h.next_cell() is not None and not h.bidding() and h.result() is None:
                h.play(h.next_cell())  # the stones owed along the Current Line
            ends = 0  # the patterns' full boards, scored by the rules
            for k in range(ai.FILLS):
                full = h.copy()
                for i in range(64):
                    if not full.cells[i]:
                        full.cells[i] = 2 - (ai._BLACK[k * 8 + (i >> 3)] >> (i & 7) & 1)
                ends += full.score(0) - full.score(1)
            assert ai.evaluate(g, 0) == ends - ai.FILLS // 2 == -ai.evaluate(g, 1), g.position()
            acts = g.legal()
            g.play(acts[r.below(len(acts))])


def test_morris_mobility_counts_by_the_rules_adjacency():
    ai = search.load_ai("morris")
    r = Rng(11)
    for _ in range(300):
        own = r.below(4096) | r.below(4096) << 12
        empty = (r.below(4096) | r.below(4096) << 12) & ~own
        slow = sum(1 for i in range(24) if own >> i & 1 and morris._ADJ[i] & empty)
        assert ai._movable(own, empty) == slow, (own, empty)


def test_morris_holes_of_open_twos_bit_parallel():
    # _thirds (shifts over the rings) against the mills one by one: two stones of one side
    # and an empty third point
    import random
    from shared_rules import morris_ai
    random.seed(3)
    for _ in range(3000):
        own = other = 0
        for i in range(24):
            r = random.randrange(4)
            if r == 1:
                own |= 1 << i
            elif r == 2:
                other |= 1 << i
        want = 0
        for m in morris.MILLS:
            x = own & m
            if x != m and x & (x - 1) and not other & m:
                want |= m & ~x
        assert morris_ai._thirds(own, other) == want, (hex(own), hex(other))


def test_morris_a_mill_to_close_counts_for_the_side_that_can_close_it_next():
    # Red a1 d1 with g1 empty, moving: g4 can step into g1, f4 cannot (nor can d1, which
    # the mill needs); Green has no two
    ai = search.load_ai("morris")
    for third, threat in (("g4", True), ("f4", False)):
        cells = ["."] * 24
        for name in ("a1", "d1", third, "f6"):
            cells[morris.POINTS.index(name)] = "R"
        for name in ("c3", "e5", "b2", "d7"):
            cells[morris.POINTS.index(name)] = "G"
        values = []
        for p in (0, 1):
            g = morris.Game()
            g.set_position("%s 0 0 %d 0 - -" % ("".join(cells), p))
            values.append(ai.evaluate(g, 0))
        assert (values[0] > values[1]) == threat, (third, values)


def _pondered(g, p, seed=3):
    """A ponder for p, run until it has nothing more to do."""
    thinking = ponder.Ponder(g, p, search.load_ai(g.ID), "normal", seed)
    while not thinking.step(5):
        pass
    return thinking


def test_a_ponder_foresees_the_line_and_answers_it_deeper_in_the_usual_work():
    for game_id in ("morris", "gipf", "mixtour"):
        level = search.budget(search.load_ai(game_id), "normal")
        for whole in (False, True):  # the person acted while it pondered, or after it ended
            g = load(game_id).Game()
            for _ in range(3):
                play_device_turn(g, nodes=40)
            me = 1 - g.to_move
            before = state(g)
            thinking = ponder.Ponder(g, me, search.load_ai(game_id), "normal", 3)
            while not thinking.step(5) and (whole or thinking.reply is None
                                          or thinking.reply.nodes < level // 2):
                pass
            assert state(g) == before  # the game itself is only read
            done = thinking.reply.nodes
            most = ponder.PONDER_MOST * level
            assert thinking.line and (thinking.reply.done and level < done <= most + 1
                                      if whole else level // 2 <= done < level), done
            for a in thinking.line:  # the other player plays the line foreseen
                g.play(a)
            assert g.to_move == me
            reply = thinking.hit(g)
            assert reply is thinking.reply
            assert reply.budget == min(most, done + level)
            while not reply.step(7):
                pass
            assert reply.best in g.legal() and reply.nodes <= reply.budget + 1  # + its leaf


def test_a_ponder_that_did_not_foresee_the_line_gives_nothing():
    g = load("morris").Game()
    for _ in range(4):
        play_device_turn(g, nodes=40)
    me = 1 - g.to_move
    thinking = _pondered(g, me)
    other = [a for a in g.legal() if a != thinking.line[0]][0]
    g.play(other)
    while g.to_move != me:
        play_device_turn(g, nodes=40)
    assert thinking.hit(g) is None


def test_no_ponder_on_ones_own_turn_nor_in_secret():
    g = morris.Game()
    assert raises(ValueError, lambda: ponder.Ponder(g, g.to_move, search.load_ai("morris")))
    r = rhombus.Game()
    assert raises(ValueError, lambda: ponder.Ponder(r, 1 - r.to_move,
                                                    search.load_ai("rhombus")))


def test_a_search_of_a_finished_game_answers_its_value_at_once():
    from shared_rules import morris
    g = morris.Game()
    g.set_position("RRR.....GG.............. 0 0 0 0 - -")  # Green has 2 stones: Red has won
    for me, value in ((0, search.WIN), (1, -search.WIN)):
        s = search.Search(g, me, search.load_ai("morris"), 100, value_only=True)
        assert s.step(1) and s.value == value and s.best is None
