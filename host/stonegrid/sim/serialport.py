"""The virtual board's USB serial, host side: a pseudo-terminal that programs (mpremote,
pyserial) open as they open a board's port."""
import asyncio
import os
import select
import termios
import tty

from stonegrid.sim.stdio import write_out

PTY_BUFFER = 1024 * 1024  # board output waiting for a slow serial reader; older is dropped


class SerialPort:
    """The pty, and which program has it open.  Output waits for a slow reader (the last
    PTY_BUFFER bytes) and is dropped while no program has the port open, like USB CDC with
    no host listening; what the port reads goes to `on_input(data)`, except while the board
    holds it back (`hold`).  `on_change("status")` when a program opens or closes it."""

    def __init__(self, on_input, on_change):
        self.path = None
        self.is_open = False  # some program has the pty open
        self._on_input = on_input
        self._on_change = on_change
        self._loop = None
        self._master = None
        self._out = bytearray()
        self._reading = False
        self._held = False

    def open(self):
        """Create the pty, from the running loop.  Its slave end is not held here: POLLHUP on
        the master then means that nobody listens."""
        self._loop = asyncio.get_running_loop()
        master, slave = os.openpty()
        self.path = os.ttyname(slave)
        tty.setraw(slave)
        os.close(slave)
        os.set_blocking(master, False)
        self._master = master
        self._check_client()

    def close(self):
        if self._master is not None:
            self._loop.remove_reader(self._master)
            self._loop.remove_writer(self._master)
            os.close(self._master)
            self._master = None

    def listen(self):
        """Read the port, if a program has it open and the board does not hold it back."""
        if self.is_open and not self._reading and not self._held and self._master is not None:
            self._loop.add_reader(self._master, self._on_master)
            self._reading = True

    def hold(self, held):
        """Stop reading the port (True: the board does not keep up with its input), or go on
        (False)."""
        self._held = held
        if held:
            self._stop_reading()
        else:
            self.listen()

    def write(self, data):
        if not self.is_open or self._master is None:
            return  # nobody has the port open: the output is gone, as on a board
        self._out += data
        if len(self._out) > PTY_BUFFER:
            del self._out[:len(self._out) - PTY_BUFFER]
        self._flush()

    def _check_client(self):
        if self._master is None:
            return
        p = select.poll()
        p.register(self._master, select.POLLIN)
        events = p.poll(0)
        if events and events[0][1] & select.POLLHUP:
            self._loop.call_later(0.02, self._check_client)
            return
        self.is_open = True
        self.listen()
        self._on_change("status")

    def _stop_reading(self):
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def _client_gone(self):
        self._stop_reading()
        self._loop.remove_writer(self._master)
        self.is_open = False
        self._out.clear()
        try:  # what the last program left unread must not greet the next one
            fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            try:
                while os.read(fd, 65536):
                    pass
            except OSError:
                pass
            tty.setraw(fd, termios.TCSANOW)  # not TCSAFLUSH: a new program may be here
            os.close(fd)
        except OSError:
            pass
        self._on_change("status")
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
        self._on_input(data)

    def _flush(self):
        try:
            write_out(self._loop, self._master, self._out, self._flush)
        except OSError:
            self._client_gone()
