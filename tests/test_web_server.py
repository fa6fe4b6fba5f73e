"""The server of `stonegrid web` on its own (no browser): it answers only for its own
address, answers HEAD, and drops a request that never finishes its headers."""
import http.client
import socket
import time

import pytest

from stonegrid import web
from webkit import web_server


@pytest.fixture(scope="module")
def address():
    with web_server() as address:
        yield address


def ask(address, method, path, host):
    conn = http.client.HTTPConnection(*address, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.getheader("Content-Length"), r.read()
    finally:
        conn.close()


def test_only_its_own_address_is_served(address):
    port = address[1]
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port):
        status, _, body = ask(address, "GET", "/firmware.json", host)
        assert status == 200 and b"main.py" in body
    for host in ("evil.example:%d" % port, "127.0.0.1", "127.0.0.1:%d" % (port + 1), None):
        status, _, body = ask(address, "GET", "/firmware.json", host)
        assert status == 403 and b"main.py" not in body, host


def test_head_gives_the_headers_without_the_body(address):
    host = "127.0.0.1:%d" % address[1]
    status, length, body = ask(address, "HEAD", "/index.html", host)
    _, get_length, page = ask(address, "GET", "/index.html", host)
    assert status == 200 and body == b"" and int(length) == len(page) > 0 and length == get_length
    assert ask(address, "HEAD", "/nothing.html", host)[:1] == (404,)


def test_a_request_that_never_finishes_its_headers_is_dropped(address):
    with socket.create_connection(address, timeout=1) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        start = time.monotonic()
        while time.monotonic() - start < web.HEADERS_S + 5:
            try:  # a header byte every second: each read is quick, the whole is not
                s.sendall(b"X")
                if s.recv(1) == b"":
                    break  # the server closed it
            except TimeoutError:
                pass  # no answer within the second
            except OSError:
                break  # reset by the server
        else:
            pytest.fail("the connection is still held after %d s" % (web.HEADERS_S + 5))
    assert time.monotonic() - start >= web.HEADERS_S - 1


def test_a_connection_cut_or_reset_is_no_traceback(capfd):
    """A client that resets its connection mid-answer, or one cut by the header timer: the
    server says nothing (it printed a traceback for each), and serves on."""
    with web_server() as address:
        host = "127.0.0.1:%d" % address[1]
        for _ in range(20):
            s = socket.create_connection(address, timeout=5)
            s.sendall(b"GET /firmware.json HTTP/1.1\r\nHost: %s\r\n\r\n" % host.encode())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
            s.close()  # a reset, while the answer is written
        time.sleep(0.5)
        assert ask(address, "GET", "/index.html", host)[0] == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err


def test_the_page_and_the_sim_speak_of_one_heap():
    """The page's heap is the web profile's, a Raspberry Pi Pico's 240 KB (it said 256 KB),
    which the virtual board's default heap stands for on its 64-bit port."""
    import json
    import subprocess
    import sys
    profile = json.loads(web.firmware_files()["board.json"])
    assert profile["heap_kb"] == 240
    page = open(web.os.path.join(web.STATIC, "board.js")).read()
    assert "heap_kb" in page and "256 * 1024" not in page
    helped = subprocess.run([sys.executable, "-m", "stonegrid.cli", "sim", "--help"],
                            capture_output=True, text=True, check=True).stdout
    assert "Pico's %d KB heap" % profile["heap_kb"] in " ".join(helped.split())
