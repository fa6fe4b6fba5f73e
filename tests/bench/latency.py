"""Button to light on the emulated Pico: from a button pin's edge to the end of the WS2812
stream of the first frame that shows the change, in the chip's emulated time.

The maker's MicroPython UF2 (--micropython FILE or $STONEGRID_MICROPYTHON_UF2) boots the app
with the pico-ws2812 profile in rp2040js (host/stonegrid/pico/run.mjs), which times each
edge of a button pin and the last bit of each frame on the data pin. A finger presses at
its own time (run.mjs's timed presses), 0.9 to 1.3 s after the last press was let go, so
wherever the firmware is then; each press is held PRESS_MS.

  - the menu: right and left presses through the games, OK to a game's setup, BACK;
  - per game, a game of a person against the device at the default level, started by the
    serial `new` command: the person's presses (the view's keys_for of the easy level's
    choice), made while the device thinks on the person's time (shared_rules/ponder.py);
    a game with sealed bids (Rhombus, where the device does not ponder) is played by two
    people, as its device's bids cannot be followed from its record lines.

The frame that shows a press is the first frame ending after its edge that differs from
every frame of the second before the edge (so a cursor's blink, which only repeats what was
shown, is not taken for it). A press acts on its first edge (hal.buttons: a button with no
long press), BACK on its release (it has one): the figure is timed from that edge. Both
edges' figures are printed.

Run: .venv/bin/python tests/bench/latency.py [--presses N] [--game G] (make bench runs it)
"""
import argparse
import json
import os
import queue
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from shared_rules import GAMES, load, search  # noqa: E402
from stonegrid.pico import board as pico_board, bootrom, image  # noqa: E402
import views  # noqa: E402

import pico  # noqa: E402  (tests/bench/pico.py: the firmware option)

PROFILE = os.path.join(ROOT, "hardware", "pico-ws2812.json")
PRESS_MS = 80
GAP_MS = (900, 1300)  # from a release to the next press
WINDOW_NS = 1000e6  # a press's frame is new against the frames of this long before it
RELEASE_FIRED = ("back",)  # buttons with a long press act on their release
GOAL_MEDIAN_MS, GOAL_SLOWEST_MS = 30, 40


