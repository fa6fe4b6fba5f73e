"""`stonegrid logs`: save the board's game records, one JSON Lines file per game.

Every complete line is written (and flushed) the moment it arrives.  Output that is not JSON
is counted and reported, never fatal; when the board goes away (unplugged, reset) the port is
opened again as soon as it is back."""
import datetime
import json
import os
import sys
import time

RECORDS = ("game", "act", "undo", "end")


class Capture:
    def __init__(self, out_dir, follow=False, write=print, warn=None):
        self.out_dir = out_dir
        self.follow = follow
        self.write = write
        self.warn = warn or (lambda text: print(text, file=sys.stderr))
        self.file = None
        self.path = None
        self.games = self.lines = self.junk = 0
        os.makedirs(out_dir, exist_ok=True)

    def _open(self, game_id):
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        base = os.path.join(self.out_dir, "%s-%s" % (stamp, game_id))
        path, n = base + ".jsonl", 1
        while os.path.exists(path):
            n += 1
            path = "%s-%d.jsonl" % (base, n)
        if self.file:
            self.file.close()
        self.file, self.path = open(path, "a", encoding="utf-8"), path
        self.games += 1

    def line(self, raw):
        """One complete line from the board."""
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            return
        try:
            rec = json.loads(text)
        except ValueError:
            rec = None
        if not isinstance(rec, dict):
            self.junk += 1
            self.warn("logs: not JSON, skipped: %s" % text[:70])
            return
        kind = rec.get("t")
        if kind not in RECORDS:
            if kind == "error" and self.follow:
                self.write("board: %s" % rec.get("error"))
            return
        if kind == "game" or self.file is None:
            self._open(rec.get("game") if kind == "game" else "unknown")
        self.file.write(text + "\n")
        self.file.flush()
        self.lines += 1
        if self.follow:
            self.write(_describe(rec))

    def close(self):
        if self.file:
            self.file.close()

    def summary(self):
        return "logs: %d lines of %d games saved in %s; %d lines that were not JSON skipped" % (
            self.lines, self.games, self.out_dir, self.junk)


def _describe(rec):
    kind = rec["t"]
    if kind == "game":
        return "new game: %s %s, %s" % (rec.get("game"), " vs ".join(rec.get("players") or ()),
                                        rec.get("options"))
    if kind == "act":
        return "%4s. player %s: %s" % (rec.get("ply"), rec.get("p"), rec.get("n"))
    if kind == "undo":
        return "      ply %s taken back" % rec.get("ply")
    winner = rec.get("winner")
    return "game over: %s (%s)" % ("draw" if winner is None else "player %s wins" % winner,
                                   rec.get("reason"))


def capture(port, capture, stop=lambda: False, retry=0.5):
    """Read the port until stop() is true, reopening it whenever it goes away."""
    import serial
    pending = b""
    connected = None
    while not stop():
        try:
            s = serial.Serial(port, 115200, timeout=0.2)
        except (serial.SerialException, OSError):
            if connected is not False:
                capture.warn("logs: waiting for %s" % port)
                connected = False
            time.sleep(retry)
            continue
        if connected is False:
            capture.warn("logs: %s is back" % port)
        connected = True
        try:
            while not stop():
                chunk = s.read(4096)
                if not chunk:
                    continue
                pending += chunk
                while b"\n" in pending:
                    raw, pending = pending.split(b"\n", 1)
                    capture.line(raw)
        except (serial.SerialException, OSError):
            if pending:
                capture.warn("logs: the board went away in the middle of a line; dropped "
                             "%d bytes" % len(pending))
                pending = b""
            capture.warn("logs: lost %s" % port)
            connected = False
        finally:
            s.close()
    capture.close()
