"""`stonegrid logs`: save the board's game records, one JSON Lines file per game.

Every complete line is written (and flushed) the moment it arrives.  Output that is not JSON
is counted and reported, never fatal; when the board goes away (unplugged, reset) the port is
opened again as soon as it is back.  Started in the middle of a game, it asks the board for
the game so far, so that the file is a whole game that replay reads; and when the board comes
back (a power cut, a cable out) it asks again and writes what the link lost meanwhile, so that
every action is in the file once, in order."""
import datetime
import json
import os
import sys
import time

from shared_rules import GAMES, load, record
from shared_rules.reader import Reader, RecordError

from stonegrid import records

RECORDS = ("game", "act", "undo", "hint", "end")
ANSWER_S = 10  # a "state" asked for and not answered by then will not be: go on without it


class Capture:
    def __init__(self, out_dir, follow=False, write=print, warn=None):
        self.out_dir = out_dir
        self.follow = follow
        self.write = write
        self.warn = warn or (lambda text: print(text, file=sys.stderr))
        self.file = None
        self.path = None
        self.ask = None  # sends a command to the board while the port is open
        self.held = None  # records that came before the answer to "state" (in it), or None
        self.asked_at = 0.0  # when "state" was asked for (time.monotonic)
        self.saved = None  # a Reader fed the current file's lines: the game as saved so far
        self.fw = ""  # from the board's hello line, for a game record rebuilt from its state
        self.names = None  # the current game's sides (Red, Green...)
        self.games = self.lines = self.junk = 0
        self.received = 0  # lines from the board, for the messages

    def _open(self, game_id):
        """A new file for a game: named by the time and the game, the name only ever one of
        GAMES or "unknown" (never a board's text: it could be a path, or no name at all)."""
        name = game_id if game_id in GAMES else "unknown"
        if game_id not in (name, None):
            self.warn("logs: line %d: the game %s is none of stonegrid's; saved in a file named "
                      "'unknown'" % (self.received, record.clip(game_id)))
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        os.makedirs(self.out_dir, exist_ok=True)  # made with the first file: no empty ones
        base = os.path.join(self.out_dir, "%s-%s" % (stamp, name))
        path, n = base + ".jsonl", 1
        while os.path.exists(path):
            n += 1
            path = "%s-%d.jsonl" % (base, n)
        if self.file:
            self.file.close()
        self.file, self.path = open(path, "a", encoding="utf-8"), path
        self.saved = None  # until its game record
        self.games += 1

    def line(self, raw):
        """One complete line from the board."""
        self.received += 1
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
        if self.held is not None and (kind == "hello" or
                                      time.monotonic() - self.asked_at > ANSWER_S):
            self._release()  # the board restarted (or never answered): no answer is coming
        if kind == "hello":
            self.fw = rec.get("fw") or self.fw
        if kind == "resumed":  # a restart: the link may have lost the journal's last lines
            return self.check(start=True)
        if kind == "ended":
            return self._ended(rec)
        if kind == "state" and self.held is not None:
            return self._game_so_far(rec)
        if kind not in RECORDS:
            if kind == "error" and self.follow:
                self.write("board: %s" % rec.get("error"))
            return
        if kind == "game":
            self._release()
            self._open(rec.get("game"))
            self.names = player_names(rec.get("game"))
        elif self.held is not None:
            self.held.append((text, rec))
            return
        elif self.file is None:
            if self.check(start=True):
                self.held.append((text, rec))
                return
            self._open("unknown")
        self._save(text, rec)

    def check(self, start=False):
        """Ask the board for the game so far, to compare with the file (start: or, with no
        file yet, to start one with it); records until the answer are held, as it has them.
        Called when the board is back after a restart or once the port is open again.  True
        when asked."""
        if self.ask is None or self.held is not None or not (start or self.file):
            return False
        self.held, self.asked_at = [], time.monotonic()
        self.ask({"cmd": "state", "turns": True})
        return True

    def _save(self, text, rec):
        self.file.write(text + "\n")
        self.file.flush()
        self.lines += 1
        if rec["t"] == "game":
            self.saved = Reader()
        if self.saved is not None:
            try:
                self.saved.feed(text)
            except RecordError:  # not a game this checkout follows: saved, never compared
                self.saved = None
        if self.follow:
            self.write(describe(rec, self.names))

    def _game_so_far(self, state):
        """The board's answer to "state": the game under way as records, from its start.
        The records held meanwhile came before the answer, so the state has them already.
        The file's own game, if the board is still playing it, is brought level with it."""
        try:
            if state.get("game") is None:
                raise ValueError("the board shows no game")
            header = {"game": state["game"], "players": state.get("players") or (),
                      "fw": self.fw}
            g = load(state["game"]).Game(**record.options(state.get("options") or {}))
            turns = state.get("turns") or []
            for i, turn in enumerate(turns):
                records.play_turn(g, turn, last=i == len(turns) - 1)
            lines = records.to_records(header, g)
        except (ValueError, TypeError) as e:
            if self.file is None:
                self.warn("logs: the game so far cannot be had from the board (%s); saving "
                          "the records as they come" % e)
            return self._release()
        held, self.held = self.held, None
        if self._same_game(header, g):
            return self._catch_up(lines, g, held)
        self._open(state["game"])
        self.names = player_names(state["game"])
        if self.follow:
            self.write("the game so far, from the board: %d plies" % g.plies())
        for text in lines:
            self._save(text, json.loads(text))

    def _ended(self, rec):
        """The board's boot line for a journalled game that had ended: its last records,
        written if the file's game lacks them."""
        saved = self._unfinished(rec.get("game"))
        if saved is None:
            return
        plies, missing = saved.game.plies(), []
        for r in rec.get("last") or ():  # the last action, then the end record
            if isinstance(r, dict) and r.get("t") in ("act", "end") and r.get("ply") == (
                    plies + 1 if r["t"] == "act" else plies):
                missing.append(r)
                plies = r["ply"]
        if missing:
            self.warn("logs: %d record lines the link lost before the board restarted, "
                      "written now" % len(missing))
        for r in missing:
            self._save(json.dumps(r), r)

    def _unfinished(self, game_id):
        """The file's game as saved (a Reader) if it is an unfinished game of game_id."""
        saved = self.saved
        if saved is not None and not saved.ended and saved.header.get("game") == game_id:
            return saved
        return None

    def _same_game(self, header, g):
        """Whether the board's game g is the one the file holds (not a new one whose game
        record the link lost): same game, options and players, and the file's not ended."""
        saved = self._unfinished(header["game"])
        return (saved is not None and saved.game.options == g.options
                and list(saved.header.get("players") or ()) == list(header["players"]))

    def _catch_up(self, lines, g, held=()):
        """Write what the file lacks of the board's game (lines: its records): an undo for
        each saved action the board no longer has, then the actions it has beyond them, as
        the board wrote them where they came while the answer was awaited (`held`: they
        may carry more than the state tells, as the digest of linked boards)."""
        have, board = self.saved.game.actions(), g.actions()
        same = 0
        while same < min(len(have), len(board)) and have[same] == board[same]:
            same += 1
        as_sent = dict(((rec["t"], rec.get("ply")), text) for text, rec in held or ())
        missing = [record.undo_line(ply) for ply in range(len(have), same, -1)]
        for text in lines[1 + same:]:
            rec = json.loads(text)
            sent = as_sent.get((rec["t"], rec.get("ply")))
            missing.append(sent if sent is not None and json.loads(sent).get("n") == rec.get(
                "n") else text)
        if missing:
            self.warn("logs: %d record lines the link lost while the board was away, "
                      "written now from its state" % len(missing))
        for text in missing:
            self._save(text, json.loads(text))

    def _release(self):
        """Records held for an answer that will not make them whole: kept, as they came."""
        held, self.held = self.held or [], None
        if held and self.file is None:
            self._open("unknown")
        for text, rec in held:
            self._save(text, rec)

    def close(self):
        self._release()
        if self.file:
            self.file.close()

    def summary(self):
        return "logs: %d lines of %d games saved in %s; %d lines that were not JSON skipped" % (
            self.lines, self.games, self.out_dir, self.junk)


