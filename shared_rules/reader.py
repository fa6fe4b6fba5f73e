"""Reading game records (shared_rules/record.py describes the lines): a Reader rebuilds the
games line by line and names the line of any error.  A module of its own because the device
needs it only at boot (the journal) and for replays, not next to a game being played."""
import json

from shared_rules import load
from shared_rules.core import ABANDONED
from shared_rules.record import VERSION, check_json, clip, options

MAX_NAME = 32  # characters of a player ("human@3f9a07", "device:normal") or a version


class RecordError(ValueError):
    """A line that is not a valid record here; .line is its number (1-based) when known."""

    def __init__(self, why, line=None):
        super().__init__(why if line is None else "line %d: %s" % (line, why))
        self.why = why
        self.line = line


class Reader:
    """Rebuilds games from record lines, one line at a time; a bad line raises RecordError
    and changes nothing."""

    def __init__(self):
        self.game = None  # the Game being rebuilt
        self.header = None  # its "game" record
        self.ended = False
        self.line = 0
        self.hints = []  # the plies played after a hint (record "hint")

    def feed(self, text):
        """Apply one line; returns the record (a dict), or None for a blank line."""
        self.line += 1
        try:
            check_json(text)  # before json.loads: a huge or deep line would fill the heap
        except ValueError as e:
            raise RecordError(str(e), self.line)
        text = text.strip()
        if not text:
            return None
        try:
            rec = json.loads(text)
        except ValueError:
            raise RecordError("not JSON: %s" % _clip(text), self.line)
        if type(rec) is not dict:
            raise RecordError("not a JSON object: %s" % _clip(text), self.line)
        if rec.get("v") != VERSION:
            raise RecordError("format version %r; this reader knows %d" % (rec.get("v"), VERSION),
                              self.line)
        kind = rec.get("t")
        try:
            if kind == "game":
                self._game(rec)
            elif self.game is None:
                raise ValueError("a %r record before any game record" % (kind,))
            elif kind == "act":
                self._act(rec)
            elif kind == "undo":
                self._undo(rec)
            elif kind == "hint":
                self._hint(rec)
            elif kind == "end":
                self._end(rec)
            else:
                raise ValueError("unknown record type %r" % (kind,))
        except RecordError:
            raise
        except (ValueError, TypeError, KeyError) as e:
            raise RecordError(str(e) or type(e).__name__, self.line)
        return rec

    def _game(self, rec):
        players, fw = rec.get("players", []), rec.get("fw", "")
        if type(players) is not list or len(players) > 2 or not all(
                type(who) is str and len(who) <= MAX_NAME for who in players):
            raise ValueError("players must be a list of two names of up to %d characters, "
                             "not %s" % (MAX_NAME, clip(players)))
        if type(fw) is not str or len(fw) > MAX_NAME:
            raise ValueError("fw must be a firmware version, text of up to %d characters, not "
                             "%s" % (MAX_NAME, clip(fw)))
        mod = load(rec.get("game"))
        g = mod.Game(**options(rec.get("options") or {}))
        if rec.get("start") is not None:
            g.set_position(rec["start"])
        self.game, self.header, self.ended, self.hints = g, rec, False, []

    def _act(self, rec):
        g = self.game
        if self.ended:
            raise ValueError("an action after the end of the game")
        ply = g.plies() + 1
        if rec.get("ply") != ply:
            raise ValueError("ply %r where ply %d was due" % (rec.get("ply"), ply))
        if "p" in rec and rec["p"] != g.to_move:
            raise ValueError("player %r acts where player %r is to move" % (rec["p"], g.to_move))
        a = g.parse(rec.get("n") if isinstance(rec.get("n"), str) else repr(rec.get("n")))
        if "a" in rec and rec["a"] != a:
            raise ValueError("action %r does not match its notation %r" % (rec["a"], rec["n"]))
        g.play_unchecked(a)  # parse() checked it is legal

    def _hint(self, rec):
        g = self.game
        ply = g.plies() + 1
        if self.ended or rec.get("ply") != ply or rec.get("p") != g.to_move:
            raise ValueError("a hint for ply %s, player %s, where ply %d is due, player %r to "
                             "move" % (clip(rec.get("ply")), clip(rec.get("p")), ply, g.to_move))
        if self.header.get("hints") is False:
            raise ValueError("a hint in a game that has none")
        self.hints.append(ply)

    def _undo(self, rec):
        g = self.game
        if rec.get("ply") != g.plies() or not g.plies():
            raise ValueError("undo of ply %r, but the game is at ply %d"
                             % (rec.get("ply"), g.plies()))
        g.undo()
        self.ended = False

    def _end(self, rec):
        g = self.game
        if "ply" in rec and (type(rec["ply"]) is not int or rec["ply"] != g.plies()):
            raise ValueError("an end at ply %s, but the game is at ply %d"
                             % (clip(rec["ply"]), g.plies()))
        if g.result() is None and rec.get("reason") == ABANDONED and rec.get("winner") is None:
            self.ended = True  # left unfinished for good
            return
        if g.result() is None:
            raise ValueError("an end record, but the game is not over")
        winner, reason = g.result()
        if rec.get("winner") != winner or rec.get("reason") != reason:
            raise ValueError("end says winner %r (%s); the rules say %r (%s)"
                             % (rec.get("winner"), rec.get("reason"), winner, reason))
        self.ended = True


def _clip(text, n=60):
    return text if len(text) <= n else text[:n] + "..."
