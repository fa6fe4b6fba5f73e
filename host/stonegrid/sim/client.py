"""Talking to a running virtual board: the control client, and starting boards for tests."""
import asyncio
import base64
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time


class SimError(Exception):
    """The virtual board said no (the control reply had ok: false), or did not answer."""


class Frame:
    """One frame of the LED matrix: `width`, `height`, `rgb` (bytes, row-major, y=0 on top)."""

    def __init__(self, width, height, rgb, seq=0):
        self.width, self.height, self.rgb, self.seq = width, height, rgb, seq

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.rgb[i:i + 3])

    def lit(self):
        """{(x, y): (r, g, b)} of every LED that is not off."""
        out = {}
        for y in range(self.height):
            for x in range(self.width):
                p = self.pixel(x, y)
                if p != (0, 0, 0):
                    out[(x, y)] = p
        return out

    def __eq__(self, other):
        return isinstance(other, Frame) and (self.width, self.height, self.rgb) == (
            other.width, other.height, other.rgb)

    def __repr__(self):
        return "<Frame %dx%d seq=%d lit=%d>" % (self.width, self.height, self.seq,
                                                len(self.lit()))

    @classmethod
    def from_reply(cls, r):
        if r.get("rgb") is None:
            return None
        data = (base64.b64decode(r["rgb"]) if r.get("encoding") == "base64"
                else bytes.fromhex(r["rgb"]))
        return cls(r["width"], r["height"], data, r.get("seq", 0))


def _address(address):
    if isinstance(address, (tuple, list)):
        return address[0], int(address[1])
    host, _, port = str(address).rpartition(":")
    return host or "127.0.0.1", int(port)


class Client:
    """The control socket of a virtual board (`control: HOST:PORT` of `stonegrid sim`).

    Every method sends one JSON request and returns the reply (or raises SimError)."""

    def __init__(self, address, timeout=60):
        self.address = _address(address)
        self.timeout = timeout
        self._sock = None
        self._buf = b""

    def _connect(self):
        if self._sock is None:
            self._sock = socket.create_connection(self.address, timeout=self.timeout)
            self._buf = b""
        return self._sock

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def request(self, cmd, **fields):
        req = dict(fields, cmd=cmd)
        sock = self._connect()
        # a wait may take `timeout` seconds on the board's side: give the socket more
        sock.settimeout(max(self.timeout, float(fields.get("timeout", 0)) + 10))
        try:
            sock.sendall(json.dumps(req).encode() + b"\n")
            while b"\n" not in self._buf:
                data = sock.recv(1 << 16)
                if not data:
                    raise SimError("the virtual board closed the control connection")
                self._buf += data
        except (OSError, socket.timeout) as e:
            self.close()
            raise SimError("control connection: %s" % e)
        line, _, self._buf = self._buf.partition(b"\n")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise SimError(reply.get("error", "failed"))
        return reply

    def status(self):
        return self.request("status")

    def press(self, button, long=False):
        """Press a button (long=True: a long press). True if the firmware was listening."""
        return self.request("press", button=button, kind="long" if long else "press")[
            "delivered"]

    def frame(self):
        """The frame on the LEDs now (a Frame), or None while nothing drives them."""
        return Frame.from_reply(self.request("frame", encoding="base64"))

    def wait_frame(self, after=None, timeout=10):
        """The first frame that differs from frame number `after` (default: the current)."""
        fields = {"encoding": "base64", "timeout": timeout}
        if after is not None:
            fields["after"] = after.seq if isinstance(after, Frame) else after
        return Frame.from_reply(self.request("wait_frame", **fields))

    def wait_until(self, pred, timeout=10):
        """Wait until pred(frame) holds for the frame shown; returns that frame."""
        deadline = time.monotonic() + timeout
        r = self.request("frame", encoding="base64")
        while True:
            f = Frame.from_reply(r)
            if f is not None and pred(f):
                return f
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimError("timeout: the frame never matched (last: %r)" % (f,))
            try:
                r = self.request("wait_frame", after=r["seq"], timeout=left,
                                 encoding="base64")
            except SimError as e:
                if "timeout" not in str(e):
                    raise

    def wait(self, counter, above=None, timeout=10):
        """Until status()[counter] > above (default: its value now); returns the status."""
        fields = {"counter": counter, "timeout": timeout}
        if above is not None:
            fields["above"] = above
        return self.request("wait", **fields)

    def png(self, path=None, scale=16):
        """Save the frame as a PNG at `path` (on the sim's machine), or return the bytes."""
        if path:
            return self.request("png", path=os.path.abspath(path), scale=scale)["path"]
        return base64.b64decode(self.request("png", scale=scale)["png"])

    def output(self):
        """The last 64 KB the board wrote on its serial port (text)."""
        return self.request("output")["text"]

    def restart(self, timeout=30):
        """Power cycle: returns once the new MicroPython process runs."""
        return self.request("restart", timeout=timeout)

    def kill(self):
        """Power cut (kill -9 of the MicroPython process); it powers up again by itself."""
        return self.request("kill")["pid"]

    def quit(self):
        try:
            self.request("quit")
        finally:
            self.close()


