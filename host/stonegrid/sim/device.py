"""The virtual board's LEDs and buttons, host side: the display as shown, and the device
channel that the firmware's unix HAL (firmware/hal/unix.py) connects to."""
import asyncio

from stonegrid.sim.control import ControlError

BUTTONS = ("up", "down", "left", "right", "ok", "back")
KINDS = ("press", "long")


def check_press(button, kind):
    if button not in BUTTONS:
        raise ControlError("unknown button %r (one of %s)" % (button, ", ".join(BUTTONS)))
    if kind not in KINDS:
        raise ControlError("unknown kind %r (press or long)" % (kind,))


class Display:
    """The LEDs as shown: `frame` is width * height RGB bytes, row-major, y=0 on top,
    brightness applied (None while nothing drives them); `frames` counts every frame shown,
    `seq` those that differ from the one before.  `on_change("frame")` after each."""

    def __init__(self, on_change):
        self.width = self.height = 16
        self.frame = None
        self.frames = 0
        self.seq = 0
        self._on_change = on_change

    def show(self, data):
        if data is not None:
            self.frames += 1
            data = bytes(data)
        if data != self.frame:
            self.frame = data
            if data is not None:
                self.seq += 1
        self._on_change("frame")


class DeviceChannel:
    """TCP on 127.0.0.1 (the firmware finds it in $STONEGRID_SIM).  Device to host: `H` +
    bytes (width, height) once, then `F` + a frame, or `H` + a new size; host to device: one
    line per button event, `<button> <kind>`.  A new connection replaces the old one (after a
    soft reset); while none is open the display is dark."""

    def __init__(self, display, log):
        self.display = display
        self.log = log
        self.port = None
        self.hellos = 0  # connections that said hello
        self._writer = None

    @property
    def connected(self):
        return self._writer is not None

    async def start(self):
        """Listen on a free port; returns the server."""
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        return server

    async def _serve(self, reader, writer):
        display = self.display
        try:
            hello = await reader.readexactly(3)
            if hello[:1] != b"H" or not hello[1] or not hello[2]:
                raise ValueError("expected H<width><height>, got %r" % hello)
            if self._writer is not None:  # a new connection after a soft reset wins
                self._writer.close()
            self._writer = writer
            display.width, display.height = hello[1], hello[2]
            self.hellos += 1
            display.show(None)
            while True:
                kind = await reader.readexactly(1)
                if kind == b"F":
                    display.show(await reader.readexactly(display.width * display.height * 3))
                elif kind == b"H":
                    size = await reader.readexactly(2)
                    if not size[0] or not size[1]:
                        raise ValueError("bad size %r" % size)
                    display.width, display.height = size[0], size[1]
                    display.show(None)
                else:
                    raise ValueError("unknown message %r" % kind)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except ValueError as e:
            self.log("device channel: %s; closing it" % e)
        finally:
            if self._writer is writer:
                self._writer = None
                display.show(None)
            writer.close()

    def disconnect(self):
        """The firmware is gone (its process ended): the LEDs go dark."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.display.show(None)

    def press(self, button, kind="press"):
        """A button event to the firmware; False if nothing is listening."""
        check_press(button, kind)
        if self._writer is None:
            return False
        self._writer.write(("%s %s\n" % (button, kind)).encode())
        return True
