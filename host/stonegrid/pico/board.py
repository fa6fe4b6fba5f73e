"""The emulated Pico, host side: the virtual board's engine (pty, control socket, terminal)
with rp2040js (run.mjs under Node) in place of the unix port: the engine's Board with
another process (_launch, _pumps), serial bytes and presses sent to it as messages. The chip
runs the maker's own MicroPython UF2 (stock.load checks it) after the RP2040's boot ROM
(bootrom.py, from a registry package).

The chip's USB CDC serial is the pty; its WS2812 data pin, decoded by run.mjs, gives the
frames; button presses hold the profile's GPIO pins active for a while of emulated time."""
import ast
import asyncio
import json
import os
import shutil
import struct
import tempfile

from stonegrid import build

from stonegrid.build import npm_hint, repo_root
from stonegrid.pico import bootrom, image, stock
from stonegrid.sim import engine
from stonegrid.sim.device import check_press

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_MJS = os.path.join(HERE, "run.mjs")
FLASH_FILE = "pico-flash.bin"  # the chip's 2 MB flash, firmware and littlefs, in --flash DIR
PRESS_MS = 80  # emulated ms a button is held: past the firmware's 30 ms debounce
LONG_MS = 800  # past its 600 ms long press


# run on the chip after the copy: a slot put there by `stonegrid flash` (/fw) goes, so that
# the checkout is what boots (as sim.sync does on the unix board's flash)
REMOVE_SLOT = """import os
def rm(p):
    if os.stat(p)[0] & 0x4000:
        for n in os.listdir(p):
            rm(p + '/' + n)
        os.rmdir(p)
    else:
        os.remove(p)
if 'fw' in os.listdir('/'):
    rm('/fw')
"""


class SetupError(Exception):
    """What is missing to run the emulated Pico, and what to run about it."""


def node_path():
    node = shutil.which("node")
    if node is None:
        raise SetupError("the emulated Pico needs Node.js 18 or newer (`node` is not on PATH)")
    if not os.path.isdir(os.path.join(repo_root(), "node_modules", "rp2040js")):
        raise SetupError("the emulated Pico needs rp2040js: %s" % npm_hint())
    return node


def check_setup(micropython=None):
    """The checked stock.Firmware at `micropython` (default: $STONEGRID_MICROPYTHON_UF2);
    SetupError unless it, Node, rp2040js and the boot ROM are all there and sound."""
    node_path()
    try:
        bootrom.path()
        return stock.load(micropython)
    except ValueError as e:  # stock.FirmwareError, bootrom.BootRomError
        raise SetupError(str(e))


def profile_path(name):
    return os.path.join(repo_root(), "hardware", name + ".json")


def led_order(profile):
    """LED index of each pixel, by the firmware's own hal.ws2812._led_order (its source is
    read: the module itself needs machine and neopixel)."""
    path = os.path.join(repo_root(), "firmware", "hal", "ws2812.py")
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    fn = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_led_order"]
    ns = {}
    exec(compile(ast.Module(body=fn, type_ignores=[]), path, "exec"), ns)
    return ns["_led_order"](profile.get("width", 16), profile.get("height", 16),
                            profile.get("wiring", "serpentine"), profile.get("rotation", 0),
                            profile.get("mirror", False))


