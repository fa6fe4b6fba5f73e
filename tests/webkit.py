"""The server of `stonegrid web` for a test or a bench: on a free port of 127.0.0.1, served
by a thread of its own while the block runs, shut down and closed after it."""
import contextlib
import threading

from stonegrid import web


@contextlib.contextmanager
def web_server():
    """(host, port) of a running `stonegrid web` server, for the `with` block."""
    httpd = web.server(0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)
