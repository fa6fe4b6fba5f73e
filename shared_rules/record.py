"""Game records: one JSON object per line, for the journal on flash, the USB serial log, the
files `stonegrid logs` saves and the input of `stonegrid replay`.  MicroPython and CPython.

Lines (every one carries its type "t" and the format version "v"):
  {"t": "game", "v": 1, "game": "morris", "options": {...}, "players": ["human", "device"],
   "fw": "0.1.0"}                                   a new game; optional "start": a position
  {"t": "act", "v": 1, "ply": 1, "p": 0, "a": 7, "n": "a4"}    one atomic action
  {"t": "undo", "v": 1, "ply": 1}                   the action of that ply taken back
  {"t": "end", "v": 1, "ply": 57, "winner": 0, "reason": "men"}   the game is over
The notation "n" decides; "a" must agree with it.  Never compare lines as bytes: key order
differs between runtimes.
"""
import json

from shared_rules import load

VERSION = 1


class RecordError(ValueError):
    """A line that is not a valid record here; .line is its number (1-based) when known."""

    def __init__(self, why, line=None):
        super().__init__(why if line is None else "line %d: %s" % (line, why))
        self.why = why
        self.line = line


def game_line(game_id, options, players, fw, start=None):
    rec = {"t": "game", "v": VERSION, "game": game_id, "options": options,
           "players": list(players), "fw": fw}
    if start is not None:
        rec["start"] = start
    return json.dumps(rec)


def act_line(ply, p, a, text):
    """Action `a` (notation `text`) made by player `p` as ply `ply` (1-based)."""
    return json.dumps({"t": "act", "v": VERSION, "ply": ply, "p": p, "a": a, "n": text})


def undo_line(ply):
    return json.dumps({"t": "undo", "v": VERSION, "ply": ply})


def end_line(g):
    winner, reason = g.result()
    return json.dumps({"t": "end", "v": VERSION, "ply": g.plies(), "winner": winner,
                       "reason": reason})


def options(obj):
    """Game options from JSON, which has no tuples: GIPF's handicap=(0, 0) comes as a list."""
    if not isinstance(obj, dict):
        raise ValueError("options must be an object, not %r" % (obj,))
    return dict((k, _tuples(v)) for k, v in obj.items())


def _tuples(v):
    if isinstance(v, list):
        return tuple(_tuples(x) for x in v)
    return v


class Reader:
    """Rebuilds games from record lines, one line at a time; a bad line raises RecordError
    and changes nothing."""

    def __init__(self):
        self.game = None  # the Game being rebuilt
        self.header = None  # its "game" record
        self.ended = False
        self.line = 0

    def feed(self, text):
        """Apply one line; returns the record (a dict), or None for a blank line."""
        self.line += 1
        text = text.strip()
        if not text:
            return None
        try:
            rec = json.loads(text)
        except ValueError:
            raise RecordError("not JSON: %s" % _clip(text), self.line)
        if not isinstance(rec, dict):
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
        mod = load(rec.get("game"))
        g = mod.Game(**options(rec.get("options") or {}))
        if rec.get("start") is not None:
            g.set_position(rec["start"])
        self.game, self.header, self.ended = g, rec, False

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
        g.play(a)

    def _undo(self, rec):
        g = self.game
        if rec.get("ply") != g.plies() or not g.plies():
            raise ValueError("undo of ply %r, but the game is at ply %d"
                             % (rec.get("ply"), g.plies()))
        g.undo()
        self.ended = False

    def _end(self, rec):
        g = self.game
        if g.result() is None:
            raise ValueError("an end record, but the game is not over")
        winner, reason = g.result()
        if rec.get("winner") != winner or rec.get("reason") != reason:
            raise ValueError("end says winner %r (%s); the rules say %r (%s)"
                             % (rec.get("winner"), rec.get("reason"), winner, reason))
        self.ended = True


def _clip(text, n=60):
    return text if len(text) <= n else text[:n] + "..."
