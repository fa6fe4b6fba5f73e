"""The TCP channel between two `stonegrid link` hosts (link protocol 2): pairing by the code
with SPAKE2, so that the code never crosses the wire, and every line after it sealed.

Pairing, the joiner first, one line each:
  joiner: STONEGRID-LINK 2 PAIR <SPAKE2 message, hex>
  server: OK <its SPAKE2 message> <session id> <server confirmation>    (or ERR <why>)
  joiner: <joiner confirmation>                                           (or it closes)
Both sides derive the same 32-byte key from the code; a confirmation is an HMAC of the two
messages under it, so a wrong code shows as a confirmation that does not match, and the code
is never sent. Each code allows one attempt: a failed confirmation ends it (the server makes a
new one). A reconnection after a drop proves itself with the session's key, never the code:
  joiner: STONEGRID-LINK 2 RESUME <session id> <joiner nonce>
  server: OK <server nonce> <server proof>
  joiner: <joiner proof>
Then each line is `<counter>:<ChaCha20-Poly1305 of the line, hex>`, under a key of its own
for each direction (and each connection), the counter its nonce, from 0: a line replayed,
reordered, dropped or altered is refused, and the connection with it."""
import hashlib
import hmac
import os
import re
import threading

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import SPAKEError

VERSION = b"STONEGRID-LINK 2"
IDS = {"idA": b"stonegrid link joiner", "idB": b"stonegrid link server"}
MAX_HANDSHAKE = 512  # bytes of a handshake line
SEALED = 16  # the bytes sealing adds to a line (before hex)
_HEX = re.compile(rb"(?:[0-9a-f]{2})+")


class Refused(Exception):
    """The other side's handshake or line is not one this side takes: why, for people."""


class WrongCode(Refused):
    """The key confirmation failed: the code given is not the server's."""


def _mac(key, *parts):
    return hmac.new(key, b"|".join(parts), hashlib.sha256).hexdigest().encode()


def _key(key, *parts):
    return hashlib.sha256(key + b"|" + b"|".join(parts)).digest()


class Channel:
    """A paired connection: send() seals a line, open() checks and opens one."""

    def __init__(self, conn, key, sid, joiner, salt=b""):
        self.conn, self.key, self.sid = conn, key, sid
        mine, theirs = (b"joiner", b"server") if joiner else (b"server", b"joiner")
        self._out = ChaCha20Poly1305(_key(key, mine, salt))
        self._in = ChaCha20Poly1305(_key(key, theirs, salt))
        self.sent = self.received = 0
        self.lock = threading.Lock()

    def seal(self, raw):
        with self.lock:
            n = self.sent
            self.sent += 1
        return b"%d:%s" % (n, self._out.encrypt(n.to_bytes(12, "big"), raw, None).hex().encode())

    def send(self, raw):
        self.conn.sendall(self.seal(raw) + b"\n")

    def open(self, line):
        """The line a sealed line holds; Refused (with why) for one out of order or altered."""
        count, colon, sealed = line.partition(b":")
        if not (colon and count.isdigit() and len(count) < 12 and _HEX.fullmatch(sealed)):
            raise Refused("a line that is not sealed")
        n = int(count)
        if n != self.received:
            raise Refused("line %d where %d was due: replayed, reordered or one dropped"
                          % (n, self.received))
        try:
            raw = self._in.decrypt(n.to_bytes(12, "big"), bytes.fromhex(sealed.decode()), None)
        except (InvalidTag, ValueError):
            raise Refused("line %d altered on the way (its seal does not match)" % n)
        self.received += 1
        return raw


def read_line(conn):
    """One handshake line (a timeout set on conn); b"" when it closes or sends too much."""
    data = b""
    while b"\n" not in data:
        chunk = conn.recv(MAX_HANDSHAKE)
        if not chunk:
            return b""
        data += chunk
        if len(data) > MAX_HANDSHAKE:
            return b""
    line, _, rest = data.partition(b"\n")
    if rest:  # nothing may follow a handshake line before the answer
        raise Refused("more than one handshake line at once")
    return line.strip()


