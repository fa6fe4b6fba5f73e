"""Seeded fuzzing of every reader that takes what a board, a peer, a file or a browser sends:
the serial/TCP splitter, the sealed link channel, the record reader (stonegrid replay), the
export reader, the web server's requests. Each case must end (no hang), in its reader's own
error or a result (no traceback of another kind), and hold no more than it may (no growth).
A few thousand cases each here; STONEGRID_FUZZ=N runs N times as many (the bench's)."""
import os
import random
import socket
import time

import pytest

from helpers import random_game
from shared_rules import GAMES, load
from stonegrid import logs, pairing, records, web
from webkit import web_server

SCALE = int(os.environ.get("STONEGRID_FUZZ", "1"))


def mutate(rng, data):
    """data with a few random changes: bytes flipped, cut, doubled, spliced, NULs, newlines."""
    data = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == 1:
            del data[at:at + rng.randrange(1, 40)]
        elif kind == 2:
            data[at:at] = data[at:at + rng.randrange(1, 60)]
        elif kind == 3:
            data[at:at] = rng.choice([b"\0", b"\n", b"\r\n", b"\xff", b"{", b"[" * 50, b'"',
                                      b"\\u0000", b"NaN", b"1e999", b"-0", b"\\ud800"])
        elif kind == 4:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
        else:
            data = data[:at]
    return bytes(data)


def test_the_splitter_keeps_within_its_cap_whatever_comes():
    rng = random.Random(1)
    for case in range(3000 * SCALE):
        lines = logs.Lines(64)
        stream = b"".join(rng.choice([b"\n", b"x" * rng.randrange(100), b"\r\n", b"ab",
                                      bytes([rng.randrange(256)])]) for _ in range(20))
        out, at = [], 0
        while at < len(stream):
            n = rng.randrange(1, 50)
            out += lines.feed(stream[at:at + n])
            at += n
            assert len(lines.pending) <= 64, case
        whole = [p for p in stream.split(b"\n")[:-1]]
        assert out == [p for p in whole if len(p) <= 64], case
        assert lines.skipped == len([p for p in whole if len(p) > 64]) + (
            len(stream.split(b"\n")[-1]) > 64), case


def test_the_sealed_channel_opens_only_its_own_lines():
    rng = random.Random(2)
    for case in range(3000 * SCALE):
        key = bytes(rng.randrange(256) for _ in range(32))
        a = pairing.Channel(None, key, b"s" * 8, True)
        b = pairing.Channel(None, key, b"s" * 8, False)
        raw = bytes(rng.randrange(32, 127) for _ in range(rng.randrange(60)))
        sealed = a.seal(raw)
        bad = mutate(rng, sealed)
        try:
            got = b.open(bad)
        except pairing.Refused:
            continue
        assert bad == sealed and got == raw, case  # only the line itself opens


def _game_lines(game_id, seed):
    g = random_game(load(game_id), seed, max_plies=40)
    return records.to_records({"game": game_id, "players": ["human", "human"], "fw": "x"}, g)


def test_the_record_reader_says_what_is_wrong_or_reads_the_game():
    rng = random.Random(3)
    logs_ = [("\n".join(_game_lines(g, s)) + "\n").encode() for g in GAMES for s in (1, 2)]
    for case in range(2000 * SCALE):
        data = mutate(rng, rng.choice(logs_))
        lines = [line.decode("utf-8", "replace") for line in data.split(b"\n")]
        try:
            games = records.read_log(lines, "fuzz")
        except records.LogError as e:
            assert len(str(e)) < 400, (case, str(e)[:200])
            continue
        for game in games:  # what passed the reader goes through export and back
            text = records.export(game.game, game.header)
            assert records.import_export(text)[1].actions() == game.game.actions(), case


def test_the_export_reader_says_what_is_wrong_or_reads_the_game():
    rng = random.Random(4)
    exports = []
    for game_id in GAMES:
        g = random_game(load(game_id), 5, max_plies=30)
        exports.append(records.export(g, {"game": game_id, "players": ["a", "b"]}).encode())
    for case in range(2000 * SCALE):
        text = mutate(rng, rng.choice(exports)).decode("utf-8", "replace")
        try:
            records.import_export(text, "fuzz")
        except records.LogError as e:
            assert len(str(e)) < 400, (case, str(e)[:200])


@pytest.fixture(scope="module")
def server():
    with web_server() as address:
        yield address


def test_the_web_server_answers_or_drops_every_request(server, capfd):
    rng = random.Random(5)
    host = "127.0.0.1:%d" % server[1]
    good = [b"GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % host.encode(),
            b"GET /board.js HTTP/1.1\r\nHost: %s\r\n\r\n" % host.encode(),
            b"HEAD /index.html HTTP/1.0\r\nHost: %s\r\n\r\n" % host.encode()]
    for case in range(300 * SCALE):
        request = mutate(rng, rng.choice(good))
        with socket.create_connection(server, timeout=10) as s:
            s.sendall(request)
            s.shutdown(socket.SHUT_WR)  # all it will send: the server answers or closes
            start = time.monotonic()
            try:
                while s.recv(65536):
                    pass
            except (ConnectionResetError, socket.timeout):
                pass
            assert time.monotonic() - start < web.HEADERS_S + 2, (case, request[:60])
    assert "Traceback" not in capfd.readouterr().err
    with socket.create_connection(server, timeout=10) as s:  # it still serves
        s.sendall(good[0])
        assert s.recv(12).startswith(b"HTTP/1.0 200")