def player_names(game_id):
    """The sides as the game calls them, or None for a game this checkout does not know."""
    try:
        return records.player_names(game_id)
    except ValueError:  # a game this checkout does not know
        return None


def describe(rec, names=None):
    """A record as a person reads it, the sides by the game's names (as `play` does)."""
    def who(p):
        return names[p] if names and p in (0, 1) else "player %s" % p
    kind = rec["t"]
    if kind == "game":
        return "new game: %s %s, %s" % (rec.get("game"), " vs ".join(rec.get("players") or ()),
                                        rec.get("options"))
    if kind == "act":
        return "%4s. %s: %s" % (rec.get("ply"), who(rec.get("p")), rec.get("n"))
    if kind == "undo":
        return "      ply %s taken back" % rec.get("ply")
    if kind == "hint":
        return "      %s asked for a hint" % who(rec.get("p"))
    winner = rec.get("winner")
    return "game over: %s (%s)" % ("draw" if winner is None else "%s wins" % who(winner),
                                   rec.get("reason"))


def capture(port, capture, stop=lambda: False, retry=0.5):
    """Read the port until stop() is true, reopening it whenever it goes away."""
    def opened(s):
        capture.ask = lambda cmd: (s.write((json.dumps(cmd) + "\n").encode()), s.flush())
        capture.check()  # what the board did while the port was away

    def lost():
        capture.ask = None
    follow(port, opened, capture.line, lost, stop, lambda text: capture.warn("logs: " + text),
           retry)
    capture.close()


