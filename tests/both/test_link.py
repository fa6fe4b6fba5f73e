"""The serial link's answer to each line (app.wire) and the commands that once cost the game
(app.commands), on both runtimes."""
import sys

import app
from app import journal, wire
from app.play import Play
from app.session import Session

from helpers import raises
from test_device_app import run_app


def answers(line, handle):
    """The lines the link sends for one input line."""
    sent = []
    saved = wire.send
    wire.send = sent.append
    try:
        wire._dispatch(line, handle)
    finally:
        wire.send = saved
    return sent


def test_every_line_gets_one_answer_and_nothing_a_command_raises_gets_out():
    def full_flash(cmd):
        raise OSError(28)

    def broken(cmd):
        raise RuntimeError("a bug")
    for line in (b"[" * 700 + b"]" * 700, b"{" * 5, b"x" * 2049, b"\xff", b'{"cmd": "\xc3"}',
                 b"nonsense", b"[1]", b'{"cmd": 7}'):
        sent = answers(line, None)
        assert len(sent) == 1 and sent[0]["t"] == "error", (line[:20], sent)
    for handle, why in ((full_flash, "play: "), (broken, "play: a bug")):
        sent = answers(b'{"cmd": "play", "action": "d7"}', handle)
        assert len(sent) == 1 and sent[0]["error"].startswith(why), sent
    assert answers(b"   ", None) == []


class Machine:
    """machine.reset() as a board has it, counted instead of done."""

    def __init__(self):
        self.resets = 0

    def reset(self):
        self.resets += 1


def test_a_command_that_runs_out_of_memory_does_not_count_against_the_game():
    def out_of_memory(cmd):
        raise MemoryError()

    def go(board, sent):
        machine = Machine()
        saved = sys.modules.get("machine")
        sys.modules["machine"] = machine
        try:
            board.start(Session("morris", {}, ("human", "human")))
            for _ in range(3):
                assert "out of memory" in answers(b'{"cmd": "play"}', out_of_memory)[0]["error"]
            assert machine.resets == 3 and journal.restarts() == 0  # the game is not to blame
            app.restart_board()  # the app itself ran out: that counts
            assert machine.resets == 4 and journal.restarts() == 1
        finally:
            if saved is None:
                del sys.modules["machine"]
            else:
                sys.modules["machine"] = saved
    run_app(go)


def test_refused_commands_leave_the_game_on_screen_and_in_the_journal():
    def go(board, sent):
        board.start(Session("morris", {}, ("human", "human")))
        for move in ("d7", "d6", "a1"):
            board.command({"cmd": "play", "action": move})
        with open(journal.PATH) as f:
            kept = f.read()
        position = board.screen.session.game.position()
        for cmd in ({"cmd": "play", "action": "a1-" * 600},
                    {"cmd": "new", "game": "morris", "options": {"double_mill_takes_two": 2}},
                    {"cmd": "new", "game": "morris", "players": {"human": 1, "device": 2}},
                    {"cmd": "new", "game": "morris", "players": ["human"]},
                    {"cmd": "new", "game": "gipf", "options": {"handicap": [[0], 0]}},
                    {"cmd": "new", "game": "chess"},
                    {"cmd": "new", "game": "morris", "options": None},
                    {"cmd": "replay", "game": "morris", "start": 123},
                    {"cmd": "replay", "game": "morris", "moves": [1]},
                    {"cmd": "replay", "game": "morris", "moves": 5},
                    {"cmd": "replay", "game": "morris", "moves": "d7 d7"},
                    {"cmd": "replay", "game": "rhombus", "start": "." * 64 + " 9:9 1:1 0"},
                    {"cmd": "state", "turns": "yes"}, {"cmd": "undo", "ply": 2},
                    {"cmd": "play", "action": True}, {"cmd": "zap"}):
            raises(ValueError, board.command, cmd)
            assert isinstance(board.screen, Play), cmd
            assert board.screen.session.game.position() == position, cmd
            with open(journal.PATH) as f:
                assert f.read() == kept, cmd
        # the rhombus replay let the game go for room; it came back from the journal
        assert [x for x in sent if type(x) is dict and x.get("t") == "resumed"]
    run_app(go)


def test_state_reports_each_screen_by_its_name_not_its_class():
    from app import confirm, menu, replay

    wire = [(Play, "play"), (menu.Menu, "menu"), (menu.Setup, "setup"),
            (confirm.Confirm, "confirm"), (replay.Replay, "replay")]
    assert [screen.NAME for screen, _ in wire] == [name for _, name in wire]  # the protocol

    def go(board, sent):
        board.start(Session("morris", {}, ("human", "human")))

        class Renamed(Play):  # a class renamed in the code: the wire stays the same
            pass
        board.screen = Renamed(board, board.screen.session)
        board.command({"cmd": "state"})
        assert sent[-1]["screen"] == "play", sent[-1]
        board.command({"cmd": "menu"})
        board.command({"cmd": "state"})
        assert sent[-1]["screen"] == "menu", sent[-1]
    run_app(go)


def test_settings_that_cannot_be_read_are_the_defaults():
    import os

    from app.core import load_settings
    from helpers import remove_tree, scratch_dir
    folder = scratch_dir("settings")
    path = folder + "/settings.json"
    try:
        for data in (b"\xff\n", b"[" * 3000, b"{" * 5, b'{"brightness": "x"}', b"7"):
            with open(path, "wb") as f:
                f.write(data)
            assert load_settings(path) == {}, data
        with open(path, "wb") as f:
            f.write(b'{"brightness": 40, "scheme": 1, "device_delay_ms": [1]}')
        assert load_settings(path) == {"brightness": 40}  # known, a number each, or left out
        os.remove(path)
        os.mkdir(path)
        assert load_settings(path) == {}
    finally:
        remove_tree(folder)


def test_the_app_starts_the_serial_reader_again_should_it_ever_end():
    """wire.serve answers every line itself; if its reader still ends (a USB stack that
    fails a read), App._serve reports it in one line and reads again."""
    import asyncio

    class FailsOnce:  # the board's serial source (hal.serial): read(1) waits, readinto takes
        def __init__(self):
            self.failed = False
            self.data = bytearray(b"\xff\n")  # a line answered alike on both runtimes

        async def read(self, n):
            if not self.failed:
                self.failed = True
                raise OSError(5)  # EIO
            if not self.data:
                await asyncio.sleep(0.01)
                return b""
            out = bytes(self.data[:1])
            self.data[:1] = b""
            return out

        def readinto(self, buf):
            if not self.data:
                return 0
            buf[0] = self.data[0]
            self.data[:1] = b""
            return 1

    def go(board, sent):
        board.hal.serial = FailsOnce()
        slept = getattr(asyncio, "sleep_ms", None)
        if slept is None:  # CPython: the app's MicroPython call
            asyncio.sleep_ms = lambda ms: asyncio.sleep(ms / 1000)

        async def serve_a_while():
            task = asyncio.create_task(board._serve())
            for _ in range(100):
                await asyncio.sleep(0.01)
                if len(sent) > 1:
                    break
            task.cancel()
        try:
            asyncio.run(serve_a_while())
        finally:
            if slept is None:
                del asyncio.sleep_ms
        assert len(sent) == 2 and "internal error" in sent[0]["error"], sent
        assert "UTF-8" in sent[1]["error"], sent  # the line read after the restart
    run_app(go)
