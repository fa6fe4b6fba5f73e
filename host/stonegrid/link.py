"""`stonegrid link`: two boards play one game, each owning one side; this only relays lines.

Two boards on this computer (`link PORT_A PORT_B`), or one board on each of two computers over
TCP (`link PORT --serve` on one, `link PORT --join HOST:N --code CODE` on the other).  The
protocol is in firmware/README.md: the host relays a board's line to the other board verbatim
when it is a JSON object of a listed "t", tells each board with `{"cmd": "link", "peer": ...}`
whether the other is reachable, and decides nothing.  Each board's lines are also saved as
`stonegrid logs` saves them, in a folder of its own.

Over TCP (stonegrid/pairing.py) the two hosts pair by the code the server printed without
sending it (SPAKE2), and every relayed line crosses sealed under the key they share: no code,
bid or move in clear, and a line replayed, reordered, dropped or altered is refused.  Each
code allows one attempt; a joiner back after a drop resumes by the key.  Presence needs no
message of its own: a host whose board is away (or restarted) closes
the connection, the joiner joins again about every second while its board is present, and
the server takes a join only while its board is present."""
import json
import os
import re
import secrets
import socket
import sys
import threading
import time

import serial

from shared_rules import record
from shared_rules.record import MAX_LINE

from stonegrid import logs, pairing

RELAYED = ("link", "game", "act", "end", "commit", "reveal", "halt", "sync")
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud or copied by eye
CODE_LENGTH = 8
HANDSHAKE_S = 10  # for each line of a pairing's handshake
SEALED_LINE = 2 * (MAX_LINE + pairing.SEALED) + 16  # a relayed line sealed: counter, hex
REJOIN_S = 1.0


def not_relayed(raw):
    """Why a line may not cross to the other board, or None when it may."""
    try:
        record.check_json(raw)  # what a board's serial takes: size, UTF-8, nesting
        rec = json.loads(raw)
    except ValueError as e:
        return str(e) if len(raw) > MAX_LINE else "not JSON (%s)" % e
    if not isinstance(rec, dict):
        return "not a JSON object"
    if rec.get("t") not in RELAYED:
        return "type %r not relayed" % (rec.get("t"),)
    return None


def _warn(text):
    print(text, file=sys.stderr, flush=True)


class Narrator:
    """What the person at the host sees: one line a move and a state change (a game begun
    or over, a linked game stopped), each record once, whichever board's log has it first
    (two boards here both log every move)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.said = set()  # the records of the game under way already told
        self.names = None  # its sides, as the game names them

    def record(self, board, rec):
        kind = rec.get("t")
        if kind == "error" and "linked game stopped" in str(rec.get("error")):
            _warn("link %s: %s" % (board.name, str(rec["error"])[:120]))
            return
        if kind not in ("game", "act", "undo", "end"):
            return
        key = (kind, rec.get("ply"), rec.get("n")) if kind != "game" else (
            kind, str(rec.get("game")), str(rec.get("players")))
        with self.lock:
            if key in self.said:
                return
            if kind == "game":
                self.said.clear()
            self.said.add(key)
            if kind == "game":
                self.names = logs.player_names(rec.get("game"))
        _warn("link: %s" % logs.describe(rec, self.names))


def _own_id(rec):
    """The board's id from its own link line (a record), else None."""
    value = rec.get("id") if rec.get("t") == "link" else None
    return value if isinstance(value, str) and re.fullmatch("[0-9a-f]{6}", value) else None


