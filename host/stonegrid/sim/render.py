"""The LED matrix in a true-colour terminal, and the keyboard as the board's buttons."""
import os
import signal
import sys
import termios
import time
import tty

from stonegrid import led

UPPER = "\u2580"  # upper half block: foreground = upper pixel, background = lower pixel

KEYS = [  # (keys shown, button, long)
    ("\u2190 \u2191 \u2192 \u2193  h j k l", "arrows", False),
    ("Enter  Space  o", "ok", False),
    ("Backspace  Esc  b", "back", False),
    ("Shift+arrow  H J K L", "long arrows", True),
    ("O  (capital o)", "long ok", True),
    ("B  (capital b)", "long back", True),
]

_ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}
_LETTERS = {"h": "left", "j": "down", "k": "up", "l": "right", "o": "ok", "b": "back"}


def ansi_lines(width, height, rgb, scale=1):
    """The frame as lines of text: two pixels per character cell, each LED scale x scale,
    in the colours an LED shows (stonegrid.led)."""
    def px(x, y):
        if rgb is None or y >= height * scale:
            return led.OFF if rgb is None and y < height * scale else (0, 0, 0)
        i = ((y // scale) * width + x // scale) * 3
        return led.shown(rgb[i], rgb[i + 1], rgb[i + 2])

    lines = []
    for y in range(0, height * scale, 2):
        parts = []
        last = None
        for x in range(width * scale):
            top, bottom = px(x, y), px(x, y + 1)
            if (top, bottom) != last:
                parts.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (top + bottom))
                last = (top, bottom)
            parts.append(UPPER)
        parts.append("\x1b[0m")
        lines.append("".join(parts))
    return lines


def pictures_dir():
    """Where `p` saves PNGs: $XDG_PICTURES_DIR/stonegrid, else ~/Pictures/stonegrid."""
    base = os.environ.get("XDG_PICTURES_DIR") or os.path.join(os.path.expanduser("~"),
                                                              "Pictures")
    return os.path.join(base, "stonegrid")


def save_png(display):
    """Save the frame on the board's display (engine.Board.display) as a PNG in
    pictures_dir(); returns its path."""
    from stonegrid.sim import png
    folder = pictures_dir()
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, time.strftime("stonegrid-%Y%m%d-%H%M%S.png"))
    png.save(path, display.width, display.height, display.frame)
    return path


class KeyReader:
    """Turns terminal input bytes into actions: ("press", button, long) or ("quit",) ..."""

    def __init__(self):
        self.buf = b""

    def feed(self, data, final=False):
        """Actions for the bytes so far; a lone ESC is kept until `final` (a pause)."""
        self.buf += data
        out = []
        while self.buf:
            b = self.buf
            c = b[:1]
            if c == b"\x1b":
                if len(b) == 1:
                    if not final:
                        break
                    out.append(("press", "back", False))
                    self.buf = b""
                    continue
                if b[1:2] in (b"[", b"O"):
                    # CSI: parameters then a final byte in @..~
                    end = None
                    for i in range(2, len(b)):
                        if 0x40 <= b[i] <= 0x7E:
                            end = i
                            break
                    if end is None:
                        if not final:
                            break
                        self.buf = b""
                        continue
                    seq, self.buf = b[:end + 1].decode("latin-1"), b[end + 1:]
                    key = seq[-1]
                    if key in _ARROWS:
                        modified = ";" in seq  # Shift/Ctrl/Alt + arrow: ESC [ 1 ; 2 A
                        out.append(("press", _ARROWS[key], modified))
                    continue
                # ESC + key (Alt+key): treat as the key alone
                self.buf = b[1:]
                continue
            self.buf = b[1:]
            ch = c.decode("latin-1")
            if ch in ("q", "\x11", "\x03"):
                out.append(("quit",))
            elif ch in ("\r", "\n", " "):
                out.append(("press", "ok", False))
            elif ch in ("\x7f", "\x08"):
                out.append(("press", "back", False))
            elif ch in _LETTERS:
                out.append(("press", _LETTERS[ch], False))
            elif ch.lower() in _LETTERS:
                out.append(("press", _LETTERS[ch.lower()], True))
            elif ch == "\x12":  # Ctrl-R
                out.append(("restart",))
            elif ch == "p":
                out.append(("png",))
        return out


