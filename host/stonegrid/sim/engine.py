"""The virtual board, host side: MicroPython on a pseudo-terminal, LEDs, buttons, control.

Board runs, in one asyncio loop, the `micropython` process (boardshell.py on the flash
directory), restarted when it exits (hard reset, power cut, crash) with the same pty, the
same device port, the flash intact; and wires it to its parts, one job each:
  - serialport.SerialPort: the pty, the board's "USB serial" (output dropped while no
    program has it open, like USB CDC with no host listening);
  - stdio.Stdin / stdio.Stdout: the process's stdin and stdout as a board's serial line (byte
    0x03 becomes SIGINT, input held back while the board does not read it, a lone "\\n" goes
    out as "\\r\\n", the board shell's notes to the host);
  - device.DeviceChannel / device.Display: the channel the firmware's unix HAL connects to
    (frames in, button events out), and the LEDs as shown;
  - control.ControlServer: the control socket (JSON lines) for tests and tools.
"""
import asyncio
import ctypes
import fcntl
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from stonegrid.build import mpy_cross
from stonegrid.sim.control import ControlError, ControlServer
from stonegrid.sim.device import DeviceChannel, Display
from stonegrid.sim.serialport import SerialPort
from stonegrid.sim.stdio import Stdin, Stdout
from stonegrid.sim.sync import BOARDREPL, BOARDSHELL, micropython_path

EXIT_OFF = 0  # boardshell: stdin closed by the host
EXIT_RESET = 100  # boardshell: machine.reset()
OUTPUT_KEEP = 64 * 1024  # serial output kept for the `output` command and the UI
STDIN_PIPE = 4096  # the pipe into the board holds little, like a board's input buffer
# boardshell.py's own code and data stay in the heap (a board's REPL lives in flash): the
# process gets this much more than --heap, so that main.py finds as much free heap as a bare
# `micropython -X heapsize=<--heap>` script does (tests/test_sim.py checks it)
SHELL_HEAP = 17 * 1024

try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None


def die_with_host():
    """preexec_fn of the board's process: in the child, before exec, have it killed when
    the host (the thread that started it) dies."""
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


# The MicroPython heap of the virtual board stands for a Raspberry Pi Pico (RP2040, the DIY
# board), and must stay the stricter of the two: for the same games (tests/bench/pico.py's
# heap share) the 64-bit unix port needed 1.33x the bytes the Pico's rp2 port needed
# (16-byte GC blocks and 32-bit objects there), and the Pico has a 240 KB heap, so the unix
# board's equal is about 320 KB; 304k leaves it needing 1.07x the Pico's share of its heap.
# tests/test_pico.py fails when it no longer needs at least the Pico's share. The tests and
# benchmarks that guard memory more tightly pass a smaller --heap (128k).
DEFAULT_HEAP = "304k"


GIVE_UP_AFTER = 5  # crashes in a row, each within 2 s of its start, before the sim stops
MAX_HEAP = "256m"  # the biggest heap --heap takes: boards have a few hundred KB, and a heap
# bigger than the machine can give crashes the unix port at start


def heap_bytes(text):
    """96k -> 98304; 2m; 131072."""
    m = re.fullmatch(r"(\d+)([kKmM]?)", str(text).strip())
    if not m:
        raise ValueError("not a heap size: %r" % (text,))
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]