class SerialBoard:
    """A board on a serial port: its lines go to its own log capture and to the relay;
    commands and relayed lines go to it while its port is open. Its logs go in a folder of
    `out_dir` named by the date and the board's id once its link line gives it (by its port
    until then)."""

    def __init__(self, port, name, out_dir, narrator=None):
        self.port, self.name = port, name
        self.out_dir = out_dir
        self.warn = lambda text: _warn("link %s: %s" % (name, text))
        self.capture = logs.Capture(os.path.join(out_dir, _folder(port)), warn=self.warn)
        self.narrator = narrator or Narrator()
        self.serial = None  # while the port is open
        self.lock = threading.Lock()  # one writer at a time: the relay and the commands
        self.relayed = 0  # of its lines, delivered to the other board (or host)

    @property
    def present(self):
        return self.serial is not None

    def send(self, raw):
        """Write one line (bytes, no newline) if the port is open; whether it was written."""
        with self.lock:
            if self.serial is None:
                return False
            try:
                self.serial.write(raw + b"\n")
            except (serial.SerialException, OSError):  # going away: its reader will see
                return False
        return True

    def tell(self, peer):
        self.send(json.dumps({"cmd": "link", "peer": peer}).encode())

    def run(self, relay, stop):
        """Follow the port until stop(); relay(event, board, raw) hears of it opened, each
        line and lost."""
        def opened(s):
            with self.lock:
                self.serial = s
            self.capture.ask = lambda cmd: self.send(json.dumps(cmd).encode())
            self.capture.check()
            relay("opened", self, None)

        def line(raw):
            raw = raw.rstrip(b"\r")
            try:
                rec = json.loads(raw)
            except ValueError:
                rec = None
            if not isinstance(rec, dict):
                rec = None
            board_id = _own_id(rec) if rec is not None and self.capture.file is None else None
            if board_id:  # before its first game: its logs go by its id
                self.capture.out_dir = os.path.join(self.out_dir, "%s-%s" % (
                    time.strftime("%Y%m%d"), board_id))
            self.capture.line(raw)
            if rec is not None:
                self.narrator.record(self, rec)
            relay("line", self, raw)

        def lost():
            with self.lock:
                self.serial = None
            self.capture.ask = None
            relay("lost", self, None)
        logs.follow(self.port, opened, line, lost, stop, self.warn)
        self.capture.close()

    def summary(self, to):
        return "link %s (%s): %d lines relayed to %s; %s" % (
            self.name, self.port, self.relayed, to, self.capture.summary())


def hello(raw):
    """Whether the line is the board's boot line (it restarted: it has no peer now)."""
    try:
        return json.loads(raw).get("t") == "hello"
    except (ValueError, AttributeError):
        return False


def _relay_line(board, raw, deliver):
    """A board's line to the other side, by deliver(raw), if it may cross."""
    why = not_relayed(raw)
    if why is None:
        if deliver(raw):
            board.relayed += 1
    elif len(raw) > MAX_LINE:  # a board's own non-JSON lines are reported by its capture
        board.warn("a line not relayed: %s" % why)


class LocalPair:
    """Two boards on this computer."""

    def __init__(self, a, b):
        self.boards = (a, b)
        self.lock = threading.Lock()  # the pair's presence, seen and told in one step

    def other(self, board):
        return self.boards[board is self.boards[0]]

    def _formed(self):
        if all(b.present for b in self.boards):
            for b in self.boards:
                b.tell(True)

    def __call__(self, event, board, raw):
        other = self.other(board)
        if event == "line":
            if hello(raw):
                with self.lock:
                    other.tell(False)  # the board it linked with is gone: a new one booted
                    self._formed()
            _relay_line(board, raw, other.send)
            return
        with self.lock:
            if event == "opened" and other.present:
                self._formed()
            elif event == "opened":
                board.tell(False)  # whatever it was told before the port went
            else:
                other.tell(False)


class Said:
    """Warnings that a flood cannot turn into a flood on stderr: the first few are said, the
    rest counted, and the count said at the end."""
    FIRST = 5

    def __init__(self, warn):
        self.warn, self.count = warn, 0

    def __call__(self, text):
        self.count += 1
        if self.count <= self.FIRST:
            self.warn(text + ("" if self.count < self.FIRST else
                              " (more such lines are counted, not said)"))

    def summary(self):
        if self.count > self.FIRST:
            self.warn("%d lines from the peer dropped in all" % self.count)


