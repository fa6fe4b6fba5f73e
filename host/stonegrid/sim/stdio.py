"""The unix port's stdin and stdout made a board's serial line: what the serial port reads
goes into the process's stdin, Ctrl-C as a signal (Stdin); what the process writes is
cooked as a board sends it, and carries the board shell's notes to the host (Stdout)."""
import asyncio
import os
import re
import signal
import time

STDIN_HIGH = 256 * 1024  # stop reading the pty while this much input waits for the board
INTR_HOLD = 2.0  # after Ctrl-C, input waits this long at most for the board to take it
SIGINT_GAP = 0.03  # the unix port exits on a second SIGINT before it handled the first
_LONE_NL = re.compile(rb"(?<!\r)\n")


def write_out(loop, fd, buf, again):
    """Write what the non-blocking fd takes of buf now (it leaves buf); the rest waits for
    again(), which the loop calls once fd takes more.  True once buf is empty.  An OSError
    (the other end gone) is the caller's."""
    while buf:
        try:
            n = os.write(fd, buf)
        except BlockingIOError:
            loop.add_writer(fd, again)
            return False
        del buf[:n]
    loop.remove_writer(fd)
    return True


class Stdin:
    """Input to the board, through a small pipe (a board's input buffer) into its stdin.

    A board drops the input it has not read yet when Ctrl-C arrives (it clears its buffer)
    and reads what follows after the KeyboardInterrupt.  So on byte 3 the input not yet in
    the pipe is dropped, SIGINT is sent, and what comes next is held until the board shell
    says it took the interrupt (`interrupt_taken`) -- or INTR_HOLD passed (a program that
    catches KeyboardInterrupt says nothing).  While more than STDIN_HIGH bytes wait, the
    serial port is not read (`port.hold`)."""

    def __init__(self, port):
        self.port = port
        self.ctrl_c_signals = True  # byte 3 is SIGINT; plain data after kbd_intr(-1)
        self.unanswered = 0  # Ctrl-Cs sent that the board has not acknowledged
        self._loop = None
        self._proc = None
        self._fd = None  # the write end of the pipe, non-blocking
        self._buf = bytearray()  # input the board has not got yet
        self._held = bytearray()  # input after a Ctrl-C the board has not taken yet
        self._paused = False  # the serial port is held back
        self._hold_timer = None
        self._up = False  # the board shell runs (its SIGINT handler is in place)
        self._deferred = False  # a Ctrl-C that came before that
        self._last_sigint = 0.0
        self._sigint_pending = False

    def attach(self, proc, fd):
        """A new process, whose stdin is the pipe `fd`."""
        self._loop = asyncio.get_running_loop()
        self._proc, self._fd = proc, fd
        self._up = self._deferred = False
        self.ctrl_c_signals = True

    def waiting(self):
        return len(self._buf) + len(self._held)

    def feed(self, data):
        """What the serial port read."""
        proc = self._proc
        if proc is None or proc.returncode is not None or self._fd is None:
            return  # the board is off: input is lost
        if self.ctrl_c_signals and b"\x03" in data:
            parts = data.split(b"\x03")
            for i, part in enumerate(parts):
                if part:
                    self._queue(part)
                if i < len(parts) - 1:
                    self._interrupt()
        else:
            self._queue(data)

    def board_up(self):
        """The board shell runs: a Ctrl-C that came during power-up stops boot.py/main.py."""
        self._up = True
        if self._deferred:
            self._deferred = False
            self._send_sigint(self._proc)

    def interrupt_taken(self):
        """The board took a Ctrl-C and dropped its unread input."""
        self.unanswered = max(0, self.unanswered - 1)
        if not self.unanswered:
            self._release()

    def close(self):
        """The process is gone: the input it had not read is lost, as on a board."""
        if self._fd is not None:
            self._loop.remove_writer(self._fd)
            os.close(self._fd)
            self._fd = None
        self._proc = None
        self._buf.clear()
        self._held.clear()
        self.unanswered = 0
        if self._hold_timer:
            self._hold_timer.cancel()
            self._hold_timer = None
        self._sigint_pending = False
        self._check_pressure()

    def _queue(self, data):
        if self.unanswered:
            self._held += data
        else:
            self._buf += data
            self._flush()
        self._check_pressure()

    def _flush(self):
        if self._fd is not None:
            try:
                if not write_out(self._loop, self._fd, self._buf, self._flush):
                    return
            except OSError:  # the board is gone
                self._buf.clear()
                self._loop.remove_writer(self._fd)
        self._check_pressure()

    def _check_pressure(self):
        waiting = self.waiting()
        if waiting > STDIN_HIGH and not self._paused:
            self._paused = True  # the board is not reading: hold back the serial port
            self.port.hold(True)
        elif waiting <= STDIN_HIGH // 2 and self._paused:
            self._paused = False
            self.port.hold(False)

    def _release(self):
        self.unanswered = 0
        if self._hold_timer:
            self._hold_timer.cancel()
            self._hold_timer = None
        self._buf += self._held
        self._held.clear()
        self._flush()

    def _interrupt(self):
        """Ctrl-C: SIGINT, as a board raises KeyboardInterrupt for byte 3. Signals are spaced
        (the unix port exits on a second SIGINT before it handled the first) and a burst
        becomes at most two: the program is stopped, the REPL sees a second Ctrl-C."""
        self._buf.clear()  # everything not yet at the board came before this Ctrl-C
        self._held.clear()
        if self._sigint_pending or self._deferred:
            return
        self.unanswered += 1
        if self._hold_timer:
            self._hold_timer.cancel()
        self._hold_timer = self._loop.call_later(INTR_HOLD + SIGINT_GAP, self._release)
        if not self._up:  # a SIGINT now would stop the process starting up: wait for it
            self._deferred = True
            return
        wait = self._last_sigint + SIGINT_GAP - time.monotonic()
        if wait > 0:
            self._sigint_pending = True
            self._loop.call_later(wait, self._send_sigint, self._proc)
        else:
            self._send_sigint(self._proc)

    def _send_sigint(self, proc):
        if proc is not self._proc:
            return  # that board is gone
        self._sigint_pending = False
        self._last_sigint = time.monotonic()
        if proc.returncode is None:
            try:
                proc.send_signal(signal.SIGINT)
            except ProcessLookupError:
                pass


