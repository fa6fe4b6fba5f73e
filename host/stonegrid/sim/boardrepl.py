# The virtual board's REPL: boardshell.py imports it (precompiled to .mpy by the host, as
# module _simrepl) when the REPL is needed and drops it before main.py runs, so that the
# firmware gets the heap back. setup() hands it boardshell's pieces.
import sys

_w = _wb = _getc = _run = _tb = _hist = _CODE = _intr = None


def setup(w, wb, getc, run, tb, hist, code, intr):
    global _w, _wb, _getc, _run, _tb, _hist, _CODE, _intr
    _w, _wb, _getc, _run, _tb, _hist, _CODE, _intr = w, wb, getc, run, tb, hist, code, intr


class _Code:
    # code arriving on the serial line: kept in memory while short, then spilled to a file
    # and compiled from there, as a board compiles while it reads
    def __init__(self):
        self.b = bytearray()
        self.f = None

    def add(self, c):
        self.b.append(c)
        if len(self.b) >= 512:
            if self.f is None:
                self.f = open(_CODE, "wb")
            self.f.write(self.b)
            self.b = bytearray()

    def empty(self):
        return not self.b and self.f is None

    def run(self, kind):
        # -> 1 on SystemExit, else the exception raised, or None
        if self.f is None:
            try:
                src = str(self.b, "utf8").replace("\r\n", "\n").replace("\r", "\n")
            except UnicodeError as e:
                return e
            self.b = None
            return _run(src, "<stdin>", kind)
        self.f.write(self.b)
        self.f.close()
        self.f = self.b = None
        return _run(None, _CODE, 0)

    def drop(self):
        if self.f is not None:
            self.f.close()
            self.f = None


def _more(s, st):
    # does the input need another line? py/repl.c's mp_repl_continue_with_input, fed one
    # line at a time: st = [compound statement?, open quote ('', ', ", ''' or """), depth]
    q, n = st[1], st[2]
    i = 0
    while i < len(s):
        c = s[i]
        if c in "'\"":
            if (not q or q == c * 3) and s[i + 1:i + 3] == c * 2:
                i += 2
                q = "" if q else c * 3
            elif not q or q == c:
                q = "" if q else c
        elif c == "\\" and i + 1 < len(s) and s[i + 1] in "'\"\\":
            if q:
                i += 1
        elif not q:
            if c in "([{":
                n += 1
            elif c in ")]}":
                n -= 1
        i += 1
    st[1], st[2] = q, n
    return len(q) == 3 or n > 0 or s[-1:] == "\\" or (st[0] and s != "")


def _compound(s):
    i = 0
    while i < len(s) and (s[i].isalpha() or s[i].isdigit() or s[i] == "_"):
        i += 1
    return s[:1] == "@" or s[:i] in ("if", "while", "for", "try", "with", "def", "class",
                                     "async")