class RemoteHost:
    """The other computer's host, over one TCP connection at a time."""

    def __init__(self, board):
        self.board = board
        self.channel = None  # the paired connection (pairing.Channel)
        self.reader = None  # the thread relaying the connection's lines
        self.lock = threading.Lock()
        self.received = self.refused = 0

    def send(self, raw):
        with self.lock:
            channel = self.channel
        if channel is None:
            return False
        try:
            channel.send(raw)
        except OSError:
            return False
        return True

    def drop(self):
        """Close the connection (the board went away or restarted); its reader ends."""
        with self.lock:
            if self.channel is not None:
                try:
                    self.channel.conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def __call__(self, event, board, raw):
        if event == "opened":
            board.tell(self.channel is not None)
        elif event == "lost" or hello(raw):
            self.drop()
        else:
            _relay_line(board, raw, self.send)

    def attach(self, channel, stop):
        """Relay the paired channel's lines to the board, in a thread of their own, until it
        closes or stop(); the board is told of the pair formed, then of it broken. False,
        and nothing of it kept, when the connection is gone already (the other side gave
        up before the pairing was done). An earlier connection of the same session (a
        joiner back before this side saw it go) is closed."""
        conn = channel.conn
        try:
            where = "%s:%d" % conn.getpeername()[:2]
            conn.settimeout(0.5)
        except OSError:
            return False
        self.drop()
        reader = threading.Thread(target=self._relay, args=(channel, stop), daemon=True)
        with self.lock:
            self.channel, self.reader = channel, reader
        try:
            reader.start()
        except RuntimeError:  # no thread to be had: as if the connection had closed
            with self.lock:
                self.channel = None
            return False
        self.board.tell(True)
        _warn("link: paired with %s (the channel sealed)" % where)
        return True

    def _relay(self, channel, stop):
        said = Said(self.board.warn)
        conn = channel.conn
        try:
            for sealed in _lines(conn, stop, said):
                try:
                    raw = channel.open(sealed)
                except pairing.Refused as e:  # the channel is not to be trusted any more
                    self.refused += 1
                    _warn("link: from the peer, refused: %s; the connection is closed" % e)
                    break
                why = not_relayed(raw)
                if why:
                    said("from the peer, dropped (%s): %r" % (why, raw[:70]))
                elif self.board.send(raw):
                    self.received += 1
        finally:
            said.summary()
            with self.lock:
                if self.channel is channel:
                    self.channel = None
                    self.board.tell(False)
            conn.close()
            if not stop():
                _warn("link: the connection to the peer is closed")

    def wait(self):
        if self.reader is not None:
            self.reader.join(5)

    def summary(self):
        return "%s, %d received from the peer" % (self.board.summary("the peer"), self.received)


def _lines(conn, stop, warn):
    """The connection's lines (bytes, no newline) until it closes or stop(); a line longer
    than MAX_LINE is dropped as it comes (logs.Lines: none is held whole, each byte looked at
    once), and said."""
    lines = logs.Lines(SEALED_LINE)
    while not stop():
        try:
            chunk = conn.recv(4096)
        except socket.timeout:
            continue
        except OSError:
            return
        if not chunk:
            return
        skipped = lines.skipped
        for raw in lines.feed(chunk):
            yield raw.rstrip(b"\r")
        if lines.skipped > skipped:
            warn("from the peer, dropped (a line over %d bytes)" % SEALED_LINE)


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _normal(code):
    """A code as typed: any case, dashes and spaces left out."""
    return code.strip().upper().replace("-", "").replace(" ", "")


def shown(code):
    half = len(code) // 2
    return code[:half] + "-" + code[half:]


class Failed(Exception):
    """The link cannot go on (a refused code, a session the server no longer has): why."""


def serve(peer, listener, codes, stop):
    """Take joiners on the listener until stop(), each handshake in a thread of its own with
    a short timeout, so that a silent or slow one holds up no one: paired by the code (one
    attempt a code: pairing.Codes), or resumed by the session's key; only while the board is
    present."""
    listener.settimeout(0.5)
    while not stop():
        try:
            conn, addr = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=_handshake, args=(peer, conn, addr, codes, stop),
                         daemon=True).start()


def _handshake(peer, conn, addr, codes, stop):
    """One joiner: paired (then attached) or refused, said in one line; the connection
    closed on every path but a pairing."""
    channel = None
    try:
        conn.settimeout(HANDSHAKE_S)
        if not peer.board.present:
            return  # closed unanswered: the joiner tries again
        channel = pairing.serve(conn, codes, busy=lambda: peer.channel is not None)
        if channel is not None and not peer.attach(channel, stop):
            _warn("link: the joiner from %s went away before pairing was done" % addr[0])
            channel = None
    except pairing.WrongCode as e:
        _warn("link: %s from %s; that code is used up" % (e, addr[0]))
    except pairing.Refused as e:
        _warn("link: refused %s: %s" % (addr[0], e))
    except OSError as e:  # it went away or fell silent mid-handshake: nothing of it is kept
        _warn("link: the joiner from %s went away before pairing was done (%s)"
              % (addr[0], e.strerror or e))
    finally:
        if channel is None:
            conn.close()


