"""Helpers for the end-to-end tests: a virtual board running the real firmware, its serial
port through pyserial, and a mirror of the game that knows which buttons make an action."""
import atexit
import json
import os
import queue
import shutil
import tempfile
import threading
import time

import serial

from stonegrid.sim import spawn, sync


_built = []  # a flash folder with the firmware installed, made once per test run


def install(flash, settings=None):
    """The firmware as the virtual board installs it (compiled, sim.sync), in the flash root."""
    if not _built:
        _built.append(tempfile.mkdtemp(prefix="stonegrid-flash-"))
        atexit.register(shutil.rmtree, _built[0], True)
        sync(_built[0])
    shutil.copytree(_built[0], str(flash), dirs_exist_ok=True)
    if settings is not None:
        with open(os.path.join(str(flash), "settings.json"), "w") as f:
            json.dump(settings, f)


class Serial:
    """The board's USB serial through pyserial, lines gathered by a thread."""

    def __init__(self, path):
        self.port = serial.Serial(path, 115200, timeout=0.1)
        self.lines = queue.Queue()
        self.seen = []
        self._stop = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        pending = b""
        while not self._stop:
            try:
                chunk = self.port.read(65536)
            except (serial.SerialException, OSError, TypeError):
                time.sleep(0.05)
                continue
            pending += chunk
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                text = raw.decode("utf-8", "replace").strip()
                try:
                    obj = json.loads(text)
                except ValueError:
                    obj = None
                if isinstance(obj, dict):
                    self.lines.put(obj)

    def send(self, obj):
        line = obj if isinstance(obj, (bytes, bytearray)) else (json.dumps(obj) + "\n").encode()
        self.port.write(line)
        self.port.flush()

    def wait(self, pred, timeout=20):
        """The first line (a dict) for which pred holds; earlier ones are kept in .seen."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no matching line from the board in %gs; last: %s"
                                     % (timeout, self.seen[-5:]))
            try:
                obj = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(obj)
            if pred(obj):
                return obj

    def ask(self, cmd, timeout=20):
        """Send a command, return the reply of type t=state/ok/error/hello."""
        self.send(cmd)
        want = {"state": "state", "hello": "hello"}.get(cmd["cmd"])
        return self.wait(lambda o: o.get("t") == want if want else o.get("t") in (
            "ok", "error"), timeout)

    def close(self):
        self._stop = True
        self._thread.join(2)
        self.port.close()


PICO = ["--board", "pico-ws2812"]
_pico_built = []  # a flash folder of the emulated Pico with the firmware, made once


def install_pico(flash):
    """The firmware on an emulated Pico's flash, as `stonegrid sim --board pico-ws2812`
    installs it (mpremote over its USB serial), in the folder `flash`."""
    if not _pico_built:
        _pico_built.append(tempfile.mkdtemp(prefix="stonegrid-pico-"))
        atexit.register(shutil.rmtree, _pico_built[0], True)
        spawn(_pico_built[0], sync=True, args=PICO, timeout=170).stop()
    shutil.copytree(_pico_built[0], str(flash), dirs_exist_ok=True)


class Board:
    """A started virtual board with the firmware: .sim (SimProcess), .client, .serial.
    pico=True: the emulated Pico (rp2040js), with the firmware's default settings."""

    def __init__(self, flash, settings=None, heap=None, pico=False, installed=False):
        if installed:
            pass  # the flash folder holds the firmware already
        elif pico:
            install_pico(flash)
        else:
            install(flash, settings)
        self.sim = spawn(flash, heap=heap, args=PICO if pico else ())
        self.client = self.sim.client
        self.serial = Serial(self.sim.serial)

    def close(self):
        self.serial.close()
        self.sim.stop()


def serving(board, timeout=20):
    """A board fixture's life: the board once it answers hello, closed after the test (or
    when it never answers)."""
    try:
        board.serial.ask({"cmd": "hello"}, timeout=timeout)
        yield board
    finally:
        board.close()