class Chip:
    """run.mjs on a flash image of the app: its messages gathered by a thread."""

    def __init__(self, firmware, folder):
        with open(PROFILE) as f:
            self.profile = json.load(f)
        flash = os.path.join(folder, "flash.bin")
        with open(flash, "wb") as f:
            f.write(image.flash_image(firmware, image.app_files(PROFILE)))
        self.proc = subprocess.Popen(
            [pico_board.node_path(), pico_board.RUN_MJS, "--bootrom", bootrom.path(),
             "--uf2", firmware.path, "--flash", flash, "--profile", PROFILE],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.events = queue.Queue()
        self.frames = []  # (end ns, bytes), in order
        self.serial = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out, end = self.proc.stdout, None
        while True:
            head = out.read(5)
            if len(head) < 5:
                self.events.put(("gone", None))
                return
            payload = out.read(struct.unpack("<I", head[1:])[0])
            kind = head[:1]
            if kind == b"T":
                what = payload.decode().split()
                if what[0] == "frame":
                    end = int(what[1])
                else:
                    self.events.put((what[0], int(what[2])))
            elif kind == b"F":
                self.frames.append((end, bytes(payload)))
                self.events.put(("frame", end))
            elif kind == b"S":
                self.serial += payload

    def send(self, kind, payload):
        self.proc.stdin.write(kind + struct.pack("<I", len(payload)) + payload)
        self.proc.stdin.flush()

    def wait(self, kind, timeout=600):
        """The emulated ns of the next event of `kind` ("down", "up", "frame")."""
        deadline = time.time() + timeout
        while True:
            got = self.events.get(timeout=max(0.1, deadline - time.time()))
            if got[0] == "gone":
                raise SystemExit("the emulated Pico stopped")
            if got[0] == kind:
                return got[1]

    def press(self, button, at_ns):
        """Press `button` at emulated time at_ns: (down ns, up ns)."""
        self.send(b"N", b"%d %d %d" % (self.profile["buttons"][button], PRESS_MS, at_ns))
        down = self.wait("down")
        return down, self.wait("up")

    def command(self, cmd):
        self.send(b"S", json.dumps(cmd).encode() + b"\n")

    def close(self):
        self.proc.kill()
        self.proc.wait()


def light(frames, edge):
    """ns from `edge` to the end of the first frame after it that shows something new (not
    the frame on show at the edge, nor any of WINDOW_NS before it), or None."""
    before = set(f for t, f in frames if edge - WINDOW_NS <= t <= edge)
    before.update([f for t, f in frames if t <= edge][-1:])
    for t, f in frames:
        if t > edge and f not in before:
            return t - edge
    return None


def records(chip, since=0):
    """The record lines the board has sent from byte `since` of its serial output on (JSON
    objects with a "t")."""
    out = []
    for line in chip.serial[since:].decode("utf-8", "replace").split("\n")[:-1]:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and "t" in rec:
            out.append(rec)
    return out


def measure(chip, buttons, rng):
    """Press each of `buttons` in turn, a random gap after the last frame or release: the
    (button, down ns, up ns) of each."""
    edges, last = [], chip.frames[-1][0]
    for button in buttons:
        down, last = chip.press(button, last + rng.randint(*GAP_MS) * 10 ** 6)
        edges.append((button, down, last))
    return edges


def against_device(chip, game_id, n, rng, opponent):
    """A game of a person (side 0) against the device at the default level, started by the
    serial `new` command: the person's actions (the easy level's choice) by the presses
    the view's keys_for gives, while the device thinks on their time; its turns come from
    its record lines. The (button, down ns, up ns) of the first n presses."""
    g, ai, view = load(game_id).Game(), search.load_ai(game_id), views.load(game_id)
    device = "human" if g.SECRETS else opponent  # (sealed bids: no record to follow)
    since = len(chip.serial)  # this game's records come after
    chip.command({"cmd": "new", "game": game_id, "players": ["human", device]})
    chip.wait("frame")
    ui = view.new_ui(g)
    view.sync(g, ui)
    edges, last = [], chip.frames[-1][0]
    while len(edges) < n and g.result() is None:
        if g.to_move == 0 or device == "human":
            a = search.choose(g, g.to_move, ai, "easy", g.plies())
            for button, kind in view.keys_for(g, ui, a):
                down, last = chip.press(button, max(last, chip.frames[-1][0])
                                        + rng.randint(*GAP_MS) * 10 ** 6)
                edges.append((button, down, last))
                got = view.handle(g, ui, button, kind, 0)
                if got is not None and got != views.BACK:
                    g.play(got)
                    view.sync(g, ui)
            continue
        deadline = time.time() + 120  # the device's turn: its record lines
        while g.to_move == 1:
            acts = [r for r in records(chip, since)
                    if r["t"] == "act" and r["ply"] == g.plies() + 1]
            if acts:
                g.play(acts[0]["a"])
                view.sync(g, ui)
            elif time.time() > deadline:
                raise SystemExit("the device did not move in %s" % game_id)
            else:
                time.sleep(0.05)
    return edges[:n]


def report(rows):
    """Print the table: per label, the median and slowest ms from the edge each press acts
    on; True when every label meets the goal."""
    ok = True
    print("%-8s %7s %8s %9s   %s" % ("where", "presses", "median", "slowest",
                                     "(ms from the edge it acts on; from press / release)"))
    for label in dict.fromkeys(r[0] for r in rows):
        acted = [(r[3] if r[1] in RELEASE_FIRED else r[2]) for r in rows if r[0] == label]
        unseen = acted.count(None)
        ms = [a / 1e6 for a in acted if a is not None]
        downs = [r[2] / 1e6 for r in rows if r[0] == label and r[2] is not None]
        ups = [r[3] / 1e6 for r in rows if r[0] == label and r[3] is not None]
        if not ms:
            print("%-8s no press showed a change" % label)
            ok = False
            continue
        med, worst = statistics.median(ms), max(ms)
        ok = ok and med <= GOAL_MEDIAN_MS and worst <= GOAL_SLOWEST_MS
        print("%-8s %7d %8.1f %9.1f   from press %.1f / release %.1f (median)%s" % (
            label, len(ms), med, worst, statistics.median(downs) if downs else -1,
            statistics.median(ups) if ups else -1,
            "; %d showed no change" % unseen if unseen else ""))
    print("goal: median <= %d ms, slowest <= %d ms, everywhere: %s" % (
        GOAL_MEDIAN_MS, GOAL_SLOWEST_MS, "met" if ok else "NOT met"))
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=20, help="presses timed per game")
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game "
                    "(repeatable); default all four")
    ap.add_argument("--each", action="store_true", help="print every press's figures")
    ap.add_argument("--against", choices=("device", "human"), default="device",
                    help="the other side of each game (human: both sides pressed here, as "
                    "for a firmware that does not think on the player's time)")
    ap.add_argument("--seed", type=int, default=1, help="of the gaps between presses")
    args = pico.parse(ap, argv)
    firmware = pico.bench_firmware(args, "latency bench")
    rng = random.Random(args.seed)
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        chip = Chip(firmware, tmp)
        try:
            chip.wait("frame", timeout=120)  # the menu
            # the menu, a game's setup (OK) and back (BACK, which acts when let go)
            presses = [("menu", measure(chip, ["right"] * 3 + ["left"] * 3 + ["ok", "back"],
                                        rng))]
            for game_id in args.game or GAMES:
                opponent = "device:normal" if args.against == "device" else "human"
                presses.append((game_id, against_device(chip, game_id, args.presses, rng,
                                                        opponent)))
            last = presses[-1][1][-1][2]
            while chip.frames[-1][0] < last + GAP_MS[0] * 10 ** 6:  # the last press's frames
                try:
                    chip.wait("frame", timeout=10)
                except queue.Empty:
                    break  # the screen stands still
        finally:
            chip.close()
    rows = [(label, button, light(chip.frames, down), light(chip.frames, up))
            for label, edges in presses for button, down, up in edges]
    print("%d presses in %.0f s on this host" % (len(rows), time.time() - started))
    for row in rows if args.each else ():
        print("  %-8s %-6s from press %s, from release %s" % (row[0], row[1], *(
            "-" if ms is None else "%.1f ms" % (ms / 1e6) for ms in row[2:])))
    return 0 if report(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
