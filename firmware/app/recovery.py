"""The journal read back at boot (app.journal writes it): the game rebuilt as far as its
lines are good, the rest kept aside, and resumed.  Loaded by app.core.App.resume only, then
forgotten."""
import os

from shared_rules.record import MAX_LINE

from app import core, journal, link
from app.session import Session

CHUNK = 256  # bytes read at a time at boot: the journal may be long, the heap is small


def recover():
    """(reader, problem): the journalled game rebuilt as far as its lines are good, in a
    Reader (None when no game is left), and None or what was wrong.  Any line that cannot
    be read - cut short by a power cut, too long, too deep, not UTF-8, not a record that
    follows - ends the game there: the journal keeps the good prefix, the lines from the
    bad one on are kept in a file of their own (never over another), and the problem names
    the line.  A flash that cannot be read is the worst case: no game, and a problem."""
    from shared_rules.reader import Reader, RecordError  # at boot only (app.core forgets it)

    reader, good, n, why = Reader(), 0, 0, None
    try:
        os.stat(journal.PATH)
    except OSError:
        return None, None  # no journal: nothing to resume
    try:
        with open(journal.PATH, "rb") as f:
            for start, raw, whole in _lines(f):
                n += 1
                if raw is None:
                    why = "a line longer than %d bytes" % MAX_LINE
                elif not whole:
                    why = "cut short (a power cut while it was written)"
                else:
                    try:
                        reader.feed(raw.decode())
                    except UnicodeError:
                        why = "not UTF-8 text"
                    except RecordError as e:  # not MemoryError: no fault of the journal's
                        why = e.why
                if why:
                    break
                good = start + len(raw) + 1
    except OSError as e:  # a folder of that name, a broken flash
        n, good, reader, why = 1, 0, Reader(), "unreadable (%r)" % (e,)
    if reader.game is None:
        good = 0  # no game record: nothing of it to resume
    if why is None:
        return (reader if reader.game is not None else None), None
    return (reader if reader.game is not None else None), "journal line %d: %s; %s" % (
        n, why, "the game resumes before it, the lines from there on %s" % keep(good)
        if good else "no game, the journal %s" % keep())


def keep(good=0):
    """Move the journal from byte `good` on (all of it by default) out of the way of the
    next boot and the next game; says where it went."""
    try:
        return "kept as " + _keep_rest(good)
    except OSError as e:
        return "not kept (%r)" % (e,)


def _lines(f):
    """(offset, bytes, whole) for each line of the file, read CHUNK bytes at a time: bytes
    is None for a line longer than MAX_LINE (never held whole), whole is False for a last
    line with no end of line."""
    line, start, pos = bytearray(), 0, 0  # pos: where this chunk starts in the file
    while True:
        chunk = f.read(CHUNK)
        if not chunk:
            break
        i = 0
        while True:
            j = chunk.find(b"\n", i)
            end = len(chunk) if j < 0 else j
            if line is not None:
                if len(line) + end - i > MAX_LINE:
                    line = None
                else:
                    line += chunk[i:end]
            if j < 0:
                break
            yield start, (None if line is None else bytes(line)), True
            start, line, i = pos + j + 1, bytearray(), j + 1
        pos += len(chunk)
    if line is None or line:
        yield start, (None if line is None else bytes(line)), False


def _keep_rest(good):
    """Move the journal from byte `good` on to a file of its own; returns that file's name."""
    name = _free_name(journal.PATH[:-len(".jsonl")] + "-rest")
    if good == 0:
        os.rename(journal.PATH, name)
    else:
        _copy(name, good, -1)
        _copy(journal.PATH + ".tmp", 0, good)
        os.rename(journal.PATH + ".tmp", journal.PATH)
    journal.sync()
    return name


def _copy(dst_path, start, size):
    """`size` bytes (-1: all) of the journal from byte `start` into a new file, in chunks."""
    with open(journal.PATH, "rb") as src, open(dst_path, "wb") as dst:
        src.seek(start)
        while size:
            chunk = src.read(CHUNK if size < 0 else min(size, CHUNK))
            if not chunk:
                break
            dst.write(chunk)
            size -= len(chunk) if size > 0 else 0


def _free_name(base):
    """base.jsonl, else base-2.jsonl, base-3.jsonl...: the first not on the flash, so that
    a file kept earlier is never written over."""
    name, n = base + ".jsonl", 1
    while True:
        try:
            os.stat(name)
        except OSError:
            return name
        n += 1
        name = "%s-%d.jsonl" % (base, n)


def set_aside():
    """Keep the journal under another name, out of the way of the next boot, and start the
    count again; returns that name, None when there was no journal."""
    name = _free_name(journal.PATH[:-len(".jsonl")] + "-oom")
    try:
        os.rename(journal.PATH, name)
    except OSError:  # no journal
        name = None
    journal.progress()
    journal.sync()
    return name


def ended(reader):
    """The boot's line for a journalled game that had ended: its last action and end record
    again (the power may have gone after the journal had them and before the link did;
    `stonegrid logs` writes what its file lacks)."""
    import json

    from shared_rules import record

    g, last = reader.game, []
    if g.plies():
        a = g.last(1)
        g.undo()
        p = g.to_move
        g.play(a)
        last.append(record.act_line(g.plies(), p, a, g.text(a)))
    last.append(record.end_line(g) if g.result() is not None else
                record.abandoned_line(g.plies()))
    return '{"t": "ended", "game": %s, "ply": %d, "last": [%s]}' % (
        json.dumps(reader.header["game"]), g.plies(), ", ".join(last))


def resume(app):
    """app.core.App.resume: the journalled game on screen again, True; else False."""
    app.restarted = journal.restarts()
    if app.restarted >= core.GIVE_UP_AFTER:
        kept = set_aside()
        if kept:
            link.error("the journalled game ran out of memory at %d boots in a row: kept "
                       "as %s, not resumed" % (app.restarted, kept))
        app.restarted = 0
        return False
    reader, problem = recover()
    if problem:  # the game was cut short: say so on serial and, for a moment, on screen
        link.error(problem)
        app.notice_until = core.time.ticks_add(core.time.ticks_ms(), core.NOTICE_MS)
    if reader is None:
        return False
    if reader.ended:
        link.send(ended(reader))
        return False
    h = reader.header
    try:
        session = Session(h["game"], players=h.get("players", ("human", "human")),
                          game=reader.game, lost=bool(problem))
    except (ValueError, TypeError) as e:  # players the rules do not check
        link.error("journal line 1: %s; no game, the journal %s" % (e, keep()))
        return False
    app._playing(session)
    link.send({"t": "resumed", "game": h["game"], "ply": reader.game.plies()})
    return True
