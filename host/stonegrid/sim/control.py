"""The virtual board's control socket: one JSON object per line each way, for tests and
tools (host/stonegrid/sim/README.md, "The control socket").  Each request's `cmd` is looked up in
ControlServer.COMMANDS."""
import asyncio
import base64
import json
import os

from stonegrid.sim import png

COUNTERS = ("boots", "ups", "exits", "hellos", "frames", "seq", "out_total")


class ControlError(Exception):
    """A request that cannot be done; its text is the reply's error."""


def _timeout(req):
    return float(req.get("timeout", 10))


class ControlServer:
    """Serves the control socket of `board` (an engine.Board) on 127.0.0.1:`port` (0: any
    free port)."""

    def __init__(self, board, port=0):
        self.board = board
        self.port = port
        self.address = None  # "127.0.0.1:PORT" once started

    async def start(self):
        """Listen; returns the server."""
        server = await asyncio.start_server(self._serve, "127.0.0.1", self.port, limit=1 << 20)
        self.address = "127.0.0.1:%d" % server.sockets[0].getsockname()[1]
        return server

    async def handle(self, req):
        """One request (a dict) -> the reply's fields (a dict)."""
        name = req.get("cmd")
        command = self.COMMANDS.get(name)
        if command is None:
            raise ControlError("unknown command %r (one of %s)"
                               % (name, ", ".join(sorted(self.COMMANDS))))
        return await command(self, req)

    async def _serve(self, reader, writer):
        try:
            while True:
                try:
                    line = await reader.readline()
                except ValueError:  # longer than the limit
                    break
                if not line:
                    break
                if not line.strip():
                    continue
                req = None
                try:
                    req = json.loads(line)
                    if not isinstance(req, dict):
                        raise ControlError("a request is a JSON object")
                    reply = dict(ok=True, **await self.handle(req))
                except (ControlError, ValueError, TypeError, OSError) as e:
                    reply = {"ok": False, "error": str(e)}
                if isinstance(req, dict) and "id" in req:
                    reply["id"] = req["id"]
                writer.write(json.dumps(reply).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    # ------------------------------------------------------------ the commands
    async def status(self, req):
        return self.board.status()

    async def press(self, req):
        kind = req.get("kind") or ("long" if req.get("long") else "press")
        return {"delivered": self.board.press(req.get("button"), kind)}

    async def frame(self, req):
        return self._frame_reply(req.get("encoding", "hex"))

    async def wait_frame(self, req):
        display, timeout = self.board.display, _timeout(req)
        after = req.get("after")
        after = display.seq if after is None else int(after)
        if not await self.board.wait(lambda: display.seq > after and display.frame is not None,
                                     timeout):
            raise ControlError("timeout: no new frame within %s s" % timeout)
        return self._frame_reply(req.get("encoding", "hex"))

    async def wait(self, req):
        counter, timeout = req.get("counter"), _timeout(req)
        if counter not in COUNTERS:
            raise ControlError("unknown counter %r (one of %s)" % (counter, ", ".join(COUNTERS)))

        def count():
            return self.board.status()[counter]
        above = int(req.get("above", count()))
        if not await self.board.wait(lambda: count() > above, timeout):
            raise ControlError("timeout: %s still %s after %s s" % (counter, count(), timeout))
        return self.board.status()

    async def png(self, req):
        display = self.board.display
        if display.frame is None:
            raise ControlError("no frame to save: nothing drives the LEDs")
        scale = int(req.get("scale", 16))
        if req.get("path"):
            path = os.path.abspath(os.path.expanduser(req["path"]))
            n = png.save(path, display.width, display.height, display.frame, scale,
                         req.get("gap"))
            return {"path": path, "bytes": n, "seq": display.seq}
        data = png.matrix(display.width, display.height, display.frame, scale, req.get("gap"))
        return {"png": base64.b64encode(data).decode(), "seq": display.seq}

    async def output(self, req):
        return {"out_total": self.board.out_total,
                "text": bytes(self.board.output).decode("utf-8", "replace")}

    async def restart(self, req):
        await self.board.restart(_timeout(req))
        return self.board.status()

    async def kill(self, req):
        return {"pid": self.board.kill()}

    async def quit(self, req):
        self.board.quit()
        return {}

    COMMANDS = {"status": status, "press": press, "frame": frame, "wait_frame": wait_frame,
                "wait": wait, "png": png, "output": output, "restart": restart, "kill": kill,
                "quit": quit}

    def _frame_reply(self, encoding):
        display = self.board.display
        f = display.frame
        if f is None:
            data = None
        elif encoding == "base64":
            data = base64.b64encode(f).decode()
        elif encoding == "hex":
            data = f.hex()
        else:
            raise ControlError("unknown encoding %r (hex or base64)" % (encoding,))
        return {"seq": display.seq, "width": display.width, "height": display.height,
                "encoding": encoding, "rgb": data}
