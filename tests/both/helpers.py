"""Test helpers that run under CPython and MicroPython alike (no pytest imports here)."""
import os
import random

from shared_rules.core import DOUBLE_PASS, REPETITION


def raises(exc, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail unless it is an `exc`."""
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc.__name__))


def snapshot(g):
    """Everything observable about a game state, for exact comparisons."""
    return (g.position(), g.to_move, g.result(), sorted(g.legal()), g.actions())


def random_game(mod, seed, max_plies=20000, **options):
    """Play a uniformly random game; return the finished Game."""
    random.seed(seed)  # MicroPython has no random.Random: use the module's generator
    g = mod.Game(**options)
    for _ in range(max_plies):
        acts = g.legal()
        if not acts:
            break
        g.play(acts[random.randrange(len(acts))])
    return g


def check_random_game_invariants(mod, seed, **options):
    """Undo restores exactly, copies are independent, notation round-trips, the game ends."""
    g = random_game(mod, seed, **options)
    assert g.result() is not None, "random game %d did not end" % seed
    assert g.legal() == [] and g.to_move is None
    acts = g.actions()
    # Replay from the start, checking each step on the way.
    h = mod.Game(**options)
    for k, a in enumerate(acts):
        before = snapshot(h)
        legal = h.legal()
        assert a in legal
        for b in legal:
            assert h.parse(h.text(b)) == b, h.text(b)
        twin = h.copy()
        h.play(a)
        assert (h.to_move is None) == (h.result() is not None)  # to_move: None once over
        assert h.plies() == k + 1 and h.last() == a and h.last(k + 1) == acts[0]
        assert h.last(k + 2) is None and h.last(0) is None
        assert k == 0 or h.last(2) == acts[k - 1]
        assert snapshot(twin) == before, "copy changed with the original"
        twin.play(a)
        assert snapshot(twin) == snapshot(h)
        h.undo()
        assert snapshot(h) == before, "undo of %s did not restore" % h.text(a)
        assert h.plies() == k
        h.play(h.text(a))
    assert snapshot(h) == snapshot(g)
    # Undo everything, then the whole turns replay to the same end.
    for _ in acts:
        h.undo()
    assert snapshot(h) == snapshot(mod.Game(**options))
    end = snapshot(g)
    turns = g.turns()  # taken back and played again: the same game after it
    assert snapshot(g) == end and g.legal() == []
    for t in turns:
        h.play_turn(t)
    assert snapshot(h) == snapshot(g)
    assert h.turns() == turns
    return g


def check_position_round_trip(mod, seed, **options):
    """Every position of a random game is accepted by set_position and comes back the same:
    the text, the side to act, the legal actions and the result.  Not what the text cannot
    hold: a secret pending (withdrawn by set_position) and results that depend on the
    history (repetition, two passes in a row).  Returns the positions checked."""
    g = mod.Game(**options)
    random.seed(seed)
    checked = 0
    while True:
        text = g.position()
        h = mod.Game(**options)
        h.set_position(text)
        if not g.hidden():
            assert h.position() == text, (text, h.position())
            r = g.result()
            if r is None or r[1] not in (REPETITION, DOUBLE_PASS):
                assert h.to_move == g.to_move and h.result() == r, (text, h.result(), r)
                assert sorted(h.legal()) == sorted(g.legal()), text
                checked += 1
        acts = g.legal()
        if not acts:
            return checked
        g.play(acts[random.randrange(len(acts))])


def scratch_dir(name):
    """A fresh empty folder under /tmp (MicroPython has no tempfile).  Its name comes from
    os.urandom: the tests seed `random`, and a name that repeats would meet a folder left
    behind by an interrupted run."""
    path = "/tmp/stonegrid-%s-%s" % (name, "".join("%02x" % b for b in os.urandom(6)))
    os.mkdir(path)
    return path


def remove_tree(path):
    for entry in os.listdir(path):
        full = path + "/" + entry
        try:
            os.listdir(full)
            remove_tree(full)
        except OSError:
            os.remove(full)
    os.rmdir(path)


def assert_scales_to_32(view, g, ui, now=0):
    """A 32x32 frame of the view is its 16x16 frame with every pixel doubled."""
    from views.canvas import Canvas
    small, big = Canvas(), Canvas(32, 32)
    view.render(g, ui, small, now)
    view.render(g, ui, big, now)
    for y in range(32):
        for x in range(32):
            i = (y * 32 + x) * 3
            j = ((y // 2) * 16 + x // 2) * 3
            assert big.buf[i:i + 3] == small.buf[j:j + 3], (x, y)
