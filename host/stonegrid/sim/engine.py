"""The virtual board, host side: MicroPython on a pseudo-terminal, LEDs, buttons, control.

One asyncio loop runs:
  - the `micropython` process (boardshell.py on the flash directory), restarted when it exits
    (hard reset, power cut, crash) with the same pty, the same device port, the flash intact;
  - the relay between the pty (the board's "USB serial") and the process's stdin/stdout: byte
    0x03 becomes SIGINT (a board raises KeyboardInterrupt and does not deliver the byte), a lone
    "\\n" from the board goes out as "\\r\\n" (a board cooks its text output), output is dropped
    while no program has the serial port open (like USB CDC with no host listening);
  - the device channel the firmware's unix HAL connects to (frames in, button events out);
  - the control socket (JSON lines) for tests and tools.
"""
import asyncio
import base64
import ctypes
import fcntl
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import termios
import time
import tty

from stonegrid.sim import png
from stonegrid.build import mpy_cross
from stonegrid.sim.sync import BOARDREPL, BOARDSHELL, micropython_path

EXIT_OFF = 0  # boardshell: stdin closed by the host
EXIT_RESET = 100  # boardshell: machine.reset()
BUTTONS = ("up", "down", "left", "right", "ok", "back")
KINDS = ("press", "long")
OUTPUT_KEEP = 64 * 1024  # serial output kept for the `output` command and the UI
PTY_BUFFER = 1024 * 1024  # board output waiting for a slow serial reader; older is dropped
STDIN_HIGH = 256 * 1024  # stop reading the pty while this much input waits for the board
STDIN_PIPE = 4096  # the pipe into the board holds little, like a board's input buffer
INTR_HOLD = 2.0  # after Ctrl-C, input waits this long at most for the board to take it
SIGINT_GAP = 0.03  # the unix port exits on a second SIGINT before it handled the first
# boardshell.py's own code and data stay in the heap (a board's REPL lives in flash): the
# process gets this much more than --heap, so that main.py finds as much free heap as a bare
# `micropython -X heapsize=<--heap>` script does (tests/test_sim.py checks it)
SHELL_HEAP = 17 * 1024
_LONE_NL = re.compile(rb"(?<!\r)\n")

try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None


def _child_setup():
    # in the child, before exec: die with the host (the thread that started us)
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _sweep_scratch():
    """Remove the scratch directories of virtual boards whose host was killed."""
    base = tempfile.gettempdir()
    for name in os.listdir(base):
        m = re.match(r"stonegrid-sim-(\d+)-", name)
        if not m:
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue  # still running
        except ProcessLookupError:
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)
        except OSError:  # someone else's process
            continue


class ControlError(Exception):
    pass


def check_press(button, kind):
    if button not in BUTTONS:
        raise ControlError("unknown button %r (one of %s)" % (button, ", ".join(BUTTONS)))
    if kind not in KINDS:
        raise ControlError("unknown kind %r (press or long)" % (kind,))


# The MicroPython heap of the virtual board stands for a Raspberry Pi Pico (RP2040, the DIY
# board): MicroPython's rp2 port, emulated, has 241,712 bytes free after boot (16-byte GC
# blocks), and the 64-bit unix port needs about 1.5x the heap for the same objects
# (hardware/README.md), so 1.5 x 241,712 = 362,568 bytes, rounded down to whole KB.  The
# tests and benchmarks that guard memory pass a smaller --heap (96k).
DEFAULT_HEAP = "354k"


def heap_bytes(text):
    """96k -> 98304; 2m; 131072."""
    m = re.fullmatch(r"(\d+)([kKmM]?)", str(text).strip())
    if not m:
        raise ValueError("not a heap size: %r" % (text,))
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]


