"""The virtual board's backend: frames go to the `stonegrid sim` host, button events come
from it, over a TCP connection to the address in $STONEGRID_SIM (see host/stonegrid/sim)."""
import errno
import os
import socket

from hal.drawn import DrawnBoard


class Board(DrawnBoard):
    def __init__(self, profile):
        super().__init__(profile)
        self._lines = b""
        self._sock = None
        self._out = bytearray(1 + self.width * self.height * 3)
        self._out[0] = ord("F")
        addr = os.getenv("STONEGRID_SIM")
        if addr:
            host, port = addr.rsplit(":", 1)
            s = socket.socket()
            s.connect(socket.getaddrinfo(host, int(port))[0][-1])
            s.setblocking(False)
            s.send(bytes((ord("H"), self.width, self.height)))
            self._sock = s

    def show(self, frame):
        self.dim(frame, self._out, 1)
        if self._sock:
            self._send(self._out)

    def _send(self, data):
        view = memoryview(data)
        while view:
            try:
                n = self._sock.send(view)
            except OSError as e:
                if e.args[0] != errno.EAGAIN:  # the host went away: the LEDs stay dark
                    self._sock.close()
                    self._sock = None
                    return
                n = 0  # the host is busy: its buffer is full
            view = view[n or 0:]

    def poll(self):
        if not self._sock:
            return None
        try:
            chunk = self._sock.recv(256)
        except OSError:
            chunk = None  # nothing waiting
        if chunk:
            self._lines += chunk
        if b"\n" not in self._lines:
            return None
        line, self._lines = self._lines.split(b"\n", 1)
        parts = line.decode().split()
        if len(parts) == 2:
            return parts[0], parts[1]
        return None

    def held(self, name):
        return False


def make(profile):
    return Board(profile)
