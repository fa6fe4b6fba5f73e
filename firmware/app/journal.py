"""The journal: the game in progress, kept on flash so that a power cut loses nothing, in
the file PATH: the record lines of shared_rules.record, one line per completed action,
written before the action is shown.  Its file and format have two modules, by when they are
needed: this one writes (in the heap while a game is played) and app.journal_read reads it
back (at boot, and for a linked board's catch-up; forgotten in between).  What the records
mean is shared_rules.reader's (app.recovery)."""
import os

PATH = "journal.jsonl"


def begin(header):
    with open(PATH, "w") as f:
        f.write(header + "\n")
    sync()


def append(line):
    with open(PATH, "a") as f:
        f.write(line + "\n")
    sync()


def sync():
    if hasattr(os, "sync"):
        os.sync()


# Restarts for want of memory (app.restart_board), counted on flash: a game that runs out at
# every boot would otherwise restart the board for ever.
def count_restart():
    n = restarts() + 1
    with open(PATH + ".oom", "w") as f:
        f.write(str(n))
    sync()


def restarts():
    """How many times in a row the board restarted for want of memory with no progress."""
    try:
        with open(PATH + ".oom") as f:
            return int(f.read(8))  # a few digits; more would be no count of ours
    except (OSError, ValueError):
        return 0


def progress():
    """A game was started, an action played or the journal set aside: the count starts
    again."""
    try:
        os.remove(PATH + ".oom")
    except OSError:
        pass
