"""The journal read back (app.journal writes it; see there): its lines, read in chunks,
its header, the act lines of some plies, and a bad rest moved out of the way of the next
boot.  Loaded at boot (app.recovery) and for a linked board's catch-up (app.peer), and
forgotten in between."""
import json
import os

from shared_rules.record import MAX_LINE, check_json

from app import journal

CHUNK = 256  # bytes read at a time: the journal may be long, the heap is small


def lines(f):
    """(offset, bytes, whole) for each line of the open journal `f`, read CHUNK bytes at a
    time: bytes is None for a line longer than MAX_LINE (never held whole), whole is False
    for a last line with no end of line."""
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


def header():
    """The game record that begins the journal, a dict; ValueError or OSError if none."""
    with open(journal.PATH) as f:
        head = f.read(MAX_LINE).split("\n", 1)[0]
    check_json(head)
    rec = json.loads(head)
    if type(rec) is not dict:
        raise ValueError("not a record")
    return rec


def act_lines(after, upto):
    """The act lines of plies after..upto, as they were written, oldest first."""
    with open(journal.PATH) as f:
        while True:
            line = f.readline()
            if not line:
                break
            if '"act"' in line:
                ply = json.loads(line).get("ply")
                if after < ply <= upto:
                    yield line.rstrip("\n")


# -- moving it out of the way --------------------------------------------------------------
def keep(good=0):
    """Move the journal from byte `good` on (all of it by default) out of the way of the
    next boot and the next game; says where it went."""
    try:
        return "kept as " + _keep_rest(good)
    except OSError as e:
        return "not kept (%r)" % (e,)


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