def join(peer, address, code, stop):
    """Join the server at address with the code while the board is present, again about
    every second once the connection closes (resumed by the session's key, never the code
    again), until stop().  Raises Failed for a wrong code or a session the server lost."""
    said, paired, session = None, False, None
    while not stop():
        if not peer.board.present or peer.channel is not None:
            time.sleep(0.2)
            continue
        if paired:  # the connection just closed: the server needs a moment to see it too
            paired = False
            time.sleep(REJOIN_S)
            continue
        answer = None
        try:
            conn = socket.create_connection(address, timeout=HANDSHAKE_S)
        except OSError as e:
            answer = str(e)
        else:
            try:
                channel = pairing.join(conn, code, session)
                if peer.attach(channel, stop):
                    session, said, paired = (channel.sid, channel.key), None, True
                    continue
                answer = "the connection closed"
            except pairing.WrongCode as e:
                conn.close()
                raise Failed("the server at %s:%d refused the code: %s" % (address + (e,)))
            except pairing.Refused as e:
                answer = str(e)
                if session is not None and "no such session" in answer:
                    conn.close()
                    raise Failed("the server at %s:%d no longer has this pairing (restarted?): "
                                 "join again with the code it prints now" % address)
            except OSError as e:
                answer = str(e)
            conn.close()
        if answer != said:
            _warn("link: cannot join %s:%d yet (%s); trying again every second" % (
                address + (answer,)))
            said = answer
        time.sleep(REJOIN_S)


def _folder(port):
    """A log folder's name before the board's id is known: its port's, in safe characters."""
    name = os.path.basename(port.rstrip("/")) or "board"
    return "port-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)[:40]


def run_pair(port_a, port_b, out_dir, done):
    """Two boards on this computer until done is set; the summary lines."""
    narrator = Narrator()
    boards = [SerialBoard(p, n, out_dir, narrator) for p, n in zip((port_a, port_b), "AB")]
    pair = LocalPair(*boards)
    threads = [threading.Thread(target=b.run, args=(pair, done.is_set), daemon=True)
               for b in boards]
    _warn("link: relaying between A (%s) and B (%s), logs in %s (Ctrl-C stops)" % (
        port_a, port_b, out_dir))
    _until_done(threads, done, boards)
    return [boards[0].summary("B"), boards[1].summary("A")]


def run_tcp(port, out_dir, done, serve_port=None, join_address=None, code=None):
    """One board here, the other host over TCP (serve_port: listen; else join); raises
    Failed when the link cannot go on, after the summary lines are printed."""
    board = SerialBoard(port, "board", out_dir)
    peer = RemoteHost(board)
    failure = []

    def network():
        try:
            if serve_port is None:
                join(peer, join_address, _normal(code), done.is_set)
            else:
                with listener:
                    serve(peer, listener, codes, done.is_set)
        except Failed as e:
            failure.append(e)
            done.set()
    if serve_port is not None:
        listener = socket.create_server(("", serve_port))

        def say(code):
            print("link: pairing code %s; on the other computer: stonegrid link PORT --join "
                  "%s:%d --code %s" % (shown(code), socket.gethostname(),
                                       listener.getsockname()[1], shown(code)), flush=True)
        codes = pairing.Codes(new_code, say)
        say(codes.code)
    threads = [threading.Thread(target=board.run, args=(peer, done.is_set), daemon=True),
               threading.Thread(target=network, daemon=True)]
    _until_done(threads, done, [board])
    peer.wait()
    print(peer.summary(), file=sys.stderr)
    if failure:
        raise failure[0]


def _until_done(threads, done, boards):
    for t in threads:
        t.start()
    try:
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        done.set()
    for b in boards:  # nothing relays any more: no board waits for its peer through us
        b.tell(False)
    for t in threads:
        t.join(5)
