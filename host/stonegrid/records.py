"""Game logs on the host: read and check JSON Lines records, and write and read the
human-readable export (tag pairs, then numbered whole turns, PGN-like)."""
import ast
import json
import os
import re
import stat

from shared_rules import load, record
from shared_rules.reader import Reader, RecordError, _clip


class LogError(ValueError):
    """A log or export that cannot be read; the message names the line and why."""


class Game:
    """One game read from a log: its header, the rules state, and its actions."""

    def __init__(self, header, game):
        self.header = header
        self.game = game

    @property
    def actions(self):
        return self.game.actions()


MAX_LOG_LINE = 1 << 20  # bytes: a record is a few hundred; /dev/zero is not a log
MAX_EXPORT = 8 << 20  # bytes: a long game's export is some kilobytes
MAX_LOG_NESTING = 8  # a record nests two deep (GIPF's handicap); deeper would exhaust the stack
BOM = b"\xef\xbb\xbf"
NUMBERS = ("v", "ply", "p", "a", "winner")  # JSON true equals 1 in Python: refuse it here


def read_log(lines, name="log", cut=False, notes=None):
    """The games in record lines (a log may hold several): a list of texts, or of (line
    number, text) for a file whose blank lines were left out.  Lines that are not records
    (other device output, captured too) are an error here: logs hold records only.
    cut: the last line has no end of line; if it is not JSON either (a power cut while it
    was written) it is left out and said so in notes."""
    reader, games = Reader(), []
    for k, item in enumerate(lines, 1):
        n, text = item if isinstance(item, tuple) else (k, item)
        try:
            _check(text)
            rec = reader.feed(text)
        except RecordError as e:
            if cut and k == len(lines) and e.why.startswith("not JSON"):
                if notes is not None:
                    notes.append("%s:line %d: left out, cut short (no end of line): %s"
                                 % (name, n, e.why[len("not JSON: "):]))
                break
            raise LogError("%s:line %d: %s" % (name, n, e.why))
        except (RecursionError, MemoryError) as e:  # the game's own checks, given odd values
            raise LogError("%s:line %d: cannot be read (%s)" % (name, n, type(e).__name__))
        if rec is not None and rec["t"] == "game":
            games.append(Game(rec, reader.game))
    if not games:
        raise LogError("%s: no game record in it" % name)
    return games


def _check(text):
    """What the shared reader (small enough for the device) leaves to the host: nesting deep
    enough to exhaust the stack, and true where a number belongs."""
    try:
        rec = json.loads(text)
    except RecursionError:
        raise RecordError("nested more than %d deep" % MAX_LOG_NESTING)
    except ValueError:
        return  # the reader says why
    if _depth(rec) > MAX_LOG_NESTING:
        raise RecordError("nested more than %d deep" % MAX_LOG_NESTING)
    if isinstance(rec, dict):
        for key in NUMBERS:
            if isinstance(rec.get(key), bool):
                raise RecordError("%s is %s, not a number" % (key, json.dumps(rec[key])))


def _depth(obj):
    """How deep lists and objects nest in obj, without recursion."""
    deepest, todo = 0, [(obj, 1)]
    while todo:
        obj, depth = todo.pop()
        if isinstance(obj, dict):
            obj = list(obj.values())
        if isinstance(obj, list):
            deepest = max(deepest, depth)
            if depth > MAX_LOG_NESTING:
                break
            todo.extend((x, depth + 1) for x in obj)
    return deepest


def file_error(path, e):
    """The LogError for an OSError on path: its reason, without [Errno n]."""
    return LogError("%s: %s" % (path, e.strerror or e))


