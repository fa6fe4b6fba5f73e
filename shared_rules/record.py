"""Game records: one JSON object per line, for the journal on flash, the USB serial log, the
files `stonegrid logs` saves and the input of `stonegrid replay`.  MicroPython and CPython.

Lines (every one carries its type "t" and the format version "v"):
  {"t": "game", "v": 1, "game": "morris", "options": {...}, "players": ["human", "device"],
   "fw": "0.1.0"}                                   a new game; optional "start": a position
  {"t": "act", "v": 1, "ply": 1, "p": 0, "a": 7, "n": "a4"}    one atomic action
  {"t": "undo", "v": 1, "ply": 1}                   the action of that ply taken back
  {"t": "end", "v": 1, "ply": 57, "winner": 0, "reason": "men"}   the game is over; reason
                                                    "abandoned" (winner null): left unfinished
The notation "n" decides; "a" must agree with it.  Never compare lines as bytes: key order
differs between runtimes.  shared_rules/reader.py reads them back.
"""
import json

from shared_rules.core import ABANDONED

VERSION = 1


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


def abandoned_line(ply):
    """The end of a game left unfinished for good at `ply`: no winner."""
    return json.dumps({"t": "end", "v": VERSION, "ply": ply, "winner": None,
                       "reason": ABANDONED})


def options(obj):
    """Game options from JSON, which has no tuples: GIPF's handicap=(0, 0) comes as a list."""
    if not isinstance(obj, dict):
        raise ValueError("options must be an object, not %r" % (obj,))
    return dict((k, _tuples(v)) for k, v in obj.items())


def _tuples(v):
    if isinstance(v, list):
        return tuple(_tuples(x) for x in v)
    return v
