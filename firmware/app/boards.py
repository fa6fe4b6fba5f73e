"""What two boards playing one game (app.peer) share besides the rules: this board's id, the
digest of a position that the two compare after every action, and the checks of the fields
of the other board's lines.  (A person at a board, "human@" and its id: app.session.)"""
import os
from binascii import hexlify
from hashlib import sha256

from app import journal

ID_PATH = "board-id"  # this board's id, 6 hex digits, made at its first link
HEX = "0123456789abcdef"

_id = None


def board_id():
    """This board's id: 6 hex digits, random, kept on the flash."""
    global _id
    if _id is None:
        try:
            with open(ID_PATH) as f:
                text = f.read(8)
            hex_field(text, 6, "board-id")
        except (OSError, ValueError):  # none yet, or not one of ours: a new one
            text = hexlify(os.urandom(3)).decode()
            with open(ID_PATH, "w") as f:
                f.write(text)
            journal.sync()
        _id = text
    return _id


def digest(g):
    """8 hex digits of the position: the two boards compare them after every action."""
    return hexlify(sha256(g.position().encode()).digest()[:4]).decode()


def hex_field(value, digits, what):
    if not (type(value) is str and len(value) == digits and all(c in HEX for c in value)):
        raise ValueError("%s must be %d hex digits" % (what, digits))
    return value


def int_field(rec, key, low=0, high=1 << 20):
    value = rec.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ValueError("%s must be a number from %d to %d" % (key, low, high))
    return value


def text_field(rec, key):
    value = rec.get(key)
    if type(value) is not str or not 0 < len(value) <= 16:
        raise ValueError("%s must be text of 1 to 16 characters" % key)
    return value
