"""Nothing lost, nothing stuck (issue 15), on the virtual board at the default heap: commands
that once ran the heap out or killed the serial reader, journals that once cost the game or
looped the app, and a seeded serial fuzz between real moves."""
import json
import os
import random
import time

import pytest

import hal
from boardkit import Board, serving
from shared_rules import load, record
from views import palette
from views.canvas import Canvas

SCALE = hal.scale_table(json.load(open(os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "hardware", "unix.json")))["brightness_cap"])


def start_board(flash, journal=None):
    """A board whose flash holds `journal` (bytes, or a folder when "folder") at power up."""
    os.makedirs(str(flash), exist_ok=True)
    path = os.path.join(str(flash), "journal.jsonl")
    if journal == "folder":
        os.mkdir(path)
    elif journal is not None:
        with open(path, "wb") as f:
            f.write(journal)
    return Board(flash, settings={"device_delay_ms": 0})


@pytest.fixture()
def board(tmp_path):
    yield from serving(start_board(tmp_path / "flash"))


def morris_journal(plies, seed=5):
    """The journal lines (bytes) of a human vs human Morris game of `plies` random actions."""
    rng = random.Random(seed)
    g = load("morris").Game()
    lines = [record.game_line("morris", g.options, ("human", "human"), "test")]
    for _ in range(plies):
        a = rng.choice(g.legal())
        p = g.to_move
        g.play(a)
        lines.append(record.act_line(g.plies(), p, a, g.text(a)))
    return [(line + "\n").encode() for line in lines]


