"""The `stonegrid` host tools end to end against the virtual board, with the real mpremote,
pyserial and micropython: flash, logs, replay."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from boardkit import Serial
from helpers import random_game
from runtimes import ROOT
from shared_rules import GAMES, load
from stonegrid import records
from stonegrid.sim import spawn

STONEGRID = [sys.executable, "-m", "stonegrid.cli"]


def run(*args, timeout=120, **kw):
    return subprocess.run(STONEGRID + list(args), capture_output=True, text=True,
                          timeout=timeout, **kw)


@pytest.fixture()
def sim(tmp_path):
    """A virtual board with an empty flash (nothing installed yet)."""
    s = spawn(tmp_path / "flash")
    yield s
    s.stop()


def wait_for_text(folder, pattern, text, timeout=30):
    """Until the first file matching `pattern` in `folder` holds `text` (or the time is up:
    the test's own assertions then say what is missing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = list(folder.glob(pattern))
        if files and text in files[0].read_text():
            return
        time.sleep(0.2)


def hello(sim, timeout=30):
    ser = Serial(sim.serial)
    try:
        ser.send({"cmd": "hello"})
        return ser.wait(lambda o: o.get("t") == "hello", timeout)
    finally:
        ser.close()


def test_flash_sends_only_what_changed_and_the_app_runs(sim, tmp_path):
    first = run("flash", "--port", sim.serial, "--board", "unix")
    assert first.returncode == 0, first.stderr
    assert "sent 32 files" in first.stdout or "sent" in first.stdout
    flash = tmp_path / "flash"
    assert (flash / "fw" / "current").read_text() == "a"
    assert (flash / "fw" / "a" / "app" / "core.mpy").exists()
    assert not (flash / "fw" / "a" / "app" / "core.py").exists()  # compiled
    assert hello(sim)["games"] == list(GAMES)
    again = run("flash", "--port", sim.serial, "--board", "unix")
    assert "sent 0 files (0 bytes)" in again.stdout, again.stdout
    assert hello(sim)["fw"]  # and the app runs again


def checkout(tree):
    """A copy of what $STONEGRID_ROOT needs of the checkout, to change before flashing it."""
    for folder in ("firmware", "shared_rules", "hardware"):
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(str(tree), folder),
                        ignore=shutil.ignore_patterns("__pycache__"))


def test_flash_of_a_changed_and_a_removed_file(sim, tmp_path):
    tree = tmp_path / "tree"
    checkout(tree)
    env = dict(os.environ, STONEGRID_ROOT=str(tree))
    assert run("flash", "--port", sim.serial, env=env).returncode == 0
    with open(tree / "shared_rules" / "record.py", "a") as f:
        f.write("\nCHANGED = 1\n")  # code: a comment alone compiles to the same .mpy
    os.remove(tree / "firmware" / "hal" / "cosmic.py")
    dry = run("flash", "--port", sim.serial, "--dry-run", env=env)
    assert "would send shared_rules/record.mpy" in dry.stdout and "would send 1 files" in dry.stdout
    out = run("flash", "--port", sim.serial, env=env)
    assert "sent 1 files" in out.stdout and "1 removed" in out.stdout, out.stdout
    slot = (tmp_path / "flash" / "fw" / "current").read_text()
    assert slot == "b" and not (tmp_path / "flash" / "fw" / "b" / "hal" / "cosmic.mpy").exists()
    assert hello(sim)["games"]


