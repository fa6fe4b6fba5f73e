"""The virtual board (`stonegrid sim`), end to end: the real MicroPython unix port on a
pseudo-terminal, driven by the real mpremote and pyserial, and its control socket.

The flash holds a tiny test firmware of our own (not the project's), so these tests check the
board, not the app: a red cursor that buttons move, and an echo of serial lines."""
import fcntl
import hashlib
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

import pytest
import serial

from runtimes import tool
from stonegrid import led
from stonegrid.sim import BoardThread, Frame, SimError, png, spawn, sync
from stonegrid.sim.render import KeyReader, ansi_lines
from stonegrid.build import sources
from stonegrid.sim.engine import DEFAULT_HEAP
from stonegrid.sim.stdio import STDIN_HIGH
from stonegrid.sim.sync import repo_root

APP = r'''
# test firmware: a cursor on the LEDs moved by the buttons; serial lines are echoed back
import asyncio, os, socket, sys

W = H = 16
with open("boots.txt", "a") as f:  # power cuts must leave the flash intact
    f.write("boot\n")


async def main():
    host, port = os.getenv("STONEGRID_SIM").rsplit(":", 1)
    s = socket.socket()
    s.connect(socket.getaddrinfo(host, int(port))[0][-1])
    s.setblocking(False)
    s.send(bytes((72, W, H)))
    st = {"x": 0, "y": 0, "c": (255, 0, 0)}

    def show():
        f = bytearray(W * H * 3)
        i = (st["y"] * W + st["x"]) * 3
        f[i:i + 3] = bytes(st["c"])
        s.send(b"F" + f)

    async def buttons():
        dev = asyncio.StreamReader(s)
        while True:
            line = await dev.readline()
            if not line:
                return
            b, k = line.decode().split()
            dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1),
                      "down": (0, 1)}.get(b, (0, 0))
            st["x"] = (st["x"] + dx) % W
            st["y"] = (st["y"] + dy) % H
            if b == "ok":
                st["c"] = (0, 255, 0) if k == "press" else (0, 0, 255)
            print('{"button": "%s", "kind": "%s"}' % (b, k))
            show()

    show()
    asyncio.create_task(buttons())
    stdin = asyncio.StreamReader(sys.stdin.buffer)
    line = b""
    print("app ready")
    while True:
        c = await stdin.read(1)  # read(n) waits for n bytes: one at a time
        if c in (b"\r", b"\n"):
            if line:
                print("echo:", line.decode())
            line = b""
        else:
            line += c


asyncio.run(main())
'''

RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)


def _flash(path):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "main.py"), "w") as f:
        f.write(APP)
    return str(path)


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    flash = _flash(tmp_path_factory.mktemp("flash"))
    with spawn(flash) as s:
        s.flash = flash
        s.client.wait("hellos", 0, timeout=30)
        yield s
    assert s.proc.returncode == 0


