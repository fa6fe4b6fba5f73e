# The virtual board's USB serial, run INSIDE the MicroPython unix port by the host:
#   STONEGRID_SIM_TMP=DIR micropython -X heapsize=N boardshell.py FLASHDIR
# Makes the unix port behave on stdin/stdout like a MicroPython board on its USB serial: the
# flash directory becomes the filesystem root, boot.py and main.py run at power-up, then the
# friendly REPL (>>>), raw REPL and raw-paste mode as mpremote expects them, Ctrl-D soft reset.
# Ctrl-C arrives as SIGINT (the host strips byte 0x03), i.e. as KeyboardInterrupt.
# DIR is mounted at /.sim (hidden from listings). It holds _simrepl.mpy (boardrepl.py
# precompiled): the REPL, loaded only while needed. Code sent by mpremote goes there too
# when long, and is compiled from the file, as a board compiles while it reads.
# Output: the host turns a lone "\n" into "\r\n" (a board cooks text); "\x10" escapes the
# next byte from that (see _Raw); "\x10\x00<note>\n" is a note to the host, in order with
# the output ("intr": took a Ctrl-C, input dropped; "intr -1": byte 3 is data now, ...).
# Exit codes: 0 = serial closed by the host, 100 = hard reset (machine.reset()).
# This code shares the heap with the firmware, so it is kept small.
import sys, os, io, gc, select

_me = sys.argv[0]
_tmp = os.getenv("STONEGRID_SIM_TMP") or _me[:_me.rfind("/") + 1] or "."
_flash = sys.argv[1]
_SIM = "/.sim"
_CODE = _SIM + "/code.py"  # code received on the serial line
# in tracebacks: our frames are cut out, code received shows as <stdin>
_me = ((_me[_me.rfind("/") + 1:] + '"').encode(), b'boardrepl.py"', ('"%s"' % _CODE).encode())
_w = sys.stdout.write
_wb = sys.stdout.buffer.write
_rd = sys.stdin.buffer.readinto
_b1 = bytearray(1)
_poll = select.poll()
_poll.register(sys.stdin.buffer, select.POLLIN)
_mode = 0  # 0 friendly REPL, 1 raw REPL
_g = None  # the __main__ namespace shared by boot.py, main.py and the REPL
_cause = 2 if os.getenv("STONEGRID_RESET_CAUSE") == "reset" else 1
_hist = []
_kbd = 3  # micropython.kbd_intr()
_repl = None  # the REPL module while it is loaded
_spare = bytearray(2048)  # let go when a MemoryError filled the heap: the traceback and the
#                           REPL still work then, as a board's (in C) do


class _Reset(BaseException):  # machine.reset(): the host restarts the process
    pass


class _Off(BaseException):  # the host closed our stdin: power off
    pass


def _note(s):  # to the host, in band
    _w("\x10\x00%s\n" % s)


import machine as _m0
import micropython as _mp0


class _Micropython:  # kbd_intr(-1) would make SIGINT fatal in the unix port: ask the host
    def __getattr__(self, name):
        return getattr(_mp0, name)

    def kbd_intr(self, c):
        global _kbd
        if c != _kbd:
            _kbd = c
            _note("intr %d" % c)


class _Os:  # a board's os: ilistdir() gives sizes (mpremote fs ls shows them), uname()
    def __getattr__(self, name):
        return getattr(os, name)

    def ilistdir(self, d=""):
        p = d if d.endswith("/") or not d else d + "/"
        top = d == "/" or (d in ("", ".") and os.getcwd() == "/")
        for e in os.ilistdir(d):
            if top and e[0] == ".sim":
                continue
            if len(e) == 3:
                n = 0
                if e[1] == 0x8000:
                    try:
                        n = os.stat(p + e[0])[6]
                    except OSError:
                        pass
                e = (e[0], e[1], e[2], n)
            yield e

    def listdir(self, d=""):
        return [e[0] for e in self.ilistdir(d)]

    def uname(self):
        from collections import namedtuple
        v = sys.implementation.version
        return namedtuple("uname_result", ("sysname", "nodename", "release", "version",
                                           "machine"))(
            "unix", "stonegrid", "%d.%d.%d" % v[:3], sys.version.split("; ")[-1],
            "stonegrid virtual board with unix")


class _Raw:  # sys.stdout.buffer: raw bytes. The host cooks "\n" into "\r\n" as a board
    # cooks text output; bytes 0x0A and 0x10 written here are sent as 0x10 0x0A / 0x10 0x10
    # so that the host passes them on exactly (mpremote mount speaks binary here)
    def write(self, b, n=None):
        b = bytes(b if n is None else b[:n])
        _wb(b.replace(b"\x10", b"\x10\x10").replace(b"\n", b"\x10\n"))
        return len(b)

    def __getattr__(self, name):
        return getattr(sys.stdout.buffer, name)


class _Out(io.IOBase):  # sys.stdout: text, cooked by the host
    buffer = _Raw()

    def write(self, s):
        return _w(s)

    def __getattr__(self, name):
        return getattr(sys.stdout, name)


class _Sys:
    stdout = _Out()

    def __getattr__(self, name):
        return getattr(sys, name)


