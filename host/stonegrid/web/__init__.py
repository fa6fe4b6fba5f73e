"""`stonegrid web`: the board in a browser page.  A local HTTP server (standard library only)
serves the page, the pinned MicroPython WebAssembly port from node_modules (`npm ci`, run by
`make play` and `make test`: no CDN, so it works offline), and the firmware as `stonegrid
flash` would put it on a board, in source form, with the `web` board profile as board.json.
The page writes those files into the WebAssembly MicroPython's file system and boots
main.py: the same firmware and rules, with firmware/hal/web.py as its hardware."""
import http.server
import json
import os
import socket
import sys
import threading
import webbrowser

from stonegrid.build import TABLE, build, npm_hint, repo_root

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
PORT_PACKAGE = os.path.join("node_modules", "@micropython", "micropython-webassembly-pyscript")
PORT_FILES = {"micropython.mjs": "text/javascript", "micropython.wasm": "application/wasm"}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css"}
HEADERS_S = 5  # a request must have sent all its headers by then, or its connection is cut


class SetupError(ValueError):
    """Something the page needs is missing from this checkout."""


def port_dir(root=None):
    """The folder of the pinned MicroPython WebAssembly files (installed by `npm ci`)."""
    folder = os.path.join(root or repo_root(), PORT_PACKAGE)
    missing = [f for f in PORT_FILES if not os.path.isfile(os.path.join(folder, f))]
    if missing:
        raise SetupError("%s is missing from %s: %s" % (", ".join(missing), folder, npm_hint()))
    return folder


def firmware_files(root=None):
    """{path on the board: text} of everything the page writes into MicroPython's files."""
    root = root or repo_root()
    files = build(root, compiled=False, profile=os.path.join(root, "hardware", "web.json"))
    # text only: the endgame table stays off the page (its device searches those endgames)
    return dict((path, data.decode("utf-8")) for path, data in files.items()
                if not path.endswith(TABLE))


class Handler(http.server.BaseHTTPRequestHandler):
    root = None  # set by server()
    timeout = HEADERS_S  # the socket's: a read or write that stalls this long ends it

    def setup(self):
        super().setup()
        # a timer, not only the socket timeout: a byte every few seconds would keep that
        self.cutoff = threading.Timer(HEADERS_S, self._cut)
        self.cutoff.daemon = True
        self.cutoff.start()

    def _cut(self):
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # gone already

    def finish(self):
        self.cutoff.cancel()
        super().finish()

    def parse_request(self):
        """The headers are in: stop the clock, and answer only requests for this server's
        own address (another Host is a page elsewhere reaching it through DNS rebinding)."""
        ok = super().parse_request()
        self.cutoff.cancel()
        if not ok:
            return False
        port = self.server.server_address[1]
        if self.headers.get("Host") not in ("127.0.0.1:%d" % port, "localhost:%d" % port):
            self.send_error(403, "this server answers only http://127.0.0.1:%d/" % port)
            return False
        return True

    def do_HEAD(self):  # noqa: N802
        self.do_GET()  # _send and send_error leave the body out for HEAD

    def do_GET(self):  # noqa: N802 - the name http.server calls
        path = self.path.split("?", 1)[0]
        if path == "/":
            path = "/index.html"
        if path == "/firmware.json":  # read afresh: an edit shows at the next power cycle
            try:
                files = firmware_files(self.root)
            except (OSError, ValueError) as e:  # the page shows the reason
                return self.send_error(500, "cannot read the firmware: %s" % e)
            return self._send(json.dumps(files).encode(), "application/json")
        name = path.rsplit("/", 1)[-1]
        if path == "/micropython/" + name and name in PORT_FILES:
            return self._file(os.path.join(port_dir(self.root), name), PORT_FILES[name])
        ext = os.path.splitext(name)[1]
        if path == "/" + name and ext in TYPES:  # one flat folder: no way out of it
            return self._file(os.path.join(STATIC, name), TYPES[ext])
        self.send_error(404, "no such page: %s" % path)

    def _file(self, path, kind):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return self.send_error(404, "no such file: %s" % os.path.basename(path))
        self._send(data, kind)

    def _send(self, data, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")  # a fresh firmware after an edit
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, *args):
        pass  # the terminal shows the address, not every request


class Server(http.server.ThreadingHTTPServer):
    """The standard threading server, with a backlog for a page's many requests at once, and
    no traceback for a connection cut by its timer or by the client."""
    request_queue_size = 256

    def handle_error(self, request, client_address):
        e = sys.exc_info()[1]
        if isinstance(e, (ConnectionError, TimeoutError)):  # cut or gone: nothing to say
            return
        print("web: a request from %s failed: %s: %s" % (
            client_address[0], type(e).__name__, str(e)[:80]), file=sys.stderr, flush=True)


def server(port=0, root=None):
    """A ThreadingHTTPServer on 127.0.0.1 (port 0: any free one); checks the setup first."""
    root = root or repo_root()
    port_dir(root)
    firmware_files(root)  # a broken checkout fails here, not in the page
    handler = type("StonegridHandler", (Handler,), {"root": root})
    try:
        return Server(("127.0.0.1", port), handler)
    except OSError as e:
        raise OSError("cannot serve on 127.0.0.1 port %d: %s (--port 0 takes any free port)"
                      % (port, e.strerror or e))


def run(args):
    httpd = server(args.port)
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    print("web: %s  (Ctrl-C stops)" % url, flush=True)
    if not args.no_open:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
