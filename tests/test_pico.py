"""The firmware, unchanged, on stock MicroPython in an emulated Raspberry Pi Pico (rp2040js
under Node): boot to the menu, an opening played by GPIO button presses with every frame
decoded from the WS2812 data pin equal to the view's own drawing, power cuts, mpremote."""
import ast
import json
import os
import random
import subprocess
import sys
import time

import littlefs
import pytest

import hal
from boardkit import Board, Serial, install_pico, serving
from stonegrid.pico import board, bootrom, image, stock
from stonegrid.build import repo_root, tool
from shared_rules import GAMES
from test_board import play_out, start_from_menu

PROFILE_FILE = os.path.join(repo_root(), "hardware", "pico-ws2812.json")
PROFILE = json.load(open(PROFILE_FILE))
# the profile's cap is below what its 4 A supply allows (hal.ws2812.power_cap): it is the level
SCALE = hal.scale_table(PROFILE["brightness_cap"])


@pytest.fixture()
def pico(tmp_path):
    if not os.path.isdir(os.path.join(repo_root(), "node_modules", "rp2040js")):
        pytest.fail("node_modules/rp2040js is missing: run `make play` or `npm ci`")
    yield from serving(Board(tmp_path / "flash", pico=True), timeout=60)


def test_boots_to_the_menu(pico):
    hello = pico.serial.ask({"cmd": "hello"})
    assert hello["games"] == list(GAMES)
    assert pico.client.status()["frames"] > 0  # the menu, decoded from the data pin


@pytest.mark.parametrize("game_id", GAMES)
def test_an_opening_by_gpio_buttons_frames_equal_the_view(pico, game_id):
    header = start_from_menu(pico, game_id)
    m, checked = play_out(pico, header, random.Random(3), scale=SCALE, opening=6)
    assert checked >= 3 and len(m.game.actions()) >= 6


def test_a_rhombus_turn_between_the_chip_and_a_virtual_board_through_stonegrid_link(
        pico, tmp_path):
    """Two boards, one game, the Pico's side bidding first: its commitment made with the
    chip's own sha256 and os.urandom, revealed after the other's; frames checked on both."""
    from test_link_boards import (linked_pair, play_by_presses, records, same_logs,
                                  start_game, stop, wait_for)
    from test_board import SCALE as UNIX_SCALE
    other = Board(tmp_path / "other", settings={"device_delay_ms": 0})
    boards, procs, out = linked_pair(tmp_path, boards=[pico, other])
    try:
        header = start_game(pico, "rhombus", SCALE)
        wait_for(lambda: [r for r in records(other) if r["t"] == "game"], "the game", 60)
        referee = play_by_presses(boards, header, random.Random(4), plies=4,
                                  scales=(SCALE, UNIX_SCALE))
        assert referee.plies() == 4 and not referee.hidden()
        assert '"t": "commit"' in pico.client.output()
    finally:
        stop(boards, procs)
    log = same_logs(out, ended=False)
    assert [r["ply"] for r in log if r["t"] == "act"] == [1, 2, 3, 4]


def test_power_cut_mid_game_resumes(pico):
    header = start_from_menu(pico, "morris")
    m, _ = play_out(pico, header, random.Random(5), scale=SCALE, opening=4)
    before = pico.serial.ask({"cmd": "state", "turns": True})
    boots = pico.client.status()["boots"]
    pico.client.kill()  # SIGKILL of the emulator: the flash file is all that is left
    pico.client.wait("boots", above=boots, timeout=30)
    pico.serial.wait(lambda o: o.get("t") == "resumed", timeout=60)
    after = pico.serial.ask({"cmd": "state", "turns": True})
    assert after["turns"] == before["turns"] == m.game.turns()


