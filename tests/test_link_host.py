"""`stonegrid link`, the host side of two linked boards, run as the user runs it: each board is
the test's end of a real pseudo-terminal (the test writes the board's lines and reads what the
host writes to it), the two hosts of a game over TCP talk on 127.0.0.1.  The end-to-end games
with two virtual boards running the firmware are in the firmware's own tests."""
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import tty

import pytest

from helpers import random_game
from shared_rules import load
from stonegrid import records

STONEGRID = [sys.executable, "-m", "stonegrid.cli"]
PEER_TRUE = {"cmd": "link", "peer": True}
PEER_FALSE = {"cmd": "link", "peer": False}


class ScriptedBoard:
    """A board's end of a pseudo-terminal, reached by the host through a symlink (as
    /dev/serial/by-id names a board): replug() makes a new one behind the same name."""

    def __init__(self, path):
        self.path = path
        self.received = []  # every line the host wrote to it, parsed (or the bytes)
        self.raw = []  # the same lines as they came
        self.seen = 0  # of which the ones wait() went past
        self.master = None
        self.replug()

    def replug(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo before the host's pyserial sets it so
        if os.path.lexists(self.path):
            os.unlink(self.path)
        os.symlink(os.ttyname(self.slave), self.path)
        self.pending = b""

    def unplug(self):
        """As a board unplugged: its pty gone, and its name too (as udev removes the
        /dev/serial/by-id link), so that a host trying it again meanwhile cannot open the
        pty of the same number that another test makes next."""
        os.close(self.master)
        os.close(self.slave)
        self.master = None
        if os.path.lexists(self.path):
            os.unlink(self.path)

    def write(self, line):
        """One line, the board's: a dict or the bytes themselves."""
        raw = line if isinstance(line, bytes) else json.dumps(line).encode()
        os.write(self.master, raw + b"\r\n")  # as a board's serial ends its lines

    def _read(self, timeout):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            self.pending += os.read(self.master, 65536)
            while b"\n" in self.pending:
                raw, self.pending = self.pending.split(b"\n", 1)
                self.raw.append(raw)
                try:
                    self.received.append(json.loads(raw))
                except ValueError:
                    self.received.append(raw)

    def wait(self, want, timeout=15):
        """The first line after those waited for already that equals want (or for which it
        holds, a function)."""
        match = want if callable(want) else (lambda line: line == want)
        deadline = time.monotonic() + timeout
        while True:
            for i in range(self.seen, len(self.received)):
                if match(self.received[i]):
                    self.seen = i + 1
                    return self.received[i]
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("%s never came; the host wrote %s" % (
                    want, self.received[self.seen:][-8:]))
            self._read(left)

    def since_wait(self):
        """The lines that came after those waited for, up to now."""
        self._read(0.2)
        return self.received[self.seen:]

    def raw_lines(self):
        """What the host relayed to it, the lines as bytes (commands left out)."""
        self._read(0.2)
        return [raw for raw, r in zip(self.raw, self.received)
                if not (isinstance(r, dict) and "cmd" in r)]

    def close(self):
        if self.master is not None:
            self.unplug()


@pytest.fixture()
def boards(tmp_path):
    made = [ScriptedBoard(str(tmp_path / name)) for name in ("boardA", "boardB")]
    yield made
    for b in made:
        b.close()


class Host:
    """`stonegrid link ARGS` in a process of its own, its output in files (never a full pipe)."""

    def __init__(self, tmp_path, *args):
        n = len(list(tmp_path.glob("host*.out")))
        self.out, self.err = tmp_path / ("host%d.out" % n), tmp_path / ("host%d.err" % n)
        with open(str(self.out), "w") as out, open(str(self.err), "w") as err:
            self.proc = subprocess.Popen(STONEGRID + ["link"] + list(args), stdout=out,
                                         stderr=err)

    def stop(self):
        """SIGTERM, as a service manager stops it; the exit code and what it printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=20)
        return code, self.out.read_text(), self.err.read_text()

    def wait_for(self, pattern, which="out", timeout=15):
        """The first match of pattern in its stdout (or "err"), once it is there."""
        path = self.out if which == "out" else self.err
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, path.read_text())
            if found:
                return found
            time.sleep(0.1)
        raise AssertionError("%r not in its %s: %s" % (pattern, which, path.read_text()))


@pytest.fixture()
def hosts():
    started = []
    yield started
    for h in started:
        if h.proc.poll() is None:
            h.proc.kill()
            h.proc.wait()


def start(hosts, tmp_path, *args):
    hosts.append(Host(tmp_path, *args))
    return hosts[-1]


def game_lines(seed):
    """A real game's record lines (game, act..., end), as a board writes them."""
    g = random_game(load("morris"), seed)
    return records.to_records({"game": "morris", "players": ["human", "human"], "fw": "t"}, g)


def test_relays_only_the_listed_types_verbatim_and_survives_junk(boards, hosts, tmp_path):
    a, b = boards
    host = start(hosts, tmp_path, a.path, b.path, "--out", str(tmp_path / "logs"))
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    listed = [b'{"t":"link","v":1,"proto":1,"id":"3f9a07","fw":"0.1.0","game":null,"ply":0}',
              b'{"t": "game", "v": 1, "game": "morris"}',  # the spacing kept: verbatim
              b'{"ply": 1, "t": "act", "v": 1, "p": 0, "a": 7, "n": "a4", "d": "0a1b2c3d"}',
              b'{"t":"commit","v":1,"ply":2,"p":0,"h":"%s"}' % (b"ab" * 32),
              b'{"t":"reveal","v":1,"ply":2,"p":0,"n":"bid2","k":"%s"}' % (b"cd" * 16),
              b'{"t":"end","v":1,"ply":3,"winner":0,"reason":"men"}',
              b'{"t":"halt","v":1,"why":"positions differ"}',
              b'{"t":"sync","v":1,"line":"{\\"t\\": \\"act\\", \\"v\\": 1, \\"ply\\": 1}"}']
    longest = b'{"t":"act","pad":"' + b"x" * 2028 + b'"}'  # 2048 bytes: relayed
    unlisted = [b'{"t":"hello","v":1,"fw":"0.1.0"}', b'{"t":"state","game":null}',
                b'{"t":"ok","cmd":"link"}', b'{"t":"error","error":"bad"}',
                b'{"t":"undo","v":1,"ply":1}', b'{"t":"resumed"}', b'{"no":"t"}',
                b'["act"]', b"Traceback (most recent call last):", b'{"t":"act"',
                b'{"t":"act","pad":"' + b"x" * 2048 + b'"}', b"\xff\xfe"]
    for raw in listed[:3] + unlisted + listed[3:] + [longest]:
        a.write(raw)
    b.wait(lambda line: isinstance(line, dict) and line.get("pad") == "x" * 2028)
    assert b.raw_lines() == listed + [longest]
    b.write(listed[2])  # and the other way, after all that
    a.wait(lambda line: line == json.loads(listed[2]))
    assert host.proc.poll() is None
    code, _, err = host.stop()
    assert code == 0, err
    assert "link A: a line over 2048 bytes skipped" in err, err


def test_peer_true_to_both_at_start_and_again_after_a_hello(boards, hosts, tmp_path):
    a, b = boards
    start(hosts, tmp_path, a.path, b.path, "--out", str(tmp_path / "logs"))
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    a.write({"t": "hello", "v": 1, "fw": "0.1.0"})  # A restarted: the B knew is gone
    b.wait(PEER_FALSE)
    b.wait(PEER_TRUE)
    a.wait(PEER_TRUE)
    assert not any(line.get("t") == "hello" for line in b.received if isinstance(line, dict))


def test_a_board_away_and_back_pauses_and_relinks_the_other(boards, hosts, tmp_path):
    a, b = boards
    host = start(hosts, tmp_path, a.path, b.path, "--out", str(tmp_path / "logs"))
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    a.unplug()
    b.wait(PEER_FALSE)
    a.replug()
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    a.write({"t": "act", "v": 1, "ply": 1})
    b.wait({"t": "act", "v": 1, "ply": 1})
    code, _, err = host.stop()
    assert "link A: lost %s" % a.path in err and "link A: %s is back" % a.path in err, err


def test_both_boards_games_are_saved_and_summed_up(boards, hosts, tmp_path):
    a, b = boards
    out = tmp_path / "logs"
    host = start(hosts, tmp_path, a.path, b.path, "--out", str(out))
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    games = {a: game_lines(1), b: game_lines(2)}
    for board, lines in games.items():
        for line in lines:
            board.write(line.encode())
    for board, other in ((a, b), (b, a)):
        last = json.loads(games[board][-1])
        other.wait(last)
    code, _, err = host.stop()
    assert code == 0, err
    for board in (a, b):
        [path] = (out / ("port-" + os.path.basename(board.path))).glob("*-morris.jsonl")
        assert path.read_text().splitlines() == games[board]
        relayed = len(games[board])
        other = "B" if board is a else "A"
        assert "%d lines relayed to %s; logs: %d lines of 1 games saved" % (
            relayed, other, relayed) in err, err


def test_a_port_that_is_not_there_is_an_error_at_once_or_waited_for(boards, hosts, tmp_path):
    a, _ = boards
    typo = str(tmp_path / "typo")
    done = subprocess.run(STONEGRID + ["link", a.path, typo], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 1 and done.stderr == (
        "stonegrid: error: cannot open %s: no such port; is the board plugged in, is the name "
        "right? (--wait waits for a board not plugged in yet)\n" % typo), done.stderr
    host = start(hosts, tmp_path, a.path, typo, "--out", str(tmp_path / "logs"), "--wait")
    host.wait_for("link B: waiting for %s \\(no such port" % re.escape(typo), "err")
    a.wait(PEER_FALSE)  # alone: no peer
    code, _, err = host.stop()
    assert code == 0 and "link B (%s): 0 lines relayed" % typo in err, err


@pytest.mark.parametrize("args, why", [
    (["a", "b", "--serve"], "argument --serve: takes one PORT"),
    (["a", "--join", "localhost:8017"], "argument --join: needs --code"),
    (["a", "--join", "localhost"], "argument --join: HOST:N"),
    (["a", "--join", "localhost:0", "--code", "X"], "argument --join: HOST:N, N a port from 1"),
    (["a", "--serve", "--port", "65536"], "argument --port: a port is a number from 0"),
    (["a"], "argument PORT_B: two boards here need two ports"),
    (["a", "--serve", "--join", "h:1", "--code", "X"], "argument --serve: not with --join"),
    (["a", "--serve", "--code", "X"], "argument --code: only with --join"),
])
def test_bad_arguments_are_named(args, why):
    done = subprocess.run(STONEGRID + ["link"] + args, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and why in done.stderr, done.stderr


def serve(hosts, tmp_path, board):
    """`link --serve` on a free port: the host, its port and its pairing code."""
    host = start(hosts, tmp_path, board.path, "--serve", "--port", "0", "--out",
                 str(tmp_path / "logs"))
    found = host.wait_for(r"pairing code (\S+); .* --join \S+:(\d+) --code")
    return host, int(found.group(2)), found.group(1)


def joiner(port, code):
    """A TCP client of the test's that pairs with the code as `--join` does (link protocol
    2): its paired channel (pairing.WrongCode, Refused when it cannot)."""
    from stonegrid import link, pairing
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return pairing.join(s, link._normal(code))


def test_tcp_the_right_code_pairs_and_lines_cross_both_ways(boards, hosts, tmp_path):
    a, b = boards
    server, port, code = serve(hosts, tmp_path, a)
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code), code
    start(hosts, tmp_path, b.path, "--join", "127.0.0.1:%d" % port, "--code",
          code.lower().replace("-", ""), "--out", str(tmp_path / "logs"))  # as typed
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    act = b'{"t": "act", "v": 1, "ply": 1, "p": 0, "a": 7, "n": "a4"}'
    a.write(b'{"t":"state","game":null}')
    a.write(act)
    b.wait(json.loads(act))
    b.write(b'{"t":"commit","v":1,"ply":2,"p":1,"h":"00"}')
    a.wait({"t": "commit", "v": 1, "ply": 2, "p": 1, "h": "00"})
    assert b.raw_lines() == [act]  # verbatim, and not the state line


def test_tcp_lines_are_checked_again_on_receipt(boards, hosts, tmp_path):
    a, _ = boards
    server, port, code = serve(hosts, tmp_path, a)
    channel = joiner(port, code)
    a.wait(PEER_TRUE)
    for junk in (b'{"t":"state"}', b"not json", b"[1]", b'{"t":"x","pad":"%s"}' % (
            b"x" * 2020), b'{"t":"game","v":1}'):  # each sealed, as the other host sends
        channel.send(junk)
    channel.conn.sendall(b"x" * 9000 + b"\n")  # over any sealed line: dropped as it comes
    a.wait({"t": "game", "v": 1})
    assert a.raw_lines() == [b'{"t":"game","v":1}']
    channel.conn.close()
    a.wait(PEER_FALSE)
    code, _, err = server.stop()
    assert code == 0, err
    for why in ("type 'state' not relayed", "not JSON", "not a JSON object",
                "type 'x' not relayed", "a line over 4144 bytes"):
        assert "from the peer, dropped (%s" % why in err, err


def test_tcp_a_wrong_code_ends_that_code_and_the_server_prints_a_new_one(boards, hosts,
                                                                          tmp_path):
    """The code never crosses: a wrong one shows as a key confirmation that does not match,
    on both sides, and it uses the code up (one attempt a code), so guessing gets nowhere;
    the new code pairs. A joiner of the old protocol (the bare code) is told, no attempt."""
    from stonegrid import pairing
    a, b = boards
    server, port, code = serve(hosts, tmp_path, a)
    wrong = "2222-2222" if code != "2222-2222" else "3333-3333"
    with pytest.raises(pairing.WrongCode):
        joiner(port, wrong)
    new = server.wait_for(r"pairing code (\S+); .*\n.*pairing code (\S+);").group(2)
    assert new != code
    with pytest.raises(pairing.WrongCode):  # the old code is used up too
        joiner(port, code)
    old = socket.create_connection(("127.0.0.1", port), timeout=10)
    old.sendall(code.replace("-", "").encode() + b"\n")  # stonegrid before protocol 2
    assert old.makefile("rb").readline().startswith(b"ERR this server speaks link protocol 2")
    j = start(hosts, tmp_path, b.path, "--join", "127.0.0.1:%d" % port, "--code",
              "XXXX-XXXX", "--out", str(tmp_path / "logs"))
    assert j.proc.wait(timeout=20) == 1
    assert "refused the code: wrong pairing code" in j.err.read_text()
    # printed: the first code, and a new one for each of the three used up
    newest = server.wait_for(r"(?s)(.*pairing code \S+;){3}.*pairing code (\S+);").group(2)
    channel = joiner(port, newest)
    a.wait(PEER_TRUE)
    channel.conn.close()
    err = server.err.read_text()
    assert err.count("that code is used up") == 3 and "protocol 2" in err, err
    assert server.proc.poll() is None  # the listener stays open


def test_tcp_the_servers_board_away_closes_the_link_and_the_joiner_rejoins(boards, hosts,
                                                                            tmp_path):
    a, b = boards
    server, port, code = serve(hosts, tmp_path, a)
    start(hosts, tmp_path, b.path, "--join", "127.0.0.1:%d" % port, "--code", code,
          "--out", str(tmp_path / "logs"))
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    a.unplug()
    b.wait(PEER_FALSE)
    time.sleep(2.5)  # the joiner tries meanwhile: refused while the board is away
    assert PEER_TRUE not in b.since_wait()
    a.replug()
    a.wait(PEER_TRUE)
    b.wait(PEER_TRUE)
    b.write(b'{"t":"act","v":1,"ply":3}')
    a.wait({"t": "act", "v": 1, "ply": 3})
    a.write(b'{"t":"hello","v":1}')  # a restart closes the link too, and it forms again
    b.wait(PEER_FALSE)
    b.wait(PEER_TRUE)
    a.wait(PEER_TRUE)


def _reset(port, send):
    """A joiner that sends `send` and is gone at once, by a reset (as a process killed, or
    `--join` giving up on its handshake, leaves it): the server may not even learn its name."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    if send:
        s.sendall(send)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()


def test_a_connection_gone_before_it_is_attached_is_not_kept(tmp_path):
    """The close-before-read race, at the point where it wedged the server: the joiner's
    reset arrives after the server read the right code and before it takes the connection
    (its name cannot be had any more). Nothing of it may stay: no linked board, no relay."""
    from stonegrid import link
    listener = socket.create_server(("127.0.0.1", 0))
    with listener:
        _reset(listener.getsockname()[1], b"CODE\n")
        conn, _ = listener.accept()
    time.sleep(0.2)  # the reset is in
    from stonegrid import pairing
    peer = link.RemoteHost(link.SerialBoard(str(tmp_path / "none"), "board", str(tmp_path / "logs")))
    channel = pairing.Channel(conn, b"k" * 32, b"s" * 8, False)
    assert peer.attach(channel, lambda: False) is False
    assert peer.channel is None and peer.reader is None
    conn.close()


def test_tcp_joiners_gone_mid_handshake_leave_the_server_listening(boards, hosts, tmp_path):
    """Joins that give up half-way (the code, part of one, or nothing, then gone: closed or
    reset) and port scans: none is kept as the linked board, none counts as a wrong code, and
    the right code then pairs at once."""
    a, b = boards
    server, port, code = serve(hosts, tmp_path, a)
    for _ in range(5):
        _reset(port, code.encode() + b"\n")
        _reset(port, code[:3].encode())
        _reset(port, b"")
        socket.create_connection(("127.0.0.1", port), timeout=10).close()  # a port scan
    channel = joiner(port, code)
    a.wait(PEER_TRUE)
    channel.send(b'{"t":"game","v":1}')
    a.wait({"t": "game", "v": 1})
    channel.conn.close()
    a.wait(PEER_FALSE)
    code, _, err = server.stop()
    assert code == 0 and "wrong pairing code" not in err, err


def test_a_flood_of_bad_lines_from_the_peer_is_counted_not_echoed(boards, hosts, tmp_path):
    """20,008 lines on stderr for a flood of hostile lines: now the first few are said, the
    rest counted and the count said when the connection ends; a 1 MB line without a newline
    is dropped as it comes; the good line after them all still crosses."""
    a, _ = boards
    server, port, code = serve(hosts, tmp_path, a)
    channel = joiner(port, code)
    a.wait(PEER_TRUE)
    channel.conn.sendall(b"".join(channel.seal(b'{"t":"state"}') + b"\n" for _ in range(3000))
                         + b"x" * (1 << 20) + b"\n" + channel.seal(b'{"t":"game","v":1}') + b"\n")
    a.wait({"t": "game", "v": 1}, timeout=30)
    channel.conn.close()
    a.wait(PEER_FALSE)
    code, _, err = server.stop()
    assert code == 0, err
    assert err.count("from the peer, dropped") <= 6, err[-2000:]
    assert "3001 lines from the peer dropped in all" in err, err[-2000:]


def _paired(hosts, tmp_path, a):
    server, port, code = serve(hosts, tmp_path, a)
    channel = joiner(port, code)
    a.wait(PEER_TRUE)
    return server, port, code, channel


def test_attacks_on_a_paired_link_are_refused_and_the_board_keeps_its_lines(boards, hosts,
                                                                           tmp_path):
    """As an attacker on the network would: a recorded line sent again (replayed), a byte
    flipped in a sealed line, half a line and gone: each refused and said, the connection
    closed; nothing of them reaches the board, and the next join resumes by the key."""
    from stonegrid import pairing
    a, _ = boards
    server, port, code, channel = _paired(hosts, tmp_path, a)
    good = channel.seal(b'{"t":"game","v":1}')
    channel.conn.sendall(good + b"\n" + good + b"\n")  # the same line again: a replay
    a.wait({"t": "game", "v": 1})
    a.wait(PEER_FALSE)
    session = (channel.sid, channel.key)
    for attack in ("flip", "half"):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        channel = pairing.join(s, "", session)  # back by the key, no code
        a.wait(PEER_TRUE)
        sealed = channel.seal(b'{"t":"halt","v":1,"why":"x"}')
        if attack == "flip":
            at = sealed.index(b":") + 5
            sealed = sealed[:at] + (b"0" if sealed[at:at + 1] != b"0" else b"1") + sealed[at + 1:]
            s.sendall(sealed + b"\n")
        else:
            s.sendall(sealed[:len(sealed) // 2])
            s.close()
        a.wait(PEER_FALSE)
    assert [r for r in a.since_wait() if isinstance(r, dict) and r.get("t") == "halt"] == []
    _, _, err = server.stop()
    assert "refused: line 0 where 1 was due: replayed" in err, err
    assert "refused: line 0 altered on the way" in err, err


def test_a_stale_code_after_a_drop_and_a_brute_force_get_nowhere(boards, hosts, tmp_path):
    """The code a pairing was made with is used up by it: after a drop, the code again is
    refused (only the session's key resumes); guesses each use up a code; a joiner that
    trickles its handshake a byte a second holds up no one."""
    from stonegrid import pairing
    a, _ = boards
    server, port, code, channel = _paired(hosts, tmp_path, a)
    channel.conn.close()
    a.wait(PEER_FALSE)
    with pytest.raises(pairing.WrongCode):
        joiner(port, code)  # stale: the pairing used it up
    slow = socket.create_connection(("127.0.0.1", port), timeout=10)
    slow.sendall(b"S")  # ... and a byte now and then: its own thread waits, alone
    for guess in ("2222-2222", "3333-3333", "4444-4444", "5555-5555", "6666-6666"):
        with pytest.raises(pairing.WrongCode):
            joiner(port, guess)
    newest = server.wait_for(r"(?s)(.*pairing code \S+;){7}.*pairing code (\S+);").group(2)
    start_at = time.monotonic()
    channel = joiner(port, newest)  # the slow one still there: not in the way
    assert time.monotonic() - start_at < 3
    a.wait(PEER_TRUE)
    slow.close()
    channel.conn.close()
    _, _, err = server.stop()
    assert err.count("that code is used up") == 6, err