def mpremote(sim, *args, timeout=60):
    try:
        r = subprocess.run([tool("mpremote"), "connect", sim.serial] + list(args),
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:  # show what the board said last
        raise AssertionError("mpremote %s hung; the board wrote: %r"
                             % (args, sim.client.output()[-3000:]))
    assert r.returncode == 0, "mpremote %s: %s%s" % (args, r.stdout, r.stderr)
    return r.stdout


def app_running(sim):
    """Power-cycle the board and wait until the test app shows its first frame."""
    st = sim.client.status()
    sim.client.restart()
    sim.client.wait("hellos", st["hellos"], timeout=30)
    return sim.client.wait_until(lambda f: f.pixel(0, 0) == RED, timeout=30)


def read_until(port, want, timeout=20):
    data = b""
    deadline = time.monotonic() + timeout
    while want not in data:
        if time.monotonic() > deadline:
            raise AssertionError("never got %r; got %r" % (want, data))
        data += port.read(port.in_waiting or 1)
    return data


def until(cond, timeout=20):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead too
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# ---------------------------------------------------------------- the command line
def test_help_and_bad_arguments(tmp_path):
    cmd = [sys.executable, "-m", "stonegrid.cli", "sim"]
    r = subprocess.run(cmd + ["--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--headless" in r.stdout and "--flash" in r.stdout
    for bad, why in ((["--heap", "lots"], "not a heap size"), (["--bogus"], "unrecognized"),
                     (["--heap", "4k"], "below 16k")):
        r = subprocess.run(cmd + bad, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and why in r.stderr and "Traceback" not in r.stderr, r.stderr
    # interactive needs a terminal; here stdin is not one
    r = subprocess.run(cmd + ["--flash", str(tmp_path), "--no-sync"], capture_output=True,
                       text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "--headless" in r.stderr and "Traceback" not in r.stderr


def test_sync_copies_only_changed_files(tmp_path):
    root, flash = tmp_path / "repo", tmp_path / "flash"
    for rel, text in (("firmware/main.py", "import app\n"), ("firmware/app/core.py", "x = 1\n"),
                      ("shared_rules/morris.py", "M = 1\n"), ("hardware/unix.json", "{}\n"),
                      ("firmware/app/__pycache__/core.cpython-311.pyc", "junk")):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    flash.mkdir()
    (flash / "journal.jsonl").write_text("keep me\n")
    (flash / "app").mkdir()
    (flash / "app" / "core.py").write_text("stale source\n")
    (flash / "fw" / "a").mkdir(parents=True)
    assert sorted(sync(str(flash), str(root))) == [
        "app/core.mpy", "board.json", "main.py", "shared_rules/morris.mpy"]
    assert (flash / "shared_rules" / "morris.mpy").read_bytes()[:1] == b"M"  # compiled
    assert not (flash / "app" / "core.py").exists() and not (flash / "fw").exists()
    assert sync(str(flash), str(root)) == []  # nothing changed: nothing written
    (root / "firmware/app/core.py").write_text("x = 2\n")
    assert sync(str(flash), str(root)) == ["app/core.mpy"]
    assert (flash / "journal.jsonl").read_text() == "keep me\n"
    assert not (flash / "app" / "__pycache__").exists()
    # the checkout this package was installed from is found, firmware and rules included
    here = repo_root()
    assert here and os.path.isfile(os.path.join(here, "pyproject.toml"))
    dests = [d for d, _ in sources(here)]
    assert "app/core.py" in dests and "shared_rules/__init__.py" in dests


def test_png_and_terminal_rendering():
    rgb = bytes([255, 0, 0] + [0, 0, 0] * 14 + [0, 0, 255]) + bytes(16 * 15 * 3)
    w, h, pixels = png.decode(png.matrix(16, 16, rgb, scale=8))
    gap = 1
    assert (w, h) == (16 * 8 + gap, 16 * 8 + gap)
    centre = lambda x, y: tuple(pixels[((gap + y * 8 + 3) * w + gap + x * 8 + 3) * 3:][:3])
    assert centre(0, 0) == RED and centre(15, 0) == BLUE and centre(1, 0) == led.OFF
    lines = ansi_lines(16, 16, rgb)
    assert len(lines) == 8 and "\x1b[38;2;255;0;0m" in lines[0]
    keys = KeyReader()
    assert keys.feed(b"\x1b[A\x1b[1;2Cq\r") == [("press", "up", False),
                                                 ("press", "right", True), ("quit",),
                                                 ("press", "ok", False)]
    assert keys.feed(b"\x1b") == [] and keys.feed(b"", final=True) == [("press", "back", False)]
    assert keys.feed(b"OB\x7f") == [("press", "ok", True), ("press", "back", True),
                                    ("press", "back", False)]


# ---------------------------------------------------------------- the running board
def test_control_socket_buttons_frames_png(sim, tmp_path):
    c = sim.client
    f = app_running(sim)
    assert f.lit() == {(0, 0): RED} and (f.width, f.height) == (16, 16)
    assert c.press("right") is True
    f = c.wait_until(lambda f: f.pixel(1, 0) == RED)
    c.press("down")
    c.press("ok", long=True)
    f = c.wait_until(lambda f: f.lit() == {(1, 1): BLUE})
    path = c.png(str(tmp_path / "shot.png"), scale=4)
    w, h, pixels = png.decode(open(path, "rb").read())
    assert pixels[((1 + 1 * 4 + 1) * w + 1 + 1 * 4 + 1) * 3:][:3] == bytes(BLUE)
    assert png.decode(c.png(scale=2))[0] == 16 * 2  # no path: the bytes come back
    with pytest.raises(SimError, match="unknown button"):
        c.press("select")
    with pytest.raises(SimError, match="unknown command"):
        c.request("fly")
    st = c.status()
    assert st["serial"] == sim.serial and st["heap"] == DEFAULT_HEAP and st["running"]
    # the firmware finds as much heap free as a bare `micropython -X heapsize=...` script,
    # not the heap minus the board shell's share
    bare = subprocess.run([tool("micropython"), "-X", "heapsize=" + DEFAULT_HEAP, "-c",
                           "import gc; gc.collect(); print(gc.mem_free())"],
                          capture_output=True, text=True, timeout=60)
    assert abs(st["free_at_main"] - int(bare.stdout)) < 2048, (st["free_at_main"], bare.stdout)


def test_pyserial_talks_to_the_app(sim):
    app_running(sim)
    with serial.Serial(sim.serial, 115200, timeout=0.2) as port:
        port.write(b"hello board\r")
        assert b"echo: hello board\r\n" in read_until(port, b"echo: hello board\r\n")
        sim.client.press("left")  # the app reports button presses on the serial line
        read_until(port, b'{"button": "left", "kind": "press"}\r\n')
    # what the board writes while no program has the port open is gone, as with USB
    out = sim.client.status()["out_total"]
    sim.client.press("down")
    sim.client.wait("out_total", out)  # the app wrote its line, to nobody
    with serial.Serial(sim.serial, 115200, timeout=0.2) as port:
        until(lambda: sim.client.status()["serial_open"])
        sim.client.press("up")
        got = read_until(port, b'"up"')
        assert b"down" not in got



def test_ctrl_c_stops_the_app_and_the_repl_answers(sim):
    app_running(sim)
    with serial.Serial(sim.serial, 115200, timeout=0.2) as port:
        port.write(b"\x03")
        got = read_until(port, b">>> ")
        assert b"KeyboardInterrupt" in got and b'File "main.py"' in got
        assert b"boardshell" not in got  # the shell's own frames are not shown
        port.write(b"6 * 7\r")
        assert b"42\r\n>>> " in read_until(port, b"42\r\n>>> ")
        # text is cooked ("\n" goes out as "\r\n"), bytes written to .buffer are not
        port.write(b"import sys; print('a'); sys.stdout.buffer.write(b'A\\nB\\x10C')\r")
        assert b"a\r\nA\nB\x10C5\r\n>>> " in read_until(port, b"5\r\n>>> ")
        port.write(b"for i in range(2):\r")  # a compound statement, auto-indented
        port.write(b"print('n', i)\r\x08\r")
        assert b"n 1\r\n>>> " in read_until(port, b"n 1\r\n>>> ")
        port.write(b"\x05")  # paste mode: lines as they are, run on Ctrl-D
        read_until(port, b"paste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        port.write(b"def f():\r    return 40\rprint('pasted', f() + 2)\r\x04")
        read_until(port, b"pasted 42\r\n>>> ")
        port.write(b"\x03")  # Ctrl-C at the prompt: a fresh prompt
        read_until(port, b">>> ")
        # Ctrl-D at the prompt: soft reset, main.py runs again
        hellos = sim.client.status()["hellos"]
        port.write(b"\x04")
        read_until(port, b"MPY: soft reboot\r\napp ready\r\n")
    sim.client.wait("hellos", hellos, timeout=30)


def test_mpremote_fs_exec_run(sim, tmp_path):
    app_running(sim)
    out = mpremote(sim, "fs", "ls")
    assert "main.py" in out and str(len(APP.encode())) in out  # sizes, as on a board
    data = os.urandom(20000)  # bigger than a raw-paste window many times over
    (tmp_path / "up.bin").write_bytes(data)
    mpremote(sim, "fs", "cp", str(tmp_path / "up.bin"), ":up.bin", "+",
             "fs", "mkdir", ":d", "+", "fs", "cp", str(tmp_path / "up.bin"), ":d/x.bin")
    assert open(os.path.join(sim.flash, "up.bin"), "rb").read() == data
    mpremote(sim, "fs", "cp", ":d/x.bin", str(tmp_path / "down.bin"))
    assert (tmp_path / "down.bin").read_bytes() == data
    out = mpremote(sim, "exec", "import os, machine; print(sorted(os.listdir('/')), "
                   "len(machine.unique_id()))")
    assert "['boots.txt', 'd', 'main.py', 'up.bin'] 8" in out  # '/' is the flash
    script = tmp_path / "script.py"
    script.write_text("# a comment to make the script long: %s\n" % ("x" * 60) * 150
                      + "def f(n):\n    return sum(range(n))\n\nprint('total', f(2001))\n")
    assert "total 2001000" in mpremote(sim, "run", str(script))  # 10 KB through raw paste
    r = subprocess.run([tool("mpremote"), "connect", sim.serial, "exec", "1/0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "ZeroDivisionError" in r.stdout + r.stderr
    # mpremote mount speaks binary both ways (bytes 3, 10 and 16 included)
    (tmp_path / "mnt").mkdir()
    (tmp_path / "mnt" / "blob.bin").write_bytes(data[:3000] + bytes(range(256)))
    out = mpremote(sim, "mount", str(tmp_path / "mnt"), "exec",
                   "import hashlib, binascii; print('sha', binascii.hexlify(hashlib.sha256("
                   "open('blob.bin', 'rb').read()).digest()).decode())")
    assert "sha " + hashlib.sha256(data[:3000] + bytes(range(256))).hexdigest() in out
    mpremote(sim, "fs", "rm", ":d/x.bin", "+", "fs", "rmdir", ":d", "+", "fs", "rm", ":up.bin")
    assert not os.path.exists(os.path.join(sim.flash, "up.bin"))


def test_ctrl_c_reaches_busy_code_and_kbd_intr_off_passes_it_as_data(sim):
    app_running(sim)
    # mpremote leaves the board busy in a loop; the next mpremote interrupts it
    r = subprocess.run([tool("mpremote"), "connect", sim.serial, "exec", "--no-follow",
                        "while True: pass"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "5\n" in mpremote(sim, "exec", "print(2 + 3)")
    with serial.Serial(sim.serial, 115200, timeout=0.2) as port:
        port.write(b"\x02")  # out of the raw REPL that mpremote left
        read_until(port, b">>> ")
        # with Ctrl-C switched off, byte 3 is data for the program, as on a board
        port.write(b"import micropython, sys; micropython.kbd_intr(-1); "
                   b"print('got', sys.stdin.buffer.read(2))\r")
        until(lambda: sim.client.status()["ctrl_c"] == "data")  # told out of band
        port.write(b"\x03x")
        read_until(port, b"got b'\\x03x'\r\n>>> ")
        port.write(b"micropython.kbd_intr(3)\r")
        until(lambda: sim.client.status()["ctrl_c"] == "signal")
        port.write(b"import time\rwhile True: print('spin') or time.sleep(1)\r\r")
        read_until(port, b"\nspin\r\n")  # running (not the echo of the line)
        port.write(b"\x03")
        assert b"KeyboardInterrupt" in read_until(port, b"KeyboardInterrupt: \r\n>>> ")


def test_input_the_board_does_not_read_holds_back_the_serial_port(sim):
    app_running(sim)
    total = 1024 * 1024
    with serial.Serial(sim.serial, 115200, timeout=0.2) as port:
        port.write(b"\x03")
        read_until(port, b">>> ")
        # the program sleeps before it reads: the input waits on the host, up to a bound,
        # and then the serial port is not read (a writer blocks) until the board catches up
        port.write(b"exec('import sys, time\\ntime.sleep(3)\\nn = 0\\nwhile n < %d: n += "
                   b"len(sys.stdin.buffer.read(4096))\\nprint(\\'read\\', n)')\r" % total)
        read_until(port, b"\r\n")  # the line's echo: the program runs
        writer = threading.Thread(target=port.write, args=(b"x" * total,))
        writer.start()
        most = 0
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline:
            most = max(most, sim.client.status()["input_waiting"])
            time.sleep(0.01)
        assert STDIN_HIGH < most <= STDIN_HIGH + 65536, most  # at most one read of the pty more
        assert writer.is_alive()  # held back
        read_until(port, b"read %d\r\n>>> " % total, timeout=60)  # nothing lost
        writer.join()
    assert sim.client.status()["input_waiting"] == 0


def test_binary_garbage_then_mpremote_still_works(sim):
    app_running(sim)
    boots = sim.client.status()["boots"]
    rnd = random.Random(11)
    with serial.Serial(sim.serial, 115200, timeout=0.1) as port:
        for _ in range(100):  # random bytes, Ctrl-C (3), Ctrl-A, Ctrl-D ... included
            port.write(bytes(rnd.getrandbits(8) for _ in range(500)))
            port.read(port.in_waiting)
    # as on a board, Ctrl-C drops the input not read yet, so mpremote gets through at once
    assert "42" in mpremote(sim, "exec", "print(6 * 7)", timeout=30)
    assert sim.client.status()["boots"] == boots  # the board shell never fell over


def test_mpremote_soft_reset_and_reset(sim):
    c = sim.client
    app_running(sim)
    st = c.status()
    mpremote(sim, "soft-reset")  # from the raw REPL: like a board, main.py does not run
    assert c.status()["boots"] == st["boots"]
    out = mpremote(sim, "exec", "import machine; print('cause', machine.reset_cause())")
    assert "cause 1" in out  # PWRON_RESET: a soft reset does not change it
    mpremote(sim, "reset")  # machine.reset(): a new process, the app runs again
    st2 = c.wait("hellos", st["hellos"], timeout=30)
    assert st2["boots"] == st["boots"] + 1 and st2["last_exit"] == 100
    assert st2["serial"] == st["serial"]
    out = mpremote(sim, "exec", "import machine; print('cause', machine.reset_cause())")
    assert "cause 2" in out  # HARD_RESET


def test_power_cut_restarts_with_flash_intact(sim):
    c = sim.client
    app_running(sim)
    boots_txt = os.path.join(sim.flash, "boots.txt")
    before = open(boots_txt).read().count("boot")
    st = c.status()
    pid = c.kill()
    assert pid == st["pid"]
    st2 = c.wait("hellos", st["hellos"], timeout=30)
    assert st2["pid"] != pid and not alive(pid) and st2["boots"] == st["boots"] + 1
    c.wait_until(lambda f: f.pixel(0, 0) == RED)
    assert open(boots_txt).read().count("boot") == before + 1
    assert "main.py" in mpremote(sim, "fs", "ls")  # same pty path, still a board


def test_a_program_that_fills_the_heap_still_leaves_a_repl(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text("junk = []\nwhile True:\n    junk.append(bytearray(200))\n")
    with BoardThread(str(flash)) as b:
        until(lambda: ">>> " in b.client.output())  # kept even with the port closed
        got = b.client.output()
        assert 'File "main.py", line 3' in got and "MemoryError" in got
        assert "boardshell" not in got
        with serial.Serial(b.serial, 115200, timeout=0.2) as port:
            port.write(b"6 * 7\r")
            read_until(port, b"42\r\n>>> ")
        assert b.client.status()["boots"] == 1  # no crash, no restart


def test_headless_stops_cleanly(tmp_path):
    flash = _flash(tmp_path / "flash")
    with spawn(flash) as s:
        pid = s.client.wait("hellos", 0, timeout=30)["pid"]
        assert alive(pid)
        s.proc.send_signal(signal.SIGINT)  # Ctrl-C in the terminal that runs it
        assert s.proc.wait(20) == 0
    until(lambda: not alive(pid))
    with spawn(flash) as s:  # the host itself killed: the board goes with it
        pid = s.client.wait("hellos", 0, timeout=30)["pid"]
        s.proc.kill()
        s.proc.wait(20)
        until(lambda: not alive(pid))


def test_interactive_terminal(tmp_path):
    flash = _flash(tmp_path / "flash")
    pid, fd = pty.fork()
    if pid == 0:  # the child: `stonegrid sim` in a terminal
        try:
            os.execv(sys.executable, [sys.executable, "-m", "stonegrid.cli", "sim",
                                      "--flash", flash, "--no-sync"])
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    out = b""

    def until_shown(what, timeout=30):
        nonlocal out
        deadline = time.monotonic() + timeout
        while what not in out:
            if time.monotonic() > deadline:
                raise AssertionError("never shown: %r" % what)
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
    try:
        until_shown(b"firmware connected")
        until_shown(b"\x1b[38;2;255;0;0m")  # the red cursor, in true colour
        assert b"serial:  /dev/pts/" in out and b"Shift+arrow" in out
        os.write(fd, b"\x1b[1;2C")  # Shift+Right: a long press of right
        until_shown(b'{"button": "right", "kind": "long"}')
        os.write(fd, b"q")
        until_shown(b"\x1b[?1049l")  # the terminal is given back
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


def test_board_in_a_thread(tmp_path):
    flash = _flash(tmp_path / "flash")
    with BoardThread(flash, heap="128k") as b:
        f = b.client.wait_until(lambda f: f.pixel(0, 0) == RED, timeout=30)
        assert isinstance(f, Frame) and b.client.status()["heap"] == "128k"
        pid = b.client.status()["pid"]
    assert not alive(pid)