def test_mpremote_exec_over_the_pty(pico):
    port = pico.sim.serial
    pico.serial.close()
    out = subprocess.run([tool("mpremote"), "connect", port, "exec",
                          # the app is in the flashed slot, as main.py boots it
                          "import sys, gc; sys.path.insert(0, '/fw/' + open('/fw/current')"
                          ".read().strip()); import app.core, app.session, views.morris, shared_rules."
                          "morris_ai; gc.collect(); print(sys.platform, gc.mem_free())"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    platform, free = out.stdout.split()
    assert platform == "rp2" and int(free) > 100000
    print("free heap with the app loaded:", free)


def test_control_socket_png_of_the_decoded_frame(pico, tmp_path):
    pico.client.wait("seq", above=0, timeout=30)
    reply = pico.client.request("png", path=str(tmp_path / "menu.png"))
    assert (tmp_path / "menu.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and reply["bytes"] > 0


def _cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_sleeping_chip_keeps_real_time_and_leaves_the_host_core_free(pico):
    """rp2040js alone: an idle USB storm made time.sleep(2) take 11-13 s, and its run loop
    spun a core while the chip slept."""
    pico.serial.close()
    pid = pico.client.status()["pid"]
    out = subprocess.run([tool("mpremote"), "connect", pico.sim.serial, "exec",
                          "import time; t = time.ticks_ms(); time.sleep(2); "
                          "print(time.ticks_diff(time.ticks_ms(), t))"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and int(out.stdout) >= 2000, (out.stdout, out.stderr)
    cpu = _cpu_seconds(pid)
    start = time.monotonic()
    out = subprocess.run([tool("mpremote"), "connect", pico.sim.serial, "exec",
                          "import time; time.sleep(3)"], capture_output=True, timeout=60)
    wall = time.monotonic() - start
    assert out.returncode == 0 and 3 <= wall < 6, wall
    assert _cpu_seconds(pid) - cpu < 1.0  # of 3 s asleep


def test_machine_reset_reboots_the_chip_keeping_its_files(pico):
    pico.serial.close()
    boots = pico.client.status()["boots"]
    mp = [tool("mpremote"), "connect", pico.sim.serial]
    out = subprocess.run(mp + ["exec", "with open('kept.txt', 'w') as f: f.write('yes')",
                               "+", "reset"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    status = pico.client.wait("boots", above=boots, timeout=30)
    assert status["last_exit"] == 100  # the watchdog's reboot, not a crash
    out = subprocess.run(mp + ["exec", "print(open('kept.txt').read())"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "yes", (out.stdout, out.stderr)


def _pico_files(flash, change):
    """Edit the littlefs in the emulated Pico's flash file (the chip powered off):
    change(fs) with a littlefs-python filesystem mounted as the rp2 port mounts it."""
    path = os.path.join(str(flash), board.FLASH_FILE)
    with open(path, "rb") as f:
        flash_bytes = bytearray(f.read())
    fw = stock.load()
    start, end = fw.fs_offset, fw.fs_offset + fw.fs_bytes
    ctx = littlefs.UserContext(fw.fs_bytes)
    ctx.buffer[:] = flash_bytes[start:end]
    fs = littlefs.LittleFS(context=ctx, block_count=fw.fs_bytes // image.BLOCK,
                           **image.LFS_CONFIG)
    out = change(fs)
    flash_bytes[start:end] = ctx.buffer
    with open(path, "wb") as f:
        f.write(flash_bytes)
    return out


def _read(fs, name):
    with fs.open(name, "rb") as f:
        return f.read()


@pytest.mark.parametrize("case", ["broken line 4", "erased flash"])
def test_a_broken_journal_on_the_chip_keeps_the_good_prefix_and_says_so(tmp_path, case):
    """Issue 15's journal cases on the rp2 port's littlefs: a bad line resumes the good
    prefix and keeps the rest; erased flash (0xff) boots to the menu; one error line each."""
    from test_board_recovery import boot_error, morris_journal
    flash = tmp_path / "flash"
    install_pico(flash)
    lines = morris_journal(7)
    if case == "broken line 4":
        lines[3] = lines[3][:5] + b"#" + lines[3][6:]
    else:
        lines = [b"\xff\n"]

    def put(fs):
        with fs.open("journal.jsonl", "wb") as f:
            f.write(b"".join(lines))
    _pico_files(flash, put)
    b = Board(flash, pico=True, installed=True)
    try:
        err = boot_error(b, timeout=60)
        assert err["error"].startswith("journal line %d: " % (4 if lines[1:] else 1)), err
        state = b.serial.ask({"cmd": "state"})
        assert state["ply"] == 2 if lines[1:] else state["screen"] == "menu", state
    finally:
        b.close()
    if lines[1:]:
        kept = _pico_files(flash, lambda fs: (_read(fs, "journal.jsonl"),
                                              _read(fs, "journal-rest.jsonl")))
        assert kept == (b"".join(lines[:3]), b"".join(lines[3:]))


def test_stonegrid_flash_onto_the_chip_sends_only_what_changed(pico, tmp_path):
    """`stonegrid flash` over the chip's USB serial onto its littlefs: the image already holds
    this build (0 bytes sent); a changed file is sent, and the chip runs the new slot."""
    from test_tools import checkout, run
    port = pico.sim.serial
    pico.serial.close()
    again = run("flash", "--port", port, "--board", "pico-ws2812", timeout=240)
    assert again.returncode == 0 and "sent 0 files (0 bytes)" in again.stdout, again
    tree = tmp_path / "tree"
    checkout(tree)
    with open(str(tree / "firmware" / "app" / "session.py"), "a") as f:
        f.write("\nCHANGED = 1\n")  # a comment alone would compile to the same .mpy
    env = dict(os.environ, STONEGRID_ROOT=str(tree))
    changed = run("flash", "--port", port, "--board", "pico-ws2812", env=env, timeout=240)
    assert changed.returncode == 0 and "sent 1 files" in changed.stdout, changed
    ser = Serial(port)
    try:
        assert ser.ask({"cmd": "hello"}, timeout=60)["games"]  # the new slot boots
    finally:
        ser.close()


def test_a_thousand_garbage_lines_leave_the_game_and_the_link_whole(pico):
    from test_board import garbage_lines
    pico.serial.send({"cmd": "new", "game": "morris", "players": ["human", "human"]})
    pico.serial.wait(lambda o: o.get("t") == "game", timeout=60)
    before = pico.serial.ask({"cmd": "state"}, timeout=60)
    pico.serial.send(b"\n".join(garbage_lines(random.Random(7), 1000)) + b"\n")
    state = pico.serial.ask({"cmd": "state"}, timeout=240)
    assert state["position"] == before["position"] and state["ply"] == before["ply"]
    assert any("too long" in o["error"] for o in pico.serial.seen if o.get("t") == "error")
    pico.serial.send({"cmd": "play", "action": "d7"})
    pico.serial.wait(lambda o: o.get("t") == "act" and o.get("n") == "d7", timeout=60)


def test_logs_captures_a_game_on_the_chip_and_replay_validates_it(pico, tmp_path):
    """`stonegrid logs` on the chip's USB serial while a game is played there (the device
    answering), then `stonegrid replay` of the file it saved."""
    import serial
    from test_tools import STONEGRID, run
    port = pico.sim.serial
    pico.serial.close()
    out = tmp_path / "logs"
    logs = subprocess.Popen(STONEGRID + ["logs", "--port", port, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2)
        with serial.Serial(port, 115200) as link:  # write only: `logs` reads the port
            link.write(b'{"cmd": "new", "game": "morris", "players": ["human", "device:easy"]}\n')
            deadline = time.monotonic() + 90
            moves = iter(("d7", "a1", "g1", "g7", "b2", "f2", "b6", "f6", "d2", "d6", "c3", "e3"))
            while time.monotonic() < deadline:
                files = list(out.glob("*-morris.jsonl"))
                text = files[0].read_text() if files else ""
                if text.count('"act"') >= 6:
                    break
                if text.count('"act"') % 2 == 0 and text:  # the human's turn: the first legal
                    link.write(b'{"cmd": "play", "action": "%s"}\n' % next(moves).encode())
                time.sleep(1.5)
    finally:
        logs.terminate()
        logs.communicate(timeout=20)
    [path] = list(out.glob("*-morris.jsonl"))
    assert path.read_text().count('"act"') >= 6
    check = run("replay", str(path))
    assert check.returncode == 0, check.stderr


def test_a_flash_killed_midway_still_boots_the_old_slot(pico, tmp_path):
    from test_tools import STONEGRID, checkout
    port = pico.sim.serial
    pico.serial.close()
    tree = tmp_path / "tree"
    checkout(tree)
    with open(str(tree / "firmware" / "app" / "core.py"), "a") as f:  # a big change: a slow copy
        f.write("\n_PAD = (\n" + '    "%s"\n' % ("x" * 70) * 3000 + ")\n")
    env = dict(os.environ, STONEGRID_ROOT=str(tree))
    proc = subprocess.Popen(STONEGRID + ["flash", "--port", port, "--board", "pico-ws2812"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(6)  # compiled, and sending the big module
    assert proc.poll() is None, proc.communicate()
    proc.kill()
    proc.wait()
    pico.sim.client.kill()  # the power goes too; the chip comes back on its flash
    ser = Serial(port)
    try:
        assert ser.ask({"cmd": "hello"}, timeout=90)["games"]
    finally:
        ser.close()
    slot = subprocess.run([tool("mpremote"), "connect", port, "exec",
                           "print(open('/fw/current').read())"],
                          capture_output=True, text=True, timeout=60)
    assert slot.stdout.strip() == "a", slot  # the new slot was never made current


def test_micropython_boots_the_uf2_and_runs_the_app(tmp_path):
    """The emulated RP2040 (rp2040js, npm) boots what `stonegrid build --uf2` writes, laid
    on an erased flash as the boot ROM would: MicroPython mounts the littlefs as it is
    (rp2040js drops flash writes, so a reformat would leave it empty) and the app, read from
    /fw/a, says hello on USB serial."""
    uf2 = tmp_path / "stonegrid.uf2"
    image.save_uf2(str(uf2), PROFILE_FILE, stock.load())
    erased = bytearray(b"\xff" * image.FLASH_BYTES)
    for address, data in image.read_uf2(uf2.read_bytes()).items():
        erased[address - image.XIP_BASE:address - image.XIP_BASE + len(data)] = data
    flash = tmp_path / "flash.bin"
    flash.write_bytes(erased)
    done = subprocess.run(["node", os.path.join(repo_root(), "tests", "pico_boot.js"),
                           bootrom.path(), str(flash), '"t": "hello"', "60000"],
                          cwd=repo_root(), capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert '"games": %s' % json.dumps(list(GAMES)) in done.stdout, done.stdout


def test_the_unix_board_needs_no_smaller_a_share_of_its_heap_than_the_pico():
    """The memory guards run on the unix board at its default heap (engine.DEFAULT_HEAP,
    standing for the Pico's 240 KB): they hold only while the unix board needs at least as
    large a share of its heap as the Pico needs of its own for the same games
    (tests/bench/pico.py prints the figures for tests/bench/README.md)."""
    from stonegrid.sim.engine import DEFAULT_HEAP, heap_bytes
    sys.path.insert(0, os.path.join(repo_root(), "tests", "bench"))
    import pico as pico_bench
    config = pico_bench.share_config(GAMES, 4)
    figures = pico_bench.run(stock.load(), "share(free)", config, 900)[0]
    chip = [f for f in figures if f["figure"] == "share"]
    assert chip and chip[0]["platform"] == "rp2", figures
    unix = pico_bench.unix_share(config)
    assert unix["platform"] == "linux" and 0.95 < unix["heap"] / heap_bytes(DEFAULT_HEAP) <= 1
    assert pico_bench.print_shares(unix, chip[0]) >= 1.0


def test_the_chip_plays_solved_morris_endgames_from_the_table_in_its_flash(pico):
    """The table sits in the flash root, and the chip's choices from it are the host's."""
    from shared_rules import morris, morris_ai
    found = {}
    for text in ("..R.G.....G.G.....G.R.R. 0 0 0 0 - -",  # 3-3, won
                 "R........R.....G..GG...R 0 0 1 0 - -",  # 3-3, lost
                 "G.R....R..G.G.....R....G 0 0 0 0 - -",  # 4-3
                 "......G.G.......R.GRG..R 0 0 1 0 - -"):  # 3-4
        g = morris.Game()
        g.set_position(text)
        found[text] = g.text(morris_ai.perfect(g))
    port = pico.sim.serial
    pico.serial.close()
    out = subprocess.run([tool("mpremote"), "connect", port, "exec",
                          "import sys, os; sys.path.insert(0, '/fw/' + open('/fw/current')"
                          ".read().strip()); from shared_rules import morris, morris_ai\n"
                          "print('table', os.stat('morris_endgames.sgt')[6])\n"
                          "for t in %r:\n"
                          "    g = morris.Game(); g.set_position(t)\n"
                          "    print(repr(t), g.text(morris_ai.perfect(g)))" % sorted(found)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "table %d" % os.path.getsize(
        os.path.join(repo_root(), "shared_rules", "morris_endgames.sgt"))
    chip = dict(line.rpartition(" ")[::2] for line in lines[1:])
    assert dict((ast.literal_eval(t), a) for t, a in chip.items()) == found, out.stdout
