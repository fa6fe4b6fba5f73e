"""The journalled game brought back at boot (app.journal_read reads the file): rebuilt as far as
its lines are good records, the rest kept aside, and handed to the app to play again.
Loaded by app.core.App.resume only, then forgotten."""
import os

from shared_rules.record import MAX_LINE

from app import journal, wire
from app.session import AIDS, Session

GIVE_UP_AFTER = 3  # boots in a row that ran out of memory before the journalled game is set aside


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
    from app import journal_read  # only when there is one (app.core forgets it)

    try:
        with open(journal.PATH, "rb") as f:
            for start, raw, whole in journal_read.lines(f):
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
        n, why, "the game resumes before it, the lines from there on %s" % journal_read.keep(good)
        if good else "no game, the journal %s" % journal_read.keep())


def ended(reader):
    """The boot's line for a journalled game that had ended: its last action and end record
    again (the power may have gone after the journal had them and before the wire did;
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


def resume():
    """(session, cut, restarts): the journalled game to play again, or None (no game, one
    that had ended, one whose players no rules check, or one set aside after it ran out of
    memory at GIVE_UP_AFTER boots in a row), whether the journal was cut short (said on the
    wire here; the app shows it for a moment), and the restarts for want of memory just
    before this boot that still count against the game."""
    restarts = journal.restarts()
    if restarts >= GIVE_UP_AFTER:
        from app import journal_read

        kept = journal_read.set_aside()
        if kept:
            wire.error("the journalled game ran out of memory at %d boots in a row: kept as "
                       "%s, not resumed" % (restarts, kept))
        return None, False, 0
    return _resume() + (restarts,)


def _resume():
    """(session, cut): see resume()."""
    reader, problem = recover()
    if problem:
        wire.error(problem)
    if reader is None:
        return None, bool(problem)
    if reader.ended:
        wire.send(ended(reader))
        return None, bool(problem)
    h = reader.header
    try:
        aids = dict((name, h[name]) for name, _ in AIDS if type(h.get(name)) is bool)
        return Session(h["game"], players=h.get("players", ("human", "human")),
                       game=reader.game, lost=bool(problem), aids=aids), bool(problem)
    except (ValueError, TypeError) as e:  # players the rules do not check
        from app import journal_read

        wire.error("journal line 1: %s; no game, the journal %s" % (e, journal_read.keep()))
        return None, bool(problem)