class Stdout:
    """The board's output as a board sends it: a lone "\\n" (print, sys.stdout.write) becomes
    "\\r\\n"; 0x10 X is X exactly (sys.stdout.buffer, escaped by boardshell); 0x10 0x00
    <text> "\\n" is a note from boardshell to the host, given to `on_note(text)`."""

    def __init__(self, on_note):
        self._on_note = on_note
        self.reset()

    def reset(self):
        """A new process: nothing half read."""
        self._last_cr = self._dle = False
        self._note = None  # a note being read

    def cook(self, data):
        if not self._dle and self._note is None and b"\x10" not in data:
            out = _LONE_NL.sub(b"\r\n", data)
            if self._last_cr and data[:1] == b"\n":
                out = out[1:]  # that "\r" went out with the previous chunk
            self._last_cr = data[-1:] == b"\r"
            return out
        out = bytearray()
        for byte in data:
            if self._note is not None:
                if byte == 10:
                    note, self._note = bytes(self._note).decode("ascii", "replace"), None
                    self._on_note(note)
                else:
                    self._note.append(byte)
                continue
            if self._dle:
                self._dle = False
                if byte == 0:
                    self._note = bytearray()
                    continue
                out.append(byte)
            elif byte == 0x10:
                self._dle = True
                continue
            elif byte == 10 and not self._last_cr:
                out += b"\r\n"
            else:
                out.append(byte)
            self._last_cr = byte == 13
        return bytes(out)