class Board:
    """The virtual board. Use from an asyncio loop: `await start()`, ..., `await stop()`."""

    def __init__(self, flash, heap=DEFAULT_HEAP, micropython=None, control_port=0, log=None):
        self.flash = os.path.abspath(flash)
        self.heap = heap
        self.heapsize = heap_bytes(heap) + SHELL_HEAP  # what micropython gets
        self.free_at_main = None  # gc.mem_free() just before main.py last started
        self.micropython = micropython or micropython_path()
        self.control_port = control_port
        self.log = log or (lambda msg: None)
        self.serial = None  # the pty path
        self.control = None  # "127.0.0.1:PORT"
        self.device_port = None
        self.proc = None
        self.boots = 0  # processes started
        self.ups = 0  # boardshell reported itself running
        self.exits = 0
        self.last_exit = None
        self.hellos = 0  # device connections that said hello
        self.frames = 0  # frames received
        self.seq = 0  # frames that differed from the one before
        self.width = self.height = 16
        self.frame = None  # RGB bytes as shown; None while nothing drives the LEDs
        self.out_total = 0
        self.output = bytearray()  # the last OUTPUT_KEEP bytes the board wrote (cooked)
        self.listeners = []  # callables(event) -- "frame", "output", "status"
        self._loop = None
        self._master = None
        self._client = False  # some program has the pty open
        self._pty_out = bytearray()
        self._writing = False
        self._reading = False
        self._input_paused = False
        self._in_fd = None  # the write end of the board's stdin pipe
        self._in_buf = bytearray()  # input the board has not got yet
        self._held = bytearray()  # input after a Ctrl-C the board has not taken yet
        self._in_writing = False
        self._outstanding = 0  # Ctrl-Cs sent that the board has not acknowledged
        self._hold_timer = None
        self._up = False  # boardshell runs (its SIGINT handler is in place)
        self._intr_deferred = False  # a Ctrl-C that came before that
        self._last_cr = False
        self._dle = False
        self._note = None  # a note from boardshell being read
        self._sigint_mode = True
        self._last_sigint = 0.0
        self._sigint_pending = False
        self._dev_writer = None
        self._servers = []
        self._tasks = set()
        self._changed = None
        self._stopping = False
        self._stopped = None
        self._power_cycle = False
        self._restart_now = None
        self._tmp = None

    # ---------------------------------------------------------------- life cycle
    async def start(self):
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Condition()
        self._stopped = asyncio.Event()
        self._restart_now = asyncio.Event()
        os.makedirs(self.flash, exist_ok=True)
        _sweep_scratch()
        # the board shell's /.sim: its REPL code and the code mpremote sends
        self._tmp = tempfile.mkdtemp(prefix="stonegrid-sim-%d-" % os.getpid())
        self._install_repl()
        master, slave = os.openpty()
        self.serial = os.ttyname(slave)
        tty.setraw(slave)
        os.close(slave)  # we do not hold the slave: POLLHUP on the master = nobody listening
        os.set_blocking(master, False)
        self._master = master
        self._check_client()
        dev = await asyncio.start_server(self._device, "127.0.0.1", 0)
        self.device_port = dev.sockets[0].getsockname()[1]
        ctl = await asyncio.start_server(self._control, "127.0.0.1", self.control_port,
                                         limit=1 << 20)
        self.control = "127.0.0.1:%d" % ctl.sockets[0].getsockname()[1]
        self._servers = [dev, ctl]
        self._spawn_task(self._supervise())
        await self.wait(lambda: self.boots > 0, 30)

    async def stop(self):
        if self._stopping:
            await self._stopped.wait()
            return
        self._stopping = True
        self._restart_now.set()
        await self._end_process(graceful=True)
        for s in self._servers:
            s.close()
        if self._dev_writer is not None:
            self._dev_writer.close()
        for t in list(self._tasks):
            if t is not asyncio.current_task():
                t.cancel()
        for s in self._servers:
            try:
                await asyncio.wait_for(s.wait_closed(), 2)
            except (asyncio.TimeoutError, Exception):
                pass
        if self._master is not None:
            self._loop.remove_reader(self._master)
            self._loop.remove_writer(self._master)
            os.close(self._master)
            self._master = None
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._stopped.set()

    def _install_repl(self):
        """boardrepl.py into the scratch directory as _simrepl.mpy (precompiled: loading it
        needs little heap, even after a program that ran out of memory), else as .py."""
        mpy = os.path.join(self._tmp, "_simrepl.mpy")
        try:
            subprocess.run([mpy_cross(), "-s", "boardrepl.py", "-o", mpy, BOARDREPL],
                           check=True, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            self.log("mpy-cross failed (%s); the REPL is compiled on the board" % e)
            shutil.copy(BOARDREPL, os.path.join(self._tmp, "_simrepl.py"))

    async def wait_stopped(self):
        await self._stopped.wait()

    def _spawn_task(self, coro):
        t = self._loop.create_task(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)
        return t

    def _notify(self, event):
        for f in list(self.listeners):
            try:
                f(event)
            except Exception as e:  # a listener must not stop the board
                self.log("listener failed: %r" % e)
        self._spawn_task(self._notify_waiters())

    async def _notify_waiters(self):
        async with self._changed:
            self._changed.notify_all()

    async def wait(self, pred, timeout):
        """Until pred() is true (checked whenever something changes); False on timeout."""
        async def waiter():
            async with self._changed:
                await self._changed.wait_for(pred)
        try:
            await asyncio.wait_for(waiter(), timeout)
            return True
        except asyncio.TimeoutError:
            return pred()

    # ---------------------------------------------------------------- the process
    async def _supervise(self):
        cause = "power"
        quick_fails = 0
        while not self._stopping:
            env = dict(os.environ, STONEGRID_SIM="127.0.0.1:%d" % self.device_port,
                       STONEGRID_RESET_CAUSE=cause, STONEGRID_SIM_TMP=self._tmp)
            started = time.monotonic()
            try:
                if not any(os.path.isfile(os.path.join(self._tmp, "_simrepl" + ext))
                           for ext in (".mpy", ".py")):
                    os.makedirs(self._tmp, exist_ok=True)  # a tmp cleaner was here
                    self._install_repl()
                rfd, wfd = os.pipe()
                try:
                    fcntl.fcntl(wfd, fcntl.F_SETPIPE_SZ, STDIN_PIPE)
                except (OSError, AttributeError):
                    pass
                os.set_blocking(wfd, False)
                try:
                    proc = await asyncio.create_subprocess_exec(
                        self.micropython, "-X", "heapsize=%d" % self.heapsize, BOARDSHELL,
                        self.flash, stdin=rfd, stdout=asyncio.subprocess.PIPE,
                        stderr=asyncio.subprocess.STDOUT,  # a board has one serial line
                        env=env, start_new_session=True, preexec_fn=_child_setup)
                except OSError:
                    os.close(wfd)
                    raise
                finally:
                    os.close(rfd)
            except OSError as e:
                self.log("cannot start %s: %s" % (self.micropython, e))
                self.last_exit = None
                await self._pause(5)
                continue
            self.proc = proc
            self._in_fd = wfd
            self._up = self._intr_deferred = False
            self._sigint_mode = True
            self._last_cr = self._dle = False
            self._note = None
            self.boots += 1
            self._notify("status")
            if self._client and not self._reading:
                self._start_reading()
            pumps = [self._spawn_task(self._pump_out(proc))]
            rc = await proc.wait()
            await asyncio.gather(*pumps, return_exceptions=True)
            self.proc = None
            self._close_stdin()  # the input it had not read is lost, as on a board
            self.exits += 1
            self.last_exit = rc
            self._device_gone()
            self._notify("status")
            if self._stopping:
                break
            if rc == EXIT_RESET:
                cause, delay = "reset", 0
                self.log("hard reset")
            elif self._power_cycle:
                cause, delay = "power", 0.1
            else:
                cause = "power"
                quick_fails = quick_fails + 1 if time.monotonic() - started < 2 else 0
                delay = min(5.0, 0.2 * 2 ** quick_fails) if quick_fails else 0.2
                self.log("micropython exited with code %s; power-cycling the board in %.1f s"
                         % (rc, delay))
            self._power_cycle = False
            await self._pause(delay)

    async def _pause(self, delay):
        self._restart_now.clear()
        try:
            await asyncio.wait_for(self._restart_now.wait(), delay)
        except asyncio.TimeoutError:
            pass

    async def _end_process(self, graceful):
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        if graceful:  # the serial line closes, then the power goes
            self._close_stdin()
            try:
                proc.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                await asyncio.wait_for(proc.wait(), 3)
                return
            except asyncio.TimeoutError:
                pass
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        await proc.wait()

    def kill(self):
        """Power cut: SIGKILL the process; the board comes back on by itself."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return None
        self._power_cycle = True
        proc.kill()
        return proc.pid

    async def restart(self, timeout=30):
        """Power cycle: kill the process, start a fresh one, return when it runs."""
        boots = self.boots
        if self.kill() is None:
            self._restart_now.set()
        ok = await self.wait(lambda: self.boots > boots and self.proc is not None, timeout)
        if not ok:
            raise ControlError("the board did not come back within %s s" % timeout)

    async def _pump_out(self, proc):
        while True:
            data = await proc.stdout.read(65536)
            if not data:
                return
            cooked = self._cook(data)
            self.out_total += len(cooked)
            self.output += cooked
            if len(self.output) > OUTPUT_KEEP:
                del self.output[:len(self.output) - OUTPUT_KEEP]
            self._to_pty(cooked)
            self._notify("output")

    def _cook(self, data):
        """The board's output as a board sends it: a lone "\n" (print, sys.stdout.write)
        becomes "\r\n"; 0x10 X is X exactly (sys.stdout.buffer, escaped by boardshell);
        0x10 0x00 <text> "\n" is a note from boardshell to us."""
        if not self._dle and self._note is None and b"\x10" not in data:
            out = _LONE_NL.sub(b"\r\n", data)
            if self._last_cr and data[:1] == b"\n":
                out = out[1:]  # that "\r" went out with the previous chunk
            self._last_cr = data[-1:] == b"\r"
            return out
        out = bytearray()
        for byte in data:
            if self._note is not None:
                if byte == 10:
                    note, self._note = bytes(self._note).decode("ascii", "replace"), None
                    try:
                        self._on_note(note)
                    except ValueError:
                        self.log("a garbled note from the board: %r" % note)
                else:
                    self._note.append(byte)
                continue
            if self._dle:
                self._dle = False
                if byte == 0:
                    self._note = bytearray()
                    continue
                out.append(byte)
            elif byte == 0x10:
                self._dle = True
                continue
            elif byte == 10 and not self._last_cr:
                out += b"\r\n"
            else:
                out.append(byte)
            self._last_cr = byte == 13
        return bytes(out)

    def _on_note(self, note):
        if note == "up":
            self.ups += 1
            self._up = True
            if self._intr_deferred:  # Ctrl-C during power-up: it stops boot.py/main.py
                self._intr_deferred = False
                self._send_sigint(self.proc)
            self._notify("status")
        elif note == "reset":  # machine.reset(): make sure it happens
            proc = self.proc
            self._loop.call_later(1.0, self._force_exit, proc)
        elif note.startswith("free "):
            self.free_at_main = int(note[5:])
        elif note == "intr":  # it took a Ctrl-C and dropped its unread input
            self._outstanding = max(0, self._outstanding - 1)
            if not self._outstanding:
                self._release()
        elif note.startswith("intr "):
            self._sigint_mode = note != "intr -1"
            self._notify("status")

    def _force_exit(self, proc):
        if proc is not None and proc.returncode is None:
            proc.kill()

    # ---------------------------------------------------------------- the serial port
    def _check_client(self):
        if self._master is None:
            return
        p = select.poll()
        p.register(self._master, select.POLLIN)
        events = p.poll(0)
        if events and events[0][1] & select.POLLHUP:
            self._loop.call_later(0.02, self._check_client)
            return
        self._client = True
        self._start_reading()
        self._notify("status")

    def _start_reading(self):
        if not self._reading and not self._input_paused and self._master is not None:
            self._loop.add_reader(self._master, self._on_master)
            self._reading = True

    def _stop_reading(self):
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def _client_gone(self):
        self._stop_reading()
        if self._writing:
            self._loop.remove_writer(self._master)
            self._writing = False
        self._client = False
        self._pty_out.clear()
        try:  # what the last program left unread must not greet the next one
            fd = os.open(self.serial, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            try:
                while os.read(fd, 65536):
                    pass
            except OSError:
                pass
            tty.setraw(fd, termios.TCSANOW)  # not TCSAFLUSH: a new program may be here
            os.close(fd)
        except OSError:
            pass
        self._notify("status")
        self._loop.call_later(0.02, self._check_client)

    def _on_master(self):
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._client_gone()
            return
        self._from_pty(data)

    def _from_pty(self, data):
        if self.proc is None or self.proc.returncode is not None or self._in_fd is None:
            return  # the board is off: input is lost
        if self._sigint_mode and b"\x03" in data:
            parts = data.split(b"\x03")
            for i, part in enumerate(parts):
                if part:
                    self._feed(part)
                if i < len(parts) - 1:
                    self._interrupt()
        else:
            self._feed(data)

    # Input to the board. A board drops the input it has not read yet when Ctrl-C arrives
    # (it clears its buffer) and reads what follows after the KeyboardInterrupt. So on byte 3
    # the input not yet in the pipe is dropped, SIGINT is sent, and what comes next is held
    # until boardshell says (note "intr") it took the interrupt and emptied the pipe -- or
    # INTR_HOLD passed (a program that catches KeyboardInterrupt says nothing).
    def _feed(self, data):
        if self._outstanding:
            self._held += data
        else:
            self._in_buf += data
            self._flush_in()
        self._check_input_pressure()

    def _flush_in(self):
        while self._in_buf and self._in_fd is not None:
            try:
                n = os.write(self._in_fd, self._in_buf)
            except BlockingIOError:
                if not self._in_writing:
                    self._loop.add_writer(self._in_fd, self._flush_in)
                    self._in_writing = True
                return
            except OSError:  # the board is gone
                self._in_buf.clear()
                break
            del self._in_buf[:n]
        if self._in_writing:
            self._loop.remove_writer(self._in_fd)
            self._in_writing = False
        self._check_input_pressure()

    def _check_input_pressure(self):
        waiting = len(self._in_buf) + len(self._held)
        if waiting > STDIN_HIGH and not self._input_paused:
            self._input_paused = True  # the board is not reading: hold back the serial port
            self._stop_reading()
        elif waiting <= STDIN_HIGH // 2 and self._input_paused:
            self._input_paused = False
            if self._client:
                self._start_reading()

    def _close_stdin(self):
        if self._in_fd is not None:
            if self._in_writing:
                self._loop.remove_writer(self._in_fd)
                self._in_writing = False
            os.close(self._in_fd)
            self._in_fd = None
        self._in_buf.clear()
        self._held.clear()
        self._outstanding = 0
        if self._hold_timer:
            self._hold_timer.cancel()
            self._hold_timer = None
        self._sigint_pending = False
        self._check_input_pressure()

    def _release(self):
        self._outstanding = 0
        if self._hold_timer:
            self._hold_timer.cancel()
            self._hold_timer = None
        self._in_buf += self._held
        self._held.clear()
        self._flush_in()

    def _interrupt(self):
        """Ctrl-C: SIGINT, as a board raises KeyboardInterrupt for byte 3. Signals are spaced
        (the unix port exits on a second SIGINT before it handled the first) and a burst
        becomes at most two: the program is stopped, the REPL sees a second Ctrl-C."""
        self._in_buf.clear()  # everything not yet at the board came before this Ctrl-C
        self._held.clear()
        if self._sigint_pending or self._intr_deferred:
            return
        self._outstanding += 1
        if self._hold_timer:
            self._hold_timer.cancel()
        self._hold_timer = self._loop.call_later(INTR_HOLD + SIGINT_GAP, self._release)
        if not self._up:  # a SIGINT now would stop the process starting up: wait for it
            self._intr_deferred = True
            return
        wait = self._last_sigint + SIGINT_GAP - time.monotonic()
        if wait > 0:
            self._sigint_pending = True
            self._loop.call_later(wait, self._send_sigint, self.proc)
        else:
            self._send_sigint(self.proc)

    def _send_sigint(self, proc):
        if proc is not self.proc:
            return  # that board is gone
        self._sigint_pending = False
        self._last_sigint = time.monotonic()
        if proc.returncode is None:
            try:
                proc.send_signal(signal.SIGINT)
            except ProcessLookupError:
                pass

    def _to_pty(self, data):
        if not self._client or self._master is None:
            return  # nobody has the port open: the output is gone, as on a board
        self._pty_out += data
        if len(self._pty_out) > PTY_BUFFER:
            del self._pty_out[:len(self._pty_out) - PTY_BUFFER]
        self._flush_pty()

    def _flush_pty(self):
        while self._pty_out:
            try:
                n = os.write(self._master, self._pty_out)
            except BlockingIOError:
                if not self._writing:
                    self._loop.add_writer(self._master, self._flush_pty)
                    self._writing = True
                return
            except OSError:
                self._client_gone()
                return
            del self._pty_out[:n]
        if self._writing:
            self._loop.remove_writer(self._master)
            self._writing = False

    # ---------------------------------------------------------------- the device channel
    async def _device(self, reader, writer):
        try:
            hello = await reader.readexactly(3)
            if hello[:1] != b"H" or not hello[1] or not hello[2]:
                raise ValueError("expected H<width><height>, got %r" % hello)
            if self._dev_writer is not None:  # a new connection after a soft reset wins
                self._dev_writer.close()
            self._dev_writer = writer
            self.width, self.height = hello[1], hello[2]
            self.hellos += 1
            self._set_frame(None)
            while True:
                kind = await reader.readexactly(1)
                if kind == b"F":
                    self._set_frame(await reader.readexactly(self.width * self.height * 3))
                elif kind == b"H":
                    size = await reader.readexactly(2)
                    if not size[0] or not size[1]:
                        raise ValueError("bad size %r" % size)
                    self.width, self.height = size[0], size[1]
                    self._set_frame(None)
                else:
                    raise ValueError("unknown message %r" % kind)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except ValueError as e:
            self.log("device channel: %s; closing it" % e)
        finally:
            if self._dev_writer is writer:
                self._dev_writer = None
                self._set_frame(None)
            writer.close()

    def _device_gone(self):
        if self._dev_writer is not None:
            self._dev_writer.close()
            self._dev_writer = None
        self._set_frame(None)

    def _set_frame(self, data):
        if data is not None:
            self.frames += 1
            data = bytes(data)
        if data != self.frame:
            self.frame = data
            if data is not None:
                self.seq += 1
        self._notify("frame")

    def press(self, button, kind="press"):
        """A button event to the firmware; False if nothing is listening."""
        check_press(button, kind)
        if self._dev_writer is None:
            return False
        self._dev_writer.write(("%s %s\n" % (button, kind)).encode())
        return True

    # ---------------------------------------------------------------- control socket
    def status(self):
        proc = self.proc
        return {"serial": self.serial, "control": self.control, "flash": self.flash,
                "heap": self.heap, "heapsize": self.heapsize,
                "free_at_main": self.free_at_main, "device_port": self.device_port,
                "pid": proc.pid if proc is not None and proc.returncode is None else None,
                "running": proc is not None and proc.returncode is None,
                "boots": self.boots, "ups": self.ups, "exits": self.exits,
                "last_exit": self.last_exit, "hellos": self.hellos,
                "connected": self._dev_writer is not None, "frames": self.frames,
                "seq": self.seq, "width": self.width, "height": self.height,
                "serial_open": self._client, "out_total": self.out_total,
                "ctrl_c": "signal" if self._sigint_mode else "data",
                "input_waiting": len(self._in_buf) + len(self._held),
                "ctrl_c_unanswered": self._outstanding}

    def frame_reply(self, encoding="hex"):
        f = self.frame
        if f is None:
            data = None
        elif encoding == "base64":
            data = base64.b64encode(f).decode()
        elif encoding == "hex":
            data = f.hex()
        else:
            raise ControlError("unknown encoding %r (hex or base64)" % (encoding,))
        return {"seq": self.seq, "width": self.width, "height": self.height,
                "encoding": encoding, "rgb": data}

    async def handle(self, req):
        """One control request (a dict) -> the reply fields (a dict)."""
        cmd = req.get("cmd")
        timeout = float(req.get("timeout", 10))
        if cmd == "status":
            return self.status()
        if cmd == "press":
            kind = req.get("kind") or ("long" if req.get("long") else "press")
            return {"delivered": self.press(req.get("button"), kind)}
        if cmd == "frame":
            return self.frame_reply(req.get("encoding", "hex"))
        if cmd == "wait_frame":
            after = req.get("after")
            after = self.seq if after is None else int(after)
            if not await self.wait(lambda: self.seq > after and self.frame is not None,
                                   timeout):
                raise ControlError("timeout: no new frame within %s s" % timeout)
            return self.frame_reply(req.get("encoding", "hex"))
        if cmd == "wait":
            counter = req.get("counter")
            if counter not in ("boots", "ups", "exits", "hellos", "frames", "seq",
                               "out_total"):
                raise ControlError("unknown counter %r" % (counter,))
            above = int(req.get("above", getattr(self, counter)))
            if not await self.wait(lambda: getattr(self, counter) > above, timeout):
                raise ControlError("timeout: %s still %s after %s s"
                                   % (counter, getattr(self, counter), timeout))
            return self.status()
        if cmd == "png":
            if self.frame is None:
                raise ControlError("no frame to save: nothing drives the LEDs")
            scale = int(req.get("scale", 16))
            if req.get("path"):
                path = os.path.abspath(os.path.expanduser(req["path"]))
                n = png.save(path, self.width, self.height, self.frame, scale, req.get("gap"))
                return {"path": path, "bytes": n, "seq": self.seq}
            data = png.matrix(self.width, self.height, self.frame, scale, req.get("gap"))
            return {"png": base64.b64encode(data).decode(), "seq": self.seq}
        if cmd == "output":
            return {"out_total": self.out_total,
                    "text": bytes(self.output).decode("utf-8", "replace")}
        if cmd == "restart":
            await self.restart(timeout)
            return self.status()
        if cmd == "kill":
            return {"pid": self.kill()}
        if cmd == "quit":
            self._loop.call_soon(lambda: self._spawn_task(self.stop()))
            return {}
        raise ControlError("unknown command %r" % (cmd,))

    async def _control(self, reader, writer):
        try:
            while True:
                try:
                    line = await reader.readline()
                except ValueError:  # longer than the limit
                    break
                if not line:
                    break
                if not line.strip():
                    continue
                req = None
                try:
                    req = json.loads(line)
                    if not isinstance(req, dict):
                        raise ControlError("a request is a JSON object")
                    reply = dict(ok=True, **await self.handle(req))
                except (ControlError, ValueError, TypeError, OSError) as e:
                    reply = {"ok": False, "error": str(e)}
                if isinstance(req, dict) and "id" in req:
                    reply["id"] = req["id"]
                writer.write(json.dumps(reply).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