class SimProcess:
    """A `stonegrid sim --headless` subprocess: .serial, .control, .client, .proc."""

    def __init__(self, proc, serial, control):
        self.proc, self.serial, self.control = proc, serial, control
        self.client = Client(control)

    def stop(self, timeout=15):
        self.client.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def spawn(flash, heap=None, sync=False, args=(), timeout=60, env=None):
    """Start `stonegrid sim --headless` as a subprocess; a SimProcess (a context manager).

    Waits for its `serial:` and `control:` lines. Stop it with .stop() or `with`."""
    from stonegrid.sim.engine import DEFAULT_HEAP
    cmd = [sys.executable, "-m", "stonegrid.cli", "sim", "--headless", "--flash", str(flash),
           "--heap", str(heap or DEFAULT_HEAP)] + ([] if sync else ["--no-sync"]) + list(args)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            env=env, start_new_session=True)
    found = {}
    deadline = time.monotonic() + timeout
    buf = b""
    try:
        while "serial" not in found or "control" not in found:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimError("stonegrid sim did not report its serial and control lines")
            r, _, _ = select.select([proc.stdout], [], [], left)
            if not r:
                continue
            data = os.read(proc.stdout.fileno(), 4096)
            if not data:
                raise SimError("stonegrid sim exited with code %s" % proc.wait())
            buf += data
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                key, _, value = line.decode().partition(": ")
                if key in ("serial", "control"):
                    found[key] = value.strip()
    except BaseException:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        raise
    # keep reading its stdout so it never blocks on a full pipe
    threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
    return SimProcess(proc, found["serial"], found["control"])


def _drain(f):
    try:
        while f.read(4096):
            pass
    except (OSError, ValueError):
        pass


class BoardThread:
    """A virtual board in this process, on its own thread and event loop (for tests/tools).

        with BoardThread(flash) as b:
            b.serial, b.control, b.client ...
    """

    def __init__(self, flash, heap=None, micropython=None, log=None):
        from stonegrid.sim.engine import DEFAULT_HEAP, Board
        self.board = Board(flash, heap=heap or DEFAULT_HEAP, micropython=micropython, log=log)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._started = threading.Event()
        self._error = None
        self.serial = self.control = self.client = None

    def _run(self):
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self.board.start())
        except BaseException as e:
            self._error = e
            self._started.set()
            return
        self._started.set()
        self._loop.run_until_complete(self.board.wait_stopped())
        self._loop.close()

    def start(self, timeout=60):
        self._thread.start()
        self._started.wait(timeout)
        if self._error:
            raise self._error
        self.serial, self.control = self.board.serial, self.board.control
        self.client = Client(self.control)
        return self

    def stop(self, timeout=15):
        if self.client:
            self.client.close()
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self.board.stop(), self._loop)
            self._thread.join(timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