class Lines:
    """Complete lines (bytes, no newline) out of a stream of chunks, each at most `cap` bytes:
    a longer line is skipped whole and counted, so that memory stays bounded (by the cap and a
    chunk) and time linear in the bytes (each byte is looked at once, whatever comes)."""

    def __init__(self, cap=record.MAX_LINE):
        self.cap = cap
        self.pending = bytearray()
        self.skipping = False  # inside a line over the cap: dropped up to its end
        self.skipped = 0  # lines over the cap

    def feed(self, chunk):
        out, start = [], 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            if self.skipping:
                self.skipping = False
            elif len(self.pending) + end - start <= self.cap:
                self.pending += chunk[start:end]
                out.append(bytes(self.pending))
            else:
                self.skipped += 1
            del self.pending[:]
            start = end + 1
        if not self.skipping:
            if len(self.pending) + len(chunk) - start > self.cap:
                self.skipped += 1
                self.skipping = True
                del self.pending[:]
            else:
                self.pending += chunk[start:]
        return out


def _take(line, raw, warn):
    """line(raw), whatever the line holds: what cannot be done with one line (a file that
    cannot be written, a field that cannot be printed) is said, and the capture goes on."""
    try:
        line(raw)
    except Exception as e:  # noqa: BLE001 - one line never ends a capture
        warn("a line could not be saved (%s: %s): %s" % (type(e).__name__, str(e)[:80],
                                                          raw[:60]))


def follow(port, opened, line, lost, stop, warn, retry=0.5):
    """Read the port's lines until stop() is true, opening it again whenever it goes away (a
    board unplugged, reset): opened(serial) once it is open, line(raw) for each complete line,
    lost() before it is closed.  `stonegrid logs` and `stonegrid link` read boards so."""
    import serial
    lines = Lines(record.MAX_LINE + 1)  # a record line, and the \r a board's serial ends with
    connected = None
    while not stop():
        try:
            s = serial.Serial(port, 115200, timeout=0.2, write_timeout=2)
        except (serial.SerialException, OSError) as e:
            if connected is not False:
                warn("waiting for %s (%s)" % (port, "no such port: is the board plugged in, "
                     "is the port right?" if not os.path.exists(port) else e))
                connected = False
            time.sleep(retry)
            continue
        if connected is False:
            warn("%s is back" % port)
        connected = True
        opened(s)
        try:
            while not stop():
                chunk = s.read(4096)
                if not chunk:
                    continue
                skipped = lines.skipped
                for raw in lines.feed(chunk):
                    _take(line, raw, warn)
                if lines.skipped > skipped and not skipped:  # said once; counted after
                    warn("a line over %d bytes skipped (no record is that long); more are "
                         "counted, not said" % record.MAX_LINE)
        except (serial.SerialException, OSError):
            if lines.pending or lines.skipping:
                warn("the board went away in the middle of a line; dropped %d bytes"
                     % len(lines.pending))
                del lines.pending[:]
                lines.skipping = False
            warn("lost %s" % port)
            connected = False
        finally:
            lost()
            s.close()
    if lines.skipped > 1:
        warn("%d lines over %d bytes skipped in all" % (lines.skipped, record.MAX_LINE))