class Board:
    """The virtual board: its power (the process, started again whenever it ends) and the
    parts wired to it.  Use from an asyncio loop: `await start()`, ..., `await stop()`.

    Another board runs another process by overriding _launch (start it), _pumps (read it),
    _from_pty (what the serial port read) and press (pico.board.PicoBoard: the emulator)."""

    def __init__(self, flash, heap=DEFAULT_HEAP, micropython=None, control_port=0, log=None):
        self.flash = os.path.abspath(flash)
        self.heap = heap
        self.heapsize = heap_bytes(heap) + SHELL_HEAP  # what micropython gets
        self.free_at_main = None  # gc.mem_free() just before main.py last started
        self.micropython = micropython or micropython_path()
        self.log = log or (lambda msg: None)
        self.listeners = []  # callables(event) -- "frame", "output", "status"
        self.serial = None  # the pty path
        self.control = None  # "127.0.0.1:PORT"
        self.proc = None
        self.boots = 0  # processes started
        self.ups = 0  # the board reported itself running
        self.exits = 0
        self.last_exit = None
        self.out_total = 0
        self.output = bytearray()  # the last OUTPUT_KEEP bytes the board wrote (cooked)
        self.port = SerialPort(self._from_pty, self._notify)
        self.display = Display(self._notify)
        self.device = DeviceChannel(self.display, self.log)
        self.stdin = Stdin(self.port)
        self.stdout = Stdout(self._on_note)
        self._control_server = ControlServer(self, control_port)
        self._loop = None
        self._servers = []
        self._tasks = set()
        self._changed = None
        self._stopping = False
        self.gave_up = None  # why the board is not power-cycled any more, if it crashed so
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
        self.port.open()
        self.serial = self.port.path
        self._servers = [await self.device.start(), await self._control_server.start()]
        self.control = self._control_server.address
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
        self.device.disconnect()
        for t in list(self._tasks):
            if t is not asyncio.current_task():
                t.cancel()
        for s in self._servers:
            try:
                await asyncio.wait_for(s.wait_closed(), 2)
            except (asyncio.TimeoutError, Exception):
                pass
        self.port.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._stopped.set()

    def quit(self):
        """Stop soon (the control socket's quit: its reply goes out first)."""
        self._loop.call_soon(lambda: self._spawn_task(self.stop()))

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

    def status(self):
        proc, display = self.proc, self.display
        running = proc is not None and proc.returncode is None
        return {"serial": self.serial, "control": self.control, "flash": self.flash,
                "heap": self.heap, "heapsize": self.heapsize,
                "free_at_main": self.free_at_main, "device_port": self.device.port,
                "pid": proc.pid if running else None, "running": running,
                "boots": self.boots, "ups": self.ups, "exits": self.exits,
                "gave_up": self.gave_up,
                "last_exit": self.last_exit, "hellos": self.device.hellos,
                "connected": self.device.connected, "frames": display.frames,
                "seq": display.seq, "width": display.width, "height": display.height,
                "serial_open": self.port.is_open, "out_total": self.out_total,
                "ctrl_c": "signal" if self.stdin.ctrl_c_signals else "data",
                "input_waiting": self.stdin.waiting(),
                "ctrl_c_unanswered": self.stdin.unanswered}

    # ---------------------------------------------------------------- the process
    async def _supervise(self):
        cause = "power"
        quick_fails = 0
        while not self._stopping:
            started = time.monotonic()
            try:
                proc = await self._launch(cause)
            except OSError as e:
                self.log("cannot start %s: %s" % (self.micropython, e))
                self.last_exit = None
                await self._pause(5)
                continue
            self.proc = proc
            self.boots += 1
            self._notify("status")
            self.port.listen()
            pumps = [self._spawn_task(pump) for pump in self._pumps(proc)]
            rc = await proc.wait()
            await asyncio.gather(*pumps, return_exceptions=True)
            self.proc = None
            self.stdin.close()  # the input it had not read is lost, as on a board
            self.exits += 1
            self.last_exit = rc
            self.device.disconnect()
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
                if quick_fails >= GIVE_UP_AFTER:
                    self.gave_up = ("%s exited with code %s within 2 s of starting, %d times "
                                    "in a row: the board is not power-cycled again"
                                    % (os.path.basename(self.micropython), rc, quick_fails))
                    self.quit()
                    break
                delay = min(5.0, 0.2 * 2 ** quick_fails) if quick_fails else 0.2
                self.log("%s exited with code %s; power-cycling the board in %.1f s"
                         % (os.path.basename(self.micropython), rc, delay))
            self._power_cycle = False
            await self._pause(delay)

    async def _launch(self, cause):
        """Start the board's process (OSError if it cannot be); `cause`: "power" or
        "reset", what machine.reset_cause() tells."""
        if not any(os.path.isfile(os.path.join(self._tmp, "_simrepl" + ext))
                   for ext in (".mpy", ".py")):
            os.makedirs(self._tmp, exist_ok=True)  # a tmp cleaner was here, or the first boot
            self._install_repl()
        env = dict(os.environ, STONEGRID_SIM="127.0.0.1:%d" % self.device.port,
                   STONEGRID_RESET_CAUSE=cause, STONEGRID_SIM_TMP=self._tmp)
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
                env=env, start_new_session=True, preexec_fn=die_with_host)
        except OSError:
            os.close(wfd)
            raise
        finally:
            os.close(rfd)
        self.stdin.attach(proc, wfd)
        self.stdout.reset()
        return proc

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

    def _pumps(self, proc):
        """The coroutines that read the process until it ends."""
        return [self._pump_out(proc)]

    async def _pump_out(self, proc):
        while True:
            data = await proc.stdout.read(65536)
            if not data:
                return
            self._wrote(self.stdout.cook(data))

    def _wrote(self, data):
        """The board wrote `data` on its serial line."""
        self.out_total += len(data)
        self.output += data
        del self.output[:max(0, len(self.output) - OUTPUT_KEEP)]
        self.port.write(data)
        self._notify("output")

    def _board_up(self):
        """The board reported itself running."""
        self.ups += 1
        self.stdin.board_up()
        self._notify("status")

    def _on_note(self, note):
        if note == "up":
            self._board_up()
        elif note == "reset":  # machine.reset(): make sure it happens
            self._loop.call_later(1.0, self._force_exit, self.proc)
        elif note.startswith("free "):
            try:
                self.free_at_main = int(note[5:])
            except ValueError:
                self.log("a garbled note from the board: %r" % note)
        elif note == "intr":  # it took a Ctrl-C and dropped its unread input
            self.stdin.interrupt_taken()
        elif note.startswith("intr "):
            self.stdin.ctrl_c_signals = note != "intr -1"
            self._notify("status")

    def _force_exit(self, proc):
        if proc is not None and proc.returncode is None:
            proc.kill()

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
            self.stdin.close()
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

    # ---------------------------------------------------------------- serial and buttons
    def _from_pty(self, data):
        """What the serial port read, for the board."""
        self.stdin.feed(data)

    def press(self, button, kind="press"):
        """A button event to the firmware; False if nothing is listening."""
        return self.device.press(button, kind)
