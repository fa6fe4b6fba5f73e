"""The hardware: board profiles, the brightness cap and power budget as enforced by the real
backends, the device code type-checked against the MicroPython and Pimoroni stubs, and every
device file compiled with mpy-cross for each board (hardware/README.md, hardware/budget.py).

The backends import modules that exist only on the device (machine, neopixel, stellar,
cosmic, picographics); the tests here put small recording stand-ins for those in sys.modules
and run the backends' own code under CPython."""
import ast
import importlib
import importlib.metadata
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import types

import pytest

from runtimes import ROOT
from shared_rules import GAMES

HARDWARE = os.path.join(ROOT, "hardware")
FIRMWARE = os.path.join(ROOT, "firmware")
HAL = os.path.join(FIRMWARE, "hal")


def _load_budget():
    spec = importlib.util.spec_from_file_location("stonegrid_hardware_budget",
                                                  os.path.join(HARDWARE, "budget.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


budget = _load_budget()
PROFILES = budget.profiles()
BUTTONS = ("up", "down", "left", "right", "ok", "back")
SWITCHES = ("A", "B", "C", "D", "VOL+", "VOL-", "LUX+", "LUX-", "SLEEP")
RP2_BACKENDS = sorted(set(p["backend"] for p in PROFILES.values() if p.get("chips")))
WS2812 = sorted(n for n, p in PROFILES.items() if p["backend"] == "ws2812")

# The power model the budget must not undercut (WS2812B datasheet figures, rounded up).
MA_PER_CHANNEL, IDLE_MA, CONTROLLER_MA = 20, 1, 50


# -- stand-ins for the device's modules ---------------------------------------------------

class FakePin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8
    made = []

    def __init__(self, id, mode=-1, pull=-1):
        self.id, self.mode, self.pull = id, mode, pull
        self.level = 1  # buttons: pulled up, not pressed
        self.handler = self.trigger = None
        FakePin.made.append(self)

    def value(self, v=None):
        return self.level

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        self.handler, self.trigger = handler, trigger

    def change(self, level):
        """A finger: the level changes and the interrupt (if any) runs."""
        self.level = level
        if self.handler is not None:
            self.handler(self)


class FakeNeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin, self.n, self.bpp = pin, n, bpp
        self.buf = bytearray(n * bpp)
        self.writes = []

    def write(self):
        self.writes.append(bytes(self.buf))


class FakeGraphics:
    def __init__(self, display, **kw):
        self.size = {24: 16, 23: 32}[display]
        self.pen = None
        self.pixels = {}

    def get_bounds(self):
        return self.size, self.size

    def create_pen(self, r, g, b):
        assert all(0 <= c <= 255 for c in (r, g, b))
        return r << 16 | g << 8 | b

    def set_pen(self, pen):
        self.pen = pen

    def pixel(self, x, y):
        assert 0 <= x < self.size and 0 <= y < self.size
        self.pixels[x, y] = self.pen


def _unicorn_class(name, size):
    class Unicorn:
        WIDTH = HEIGHT = size
        SWITCH_A, SWITCH_B, SWITCH_C, SWITCH_D = 0, 1, 3, 6
        SWITCH_SLEEP, SWITCH_VOLUME_UP, SWITCH_VOLUME_DOWN = 27, 7, 8
        SWITCH_BRIGHTNESS_UP, SWITCH_BRIGHTNESS_DOWN = 21, 26

        def __init__(self):
            self.brightness = []
            self.updates = 0
            self.pressed = set()

        def set_brightness(self, value):
            self.brightness.append(value)

        def is_pressed(self, switch):
            return switch in self.pressed

        def update(self, graphics):
            self.updates += 1
    Unicorn.__name__ = name
    return Unicorn


class FakePage:
    """The browser page as hal.web sees it (host/stonegrid/web/static/board.js)."""

    def __init__(self):
        self.shown = []
        self.events = ["ok press", "back long"]
        self.typed = ['{"cmd": "hello"}\n']

    def show(self, hex_rgb):
        self.shown.append(bytes.fromhex(hex_rgb))

    def poll(self):
        return self.events.pop(0) if self.events else None

    def held(self, name):
        return name == "back"

    def serialRead(self):  # noqa: N802 - the page's JavaScript name
        return self.typed.pop(0) if self.typed else None


def _module(name, **attrs):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    return mod


@pytest.fixture
def device(monkeypatch):
    """Stand-ins for the device-only modules, and fresh imports of the firmware's hal."""
    FakePin.made = []
    monkeypatch.setitem(sys.modules, "machine", _module("machine", Pin=FakePin))
    monkeypatch.setitem(sys.modules, "neopixel", _module("neopixel", NeoPixel=FakeNeoPixel))
    monkeypatch.setitem(sys.modules, "picographics", _module(
        "picographics", PicoGraphics=FakeGraphics, DISPLAY_STELLAR_UNICORN=24,
        DISPLAY_COSMIC_UNICORN=23))
    monkeypatch.setitem(sys.modules, "stellar", _module(
        "stellar", StellarUnicorn=_unicorn_class("StellarUnicorn", 16)))
    monkeypatch.setitem(sys.modules, "cosmic", _module(
        "cosmic", CosmicUnicorn=_unicorn_class("CosmicUnicorn", 32)))
    monkeypatch.setitem(sys.modules, "js", _module("js", stonegridBoard=FakePage()))
    monkeypatch.delenv("STONEGRID_SIM", raising=False)
    monkeypatch.syspath_prepend(FIRMWARE)
    before = set(sys.modules)
    for name in [m for m in sys.modules if m == "hal" or m.startswith("hal.")]:
        monkeypatch.delitem(sys.modules, name)
    hal = importlib.import_module("hal")
    yield hal
    for name in set(sys.modules) - before:  # nothing imported against the stand-ins stays
        if name == "hal" or name.startswith("hal."):
            del sys.modules[name]


def _worst_frame(board):
    return bytearray([255] * (board.width * board.height * 3))


def _ma(buf):
    """The LED current for the bytes a WS2812B panel receives (without idle draw)."""
    return sum(buf) * MA_PER_CHANNEL / 255


# -- profiles -----------------------------------------------------------------------------

def test_the_boards_the_issue_names_have_profiles():
    backends = dict((n, p["backend"]) for n, p in PROFILES.items())
    assert backends.get("stellar-unicorn") == "stellar"
    assert backends.get("cosmic-unicorn") == "cosmic"
    assert backends.get("pico-ws2812") == "ws2812" and backends.get("pico2-ws2812") == "ws2812"
    assert PROFILES["pico-ws2812"]["chips"] == ["RP2040"]
    assert PROFILES["pico2-ws2812"]["chips"] == ["RP2350"]


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_profile_is_complete_and_consistent(name):
    p = PROFILES[name]
    assert isinstance(p["name"], str) and p["name"]
    assert os.path.exists(os.path.join(HAL, p["backend"] + ".py")), p["backend"]
    assert isinstance(p["width"], int) and isinstance(p["height"], int)
    assert 0 <= p["brightness_cap"] <= 255
    if p["backend"] in ("unix", "web"):  # drawn by a host: no pins, no chip
        return
    assert set(p["buttons"]) == set(BUTTONS)
    assert re.fullmatch(r"[0-9A-F]{4}:[0-9A-F]{4}", p["usb"])
    assert p["chips"] and set(p["chips"]) <= {"RP2040", "RP2350"}
    # an RP2040 (Cortex-M0+) runs armv6m code only; RP2350 (Cortex-M33) runs both
    assert p["mpy_arch"] == "armv6m" if "RP2040" in p["chips"] else p["mpy_arch"] in (
        "armv6m", "armv7emsp")
    assert isinstance(p["firmware"], str) and p["firmware"]
    if p["backend"] in ("stellar", "cosmic"):
        size = {"stellar": 16, "cosmic": 32}[p["backend"]]
        assert (p["width"], p["height"]) == (size, size)
        assert set(p["buttons"].values()) <= set(SWITCHES)
        assert len(set(p["buttons"].values())) == 6
    if p["backend"] == "ws2812":
        pins = [p["data_pin"]] + list(p["buttons"].values())
        # GP0-GP22 and GP26-GP28 are on the Pico's header; GP23-25 are board functions
        assert all(isinstance(g, int) and (0 <= g <= 22 or 26 <= g <= 28) for g in pins)
        assert len(set(pins)) == len(pins), "a pin used twice"
        assert p["wiring"] in ("serpentine", "progressive")
        assert p["rotation"] in (0, 90, 180, 270)
        assert isinstance(p["mirror"], bool)
        assert sorted(p["color_order"]) == ["B", "G", "R"]
        assert isinstance(p["supply_ma"], int) and p["supply_ma"] > 0
        # the cap written is the cap shown: the supply does not force it lower
        assert budget.power(p)["cap"] == p["brightness_cap"], "cap too high for supply_ma"
        assert p["width"] == p["height"], "the LED order is worked out for square panels"


def test_every_profile_key_is_documented():
    with open(os.path.join(HARDWARE, "README.md")) as f:
        readme = f.read()
    documented = set(re.findall(r"^\| `(\w+)` \|", readme, re.M))
    used = set(k for p in PROFILES.values() for k in p)
    for path in os.listdir(HAL):  # and every key the backends read
        if path.endswith(".py"):
            with open(os.path.join(HAL, path)) as f:
                used |= set(re.findall(r"profile(?:\.get\(|\[)\"(\w+)\"", f.read()))
    assert used - documented == set(), "keys missing from hardware/README.md"


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_open_board_builds_each_profile(device, name):
    p = PROFILES[name]
    board = device.open_board(p)
    assert (board.width, board.height) == (p["width"], p["height"])
    assert board.brightness == board.cap <= p["brightness_cap"]
    board.show(_worst_frame(board))
    assert board.held("ok") is False
    if p["backend"] == "ws2812":
        made = dict((pin.id, pin) for pin in FakePin.made)
        for button, gpio in p["buttons"].items():
            assert made[gpio].mode == FakePin.IN and made[gpio].pull == FakePin.PULL_UP


def test_wiring_diagram_matches_the_diy_profiles():
    """hardware/wiring.svg is well-formed and shows the pins the DIY profiles use."""
    import xml.etree.ElementTree as ET

    root = ET.parse(os.path.join(HARDWARE, "wiring.svg")).getroot()
    assert root.tag.endswith("svg") and root.get("viewBox")
    # shown whole where pages are at most 1200 px wide (it was 1300 and cut off), scaled
    # from its drawing's own size, which keeps its proportions
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    width, height = float(root.get("width")), float(root.get("height"))
    assert width <= 1200 and abs(width / height - w / h) < 0.01
    text = " ".join(t.strip() for t in root.itertext() if t.strip())
    for part in ("74AHCT125", "330 Ω", "1000 µF", "100 nF", "1N5819", "VSYS"):
        assert part in text, part
    for name in WS2812:
        p = PROFILES[name]
        assert "GP%d" % p["data_pin"] in text
        for button, gpio in p["buttons"].items():
            assert "GP%d" % gpio in text and button.upper() in text


def test_buttons_press_long_press_and_clock_wrap(device, monkeypatch):
    """hal.buttons: OK acts as it goes down, once whatever its contacts bounce, and held on
    it also gives one long press (a hint) after LONG_MS; BACK acts when let go, a long press or a
    short one, and a 5 ms blip of it is a bounce; all across the wrap of the device's
    millisecond clock (ticks_ms counts modulo 2^30 on rp2)."""
    period = 1 << 30
    buttons_mod = importlib.import_module("hal.buttons")
    assert buttons_mod.LONG == ("back",) and buttons_mod.HOLD == ("ok",)
    monkeypatch.setattr(buttons_mod, "_ticks_diff",
                        lambda a, b: (a - b + period // 2) % period - period // 2)
    down = set()
    buttons = buttons_mod.Buttons(["ok", "back"], lambda name: name in down)
    events = []

    def at(now, *press, release=()):
        down.update(press)
        down.difference_update(release)
        buttons.update(now % period)
        event = buttons.poll()
        while event:
            events.append((now - start, ) + event)
            event = buttons.poll()
    for start in (1000, period - 200):  # the second run spans the wrap
        events.clear()
        at(start, "ok")  # down: a press at once
        at(start + 2, release=["ok"])  # its contacts bounce: no second press
        at(start + 4, "ok")
        at(start + 100, release=["ok"])
        at(start + 110, "ok")  # a bounce of the release
        at(start + 120, release=["ok"])
        at(start + 200, "ok")  # a second press, held long: one press, then one long
        at(start + 199 + buttons_mod.LONG_MS)  # not yet
        at(start + 200 + buttons_mod.LONG_MS)
        at(start + 200 + 2 * buttons_mod.LONG_MS)
        at(start + 300 + 2 * buttons_mod.LONG_MS, release=["ok"])
        at(start + 2000, "back")
        at(start + 2050, release=["back"])  # short: a press when let go
        at(start + 2200, "back")
        at(start + 2200 + buttons_mod.LONG_MS)  # held: a long press, once
        at(start + 2300 + buttons_mod.LONG_MS)
        at(start + 2400 + buttons_mod.LONG_MS, release=["back"])  # no press after a long one
        at(start + 3000, "back")
        at(start + 3005, release=["back"])  # 5 ms: a bounce, not a press
        assert events == [(0, "ok", "press"), (200, "ok", "press"),
                          (200 + buttons_mod.LONG_MS, "ok", "long"), (2050, "back", "press"),
                          (2200 + buttons_mod.LONG_MS, "back", "long")], start


# -- the brightness cap, as the backends enforce it ---------------------------------------

def test_scale_table_never_exceeds_its_level(device):
    for level in range(256):
        table = device.scale_table(level)
        assert len(table) == 256 and table[0] == 0 and table[255] == level
        assert all(a <= b for a, b in zip(table, table[1:])), "not monotonic"


def test_power_model_is_not_below_the_datasheet(device):
    ws = importlib.import_module("hal.ws2812")
    assert ws.MA_PER_CHANNEL >= MA_PER_CHANNEL and ws.IDLE_MA >= IDLE_MA
    assert ws.CONTROLLER_MA >= CONTROLLER_MA and ws.USB_MA <= 500


@pytest.mark.parametrize("name", WS2812)
def test_worst_frame_stays_within_the_supply(device, name):
    """No frame the app can send exceeds the cap: a frame is width*height*3 bytes 0..255 and
    the scale table is monotonic, so all-255 is the worst; the app may set any brightness."""
    p = PROFILES[name]
    board = device.open_board(p)
    leds = board.width * board.height
    for brightness in (255, 1000, board.cap, board.cap + 1, -5):
        board.brightness = brightness
        board.show(_worst_frame(board))
        buf = board._np.writes[-1]
        assert max(buf) <= board.cap <= p["brightness_cap"]
        total = _ma(buf) + leds * IDLE_MA + CONTROLLER_MA
        assert total <= p["supply_ma"], "%d mA on a %d mA supply" % (total, p["supply_ma"])
    # the same figure as hardware/budget.py prints for the README
    assert round(_ma(_worst_frame(board)) * board.cap / 255 + leds * IDLE_MA
                 + CONTROLLER_MA) == budget.power(p)["worst_ma"]


@pytest.mark.parametrize("name", WS2812)
@pytest.mark.parametrize("supply", [300, 500, 900, 2000, 3000, 4000, 100000])
def test_cap_follows_the_supply(device, name, supply):
    """A profile that names a smaller supply (USB: 500 mA, 900 mA) gets a lower cap in code,
    whatever brightness_cap says."""
    p = dict(PROFILES[name], supply_ma=supply, brightness_cap=255)
    board = device.open_board(p)
    board.brightness = 255
    board.show(_worst_frame(board))
    leds = board.width * board.height
    total = _ma(board._np.writes[-1]) + leds * IDLE_MA + CONTROLLER_MA
    assert total <= max(supply, leds * IDLE_MA + CONTROLLER_MA)
    if supply >= 900:
        assert board.cap >= 9  # the figure hardware/README.md gives for USB 3
    no_supply = dict(PROFILES[name], brightness_cap=255)
    del no_supply["supply_ma"]
    assert device.open_board(no_supply).cap == importlib.import_module(
        "hal.ws2812").power_cap(leds, 500), "a profile without supply_ma means USB"


@pytest.mark.parametrize("name", WS2812)
def test_ws2812_sends_every_byte_through_the_table(device, name):
    p = PROFILES[name]
    board = device.open_board(p)
    rng = random.Random(9)
    frame = bytearray(rng.randrange(256) for _ in range(board.width * board.height * 3))
    board.brightness = rng.randrange(board.cap + 1)
    board.show(frame)
    table = device.scale_table(min(board.brightness, board.cap))
    sent = board._np.writes[-1]
    ws = importlib.import_module("hal.ws2812")
    order = ws._led_order(16, 16, p["wiring"], p["rotation"], p.get("mirror", False))
    ro, go, bo = (p["color_order"].index(c) for c in "RGB")
    for pixel, led in enumerate(order):
        r, g, b = frame[pixel * 3:pixel * 3 + 3]
        assert sent[led * 3 + ro] == table[r] and sent[led * 3 + go] == table[g]
        assert sent[led * 3 + bo] == table[b]


@pytest.mark.parametrize("backend,size", [("stellar", 16), ("cosmic", 32)])
def test_unicorns_dim_to_min_of_brightness_and_cap(device, backend, size):
    p = dict(next(p for p in PROFILES.values() if p["backend"] == backend))
    board = device.open_board(p)
    assert (board.width, board.height) == (size, size)
    unicorn = board._unicorn
    for brightness in (255, 1000, 0, p["brightness_cap"] - 1, -3):
        board.brightness = brightness
        board.show(_worst_frame(board))
        level = max(0, min(brightness, p["brightness_cap"]))
        assert unicorn.brightness[-1] == level / 255 <= p["brightness_cap"] / 255
    assert unicorn.updates == 5
    frame = bytearray(range(256)) * (size * size * 3 // 256)
    board.show(frame)
    g = board._graphics
    assert g.pixels[1, 0] == frame[3] << 16 | frame[4] << 8 | frame[5]
    assert len(g.pixels) == size * size
    unicorn.pressed.add(type(unicorn).SWITCH_A)  # OK is A on both
    assert board.held("ok") and not board.held("back")


def test_virtual_board_applies_the_cap(device):
    board = device.open_board(PROFILES["unix"])
    board.brightness = 255
    board.show(_worst_frame(board))
    assert max(board._out[1:]) == board.cap == PROFILES["unix"]["brightness_cap"]


def test_browser_page_applies_the_cap_and_passes_events(device):
    board = device.open_board(PROFILES["web"])
    page = sys.modules["js"].stonegridBoard
    board.brightness = 255
    board.show(_worst_frame(board))
    assert page.shown == [bytes([PROFILES["web"]["brightness_cap"]]) * 768]
    assert (board.poll(), board.poll(), board.poll()) == (("ok", "press"), ("back", "long"),
                                                          None)
    assert board.held("back") and not board.held("ok")
    part, got = bytearray(8), b""
    for want in (8, 8, 1, 0):  # 0: nothing more typed, and the link does not wait for it
        assert board.serial.readinto(part) == want
        got += part[:want]
    assert got == b'{"cmd": "hello"}\n'


@pytest.mark.parametrize("name", WS2812)
def test_ws2812_wakes_the_app_on_every_edge_of_every_button(device, name):
    p = PROFILES[name]
    board = device.open_board(p)
    pins = dict((pin.id, pin) for pin in FakePin.made if pin.id in p["buttons"].values())
    assert set(pins) == set(p["buttons"].values())
    woken = []
    board.wake_on_press(lambda: woken.append(1))
    for pin in pins.values():
        assert pin.trigger == FakePin.IRQ_FALLING | FakePin.IRQ_RISING
        pin.change(0)
        pin.change(1)
    assert len(woken) == 2 * len(pins)


def test_every_backend_is_covered_by_a_cap_test():
    """A new backend needs its own stand-ins and cap test here (see the tests above)."""
    helpers = {"__init__", "unicorn", "buttons", "drawn", "place"}
    backends = set(f[:-3] for f in os.listdir(HAL) if f.endswith(".py")) - helpers
    covered = {"stellar", "cosmic", "ws2812", "unix", "web"}
    assert backends <= covered, "backends without a brightness-cap test: %s" % (
        backends - covered)


@pytest.mark.parametrize("name", sorted(n for n, p in PROFILES.items() if p.get("chips")))
def test_no_palette_colour_goes_dark_at_the_cap(name):
    p = PROFILES[name]
    cap = budget.power(p)["cap"] if p["backend"] == "ws2812" else p["brightness_cap"]
    assert budget.palette_floor(cap) == []


def test_led_order_is_a_permutation_for_every_mounting(device):
    ws = importlib.import_module("hal.ws2812")
    layouts = set()
    for wiring in ("serpentine", "progressive"):
        for rotation in (0, 90, 180, 270):
            for mirror in (False, True):
                order = ws._led_order(16, 16, wiring, rotation, mirror)
                assert sorted(order) == list(range(256))
                layouts.add((wiring, tuple(order)))
    assert len(layouts) == 16  # 4 turns x mirror: all 8 corner/direction starts, per wiring
    serp = ws._led_order(16, 16, "serpentine", 0)
    assert serp[:2] == [0, 1] and serp[16] == 31 and serp[31] == 16
    assert ws._led_order(16, 16, "progressive", 0, True)[0] == 15


# -- checked device code ------------------------------------------------------------------

STUBS = ("micropython-stdlib-stubs", "micropython-rp2-stubs", "pimoroni-pico-stubs")
# errors that mean a wrong use of an API, in app/views/rules code (in hal/ and main.py,
# where machine, neopixel and Pimoroni's modules are used, every error counts)
API_CODES = {"import-not-found", "import-untyped", "import", "name-defined", "call-arg"}


def _typings(dest):
    """The MicroPython rp2 and Pimoroni stubs copied out of site-packages (mypy will not
    take site-packages as a search path) into dest: stdlib/ is the typeshed replacement."""
    for name in STUBS:
        dist = importlib.metadata.distribution(name)
        for f in dist.files:
            rel = str(f)
            if ".dist-info" in rel or rel == "__init__.pyi":
                continue
            if rel.endswith(".pyi") or rel.endswith("/VERSIONS"):
                out = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(dist.locate_file(f), out)
    assert os.path.exists(os.path.join(dest, "stdlib", "VERSIONS"))
    for module in ("machine.pyi", "neopixel.pyi", "stellar/__init__.pyi",
                   "cosmic/__init__.pyi", "picographics/__init__.pyi"):
        assert os.path.exists(os.path.join(dest, module)), module


def _hal_imports(module):
    with open(os.path.join(HAL, module + ".py")) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hal."):
            out.add(node.module[4:])
    return out


def device_sources():
    """(strict, api) lists of the files that run on rp2: strict are hal/ (the rp2 backends
    the profiles name and the hal modules they import) and main.py; api the rest."""
    strict = {"__init__"}
    todo = list(RP2_BACKENDS)
    while todo:
        m = todo.pop()
        if m not in strict:
            strict.add(m)
            todo.extend(_hal_imports(m))
    strict_files = ["firmware/main.py"] + ["firmware/hal/%s.py" % m for m in sorted(strict)]
    api_files = [os.path.relpath(src, ROOT) for dev, src in budget.device_files()
                 if not dev.startswith("hal/") and dev != "main.py"]
    return strict_files, api_files


def run_mypy(tmp_path, files):
    """mypy on `files` against the stubs; returns its error records (JSON objects)."""
    typings = tmp_path / "typings"
    _typings(str(typings))
    cfg = tmp_path / "mypy.ini"
    cfg.write_text("\n".join([
        "[mypy]",
        "custom_typeshed_dir = %s" % typings,
        "mypy_path = %s" % os.pathsep.join([str(typings), FIRMWARE, ROOT]),
        "explicit_package_bases = True",
        "check_untyped_defs = True",  # the firmware has no annotations: check its bodies
        "follow_imports = silent",
        "cache_dir = %s" % (tmp_path / "cache"),
        "platform = linux",
        "",
    ]))
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(cfg), "-O", "json",
                        "--no-error-summary"] + list(files), cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode in (0, 1), "mypy did not run:\n" + r.stdout + r.stderr
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]


def api_errors(records, strict_files):
    out = []
    for e in records:
        path = os.path.relpath(os.path.join(ROOT, e["file"]), ROOT)
        if e["severity"] != "error" or path.startswith(".."):
            continue  # notes, and the stubs' own complaints
        module_attr = e["code"] == "attr-defined" and e["message"].startswith("Module ")
        if path in strict_files or e["code"] in API_CODES or module_attr:
            out.append("%s:%s: %s [%s]" % (path, e["line"], e["message"], e["code"]))
    return out


def test_device_code_type_checks_against_micropython_stubs(tmp_path):
    strict, api = device_sources()
    assert "firmware/hal/ws2812.py" in strict and "firmware/hal/stellar.py" in strict
    assert "firmware/hal/unicorn.py" in strict and "firmware/hal/unix.py" not in strict
    assert any(f.startswith("shared_rules/") for f in api)
    errors = api_errors(run_mypy(tmp_path, strict + api), strict)
    assert errors == [], "\n".join(errors)


def test_type_check_catches_wrong_device_calls(tmp_path):
    """The check is live: wrong machine.Pin, neopixel, Pimoroni and time calls are errors
    (the stubs were found, not silently taken as Any)."""
    bad = tmp_path / "wrong_device_calls.py"
    bad.write_text("\n".join([
        "import time",
        "import machine",
        "import neopixel",
        "from stellar import StellarUnicorn",
        "def make(profile):",
        "    p = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UPP)",  # no such constant
        "    n = neopixel.NeoPixel(p)",  # the LED count is missing
        "    StellarUnicorn().set_brightness('bright')",  # a float, not a str
        "    time.sleep_msec(5)",  # sleep_ms
        "    return n",
        "",
    ]))
    records = run_mypy(tmp_path, [str(bad)])
    found = sorted((e["line"], e["code"]) for e in records
                   if e["severity"] == "error" and e["file"].endswith("wrong_device_calls.py"))
    assert found == [(6, "attr-defined"), (7, "call-arg"), (8, "arg-type"),
                     (9, "attr-defined")], records


# -- compiled for each board --------------------------------------------------------------

ARCHS = sorted(set(p["mpy_arch"] for p in PROFILES.values() if p.get("mpy_arch")))
ARCH_CODE = {"armv6m": 4, "armv7m": 5, "armv7em": 6, "armv7emsp": 7, "armv7emdp": 8}


@pytest.mark.parametrize("arch", ARCHS)
def test_every_device_file_compiles_for_the_board(tmp_path, arch):
    sizes = budget.compile_all(arch, str(tmp_path))
    files = budget.device_files()
    assert len(sizes) == len(files) and any(d.startswith("shared_rules/") for d, _ in files)
    for dev in sizes:
        with open(os.path.join(str(tmp_path), dev), "rb") as f:
            header = f.read(4)
        assert header[:2] == b"M\x06", dev  # .mpy version 6: MicroPython 1.22 and later
        arch_bits = header[2] >> 2
        # bytecode only (no @native/@viper): no architecture, runs on RP2040 and RP2350;
        # native code would have to match the board
        assert arch_bits in (0, ARCH_CODE[arch]), dev
        assert header[3] == 31, dev  # small ints of 31 bits, as on rp2
    boards = ", ".join(n for n, p in sorted(PROFILES.items()) if p.get("mpy_arch") == arch)
    print("\n%s (%s): %d files, %d bytes of .mpy" % (arch, boards, len(sizes),
                                                    sum(sizes.values())))


def test_free_heap_per_board():
    """The app and its largest game, as measured from the .mpy files on the unix port and
    scaled to 32 bits, leave room on every board (estimates: hardware/README.md)."""
    heap = budget.heap_budget()
    assert set(heap["game64"]) == set(GAMES)
    assert heap["boot32"] < heap["boot64"]
    for board, b in heap["boards"].items():
        print("\n%s: %d bytes free while playing %s" % (board, b["free_in_game"],
                                                       b["worst_game"]))
        assert b["free_in_game"] >= 32 * 1024, board
    assert set(b.split("/")[0] for b in heap["boards"]) == set(
        n for n, p in PROFILES.items() if p.get("chips"))


def _drawn_colours():
    """Every colour the views draw over whole random games (each ply, at several moments of
    their blinking), and the palette's own: what a panel has to show."""
    from helpers import random_game
    from shared_rules import load
    from views import load as load_view
    from views import palette
    from views.canvas import Canvas
    seen = set(v for name in dir(palette) if name.isupper()
               for v in (lambda x: x if isinstance(x, tuple) else (x,))(getattr(palette, name))
               if isinstance(v, int))
    seen = set((c >> 16 & 255, c >> 8 & 255, c & 255) for c in seen)
    for game_id in GAMES:
        view = load_view(game_id)
        for seed in range(3):
            g = random_game(load(game_id), seed)
            h = load(game_id).Game(**g.options)
            ui = view.new_ui(h)
            ui.colours = palette.stones(game_id)
            for a in g.actions() + [None]:
                view.sync(h, ui)
                for t in (0, 300, 700, 1100):
                    c = Canvas()
                    view.render(h, ui, c, t)
                    seen.update(tuple(c.buf[i:i + 3]) for i in range(0, len(c.buf), 3))
                if a is not None:
                    h.play(a)
    return seen


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_level_a_view_draws_stays_visible_and_distinct_on_the_panel(name):
    """At the profile's cap (its supply's, for a WS2812 panel) and in its colour order, every
    lit channel of every drawn colour drives the LED at least hal.MIN_LIT, and no two drawn
    colours come out the same (at a cap of 40 Morris's lines had gone to a drive of 2)."""
    import hal
    profile = PROFILES[name]
    cap = profile.get("brightness_cap", 255)
    if profile["backend"] == "ws2812":
        ws = budget.firmware_module("hal.ws2812", machine=None, neopixel=None)
        cap = min(cap, ws.power_cap(profile["width"] * profile["height"],
                                    profile.get("supply_ma", ws.USB_MA)))
    table = hal.scale_table(cap)
    order = [profile.get("color_order", "RGB").index(c) for c in "RGB"]
    shown = {}
    for rgb in _drawn_colours():
        wire = tuple(table[rgb[order.index(k)]] for k in range(3))  # the bytes sent
        assert all(v >= hal.MIN_LIT for v in wire if v), (name, rgb, wire)
        shown.setdefault(wire, []).append(rgb)
    assert [v for v in shown.values() if len(v) > 1] == [], name
