"""The serial commands that make a board replay a game record on its display: the host's
`stonegrid replay --device` sends them over USB, the browser page (`stonegrid web`) loads a
log and sends them to the firmware it runs.  MicroPython and CPython; the app never imports
this module."""
from shared_rules.reader import Reader, RecordError

LINE_MOVES = 1800  # characters of moves per command: a board reads lines of up to 2 KB


def replay_commands(header, game):
    """[command, ...] showing `game` (its "game" record is `header`): the first names the
    game, the later ones append moves in notation."""
    first = {"cmd": "replay", "game": header["game"], "options": game.options}
    if header.get("start"):
        first["start"] = header["start"]
    commands, chunk, size = [first], [], 0
    for a in game.actions():
        text = game.text(a)  # the notation of an action does not depend on the position
        if chunk and size + len(text) > LINE_MOVES:
            commands[-1]["moves"] = " ".join(chunk)
            commands.append({"cmd": "replay", "append": True})
            chunk, size = [], 0
        chunk.append(text)
        size += len(text) + 1
    commands[-1]["moves"] = " ".join(chunk)
    return commands


def log_commands(lines):
    """replay_commands for the last game in a log's record lines (a RecordError names the
    first bad line)."""
    reader = Reader()
    for text in lines:
        reader.feed(text)
    if reader.game is None:
        raise RecordError("no game record in the log")
    return replay_commands(reader.header, reader.game)