def test_interrupted_flash_still_boots(sim, tmp_path):
    assert run("flash", "--port", sim.serial).returncode == 0
    tree = tmp_path / "tree"
    checkout(tree)
    with open(tree / "firmware" / "app" / "core.py", "a") as f:  # a big change: a slow copy
        f.write("\n_PAD = (\n" + '    "%s"\n' % ("x" * 70) * 3000 + ")\n")
    env = dict(os.environ, STONEGRID_ROOT=str(tree))
    proc = subprocess.Popen(STONEGRID + ["flash", "--port", sim.serial], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sending = tmp_path / "flash" / "fw" / "b" / "app" / "core.mpy"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not sending.exists():
        time.sleep(0.005)
    assert sending.exists(), "the flash never started sending"
    proc.send_signal(signal.SIGKILL)  # in the middle of the copy
    proc.wait()
    assert sending.stat().st_size < 200000  # cut short
    assert (tmp_path / "flash" / "fw" / "current").read_text() == "a"
    sim.client.restart()
    assert hello(sim)["games"]


def test_logs_capture_replay_export_and_back(sim, tmp_path):
    assert run("flash", "--port", sim.serial).returncode == 0
    out = tmp_path / "logs"
    logs = subprocess.Popen(STONEGRID + ["logs", "--port", sim.serial, "--out", str(out),
                                         "--follow"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    import serial
    with serial.Serial(sim.serial, 115200) as port:  # write only: `logs` reads the port

        def send(cmd):
            port.write((json.dumps(cmd) + "\n").encode())
            port.flush()
            time.sleep(0.3)

        send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
        for move in ("d7", "a1", "d6", "a4", "d5", "xa1", "g1", "b2"):
            send({"cmd": "play", "action": move})
        send({"cmd": "undo"})
        wait_for_text(out, "*-morris.jsonl", '"undo"')
    time.sleep(1)
    logs.send_signal(signal.SIGTERM)
    stdout, stderr = logs.communicate(timeout=20)
    assert "d5" in stdout and "xa1" in stdout, stdout
    [path] = list(out.glob("*-morris.jsonl"))
    check = run("replay", str(path), "--to", "7", "--export", str(tmp_path / "game.txt"))
    assert check.returncode == 0, check.stderr
    text = (tmp_path / "game.txt").read_text()
    assert "1. d7 2. a1 3. d6 4. a4 5. d5xa1 6. g1 *" in text
    back = run("replay", str(tmp_path / "game.txt"), "--to", "7")
    assert back.returncode == 0 and "ply 7/7  g1" in back.stdout, back.stdout[-200:]
    gif = run("replay", str(path), "--gif", str(tmp_path / "game.gif"))
    assert gif.returncode == 0 and (tmp_path / "game.gif").read_bytes()[:6] == b"GIF89a"
    on_board = run("replay", str(path), "--device", "--port", sim.serial)
    assert on_board.returncode == 0, on_board.stderr
    frame = sim.client.wait_until(lambda f: len(f.lit()) > 20)
    assert frame is not None


@pytest.mark.parametrize("damage,why", [
    (lambda ls: ls[:2] + [ls[2][:15]], "line 3: not JSON"),
    (lambda ls: ls[:2] + [json.dumps(dict(json.loads(ls[2]), n="d7"))], "line 3: d7 is not legal"),
    (lambda ls: [json.dumps(dict(json.loads(ls[0]), game="chess"))] + ls[1:], "line 1: unknown game"),
    (lambda ls: ls[:1] + [json.dumps(dict(json.loads(ls[1]), v=2))], "line 2: format version 2"),
])
def test_replay_of_broken_logs_says_which_line(tmp_path, damage, why):
    lines = [json.dumps({"t": "game", "v": 1, "game": "morris", "options": {},
                         "players": ["human", "human"], "fw": "t"}),
             json.dumps({"t": "act", "v": 1, "ply": 1, "p": 0, "a": 5, "n": "d7"}),
             json.dumps({"t": "act", "v": 1, "ply": 2, "p": 1, "a": 0, "n": "a1"})]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(damage(lines)) + "\n")
    out = run("replay", str(path), "--to", "0")
    assert out.returncode != 0 and why in out.stderr and "Traceback" not in out.stderr, out.stderr
    path.write_bytes(b"\x00\xff\xfe binary\n")
    out = run("replay", str(path))
    assert out.returncode != 0 and "line 1: not UTF-8" in out.stderr


def test_cli_errors_are_clean(tmp_path):
    for args in (["flash", "--port", str(tmp_path / "nope")], ["replay", str(tmp_path / "x")],
                 ["flash", "--board", "toaster", "--port", "x"], ["logs", "--bogus"]):
        out = run(*args, timeout=30)
        assert out.returncode != 0 and "Traceback" not in out.stderr, (args, out.stderr)
        assert "error" in out.stderr, (args, out.stderr)


def test_flash_uf2_onto_a_bootsel_drive(tmp_path):
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n")
    uf2 = tmp_path / "RPI_PICO-v1.29.uf2"
    uf2.write_bytes(b"UF2\n" + bytes(508))
    out = run("flash", "--uf2", str(uf2), "--drive", str(drive))
    assert out.returncode == 0 and (drive / uf2.name).read_bytes() == uf2.read_bytes(), out.stderr
    (tmp_path / "junk.uf2").write_bytes(b"not a uf2")
    bad = run("flash", "--uf2", str(tmp_path / "junk.uf2"), "--drive", str(drive))
    assert bad.returncode == 2 and "not a UF2 file" in bad.stderr


def test_logs_started_mid_game_saves_the_whole_game_with_names(sim, tmp_path):
    assert run("flash", "--port", sim.serial).returncode == 0
    import serial
    with serial.Serial(sim.serial, 115200) as port:

        def send(cmd):
            port.write((json.dumps(cmd) + "\n").encode())
            port.flush()
            time.sleep(0.3)

        send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
        for move in ("d7", "a1", "d6", "a4"):
            send({"cmd": "play", "action": move})
        out = tmp_path / "logs"
        logs = subprocess.Popen(STONEGRID + ["logs", "--port", sim.serial, "--out", str(out),
                                             "--follow"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        for move in ("d5", "xa1", "g1"):
            send({"cmd": "play", "action": move})
        wait_for_text(out, "*.jsonl", '"g1"')
    logs.send_signal(signal.SIGTERM)
    stdout, stderr = logs.communicate(timeout=20)
    [path] = list(out.glob("*.jsonl"))
    assert path.name.endswith("-morris.jsonl"), path
    check = run("replay", str(path), "--to", "7")
    assert check.returncode == 0 and "ply 7/7  g1" in check.stdout, check.stderr
    assert "Red: d5" in stdout and "Green: g1" in stdout and "player" not in stdout, stdout


def test_logs_says_it_waits_for_a_port_that_is_not_there(tmp_path):
    logs = subprocess.Popen(STONEGRID + ["logs", "--port", str(tmp_path / "typo"), "--out",
                                         str(tmp_path / "logs"), "--wait"],
                            stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    logs.send_signal(signal.SIGTERM)
    _, stderr = logs.communicate(timeout=20)
    assert "waiting for %s (no such port" % (tmp_path / "typo") in stderr, stderr


def test_replay_names_the_winner_as_the_game_does(tmp_path):
    from helpers import random_game
    from shared_rules import load
    from stonegrid import records
    g = random_game(load("morris"), 3)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(records.to_records({"game": "morris", "fw": "t"}, g)) + "\n")
    out = run("replay", str(path), "--to", str(g.plies()))
    assert "%s wins" % load("morris").PLAYERS[g.result()[0]] in out.stdout, out.stdout[-300:]
    assert "player" not in out.stdout


def test_logs_keeps_every_action_once_across_power_cuts_that_beat_the_link(tmp_path):
    """The power goes after the board journalled an action (then, an undo) and before the
    link carried it: the flash has it, the serial line never came.  `logs`, following the
    board by a stable name as /dev/serial/by-id gives one, writes what it lacks once the
    board is back, and the file replays to the board's game."""
    import serial
    from shared_rules import record
    from shared_rules.reader import Reader
    flash, port = tmp_path / "flash", tmp_path / "board"
    journal = flash / "journal.jsonl"

    def on_flash():
        reader = Reader()
        with open(str(journal)) as f:
            for line in f:
                reader.feed(line)
        return reader.game

    def send(cmd):  # write only: `logs` reads the port
        with serial.Serial(str(port), 115200) as w:
            w.write((json.dumps(cmd) + "\n").encode())
            w.flush()

    board = spawn(flash)
    assert run("flash", "--port", board.serial).returncode == 0
    port.symlink_to(board.serial)
    out = tmp_path / "logs"
    logs = subprocess.Popen(STONEGRID + ["logs", "--port", str(port), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2)
        send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
        for move in ("d7", "a1", "d6"):
            time.sleep(0.3)
            send({"cmd": "play", "action": move})
        wait_for_text(out, "*-morris.jsonl", '"d6"')
        lines = 4  # in the file: the game record and three actions
        for lost in ("act", "undo"):
            board.stop()  # the power goes, and with it the port
            g = on_flash()
            if lost == "act":  # journalled, never sent
                a, p = g.legal()[0], g.to_move
                g.play(a)
                line = record.act_line(g.plies(), p, a, g.text(a))
            else:
                line = record.undo_line(g.plies())
                g.undo()
            with open(str(journal), "a") as f:
                f.write(line + "\n")
            board = spawn(flash)
            port.unlink()
            port.symlink_to(board.serial)
            time.sleep(1)
            send({"cmd": "play", "action": g.text(g.legal()[-1])})  # the game goes on
            lines += 2
            deadline = time.monotonic() + 30
            while (time.monotonic() < deadline and
                   len(next(out.glob("*-morris.jsonl")).read_text().splitlines()) < lines):
                time.sleep(0.2)
    finally:
        board.stop()
        logs.send_signal(signal.SIGTERM)
        _, stderr = logs.communicate(timeout=20)
    [path] = list(out.glob("*-morris.jsonl"))
    from stonegrid import replay
    _, g = replay.load(str(path))  # names the line of a gap or a repeat
    assert g.actions() == on_flash().actions() and g.plies() == 5, path.read_text()
    assert stderr.count("record lines the link lost") == 2, stderr


def test_logs_names_files_only_from_known_games_and_goes_on_after_a_bad_line(tmp_path):
    """A board's game field is never a path: a name with a NUL, a lone surrogate, a slash or
    300 characters is said once with its line and saved as 'unknown'; the capture goes on
    and saves the next game whole, and nothing is written outside --out."""
    from test_link_host import ScriptedBoard
    board = ScriptedBoard(str(tmp_path / "board"))
    out = tmp_path / "logs"
    logs = subprocess.Popen(STONEGRID + ["logs", "--port", board.path, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1)  # the port opened
        bad = ["nul\u0000x", "\ud800", "a/b", "../../escape", "x" * 300]
        for name in bad:
            board.write(b'{"t": "game", "v": 1, "game": %s, "options": {}, "players": [], '
                        b'"fw": ""}' % json.dumps(name).encode())
        good = records.to_records({"game": "morris", "players": ["human", "human"], "fw": ""},
                                  random_game(load("morris"), 1))
        for line in good:
            board.write(line.encode())
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not [
                p for p in out.glob("*-morris.jsonl") if len(p.read_text().splitlines()) ==
                len(good)]:
            time.sleep(0.1)
    finally:
        logs.send_signal(signal.SIGTERM)
        _, err = logs.communicate(timeout=20)
        board.close()
    assert logs.returncode == 0 and "Traceback" not in err, err
    names = sorted(p.name.split("-", 2)[2] for p in out.iterdir())
    assert names == sorted(["morris.jsonl"] + ["unknown%s.jsonl" % s for s in
                                               ["", "-2", "-3", "-4", "-5"]]), names
    for n, name in enumerate(bad, 1):
        assert err.count("line %d: the game " % n) == 1, err
    assert "went away" not in err and [p.name for p in tmp_path.iterdir()] == ["logs"]
    [morris] = out.glob("*-morris.jsonl")
    assert morris.read_text().splitlines() == good


def _port_error(argv):
    done = subprocess.run(STONEGRID + argv, capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("stonegrid: error: "), \
        done.stderr
    return done.stderr


@pytest.mark.parametrize("command", [["logs", "--port"], ["flash", "--dry-run", "--port"],
                                     ["replay", "GAME", "--device", "--port"], ["link"]])
def test_every_command_that_opens_a_port_fails_at_once_saying_why(tmp_path, command):
    """Missing, busy, not allowed or not a serial port: one line naming the port and why,
    status 1, at once (logs and link waited for ever on a typo)."""
    import pty
    import serial
    game = tmp_path / "game.jsonl"
    game.write_text("\n".join(records.to_records(
        {"game": "morris", "players": ["human", "human"], "fw": ""},
        random_game(load("morris"), 1, max_plies=4))) + "\n")
    argv = [str(game) if w == "GAME" else w for w in command]
    extra = [str(tmp_path / "other")] if command == ["link"] else []
    if command == ["link"]:
        os.mkfifo(str(tmp_path / "other"))  # never reached: the first port is checked first
    typo = str(tmp_path / "typo")
    assert "cannot open %s: no such port" % typo in _port_error(argv + [typo] + extra)
    assert "cannot open %s: not a serial port (a file)" % game in _port_error(
        argv + [str(game)] + extra)
    master, slave = pty.openpty()
    held = serial.Serial(os.ttyname(slave), exclusive=True)  # another program has it
    try:
        assert "cannot open %s: busy: another program has it open" % os.ttyname(slave) in \
            _port_error(argv + [os.ttyname(slave)] + extra)
    finally:
        held.close()
        os.close(master)
        os.close(slave)