class _Machine:  # the unix port has no reset(), unique_id(), ...: a board's `machine`
    PWRON_RESET = 1
    HARD_RESET = 2
    WDT_RESET = 3
    DEEPSLEEP_RESET = 4
    SOFT_RESET = 5

    def __getattr__(self, name):
        return getattr(_m0, name)

    def reset(self):
        _note("reset")
        raise _Reset()

    bootloader = reset

    def deepsleep(self, ms=0):
        self.reset()

    def soft_reset(self):
        raise SystemExit

    def reset_cause(self):
        return _cause

    def unique_id(self):
        import hashlib
        return hashlib.sha256(_flash.encode()).digest()[:8]

    def freq(self, hz=None):
        if hz is None:
            return 125000000

    def idle(self):
        import time
        time.sleep_ms(1)

    def lightsleep(self, ms=0):
        import time
        time.sleep_ms(ms)

    def disable_irq(self):
        return 0

    def enable_irq(self, state=0):
        pass

    class WDT:
        def __init__(self, id=0, timeout=5000):
            pass

        def feed(self):
            pass

    class RTC:
        def datetime(self, t=None):
            if t is None:
                import time
                t = time.localtime()
                return (t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0)


def _intr():
    # after a Ctrl-C: drop the input not read yet, as a board clears its input buffer, and
    # tell the host, which holds back what came after the Ctrl-C until now
    try:
        while _poll.poll(0) and _rd(_b1):
            pass
    except KeyboardInterrupt:
        pass
    _note("intr")


def _getc():
    # one byte of serial input; Ctrl-C (SIGINT) while waiting reads as 3, like a board
    try:
        n = _rd(_b1)
    except KeyboardInterrupt:
        _intr()
        return 3
    if not n:
        raise _Off()
    return _b1[0]


class _Lines(io.IOBase):  # a traceback, line by line, without this shell's frames
    def __init__(self):
        self.l = b""

    def write(self, b):
        self.l += b
        while b"\n" in self.l:
            i = self.l.index(b"\n")
            l = self.l[:i]
            self.l = self.l[i + 1:]
            if not (_me[0] in l or _me[1] in l):
                _wb(l.replace(b"\x10", b"\x10\x10").replace(_me[2], b'"<stdin>"') + b"\r\n")
        return len(b)


def _tb(e):
    # print a traceback as a board does, even when a MemoryError left the heap full
    global _spare
    if isinstance(e, MemoryError) and _spare is not None:
        _spare = None
        gc.collect()
    try:
        sys.print_exception(e, _Lines())
    except MemoryError:
        sys.print_exception(e)


def _run(src, name, kind):
    # exec in the __main__ namespace; src None: the file `name`. -> 1 on SystemExit, else
    # the exception it raised, or None
    try:
        if src is None:
            execfile(name, _g)
        else:
            exec(compile(src, name, kind), _g)
    except (_Reset, _Off):
        raise
    except SystemExit:
        return 1
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            _intr()
        return e


def _runfile(name):
    try:
        os.stat(name)
    except OSError:
        return 0
    r = _run(None, name, 0)
    if r == 1:
        return 1
    if r:
        _tb(r)
    return 0


def _repl_load():
    global _repl
    if _repl is None:
        gc.collect()
        sys.modules.pop("_simrepl", None)
        sys.path.insert(0, _SIM)
        try:
            import _simrepl
        except ImportError:  # run by hand, not by the host: boardrepl.py beside us
            import boardrepl as _simrepl
        finally:
            sys.path.pop(0)
        _simrepl.setup(_w, _wb, _getc, _run, _tb, _hist, _CODE, _intr)
        _repl = _simrepl


def _repl_drop():
    global _repl
    if _repl is not None:
        sys.modules.pop("_simrepl", None)
        _repl = None
        gc.collect()


def _clean(keep):
    # a soft reset: forget what the code imported, unmount extra filesystems, collect
    global _g, _spare
    _g = None
    sys.modules["micropython"].kbd_intr(3)
    for k in list(sys.modules):
        if k not in keep:
            del sys.modules[k]
    try:
        import vfs
        for v, p in vfs.mount():
            if p != "/" and p != _SIM:
                vfs.umount(p)
    except Exception:
        pass
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    sys.argv[:] = []
    gc.collect()
    if _spare is None:
        _spare = bytearray(2048)


def _main():
    global _g, _mode
    os.umount("/")
    os.mount(os.VfsPosix(_flash), "/")
    os.mount(os.VfsPosix(_tmp), _SIM)
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    sys.argv[:] = []
    sys.modules["machine"] = _Machine()
    sys.modules["micropython"] = _Micropython()
    sys.modules["os"] = _Os()
    sys.modules["sys"] = _Sys()
    keep = list(sys.modules)
    st = up = 0
    while True:
        try:
            if st == 0:  # (soft) boot: boot.py, then main.py unless in the raw REPL
                _g = {"__name__": "__main__"}
                st = 1
                if not up:  # now the host may send Ctrl-C (SIGINT) as such
                    up = 1
                    _note("up")
                if _mode == 0:
                    _repl_drop()
                gc.collect()
                if _runfile("boot.py"):
                    st = 3
                elif _mode == 0:
                    st = 2
            if st == 2:
                st = 1
                _note("free %d" % gc.mem_free())
                if _runfile("main.py"):
                    st = 3
            if st == 1:
                try:
                    _repl_load()
                except MemoryError:  # what the program left fills the heap: let it go
                    _clean(keep)
                    _g = {"__name__": "__main__"}
                    _repl_load()
                if _repl.raw() if _mode else _repl.friendly():
                    st = 3
                else:
                    _mode ^= 1
            if st == 3:
                _clean(keep)
                _w("MPY: soft reboot\r\n")
                st = 0
        except KeyboardInterrupt:
            _intr()
        except MemoryError as e:  # in the shell itself: carry on at the REPL
            st = 1
            _tb(e)
        except _Reset:
            sys.exit(100)
        except _Off:
            sys.exit(0)


_main()
