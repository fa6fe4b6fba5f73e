"""The browser page's backend (`stonegrid web`): the firmware runs in MicroPython's WebAssembly
port, and the page is the board.  Frames go to its drawing of the matrix; button clicks and
keys come from it, and so do the serial link's command lines, since a browser has no stdin.
The page is the JavaScript object `stonegridBoard` (host/stonegrid/web/static/board.js):
show(hex RGB), poll() -> "name kind" or null, held(name), serialRead() -> text or null."""
import asyncio
import binascii

import js

from hal.drawn import DrawnBoard

SERIAL_IDLE_MS = 20  # how often the link looks for a command line while none comes


class Serial:
    """The command text the page sends, read by app.wire.serve as it reads USB serial."""

    def __init__(self, page):
        self._page = page
        self._pending = b""
        self._at = 0  # bytes of _pending already read

    def _waiting(self):
        if self._at == len(self._pending):
            text = self._page.serialRead()
            self._pending, self._at = (text.encode(), 0) if text else (b"", 0)
        return len(self._pending) - self._at

    async def read(self, n):
        while not self._waiting():
            await asyncio.sleep_ms(SERIAL_IDLE_MS)
        return self._take(n)

    def readinto(self, buf):
        if not self._waiting():
            return 0
        data = self._take(len(buf))
        buf[:len(data)] = data
        return len(data)

    def _take(self, n):
        data = self._pending[self._at:self._at + n]
        self._at += len(data)
        return data


class Board(DrawnBoard):
    def __init__(self, profile):
        super().__init__(profile)
        self._page = js.stonegridBoard
        self._out = bytearray(self.width * self.height * 3)
        self.serial = Serial(self._page)

    def show(self, frame):
        self.dim(frame, self._out)
        self._page.show(binascii.hexlify(self._out).decode())

    def poll(self):
        event = self._page.poll()
        if not event:
            return None
        name, kind = event.split()
        return name, kind

    def held(self, name):
        return bool(self._page.held(name))


def make(profile):
    return Board(profile)