class TerminalUI:
    """Draws the board and reads keys, on the board's asyncio loop."""

    def __init__(self, board, scale=None, out=None):
        self.board = board
        self.scale = scale
        self.out = out or sys.stdout
        self.keys = KeyReader()
        self.message = ""
        self._fd = sys.stdin.fileno()
        self._saved = None
        self._dirty = False
        self._last_draw = 0.0
        self._esc_timer = None
        self._loop = None
        self._done = None

    async def run(self):
        import asyncio
        self._loop = asyncio.get_running_loop()
        self._done = asyncio.Event()
        self._saved = termios.tcgetattr(self._fd)
        try:
            tty.setraw(self._fd)
            self._write("\x1b[?1049h\x1b[?25l\x1b[2J")
            self._loop.add_reader(self._fd, self._on_key)
            self._loop.add_signal_handler(signal.SIGWINCH, self._resize)
            self.board.listeners.append(self._on_event)
            self.draw()
            await self._done.wait()
        finally:
            self._loop.remove_reader(self._fd)
            try:
                self._loop.remove_signal_handler(signal.SIGWINCH)
            except (ValueError, RuntimeError):
                pass
            if self._on_event in self.board.listeners:
                self.board.listeners.remove(self._on_event)
            self.restore()

    def restore(self):
        if self._saved is not None:
            self._write("\x1b[0m\x1b[?25h\x1b[?1049l")
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def quit(self):
        if self._done is not None:
            self._done.set()

    def _write(self, s):
        self.out.write(s)
        self.out.flush()

    def _resize(self):
        self._write("\x1b[2J")
        self.draw()

    def _on_event(self, event):
        if not self._dirty:
            self._dirty = True
            delay = max(0.0, 1 / 60 - (time.monotonic() - self._last_draw))
            self._loop.call_later(delay, self.draw)

    def _on_key(self):
        try:
            data = os.read(self._fd, 1024)
        except OSError:
            data = b""
        if not data:
            self.quit()
            return
        self._act(self.keys.feed(data))
        if self._esc_timer:
            self._esc_timer.cancel()
            self._esc_timer = None
        if self.keys.buf:
            self._esc_timer = self._loop.call_later(0.05, self._esc_timeout)

    def _esc_timeout(self):
        self._esc_timer = None
        self._act(self.keys.feed(b"", final=True))

    def _act(self, actions):
        for a in actions:
            if a[0] == "quit":
                self.quit()
            elif a[0] == "press":
                ok = self.board.press(a[1], "long" if a[2] else "press")
                self.message = "%s%s%s" % ("long " if a[2] else "", a[1],
                                           "" if ok else " (nothing listening)")
            elif a[0] == "restart":
                self.message = "power cycle"
                self.board._spawn_task(self.board.restart())
            elif a[0] == "png":
                self._png()
            self._on_event("status")

    def _png(self):
        if self.board.display.frame is None:
            self.message = "no frame to save"
            return
        self.message = "saved " + save_png(self.board.display)

    def draw(self):
        self._dirty = False
        self._last_draw = time.monotonic()
        b = self.board
        try:
            cols, rows = os.get_terminal_size(self._fd)
        except OSError:
            cols, rows = 0, 0
        cols, rows = cols or 80, rows or 24  # 0: the size is not known
        d = b.display
        scale = self.scale or (2 if cols >= d.width * 2 + 44 and rows >= d.height + 8 else 1)
        matrix = ansi_lines(d.width, d.height, d.frame, scale)
        mw = d.width * scale
        st = b.status()
        state = ("running" if st["running"] else "off") + (
            ", firmware connected" if st["connected"] else ", no display")
        legend = ["stonegrid virtual board", ""]
        legend += ["%-22s %s" % (k, name) for k, name, _ in KEYS]
        legend += ["%-22s %s" % ("p", "save a PNG in " + pictures_dir()), "%-22s %s" % ("Ctrl-R", "power cycle"),
                   "%-22s %s" % ("q  Ctrl-Q", "quit"), "",
                   "serial:  " + (b.serial or ""), "control: " + (b.control or ""),
                   "flash:   " + b.flash, "board:   %s, boot %d" % (state, st["boots"])]
        if self.message:
            legend.append("last:    " + self.message)
        n = max(len(matrix), len(legend))
        lines = []
        for i in range(n):
            left = matrix[i] if i < len(matrix) else " " * mw
            right = legend[i] if i < len(legend) else ""
            lines.append(left + "   " + right[:max(0, cols - mw - 4)])
        # the board's last lines of serial output, under the matrix
        tail = bytes(b.output[-4096:]).decode("utf-8", "replace").replace("\r", "")
        tail = ["".join(ch for ch in l if ch >= " ") for l in tail.split("\n")]
        keep = max(0, min(6, rows - n - 3))
        tail = [l for l in tail if l.strip()][-keep:] if keep else []
        if tail:
            lines.append("")
            lines.append("\x1b[2mserial output:\x1b[0m")
            lines += ["\x1b[2m" + l[:cols - 1] + "\x1b[0m" for l in tail]
        self._write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")