def boot_error(b, timeout=20):
    """The journal's error line at boot, from all the board wrote on serial (it may come
    before the port here is open)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in b.client.request("output")["text"].splitlines():
            if '"journal line' in line:
                return json.loads(line)
        time.sleep(0.1)
    raise AssertionError("no journal error line at boot")


def cut_sign():
    c = Canvas()
    c.clear()
    c.text(1, 5, "CUT", palette.TEXT)
    return bytes(SCALE[v] for v in c.buf)


def same_game(b, before):
    after = b.serial.ask({"cmd": "state"})
    assert after["screen"] == "play", after
    for key in ("game", "ply", "position", "to_move"):
        assert after[key] == before[key], key


def test_commands_that_ran_the_heap_out_are_refused_and_change_nothing(board, tmp_path):
    s = board.serial
    s.send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
    s.wait(lambda o: o.get("t") == "game")
    for move in ("d7", "d6", "a1"):
        s.send({"cmd": "play", "action": move})
        s.wait(lambda o: o.get("t") == "act" and o.get("n") == move)
    before = s.ask({"cmd": "state"})
    hellos = board.client.status()["hellos"]
    bad = [{"cmd": "play", "action": "a1-" * 600}] * 3 + [
        {"cmd": "new", "game": "gipf", "options": {"handicap": json.loads("[" * 300 + "]" * 300)}},
        {"cmd": "new", "game": "morris", "players": {"human": 1, "device": 2}},
        {"cmd": "replay", "game": "rhombus", "start": "." * 64 + " 9:9 1:1 0"},
        {"cmd": "new", "game": "morris", "options": {"double_mill_takes_two": 2}},
        {"cmd": "replay", "game": "morris", "start": 123},
        {"cmd": "replay", "game": "morris", "moves": [1]},
        {"cmd": "replay", "game": "morris", "moves": 5},
        {"cmd": "replay", "game": "morris", "moves": "d7 zz"},
    ]
    for cmd in bad:
        s.send(cmd)
        reply = s.wait(lambda o: o.get("t") in ("error", "ok", "hello"))
        assert reply["t"] == "error", (cmd, reply)
        same_game(board, before)
        assert board.client.status()["hellos"] == hellos, (cmd, reply)  # no restart
    assert not os.path.exists(str(tmp_path / "flash" / "journal-oom.jsonl"))


def test_a_line_that_once_ended_the_serial_reader_is_answered(board):
    board.serial.send(b"[" * 700 + b"]" * 700 + b"\n")
    err = board.serial.wait(lambda o: o.get("t") == "error")
    assert "nested more than" in err["error"], err
    assert board.serial.ask({"cmd": "state"})["t"] == "state"


@pytest.mark.parametrize("junk", [b"x" * 200000 + b"\n", b'{"t": "act", "n": "' + b"a" * 20000
                                  + b'"}\n', b"[" * 3000 + b"]" * 3000 + b"\n", b"\xff\n"],
                         ids=["200KB", "20KB-json", "3000-deep", "not-utf8"])
def test_a_bad_journal_line_resumes_the_good_prefix(tmp_path, junk):
    lines = morris_journal(7)
    b = start_board(tmp_path / "flash", b"".join(lines[:6]) + junk + b"".join(lines[6:]))
    try:
        err = boot_error(b)
        assert err["error"].startswith("journal line 7: "), err
        with open(os.path.join(str(tmp_path / "flash"), "journal-rest.jsonl"), "rb") as f:
            assert f.read() == junk + b"".join(lines[6:])
        assert b.serial.ask({"cmd": "state"})["ply"] == 5
    finally:
        b.close()


def test_a_broken_line_is_reported_kept_and_shown(tmp_path):
    lines = morris_journal(7)
    lines[3] = lines[3][:5] + b"#" + lines[3][6:]
    flash = tmp_path / "flash"
    b = start_board(flash, b"".join(lines))
    try:
        b.client.wait_until(lambda f: f.rgb == cut_sign(), timeout=5)  # the player sees it
        err = boot_error(b)
        assert err["error"].startswith("journal line 4: not JSON"), err
        assert b.serial.ask({"cmd": "state"})["ply"] == 2
        with open(os.path.join(str(flash), "journal-rest.jsonl"), "rb") as f:
            assert f.read() == b"".join(lines[3:])
        with open(os.path.join(str(flash), "journal.jsonl"), "rb") as f:
            assert f.read() == b"".join(lines[:3])
    finally:
        b.close()


@pytest.mark.parametrize("journal", ["folder", b'{"t": "game", "v": 1, "game": "chess"}\n',
                                     b"\xff\n"], ids=["folder", "unknown-game", "erased"])
def test_a_journal_with_no_game_boots_to_the_menu_with_an_error(tmp_path, journal):
    b = start_board(tmp_path / "flash", journal)
    try:
        err = boot_error(b)
        assert err["error"].startswith("journal line 1: "), err
        state = b.serial.ask({"cmd": "state"})
        assert state["game"] is None and state["screen"] == "menu"
        b.serial.send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
        b.serial.wait(lambda o: o.get("t") == "game")  # and a new game is journalled
        b.serial.send({"cmd": "play", "action": "d7"})
        b.serial.wait(lambda o: o.get("t") == "act")
    finally:
        b.close()


def fuzz_line(rng):
    """One line of the classes that once got through: deep, long, wrong types, not UTF-8,
    commands in the wrong state."""
    kind = rng.randrange(8)
    if kind == 0:
        d = rng.randrange(5, 900)
        return rng.choice([b"[", b"{\"a\":"]) * d + b"]" * rng.randrange(d)
    if kind == 1:
        return json.dumps({"cmd": "play", "action": "a1-" * rng.randrange(6, 650)})[:2040].encode()
    if kind == 2:
        value = rng.choice([None, True, 1.5, [], {}, [["x"]], {"human": 1}, "x" * 40, -1, 10 ** 9])
        cmd = rng.choice(["play", "new", "replay", "press", "state", "undo", "menu"])
        key = rng.choice(["action", "game", "options", "players", "start", "moves", "button",
                          "turns", "zap"])
        return json.dumps({"cmd": cmd, key: value}).encode()
    if kind == 3:
        return bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 30)))
    if kind == 4:  # what a finished or other state refuses
        return json.dumps(rng.choice([{"cmd": "replay", "append": True, "moves": "d7"},
                                      {"cmd": "play", "action": 10 ** 6},
                                      {"cmd": "new", "game": "chess"},
                                      {"cmd": "new", "game": "morris", "options": {"x": 1}},
                                      {"cmd": "replay", "game": "morris", "start": "x"}])).encode()
    if kind == 5:
        return json.dumps({"cmd": "new", "game": "gipf", "options": {
            "handicap": [rng.randrange(-9, 99), "x"]}}).encode()
    if kind == 6:
        return b'{"cmd": "play", "action": "' + bytes(rng.randrange(32, 127) for _ in range(
            rng.randrange(17, 2000))).replace(b'"', b"").replace(b"\\", b"") + b'"}'
    return json.dumps({"cmd": "state", "turns": "yes"}).encode()


def test_seeded_serial_fuzz_between_real_moves(board):
    rng = random.Random(15)
    s = board.serial
    s.send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
    s.wait(lambda o: o.get("t") == "game")
    hellos = board.client.status()["hellos"]
    sent = 0
    while sent < 2000:
        state = s.ask({"cmd": "state"})
        if not state["legal"]:
            break
        batch = [fuzz_line(rng) for _ in range(100)]
        s.send(b"\n".join(batch) + b"\n")
        sent += len(batch)
        same_game(board, state)
        move = rng.choice(state["legal"])
        s.send({"cmd": "play", "action": move})
        s.wait(lambda o: o.get("t") == "act" and o.get("n") == move, timeout=30)
    assert sent >= 2000
    assert board.client.status()["hellos"] == hellos  # answered all without a restart