class PicoBoard(engine.Board):
    """engine.Board with the emulator as its process: same pty, control socket, counters."""

    def __init__(self, flash, firmware, board="pico-ws2812", control_port=0, log=None):
        super().__init__(flash, micropython=node_path(), control_port=control_port, log=log)
        self.firmware = firmware  # a stock.Firmware
        self.compiled = firmware.mpy_note() is None
        self.profile_file = profile_path(board)
        with open(self.profile_file) as f:
            self.profile = json.load(f)
        self.display.width, self.display.height = self.profile["width"], self.profile["height"]
        self._order = led_order(self.profile)
        colours = self.profile.get("color_order", "GRB")
        self._offsets = [colours.index(c) for c in "RGB"]
        # a new flash image holds nothing installed, whatever a stamp says
        self._fresh = not os.path.exists(os.path.join(self.flash, FLASH_FILE))

    def status(self):
        st = super().status()
        st["connected"] = self.display.frame is not None  # the display is the data pin
        return st

    async def _launch(self, cause):
        return await asyncio.create_subprocess_exec(
            self.micropython, RUN_MJS, "--bootrom", bootrom.path(),
            "--uf2", self.firmware.path, "--flash", os.path.join(self.flash, FLASH_FILE),
            "--profile", self.profile_file, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True, preexec_fn=engine.die_with_host)

    def _pumps(self, proc):
        return [self._pump_messages(proc), self._pump_errors(proc)]

    async def _pump_errors(self, proc):
        while True:
            line = await proc.stderr.readline()
            if not line:
                return
            self.log(line.decode("utf-8", "replace").rstrip())

    async def _pump_messages(self, proc):
        try:
            while True:
                head = await proc.stdout.readexactly(5)
                payload = await proc.stdout.readexactly(struct.unpack("<I", head[1:])[0])
                kind = head[:1]
                if kind == b"S":
                    self._wrote(payload)
                elif kind == b"F":
                    self.display.show(self._rgb(payload))
                elif kind == b"U":
                    self._board_up()
        except asyncio.IncompleteReadError:
            return

    def _rgb(self, wire):
        """Wire bytes (LED order, the panel's colour order) -> RGB row-major, as shown."""
        out = bytearray(len(self._order) * 3)
        for pixel, led in enumerate(self._order):
            for c, off in enumerate(self._offsets):
                out[pixel * 3 + c] = wire[led * 3 + off]
        return out

    def _send(self, kind, payload):
        proc = self.proc
        if proc is None or proc.returncode is not None or proc.stdin.is_closing():
            return False
        proc.stdin.write(kind + struct.pack("<I", len(payload)) + payload)
        return True

    def _from_pty(self, data):
        self._send(b"S", data)  # Ctrl-C is a byte like any other: the chip handles it

    def press(self, button, kind="press"):
        check_press(button, kind)
        gpio = self.profile["buttons"][button]
        return self._send(b"P", b"%d %d" % (gpio, LONG_MS if kind == "long" else PRESS_MS))

    def _build(self):
        """The checkout's build for this profile, and its digest (the stamp's content)."""
        files = build.build(repo_root(), compiled=self.compiled, profile=self.profile_file)
        return files, build.digest(b"".join(k.encode() + v for k, v in sorted(files.items())))

    def prepare(self):
        """Before the chip's first power-up: a new flash gets MicroPython and the app's
        filesystem written straight into its image (image.py), so it boots to the menu with
        no copy over serial; provision() then finds it installed."""
        if not self._fresh:
            return []
        files, digest = self._build()
        path = os.path.join(self.flash, FLASH_FILE)
        with open(path + ".tmp", "wb") as f:
            f.write(image.flash_image(self.firmware, image.app_files(self.profile_file, files)))
        os.replace(path + ".tmp", path)
        with open(path + ".installed", "w") as f:
            f.write(digest)
        self._fresh = False
        return sorted(files)

    async def provision(self):
        """Install the checkout's firmware with this profile as board.json on the chip's
        flash, by stock mpremote over the pty, drop a flashed slot, then reset the chip
        (main.py starts the app).  Skipped when this very build is what the sim installed
        last on this flash; returns the files copied."""
        files, digest = self._build()
        stamp = os.path.join(self.flash, FLASH_FILE + ".installed")
        try:
            with open(stamp) as f:
                if f.read() == digest and not self._fresh:
                    return []
        except OSError:
            pass
        await self.wait(lambda: self.ups > 0, 30)
        with tempfile.TemporaryDirectory() as tmp:
            build.write_tree(files, tmp)
            tops = sorted({path.split("/")[0] for path in files})
            cmd = [build.tool("mpremote"), "connect", self.serial, "fs", "cp", "-r"]
            cmd += [os.path.join(tmp, top) for top in tops] + [":", "+", "exec", REMOVE_SLOT,
                                                                "+", "reset"]
            proc = await asyncio.create_subprocess_exec(
                *cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            out, _ = await proc.communicate()
        if proc.returncode:
            raise OSError("installing the firmware on the emulated Pico failed: %s"
                          % out.decode("utf-8", "replace").strip()[-500:])
        with open(stamp, "w") as f:
            f.write(digest)
        return sorted(files)