def _hex(text, what, size=None):
    try:
        out = bytes.fromhex(text.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise Refused("%s is not hex" % what)
    if size is not None and len(out) != size:
        raise Refused("%s is not %d bytes" % (what, size))
    return out


def join(conn, code, session=None):
    """The joiner's side on a connected socket: a Channel, paired by `code` or, with
    `session` ((sid, key) of an earlier pairing), resumed by its key. WrongCode, Refused."""
    if session is not None:
        sid, key = session
        mine = os.urandom(16)
        conn.sendall(b"%s RESUME %s %s\n" % (VERSION, sid.hex().encode(), mine.hex().encode()))
        words = _answer(conn)
        if len(words) != 3:
            raise Refused("a resumption answer of %d words" % len(words))
        theirs = _hex(words[1], "the server's nonce", 16)
        if not hmac.compare_digest(words[2], _mac(key, b"resume server", mine, theirs)):
            raise Refused("the server does not hold this session's key")
        conn.sendall(_mac(key, b"resume joiner", mine, theirs) + b"\n")
        return Channel(conn, key, sid, True, mine + theirs)
    spake = SPAKE2_A(code.encode(), **IDS)
    msg = spake.start()
    conn.sendall(b"%s PAIR %s\n" % (VERSION, msg.hex().encode()))
    words = _answer(conn)
    if len(words) != 4:
        raise Refused("a pairing answer of %d words" % len(words))
    theirs, sid = _hex(words[1], "the server's message"), _hex(words[2], "the session id", 8)
    try:
        key = spake.finish(theirs)
    except (SPAKEError, ValueError) as e:
        raise Refused("the server's pairing message is broken (%s)" % e)
    if not hmac.compare_digest(words[3], _mac(key, b"confirm server", msg, theirs)):
        raise WrongCode("wrong pairing code (the server's key confirmation does not match)")
    conn.sendall(_mac(key, b"confirm joiner", msg, theirs) + b"\n")
    return Channel(conn, key, sid, True)


def _answer(conn):
    line = read_line(conn)
    if not line:
        raise Refused("no answer: its board is away?")
    words = line.split()
    if words[0] == b"ERR":
        raise Refused(line[4:].decode("utf-8", "replace")[:100])
    if words[0] != b"OK":
        raise Refused("not a stonegrid link server (it said %r)" % line[:40])
    return words


class Codes:
    """The server's pairing code and its session: one attempt per code, a new code after a
    failed one (said by `say(code)`), and the key of the session it paired, for
    resumptions."""

    def __init__(self, make, say):
        self.make, self.say = make, say
        self.lock = threading.Lock()
        self.code = make()
        self.session = None  # (sid, key) of the pairing made with a code
        self.failed = 0

    def burn(self, failed=True):
        """The code is used up (a failed attempt, or a pairing made with it): a new one."""
        with self.lock:
            self.failed += failed
            self.code = self.make()
            code = self.code
        self.say(code)


def serve(conn, codes, busy=lambda: False):
    """The server's side on an accepted socket: a Channel, or None when the other side went
    away or sent nothing; Refused when its handshake is not one to take (said, no attempt
    of the code), a pairing while busy() among them; WrongCode when its key confirmation
    failed (the code is then burnt)."""
    first = read_line(conn)
    if not first:
        return None  # closed, or silent till the timeout: no attempt
    words = first.split()
    if len(words) < 2 or b" ".join(words[:2]) != VERSION:
        if len(words) == 1 and len(first) <= 16:  # a bare code: stonegrid before protocol 2
            why = "this server speaks link protocol 2: update stonegrid on the joining computer"
        else:
            why = "not a stonegrid link (its first line is %r)" % first[:40]
        conn.sendall(b"ERR " + why.encode() + b"\n")
        raise Refused(why)
    if len(words) == 5 and words[2] == b"RESUME":
        return _resume(conn, codes, words)
    if len(words) != 4 or words[2] != b"PAIR":
        conn.sendall(b"ERR a handshake of protocol 2 is PAIR or RESUME\n")
        raise Refused("a malformed handshake %r" % first[:40])
    if busy():
        conn.sendall(b"ERR busy: a board is linked already\n")
        raise Refused("a pairing while a board is linked already")
    theirs = _hex(words[3], "the joiner's message")
    with codes.lock:
        code = codes.code
    spake = SPAKE2_B(code.encode(), **IDS)
    msg = spake.start()
    try:
        key = spake.finish(theirs)
    except (SPAKEError, ValueError) as e:
        conn.sendall(b"ERR a broken pairing message\n")
        raise Refused("a broken pairing message (%s)" % e)
    sid = os.urandom(8)
    conn.sendall(b"OK %s %s %s\n" % (msg.hex().encode(), sid.hex().encode(),
                                     _mac(key, b"confirm server", theirs, msg)))
    confirm = read_line(conn)
    if not hmac.compare_digest(confirm, _mac(key, b"confirm joiner", theirs, msg)):
        codes.burn()
        raise WrongCode("a wrong pairing code (its key confirmation %s)" % (
            "did not match" if confirm else "never came"))
    with codes.lock:
        codes.session = (sid, key)
    codes.burn(failed=False)  # paired: a joiner back after a drop resumes by the key
    return Channel(conn, key, sid, False)


def _resume(conn, codes, words):
    with codes.lock:
        session = codes.session
    sid = _hex(words[3], "the session id", 8)
    theirs = _hex(words[4], "the joiner's nonce", 16)
    if session is None or not hmac.compare_digest(session[0], sid):
        conn.sendall(b"ERR no such session here: pair again with a new code\n")
        raise Refused("a resumption of a session this server does not have")
    key = session[1]
    mine = os.urandom(16)
    conn.sendall(b"OK %s %s\n" % (mine.hex().encode(), _mac(key, b"resume server", theirs,
                                                               mine)))
    if not hmac.compare_digest(read_line(conn), _mac(key, b"resume joiner", theirs, mine)):
        raise Refused("a resumption without the session's key")
    return Channel(conn, key, sid, False, theirs + mine)
