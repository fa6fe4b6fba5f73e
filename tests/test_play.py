"""`stonegrid play`: every game playable at the terminal, with its own board, notation, help,
moves, undo, and Rhombus bids read unseen."""
import os
import pty
import random
import select
import subprocess
import sys
import time

import pytest

from shared_rules import GAMES, load
from stonegrid import terminal, textboard

# what each game's board shows on its edges, besides both players' names
EDGES = {"morris": ["1 +", "7 +", "  a   b   c   d   e   f   g"],
         "gipf": [".a1", ".e1", ".i1"],
         "mixtour": ["5  .", "1  .", "   a    b    c    d    e"],
         "rhombus": ["1 . a", "8 .   .   .   .   .   .   .   . h"]}


class Script:
    """The reads of a session: lines typed in plain sight and unseen, and what was shown."""

    def __init__(self, lines):
        self.lines, self.out, self.unseen = list(lines), [], []

    def read(self, prompt):
        self.out.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def read_secret(self, prompt):
        self.unseen.append(self.read(prompt))
        return self.unseen[-1]

    def play(self, game_id):
        g = terminal.play(game_id, {}, self.read, self.out.append, self.read_secret)
        return g, "\n".join(self.out)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_legible_board_and_its_own_help(game_id):
    mod, board = load(game_id), textboard.load(game_id)
    s = Script(["help", "moves"])
    g, shown = s.play(game_id)
    for text in EDGES[game_id] + list(mod.PLAYERS):
        assert text in shown, (text, shown)
    assert g.position() not in shown and "!" not in shown
    first = board.EXAMPLES.split()[0]
    assert mod.Game().parse(first) in mod.Game().legal()  # its notation, not another game's
    assert shown.count(board.EXAMPLES) == 2  # at the start and for `help`
    assert " ".join(sorted(g.text(a) for a in g.legal())) in shown


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_with_undo(game_id):
    mod, rng = load(game_id), random.Random(5)
    g, lines = mod.Game(), []
    while g.result() is None:
        lines.append(g.text(rng.choice(g.legal())))
        g.play(lines[-1])
    lines[1:1] = ["undo", lines[0]]  # take the first action back, play it again
    played, shown = Script(lines).play(game_id)
    assert played.actions() == g.actions() and played.result() == g.result()
    assert "!" not in shown and terminal.status(mod, g) in shown
    assert "Last: %s" % lines[-1] in shown


def test_rhombus_bids_are_read_unseen_and_shown_only_once_both_are_in():
    s = Script(["bid2", "bid3", "b1"])
    g, shown = s.play("rhombus")
    assert s.unseen == ["bid2"]  # Black's bid; White's reveals both, so it needs no secret
    before = shown[shown.index("Black to play"):shown.index("White to play")]
    assert "bid 2" not in before and "bid2" not in before and "has bid (secret)" in before
    assert "Black (B): bid 2" in shown and "White (W): bid 3" in shown
    assert g.text(g.actions()[-1]) == "b1"


def test_whole_turns_and_errors():
    g, shown = Script(["d7-d6xa1", "a1", "a1", "help"]).play("morris")
    assert "! " in shown and g.actions() == [load("morris").Game().parse("a1")]  # 2nd a1: taken
    rhombus, rng = load("rhombus"), random.Random(1)
    whole = rhombus.Game()
    while len(whole.turns()) < 2:
        whole.play(rng.choice(whole.legal()))
    first = whole.turns()[0]  # like "3:2 a1 b1 a2 c1 b2"
    g, shown = Script([first, "zz"]).play("rhombus")
    assert "! unknown cell 'zz'" in shown and g.turns() == [first]


def test_the_real_command_reads_a_bid_without_echo():
    """`stonegrid play rhombus` in a real pseudo-terminal: what is typed for Black's bid is not
    written back (getpass), White's bid is."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "stonegrid.cli", "play", "rhombus"])
    out = b""

    def until(text, timeout=20):
        nonlocal out
        end = time.monotonic() + timeout
        while text not in out and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        assert text in out, out[-2000:]

    try:
        until(b"Black, your bid: how many stones, 1 to 4 (typed unseen)> ")
        asked = len(out)
        os.write(fd, b"2\n")  # the number alone is the bid
        until(b"White, your bid: how many stones, 1 to 4> ")
        assert b"2" not in out[asked:].split(b"\n")[0]
        os.write(fd, b"bid3\n")
        until(b"Black (B): bid 2")
        assert b"bid3" in out  # echoed: nothing to hide once both are in
        os.write(fd, b"quit\n")
        until(b"quit")
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


def test_bids_from_a_pipe_are_read_plainly_without_a_warning():
    done = subprocess.run([sys.executable, "-m", "stonegrid.cli", "play", "rhombus"],
                          input="2\n3\nquit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "Black (B): bid 2" in done.stdout and "White (W): bid 3" in done.stdout, done.stdout
