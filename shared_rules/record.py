"""Game records: one JSON object per line, for the journal on flash, the USB serial log, the
files `stonegrid logs` saves and the input of `stonegrid replay`.  MicroPython and CPython.

Lines (every one carries its type "t" and the format version "v"):
  {"t": "game", "v": 1, "game": "morris", "options": {...}, "players": ["human", "device"],
   "fw": "0.1.0"}                                   a new game; optional "start": a position,
                                                    and the person's aids set otherwise than
                                                    by default: "hints": false (none may be
                                                    asked for), "warn": true (before a losing
                                                    move), "targets": false (none glow)
  {"t": "act", "v": 1, "ply": 1, "p": 0, "a": 7, "n": "a4"}    one atomic action; between
                                                    linked boards also "d", the position's digest
  {"t": "undo", "v": 1, "ply": 1}                   the action of that ply taken back
  {"t": "hint", "v": 1, "ply": 9, "p": 0}           the action of that ply was played after
                                                    the device's hint (the act line follows)
  {"t": "end", "v": 1, "ply": 57, "winner": 0, "reason": "men"}   the game is over; reason
                                                    "abandoned" (winner null): left unfinished
The notation "n" decides; "a" must agree with it.  Never compare lines as bytes: key order
differs between runtimes.  shared_rules/reader.py reads them back.
"""
import json

from shared_rules.core import ABANDONED

VERSION = 1
MAX_LINE = 2048  # bytes: no record line nor serial command is longer
MAX_NESTING = 4  # nesting of objects and lists: a record has options with a list in them
MAX_OPTION_ITEMS = 4  # GIPF's handicap is a pair


def check_json(raw, max_len=MAX_LINE, max_depth=MAX_NESTING):
    """ValueError unless `raw` (a buffer of bytes, or str) is UTF-8 text short enough and
    nested shallowly enough to be given to json.loads, which would otherwise need memory
    in proportion (a line of 700 "[" fills a small heap).  A byte scan that allocates
    nothing: json.loads may then read the bytes themselves, with no decoded copy."""
    if len(raw) > max_len:
        raise ValueError("a line longer than %d bytes" % max_len)
    if isinstance(raw, str):
        raw = raw.encode()
    depth, in_string, escaped, follow = 0, False, False, 0
    for b in raw:
        if follow:  # inside a character of several bytes
            if b & 0xC0 != 0x80:
                raise ValueError("not UTF-8 text")
            follow -= 1
            continue
        if b >= 0x80:  # the first byte of a character of 2, 3 or 4 bytes
            follow = _continuations(b)
        elif in_string:
            if escaped:
                escaped = False
            else:
                escaped = b == 92  # a backslash
                in_string = b != 34  # not the closing quote
        elif b == 34:
            in_string = True
        elif b == 91 or b == 123:  # [ {
            depth += 1
            if depth > max_depth:
                raise ValueError("JSON nested more than %d deep" % max_depth)
        elif b == 93 or b == 125:  # ] }
            depth -= 1
    if follow:
        raise ValueError("not UTF-8 text")


def _continuations(b):
    """How many bytes follow `b`, the first byte of a UTF-8 character beyond ASCII."""
    if 0xC2 <= b <= 0xDF:
        return 1
    if 0xE0 <= b <= 0xEF:
        return 2
    if 0xF0 <= b <= 0xF4:
        return 3
    raise ValueError("not UTF-8 text")


def game_line(game_id, options, players, fw, start=None, aids=None):
    """`aids`: {name: true or false} of the person's aids set otherwise than by default
    (app.session.AIDS), each written as a field of its own."""
    rec = {"t": "game", "v": VERSION, "game": game_id, "options": options,
           "players": list(players), "fw": fw}
    if start is not None:
        rec["start"] = start
    rec.update(aids or {})
    return json.dumps(rec)


def act_line(ply, p, a, text, digest=None):
    """Action `a` (notation `text`) made by player `p` as ply `ply` (1-based); `digest`: in a
    game of two linked boards, that of the position after it (firmware/app/peer.py)."""
    rec = {"t": "act", "v": VERSION, "ply": ply, "p": p, "a": a, "n": text}
    if digest is not None:
        rec["d"] = digest
    return json.dumps(rec)


def hint_line(ply, p):
    """Player `p` asked for a hint before the action of ply `ply` (1-based), which follows."""
    return json.dumps({"t": "hint", "v": VERSION, "ply": ply, "p": p})


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
    """Game options from JSON, which has no tuples: GIPF's handicap=(0, 0) comes as a list.
    Each value is a boolean, a number or a short list of numbers (the rules check the
    rest); anything else is refused before a game is built from it."""
    if type(obj) is not dict:
        raise ValueError("options must be an object, not %s" % clip(obj))
    out = {}
    for k, v in obj.items():
        if type(v) is list and len(v) <= MAX_OPTION_ITEMS and all(type(x) is int for x in v):
            v = tuple(v)
        elif type(v) is not bool and type(v) is not int:
            raise ValueError("option %s must be true, false, a number or a list of up to %d "
                             "numbers, not %s" % (clip(k), MAX_OPTION_ITEMS, clip(v)))
        out[k] = v
    return out


def clip(obj, n=40):
    """repr(obj), cut to about n characters: what a message echoes of a value."""
    text = repr(obj)
    return text if len(text) <= n else text[:n] + "..."
