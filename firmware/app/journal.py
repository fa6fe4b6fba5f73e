"""The game in progress, kept on flash so that a power cut loses nothing: the record lines of
shared_rules.record, one per completed action, written before the action is shown."""
import os

from shared_rules.record import MAX_LINE


PATH = "journal.jsonl"


def begin(header):
    with open(PATH, "w") as f:
        f.write(header + "\n")
    _sync()


def append(line):
    with open(PATH, "a") as f:
        f.write(line + "\n")
    _sync()


def _sync():
    if hasattr(os, "sync"):
        os.sync()


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
        os.stat(PATH)
    except OSError:
        return None, None  # no journal: nothing to resume
    try:
        with open(PATH, "rb") as f:
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
    name = _free_name(PATH[:-len(".jsonl")] + "-rest")
    if good == 0:
        os.rename(PATH, name)
    else:
        _copy(name, good, -1)
        _copy(PATH + ".tmp", 0, good)
        os.rename(PATH + ".tmp", PATH)
    _sync()
    return name


def _copy(dst_path, start, size):
    """`size` bytes (-1: all) of the journal from byte `start` into a new file, in chunks."""
    with open(PATH, "rb") as src, open(dst_path, "wb") as dst:
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


# Restarts for want of memory (app.restart_board), counted on flash: a game that runs out at
# every boot would otherwise restart the board for ever.
def count_restart():
    n = restarts() + 1
    with open(PATH + ".oom", "w") as f:
        f.write(str(n))
    _sync()


def restarts():
    """How many times in a row the board restarted for want of memory with no progress."""
    try:
        with open(PATH + ".oom") as f:
            return int(f.read(8))  # a few digits; more would be no count of ours
    except (OSError, ValueError):
        return 0


def progress():
    """A game was started or an action played: the count starts again."""
    try:
        os.remove(PATH + ".oom")
    except OSError:
        pass


def set_aside():
    """Keep the journal under another name, out of the way of the next boot, and start the
    count again; returns that name, None when there was no journal."""
    name = _free_name(PATH[:-len(".jsonl")] + "-oom")
    try:
        os.rename(PATH, name)
    except OSError:  # no journal
        name = None
    progress()
    _sync()
    return name
