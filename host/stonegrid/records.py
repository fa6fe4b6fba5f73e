"""Game logs on the host: read and check JSON Lines records, and write and read the
human-readable export (tag pairs, then numbered whole turns, PGN-like)."""
import ast
import re

from shared_rules import load, record
from shared_rules.reader import Reader, RecordError


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


def read_log(lines, name="log"):
    """The games in record lines (a log may hold several).  Lines that are not records
    (other device output, captured too) are an error here: logs hold records only."""
    reader, games = Reader(), []
    for text in lines:
        try:
            rec = reader.feed(text)
        except RecordError as e:
            raise LogError("%s:%s" % (name, e))
        if rec is not None and rec["t"] == "game":
            games.append(Game(rec, reader.game))
    if not games:
        raise LogError("%s: no game record in it" % name)
    return games


def read_log_file(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise LogError("%s: %s" % (path, e.strerror or e))
    lines = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise LogError("%s:line %d: not UTF-8 text" % (path, n))
    if lines and lines[-1] == "":
        lines.pop()
    return read_log(lines, path)


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
_NUMBER = re.compile(r"(?:^|\s)(\d+)\.\s")


def import_export(text, name="export"):
    """Read an export back: (header dict as in a game record, Game with the turns played)."""
    tags, body, lineno = {}, [], 0
    lines = text.splitlines()
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        m = _TAG.match(s)
        if m and not body:
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        elif s.startswith("["):
            raise LogError("%s:line %d: a tag is [Name \"value\"], not %s" % (name, lineno, s))
        else:
            body.append((lineno, s))
    if "Game" not in tags:
        raise LogError("%s: no [Game \"...\"] tag" % name)
    try:
        mod = load(tags["Game"])
        g = mod.Game(**_options(tags.get("Options") or ""))
        if tags.get("Start"):
            g.set_position(tags["Start"])
    except ValueError as e:
        raise LogError("%s: %s" % (name, e))
    text_body = " ".join(s for _, s in body)
    marks = list(_NUMBER.finditer(text_body))
    result_token = None
    for k, m in enumerate(marks):
        stop = marks[k + 1].start() if k + 1 < len(marks) else len(text_body)
        turn = text_body[m.end():stop].strip()
        if k + 1 == len(marks):
            for token in ("1-0", "0-1", "1/2-1/2", "*"):
                if turn == token or turn.endswith(" " + token):
                    result_token, turn = token, turn[:len(turn) - len(token)].strip()
                    break
        if int(m.group(1)) != k + 1:
            raise LogError("%s: turn %s where turn %d was due" % (name, m.group(1), k + 1))
        try:
            g.play_turn(turn)
        except ValueError as e:
            raise LogError("%s: turn %d (%s): %s" % (name, k + 1, turn, e))
    if not marks:
        result_token = text_body.strip() or None
    result = g.result()
    want = tags.get("Result", result_token)
    have = RESULTS[result[0]] if result else "*"
    if want and want != have:
        raise LogError("%s: the result says %s but the turns give %s" % (name, want, have))
    header = {"t": "game", "v": record.VERSION, "game": tags["Game"], "options": g.options,
              "players": (tags.get("Players") or "human human").split(),
              "fw": tags.get("Firmware", "")}
    if tags.get("Start"):
        header["start"] = tags["Start"]
    return header, g


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
        except (ValueError, SyntaxError):
            raise ValueError("options are name=value; ..., not %r" % item.strip())
    return out


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