def _open(path):
    """A regular file, opened: a FIFO would block for ever, a device never end, a folder not
    read (LogError for each, before anything is opened)."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise LogError("%s: not a file to read (a %s)" % (path, "folder" if stat.S_ISDIR(
                mode) else "pipe" if stat.S_ISFIFO(mode) else "device or socket"))
        return open(path, "rb")
    except OSError as e:
        raise file_error(path, e)


def read_log_file(path, notes=None):
    """The games of a .jsonl file; notes gets what was left out (a last line cut short)."""
    lines, cut, n = [], False, 0
    with _open(path) as f:
        try:
            while True:
                raw = f.readline(MAX_LOG_LINE + 1)
                if not raw:
                    break
                n += 1
                if len(raw) > MAX_LOG_LINE:
                    raise LogError("%s:line %d: longer than %d bytes: not a record"
                                   % (path, n, MAX_LOG_LINE))
                if n == 1 and raw.startswith(BOM):
                    raw = raw[len(BOM):]  # some editors put a byte-order mark first
                if raw.isspace():  # a blank line: nothing to read (megabytes of them, fast)
                    continue
                cut = not raw.endswith(b"\n")
                lines.append((n, _decode(raw, path, n, cut)))
        except OSError as e:
            raise file_error(path, e)
    return read_log(lines, path, cut, notes)


def _decode(raw, path, line, cut=False):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        if cut:  # perhaps in the middle of a character: read_log judges the line
            return raw.decode("utf-8", "replace")
        raise LogError("%s:line %d: not UTF-8 text" % (path, line))


def read_export_file(path):
    """(header, Game) of an export file (see import_export)."""
    with _open(path) as f:
        try:
            data = f.read(MAX_EXPORT + 1)
        except OSError as e:
            raise file_error(path, e)
    if len(data) > MAX_EXPORT:
        raise LogError("%s: larger than %d bytes: not an export" % (path, MAX_EXPORT))
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogError("%s:line %d: not UTF-8 text" % (path, data.count(b"\n", 0, e.start) + 1))
    return import_export(text, path)


def is_export(path):
    """An export starts with a tag ([Game ...]); a .jsonl file is JSON Lines whatever it holds."""
    if path.endswith(".jsonl"):
        return False
    with _open(path) as f:
        try:
            head = f.read(256)
        except OSError as e:
            raise file_error(path, e)
    if head.startswith(BOM):
        head = head[len(BOM):]
    return head.lstrip().startswith(b"[")


RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


def export(g, header):
    """The export text of a game: tag pairs, then numbered whole turns."""
    options = "; ".join("%s=%r" % kv for kv in sorted(g.options.items()))
    tags = [("Game", header["game"]), ("Options", options),
            ("Players", " ".join(header.get("players") or ())), ("Firmware", header.get("fw", ""))]
    if header.get("start"):
        tags.append(("Start", header["start"]))
    result = g.result()
    tags.append(("Result", RESULTS[result[0]] if result else "*"))
    if result:
        tags.append(("Reason", result[1]))
    out = ['[%s "%s"]' % (k, v.replace("\\", "\\\\").replace('"', '\\"')) for k, v in tags]
    out.append("")
    line = ""
    for i, turn in enumerate(g.turns(), 1):
        item = "%d. %s" % (i, turn)
        if line and len(line) + 1 + len(item) > 79:
            out.append(line)
            line = item
        else:
            line = item if not line else line + " " + item
    end = RESULTS[result[0]] if result else "*"
    out.append((line + " " + end) if line else end)
    return "\n".join(out) + "\n"


_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^\d+\.$")
_RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2", "*")


def import_export(text, name="export"):
    """Read an export back: (header dict as in a game record, Game with the turns played).
    The last turn of an unfinished game may stop part-way, as export() writes it."""
    tags, tag_line, leading, turns = {}, {}, [], []  # turns: [line, number, [parts]]
    for lineno, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if not s:
            continue
        m = _TAG.match(s)
        if m and not turns and not leading:
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            tag_line[m.group(1)] = lineno
        elif s.startswith("["):
            raise LogError("%s:line %d: a tag is [Name \"value\"], not %s"
                           % (name, lineno, _clip(s)))
        else:
            for token in s.split():
                if _NUMBER.match(token):
                    turns.append([lineno, token[:-1], []])
                elif turns:
                    turns[-1][2].append(token)
                else:
                    leading.append((lineno, token))
    if "Game" not in tags:
        raise LogError("%s: no [Game \"...\"] tag" % name)
    g = _start(tags, tag_line, name)
    result_token = None
    if turns and turns[-1][2] and turns[-1][2][-1] in _RESULT_TOKENS:
        result_token = turns[-1][2].pop()
    if leading and turns:
        raise LogError("%s:line %d: %s before turn 1" % (name, leading[0][0],
                                                         _clip(leading[0][1])))
    if leading:
        result_token = " ".join(t for _, t in leading)
    for k, (lineno, number, parts) in enumerate(turns, 1):
        if number != str(k):
            raise LogError("%s:line %d: turn %s where turn %d was due"
                           % (name, lineno, _clip(number), k))
        turn = " ".join(parts)
        try:
            play_turn(g, turn, last=k == len(turns))
        except ValueError as e:
            raise LogError("%s:line %d: turn %d (%s): %s" % (name, lineno, k, _clip(turn), e))
    result = g.result()
    want = tags.get("Result", result_token)
    have = RESULTS[result[0]] if result else "*"
    if want and want != have:
        raise LogError("%s:line %d: the result says %s but the turns give %s" % (
            name, tag_line.get("Result", turns[-1][0] if turns else 1), _clip(want), have))
    header = {"t": "game", "v": record.VERSION, "game": tags["Game"], "options": g.options,
              "players": (tags.get("Players") or "human human").split(),
              "fw": tags.get("Firmware", "")}
    if tags.get("Start"):
        header["start"] = tags["Start"]
    return header, g


def _start(tags, tag_line, name):
    """The game the tags set up: its options and set-up position."""
    try:
        mod = load(tags["Game"])
    except ValueError as e:
        raise LogError("%s:line %d: %s" % (name, tag_line["Game"], e))
    where = tag_line.get("Options", tag_line["Game"])
    try:
        g = mod.Game(**_options(tags.get("Options") or ""))
    except (ValueError, TypeError) as e:  # TypeError: an option it does not have
        raise LogError("%s:line %d: options: %s" % (name, where, e))
    if tags.get("Start"):
        try:
            g.set_position(tags["Start"])
        except (ValueError, TypeError) as e:
            raise LogError("%s:line %d: start: %s" % (name, tag_line["Start"], e))
    return g


def play_turn(g, turn, last=False):
    """Play one whole turn; the last one (last=True) of an unfinished game may also be the
    start of a turn (a Rhombus bid, a GIPF push before its row is chosen).  All or nothing."""
    try:
        g.play_turn(turn)
    except ValueError as whole:
        if not last or g.result() is not None:
            raise
        try:
            _play_part_of_turn(g, turn)
        except ValueError:
            raise whole


def _play_part_of_turn(g, turn):
    """Play the parts of a turn one by one until the game's own text of the turn under way
    is `turn` (GIPF adds the removals the rules make by themselves)."""
    parts, before, done = g.split_turn(turn), len(g.turns()), 0
    try:
        while True:
            have = g.split_turn(g.turns()[-1]) if len(g.turns()) > before else []
            if have == parts:
                return
            if len(have) >= len(parts) or have != parts[:len(have)]:
                raise ValueError("turn %r is not the start of a turn" % turn)
            g.play(parts[len(have)])
            done += 1
    except ValueError:
        for _ in range(done):
            g.undo()
        raise


def _options(text):
    """'name=value; ...' with Python literal values, as export() writes them."""
    out = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        name, eq, value = item.partition("=")
        try:
            if not eq:
                raise ValueError
            out[name.strip()] = ast.literal_eval(value.strip())
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            # TypeError: {[]} is a set of a list; the others: nesting too deep to parse
            raise ValueError("options are name=value; ..., not %s" % _clip(item.strip()))
    return out


def player_names(game_id):
    """The sides as the game calls them (Red, Green...), as `stonegrid play` shows them."""
    return load(game_id).PLAYERS


def fresh(header, g):
    """The game at its start (same options and set-up position)."""
    h = load(header["game"]).Game(**g.options)
    if header.get("start"):
        h.set_position(header["start"])
    return h


def to_records(header, g):
    """The record lines of a game (as a device would have logged it)."""
    lines = [record.game_line(header["game"], g.options, header.get("players") or (),
                              header.get("fw", ""), header.get("start"))]
    h = fresh(header, g)
    for a in g.actions():
        p = h.to_move
        h.play(a)
        lines.append(record.act_line(h.plies(), p, a, h.text(a)))
    if h.result() is not None:
        lines.append(record.end_line(h))
    return lines
