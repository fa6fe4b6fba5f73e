"""The game in progress, kept on flash so that a power cut loses nothing: the record lines of
shared_rules.record, one per completed action, written before the action is shown."""
import os


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


def recover():
    """The journalled game: a Reader holding it, or None.  A truncated or corrupt tail (a
    power cut mid-write) is dropped, and the journal rewritten as the good prefix."""
    from shared_rules.reader import Reader, RecordError  # at boot only (app.core forgets it)

    reader, good, whole = Reader(), 0, True
    try:
        f = open(PATH)
    except OSError:
        return None
    with f:
        for line in f:
            if not line.endswith("\n"):
                whole = False  # cut short by the power cut: not a completed action
                break
            try:
                reader.feed(line)
            except RecordError:  # not MemoryError: that is no fault of the journal's
                whole = False
                break
            good += len(line)
    if reader.game is None:
        return None
    if not whole:
        _truncate(good)
    return reader


def _truncate(size):
    """Keep the first `size` characters of the journal (copied in chunks: it may be long)."""
    with open(PATH) as src, open(PATH + ".tmp", "w") as dst:
        while size > 0:
            chunk = src.read(min(size, 512))
            if not chunk:
                break
            dst.write(chunk)
            size -= len(chunk)
    os.rename(PATH + ".tmp", PATH)
    _sync()


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
            return int(f.read())
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
    name = PATH[:-len(".jsonl")] + "-oom.jsonl"
    try:
        os.remove(name)  # an older one: some file systems do not rename over a file
    except OSError:
        pass
    try:
        os.rename(PATH, name)
    except OSError:  # no journal
        name = None
    progress()
    _sync()
    return name
