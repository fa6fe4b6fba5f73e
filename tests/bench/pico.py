"""Figures measured on an emulated Raspberry Pi Pico: the maker's MicroPython UF2 for the Pico
(--micropython FILE or $STONEGRID_MICROPYTHON_UF2; stock v1.28.0 RPI_PICO for the figures
of tests/bench/README.md) booted in rp2040js from a flash image holding the app (stonegrid.pico.image) plus
tests/bench/pico_device.py, timed by the chip's own clock (time.ticks_us at 125 MHz), so in
emulated time whatever the host's speed. rp2040js counts each instruction's cycles; it does
not model the flash's XIP cache misses or bus contention (tests/bench/README.md).

  - free heap at main.py's start, with the menu up, after each game;
  - boot: ms from reset to the menu's first frame on the LEDs (the pico-ws2812 profile);
  - per game: a device-vs-device game at the default level is recorded under CPython, then
    replayed on the device's Play screen; at --moves plies spread over the game, what one
    evaluation leaves on the heap (a long int, 30 bits or more, is garbage), the device's
    search at each level is timed (mean, slowest), and run again sampling gc.mem_alloc()
    between its steps (the peak in use, garbage included: the app collects every GC_EVERY
    bytes); a frame there is timed (the view's render, the WS2812 write); the default level's
    action is checked against CPython's (rp2040js drops flash writes: the game is
    replayed with the rules' play, no journal is written);
  - per game, random playouts per second (the rules alone, as tests/bench/rules.py), with
    our rules and with those of --base (by default the rules before issue 19), the same
    seeds in turn, and the speedup per ply: a second boot;
  - --tune: the default level only, and for each game the budget (search.py's units) that
    meets the time targets, from the times measured at the present one (time per move taken
    as proportional to the budget: the chip's units per second stay): re-run it after the
    rules change, set the companions' NODES to what it prints, and run it again to check.
All four games run in one boot, as a user would play them one after the other. rp2040js
runs at about a third of real time on an idle core: about 10 minutes at the default --moves
10 (the hard level's searches most of it), a few with --tune (on a loaded machine, more).
Run: .venv/bin/python tests/bench/pico.py [--moves N] [--game G] [--level L] [--tune] (make
bench runs it, and again with --level hard --moves 0 --no-peak: the hard level over whole
games)
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
sys.path.insert(0, HERE)
from shared_rules import GAMES, load, search  # noqa: E402
from stonegrid import build  # noqa: E402
from stonegrid.build import tool  # noqa: E402
from stonegrid.sim.engine import DEFAULT_HEAP  # noqa: E402
from stonegrid.sim.sync import micropython_path  # noqa: E402
from stonegrid.pico import bootrom, image, stock  # noqa: E402

import rules as rules_bench  # noqa: E402  (tests/bench/rules.py: the base revision's rules)

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
SLOWEST_S, MEAN_S = 1.0, 0.3  # the default level's targets per move on the chip
HARD_SLOWEST_S = 2.0  # the hard level's
MARGIN = 0.9  # --tune's budgets aim this far below the targets: other positions, other games
TARGETS = "default level: slowest move <= %g s, mean <= %g s; boot to menu <= 1 s; " \
          "all four games in one boot, no out of memory, >= 100 KB free at the peak" % (
              SLOWEST_S, MEAN_S)
BASE_DIR = "base"  # the base revision's rules on the chip's filesystem


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


def base_files(rev):
    """{path: bytes}: the rules of git revision `rev` compiled, in BASE_DIR/shared_rules/."""
    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        if not rules_bench.base_tree(rev, tmp):
            raise SystemExit("no rules at git revision %r" % rev)
        folder = os.path.join(tmp, "shared_rules")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                files["%s/shared_rules/%s.mpy" % (BASE_DIR, name[:-3])] = compiled(
                    os.path.join(folder, name))
    return files


def run(firmware, call, config, timeout, more=None):
    """Boot an image of `firmware` (a stock.Firmware) whose main.py calls pico_device's `call`
    (text), with bench.json holding `config` (and `more` files, {path: bytes}); (figure
    dicts, other lines, emulated ms). Lines are echoed to stderr as they come (a run takes
    minutes)."""
    files = image.app_files(PROFILE)
    files.update(more or {})
    files["main.py"] = (MAIN % call).encode()
    files["bench.json"] = json.dumps(config).encode()
    for name in ("pico_device", "playouts"):
        files[name + ".mpy"] = compiled(os.path.join(HERE, name + ".py"))
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.bin")
        with open(flash, "wb") as f:
            f.write(image.flash_image(firmware, files))
        proc = subprocess.Popen(["node", BOOT_JS, bootrom.path(), flash, END,
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


def share_config(games, moves, level=search.DEFAULT):
    """bench.json for pico_device.share: each game's actions recorded at `level`, `moves`
    plies spread over it (0: every one)."""
    config = {"games": []}
    for game_id in games:
        actions = record(game_id, level)
        config["games"].append([game_id, actions, spread(moves or len(actions) + 1,
                                                          len(actions))])
    return config


def unix_share(config, heap=DEFAULT_HEAP):
    """pico_device.share on the unix board's runtime (the unix port at `heap`, as `stonegrid
    sim` starts it) with the same build, compiled: its figure dict."""
    with tempfile.TemporaryDirectory() as tmp:
        build.write_tree(build.build(compiled=True), tmp)
        with open(os.path.join(tmp, "pico_device.mpy"), "wb") as f:
            f.write(compiled(os.path.join(HERE, "pico_device.py")))
        with open(os.path.join(tmp, "bench.json"), "w") as f:
            json.dump(config, f)
        done = subprocess.run([micropython_path(), "-X", "heapsize=" + heap, "-c",
                               "import pico_device; pico_device.share()"], cwd=tmp,
                              capture_output=True, text=True, timeout=600)
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            got = json.loads(line)
            if got.get("figure") == "share":
                return got
    raise SystemExit("the unix port did not finish: %s" % (done.stdout + done.stderr)[-2000:])


def print_shares(unix, pico):
    u, p = unix["peak"] / unix["heap"], pico["peak"] / pico["heap"]
    print("heap share, the same games: unix board %s of %s KB (%.1f%%), Pico %s of %s KB "
          "(%.1f%%); the unix board needs %.2fx the Pico's share (>= 1: it stays the stricter)"
          % (kb(unix["peak"]), kb(unix["heap"]), 100 * u, kb(pico["peak"]), kb(pico["heap"]),
             100 * p, u / p))
    return u / p


def kb(n):
    return "%.1f" % (n / 1024.0)


def playout_rates(figures, lines):
    """{(folder, game): (games/s, plies a game)} from the rules boot: its k-th "playouts"
    figure names the k-th of playouts.py's 'games N plies P ms T' lines."""
    marks = [f for f in figures if f["figure"] == "playouts"]
    counts = [w.split() for w in lines if w.startswith("games ")]
    return dict(((f["tree"], f["game"]), (int(w[1]) * 1000.0 / max(1, int(w[5])),
                                          int(w[3]) / max(1, int(w[1]))))
                for f, w in zip(marks, counts))


def tuned(game_id, f):
    """The default level's budget for game_id meeting the targets (with MARGIN), from its
    figure `f` measured at the present budget."""
    now = search.budget(search.load_ai(game_id))
    scale = min(MEAN_S * 1e6 / max(1, f["mean_us"]), SLOWEST_S * 1e6 / max(1, f["max_us"]))
    return now, int(now * scale * MARGIN)


def parse(ap, argv):
    """ap's arguments, with --micropython (the benches on the emulated Pico)."""
    ap.add_argument("--micropython", metavar="FILE", help="the MicroPython UF2 for the Pico "
                    "(default: $%s)" % stock.ENV)
    return ap.parse_args(argv)


def bench_firmware(args, bench):
    """The checked stock.Firmware of --micropython, whose .mpy format the build's is (the
    benches load compiled files), named on stdout; else SystemExit naming `bench`."""
    try:
        firmware = stock.load(args.micropython)
        if firmware.mpy_note():
            raise stock.FirmwareError("the bench loads .mpy files: %s" % firmware.mpy_note())
    except ValueError as e:
        raise SystemExit("%s: %s" % (bench, e))
    print("firmware: %s" % firmware.describe(), flush=True)
    return firmware


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=10,
                    help="searches timed per game and level, at plies spread over a game; 0: "
                    "at every ply (the hard level's slowest move over whole games: --level "
                    "hard --moves 0)")
    ap.add_argument("--level", action="append", choices=search.LEVELS,
                    help="only this level, of the four every game has (repeatable); the games are then played at the "
                    "first one given (default: every level, games at %s)" % search.DEFAULT)
    ap.add_argument("--game", action="append", choices=GAMES,
                    help="only this game (repeatable); default all four, in one boot")
    ap.add_argument("--playouts", type=int, default=20,
                    help="random games timed per game and rules (0: none)")
    ap.add_argument("--base", default=rules_bench.BASE,
                    help="git revision whose rules' playouts to compare with (default "
                    "%(default)s, before issue 19); '' for none")
    ap.add_argument("--tune", action="store_true",
                    help="the default level only, no playouts: print the budgets that meet "
                    "the time targets")
    ap.add_argument("--no-peak", action="store_true", help="time the searches only, without "
                    "running each again for its peak heap (half the time)")
    ap.add_argument("--timeout", type=float, default=1800, help="host seconds per boot")
    args = parse(ap, argv)
    firmware = bench_firmware(args, "pico bench")
    games = args.game or list(GAMES)
    started = time.time()
    levels = [search.DEFAULT] if args.tune else args.level or list(search.LEVELS)
    played = levels[0] if args.level else search.DEFAULT
    config = dict(share_config(games, args.moves, played), levels=levels, check_level=played,
                  peaks=not args.no_peak)
    figures, other, emulated = run(firmware, "app(free)", config, args.timeout)
    rules = [], [], 0
    if args.playouts and not args.tune:
        trees = ["fw/a"] + ([BASE_DIR] if args.base else [])
        rules = run(firmware, "rules(free)",
                    {"trees": trees, "games": games, "n": args.playouts},
                    args.timeout, base_files(args.base) if args.base else None)
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
    print("%-8s %-7s %5s %9s %9s %7s %8s %9s %9s" % (
        "game", "level", "moves", "mean s", "slowest s", "units", "units/s", "peak KB",
        "free KB"))
    peak = 0
    for f in by.get("move", []):
        peak = max(peak, f["peak_alloc"])
        print("%-8s %-7s %5d %9.3f %9.3f %7.0f %8.0f %9s %9s" % (
            f["game"], f["level"], f["moves"], f["mean_us"] / 1e6, f["max_us"] / 1e6,
            f["units"] / max(1, f["moves"]), f["units"] * 1e6 / max(1, f["mean_us"] * f["moves"]),
            kb(f["peak_alloc"]), kb(total - f["peak_alloc"])))
    for f in by.get("frame", []):
        print("frame %-8s render %.1f ms (slowest %.1f), WS2812 write %.1f ms (slowest %.1f), "
              "%d frames" % (f["game"], f["render_us"] / 1e3, f["render_max_us"] / 1e3,
                             f["show_us"] / 1e3, f["show_max_us"] / 1e3, f["frames"]))
    for f in by.get("agree", []):
        print("%s: the device's %s action is CPython's at %d of %d plies"
              % (f["game"], f["level"], f["same"], f["of"]))
    for f in by.get("garbage", []):
        print("%s: an evaluation leaves at most %d bytes on the heap" % (f["game"], f["evaluate"]))
    rates = playout_rates(rules[0], rules[1])
    for game_id in games if rates else ():
        ours, plies = rates["fw/a", game_id]
        text = "%-8s random games/s %.2f (%.0f plies a game, %.0f plies/s)" % (
            game_id, ours, plies, ours * plies)
        if (BASE_DIR, game_id) in rates:
            base, base_plies = rates[BASE_DIR, game_id]
            text += "; rules of %s %.2f games/s (%.0f plies): speedup per ply %.2fx" % (
                args.base, base, base_plies, ours * plies / (base * base_plies))
        print(text)
    default = [f for f in by.get("move", []) if f["level"] == search.DEFAULT]
    print("targets (%s):" % TARGETS)
    print("  slowest default-level move %.3f s, worst mean %.3f s; boot %s ms; errors %d; "
          "free at the peak %s KB" % (
              max(f["max_us"] for f in default) / 1e6 if default else 0,
              max(f["mean_us"] for f in default) / 1e6 if default else 0, boot,
              len(by.get("error", [])), kb(total - peak)))
    hard = [f for f in by.get("move", []) if f["level"] == "hard"]
    if hard:
        print("  slowest hard-level move %.3f s (target: <= %g s over whole games, --moves 0)"
              % (max(f["max_us"] for f in hard) / 1e6, HARD_SLOWEST_S))
    if not args.tune:
        print_shares(unix_share(config), run(firmware, "share(free)", config, args.timeout)[0][0])
    if args.tune:
        print("budgets of the %s level meeting the targets with a margin of %.0f%% (the "
              "companions' NODES; the other levels in proportion):" % (
                  search.DEFAULT, 100 * (1 - MARGIN)))
        for f in default:
            now, new = tuned(f["game"], f)
            nodes = getattr(search.load_ai(f["game"]), "NODES", search.NODES)
            print("  %-8s %d -> %d: NODES = (%s)" % (f["game"], now, new, ", ".join(
                str(max(1, n * new // now)) for n in nodes)))
    return 1 if by.get("error") else 0


if __name__ == "__main__":
    sys.exit(main())
