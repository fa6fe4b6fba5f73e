"""The serial wire to the host on USB serial (stdin/stdout): record lines and replies out,
JSON commands in, one per line.  (The link of two boards is app.peer's: its lines cross
this wire.)  Whatever arrives - garbage, binary, huge or half lines - gets at most an
error line and changes nothing.  The protocol is documented in firmware/README.md."""
import json
import sys

from shared_rules.record import MAX_LINE, check_json

_line = bytearray(MAX_LINE)  # made at import, while the heap is still in one piece


def send(obj_or_line):
    """A line to the host: a record line as it is, a reply (dict) as JSON, written piece by
    piece (a long game's state is not copied whole into the heap, twice, to be sent)."""
    if isinstance(obj_or_line, str):
        sys.stdout.write(obj_or_line)
    else:
        json.dump(obj_or_line, sys.stdout)
    sys.stdout.write("\n")


def error(why, raw=None):
    """One error line; `raw`: the input (bytes) it is about, of which the start is shown."""
    reply = {"t": "error", "error": why}
    if raw is not None:
        try:
            reply["input"] = bytes(raw[:40]).decode()
        except UnicodeError:  # cut inside a character
            reply["input"] = repr(bytes(raw[:40]))
    send(reply)


class _Stdin:
    """USB serial as serve() reads it: read(1) waits for a byte; readinto(buf) takes one only
    if it is already there (0 otherwise)."""

    def __init__(self):
        import asyncio

        import select

        self._stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
        self.read = asyncio.StreamReader(self._stdin).read
        self._ready = select.poll()
        self._ready.register(self._stdin, select.POLLIN)

    def readinto(self, buf):
        return self._stdin.readinto(buf) if self._ready.poll(0) else 0


async def serve(handle, source=None):
    """Read commands for ever; handle(dict) acts on each valid one.  They come from USB serial
    (stdin), or from `source` on a board that has none (hal.web: the browser page), an object
    with the same read(1) and readinto(buf) as _Stdin."""
    import asyncio

    source = source or _Stdin()
    buf = _line  # one buffer for ever: no growing blocks in a small heap
    one = bytearray(1)
    n = 0  # bytes of the line so far
    dropped = 0  # bytes of an over-long line being skipped
    while True:
        # read(k) waits for all k bytes: wait for one, then take what is already there.
        first = await source.read(1)
        if not first:
            await asyncio.sleep_ms(50)  # no host: stdin closed; keep the app alive
            continue
        byte, more = first[0], 256
        while True:
            if byte != 10:  # not a newline
                if dropped or n == MAX_LINE:
                    dropped += 1 + n
                    n = 0
                else:
                    buf[n] = byte
                    n += 1
            elif dropped:
                error("line too long (%d bytes; the limit is %d)" % (dropped, MAX_LINE))
                dropped = 0
            else:
                line, n = memoryview(buf)[:n], 0  # no copy: read before the next byte
                _dispatch(line, handle)
            more -= 1
            if not more or not source.readinto(one):
                break
            byte = one[0]


def _dispatch(raw, handle):
    """Answer one line: by what the command does, or by one error line.  Nothing a command
    raises gets past here (the reader would end with it); running out of memory restarts
    the board, as a command that fails that way may have left the heap in pieces."""
    name = None
    try:
        try:
            check_json(raw)  # before json.loads, which allocates in proportion
        except ValueError as e:
            error(str(e))
            return
        try:  # the bytes themselves (MicroPython reads any buffer): no decoded copy
            cmd = json.loads(raw)
        except ValueError:
            if bytes(raw).strip():  # a blank line is no command, and no error
                error("not JSON", raw)
            return
        if type(cmd) is not dict or type(cmd.get("cmd" if "cmd" in cmd else "t")) is not str:
            error("a command is a JSON object with a \"cmd\" name (or, from a linked board, "
                  "a line with its \"t\")", raw)
            return
        name = (cmd["cmd"] if "cmd" in cmd else cmd["t"])[:20]
        handle(cmd)
    except MemoryError:
        cmd = None
        try:
            error("%s: out of memory; the board restarts (its \"resumed\" line tells whether "
                  "the command took effect)" % name)
        except MemoryError:
            pass  # restart all the same
        from app import restart_board

        restart_board(count=False)  # the command's fault, not the journalled game's
    except Exception as e:  # noqa: BLE001 - bad arguments, a full flash: state unchanged
        error("%s: %s" % (name, e) if name else "the line: %r" % (e,))


def report(e):
    """An error from the app itself, on the wire: one line, and a traceback on stderr."""
    if hasattr(sys, "print_exception"):  # MicroPython
        sys.print_exception(e)
    error("internal error: %r" % (e,))