def _indent(lines):
    # MicroPython's auto-indent: as the line before, one more level after a ':'; none after
    # two blank lines
    p = lines[-1]
    k = len(p) - len(p.lstrip(" "))
    if k == len(p) and len(lines) > 1 and not lines[-2].strip(" "):
        return ""
    return "    " * (k // 4 + (p[-1:] == ":"))


def _readline(prompt, pre=""):
    # a board's readline: echo, editing, history -> (control char or 0, the line)
    _w(prompt + pre)
    b = list(pre)  # the line, one character per item: typing at the end costs O(1)
    pos = len(b)
    h = len(_hist)
    esc = 0
    u = None  # the bytes of a UTF-8 character so far
    while True:
        c = _getc()
        if c == 3:  # Ctrl-C wins over any half-read sequence
            return 3, "".join(b)
        if u is not None:
            if 0x80 <= c <= 0xBF:
                u.append(c)
                if len(u) < (2 if u[0] < 0xE0 else 3 if u[0] < 0xF0 else 4):
                    continue
                try:
                    ch = bytes(u).decode()
                except UnicodeError:
                    ch = None
                u = None
                if ch:
                    b.insert(pos, ch)
                    pos += 1
                    _w(ch if pos == len(b) else "".join(b[pos - 1:]) + "\b" * (len(b) - pos))
                continue
            u = None  # a broken character: dropped
        if esc:  # inside an escape sequence
            if esc == 1:
                esc = 2 if c in (91, 79) else 0  # [ or O
                continue
            if 48 <= c <= 57:  # ESC [ n ~
                esc = c
                continue
            k = esc
            esc = 0
            if c == 126:
                c = {49: 72, 55: 72, 52: 70, 56: 70, 51: 0}.get(k, -1)  # home, end, delete
                if c == 0:
                    if pos < len(b):
                        del b[pos]
                        _w("".join(b[pos:]) + " " + "\b" * (len(b) - pos + 1))
                    continue
            if c == 65 or c == 66:  # up, down: history
                h2 = h - 1 if c == 65 else h + 1
                if 0 <= h2 <= len(_hist):
                    h = h2
                    new = list(_hist[h]) if h < len(_hist) else []
                    extra = max(0, len(b) - len(new))
                    _w("\b" * pos + "".join(new) + " " * extra + "\b" * extra)
                    b = new
                    pos = len(b)
            elif c == 67 and pos < len(b):  # right
                _w(b[pos])
                pos += 1
            elif c == 68 and pos:  # left
                _w("\b")
                pos -= 1
            elif c == 72:  # home
                _w("\b" * pos)
                pos = 0
            elif c == 70:  # end
                _w("".join(b[pos:]))
                pos = len(b)
            continue
        if c == 27:
            esc = 1
        elif c == 13:
            _w("\r\n")
            line = "".join(b)
            if line.strip() and (not _hist or _hist[-1] != line):
                _hist.append(line)
                if len(_hist) > 20:
                    _hist.pop(0)
            return 0, line
        elif c in (1, 2, 4, 5) and not b:
            return c, "".join(b)
        elif c in (8, 127):  # backspace; four spaces at once in indentation
            if pos:
                n = 4 if pos >= 4 and not "".join(b[:pos]).strip(" ") else 1
                del b[pos - n:pos]
                pos -= n
                _w("\b" * n + "".join(b[pos:]) + " " * n + "\b" * (len(b) - pos + n))
        elif c == 5:  # Ctrl-E: end of line
            _w("".join(b[pos:]))
            pos = len(b)
        elif 0xC0 <= c <= 0xF7:  # the first byte of a UTF-8 character
            u = bytearray((c,))
        elif 32 <= c < 127:
            ch = chr(c)
            b.insert(pos, ch)
            pos += 1
            _w(ch if pos == len(b) else "".join(b[pos - 1:]) + "\b" * (len(b) - pos))


def _banner():
    v = sys.version.split("; ")[-1]
    _w(v + "; stonegrid virtual board with unix\r\nType \"help()\" for more information.\r\n")


def friendly():
    # the friendly REPL; returns 1 for a soft reset, 0 to switch to the raw REPL
    _banner()
    while True:
        try:
            c, src = _readline(">>> ")
            if c == 1:  # Ctrl-A: raw REPL
                _w("\r\n")
                return 0
            if c == 2:  # Ctrl-B: banner again
                _w("\r\n")
                _banner()
                continue
            if c == 3:
                _w("\r\n")
                continue
            if c == 4:  # Ctrl-D: soft reset
                _w("\r\n")
                return 1
            if c == 5:  # Ctrl-E: paste mode
                _w("\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
                code = _Code()
                while True:
                    c = _getc()
                    if c == 3 or c == 4:
                        _w("\r\n")
                        break
                    code.add(c)
                    if c == 13:
                        _w("\r\n=== ")
                    else:
                        _wb(b"\x10\x10" if c == 16 else bytes((c,)))
                if c == 3:
                    code.drop()
                    continue
                r = code.run("exec")
                code = None
                if r == 1:
                    return 1
                if r:
                    _tb(r)
                continue
            elif not src.strip():
                continue
            else:
                lines = [src]
                st = [_compound(src), "", 0]
                more = _more(src, st)
                while more:
                    c, line = _readline("... ", _indent(lines))
                    if c == 3:
                        _w("\r\n")
                        break
                    if c == 4:
                        break
                    lines.append(line)
                    more = _more(line, st)
                if c == 3:
                    continue
                src = "\n".join(lines)
                lines = None
            r = _run(src, "<stdin>", "single")
            src = None
            if r == 1:
                return 1
            if r:
                _tb(r)
        except KeyboardInterrupt:
            _intr()
            _w("\r\n")
        except MemoryError as e:  # e.g. endless input: drop it, as a board would
            _w("\r\n")
            _tb(e)


def raw():
    # the raw REPL exactly as mpremote drives it; returns 1 for a soft reset, 0 to leave
    _w("raw REPL; CTRL-B to exit\r\n")
    code = None
    while True:
        try:
            _w(">")
            code = _Code()
            while True:
                c = _getc()
                if c == 4:
                    break
                b = code.b
                if c == 1:
                    if len(b) == 2 and b[0] == 5 and code.f is None:  # raw paste: 05 A 01
                        code = _Code()
                        if b[1] != 65:
                            _wb(b"R\x00")
                            continue
                        if _paste():
                            return 1
                        _w(">")
                        continue
                    code.drop()
                    code = _Code()
                    _w("raw REPL; CTRL-B to exit\r\n>")
                elif c == 2:
                    code.drop()
                    _w("\r\n")
                    return 0
                elif c == 3:
                    code.drop()
                    code = _Code()
                else:
                    code.add(c)
            _w("OK")
            if code.empty():
                _w("\r\n")
                return 1
            if _exec_eof(code):
                return 1
        except KeyboardInterrupt:
            _intr()
            if code is not None:
                code.drop()


def _exec_eof(code):
    # run raw-REPL code: output, \x04, exception text, \x04 (1 if SystemExit)
    r = code.run("exec")
    _w("\x04")
    if r and r != 1:
        _tb(r)
    _w("\x04")
    return r == 1


def _paste():
    # raw-paste mode with flow control (a window of 256 bytes)
    _wb(b"R\x01\x00\x01\x01")
    code = _Code()
    n = 256
    while True:
        c = _getc()
        if c == 4 or c == 3:
            _w("\x04")
            if c == 3:
                code.drop()
                _w("\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n\x04")
                return 0
            return _exec_eof(code)
        code.add(c)
        n -= 1
        if not n:
            _w("\x01")
            n = 256
