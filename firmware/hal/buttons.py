"""Debounced press / long-press events from raw button states, for the pin-based backends
(ws2812, the Unicorns); the virtual board gets its events ready-made."""
import time

# ticks_ms() wraps around (every 2^30 ms on rp2): durations go through ticks_diff on the
# device; plain milliseconds under CPython (host tests)
_ticks_diff = getattr(time, "ticks_diff", None) or (lambda a, b: a - b)

LONG_MS = 600  # a press held this long is a long press
DEBOUNCE_MS = 30
# The buttons that have a long press (a long BACK leaves a game): they act when let go, as
# only then is it known which press it was.  Every other button acts the moment it goes
# down, which is when a player feels the press.
LONG = ("back",)
# The buttons that act at once and, held on for LONG_MS, also give a long press (a hold of OK
# asks for a hint): the press is felt at once, the hold is an extra.
HOLD = ("ok",)


class Buttons:
    """Debounced press / long-press events from raw button states, for pin-based backends.
    read(name) -> True while pressed; call update(now_ms) often."""

    def __init__(self, names, read):
        self._names = names
        self._read = read
        self._down = {}  # name -> ms when it went down; absent when up
        self._up = {}  # name -> ms when it went up, while it may still bounce
        self._long_sent = {}
        self._events = []

    def update(self, now):
        for name in self._names:
            pressed = self._read(name)
            since = self._down.get(name)
            if name not in LONG:
                self._at_once(name, pressed, since, now)
            elif pressed and since is None:
                self._down[name] = now
                self._long_sent[name] = False
            elif pressed and not self._long_sent[name] and _ticks_diff(now, since) >= LONG_MS:
                self._long_sent[name] = True
                self._events.append((name, "long"))
            elif not pressed and since is not None:
                if _ticks_diff(now, since) >= DEBOUNCE_MS and not self._long_sent[name]:
                    self._events.append((name, "press"))
                del self._down[name]

    def _at_once(self, name, pressed, since, now):
        """A button with no long press: a press when it goes down; for DEBOUNCE_MS after
        each change its contacts may still bounce, and are not read."""
        up = self._up.get(name)
        if up is not None and _ticks_diff(now, up) >= DEBOUNCE_MS:
            del self._up[name]  # settled (and never compared again: the clock wraps)
            up = None
        if pressed and since is None and up is None:
            self._down[name] = now
            self._long_sent[name] = False
            self._events.append((name, "press"))
        elif pressed and since is not None and name in HOLD and not self._long_sent[name] \
                and _ticks_diff(now, since) >= LONG_MS:
            self._long_sent[name] = True
            self._events.append((name, "long"))
        elif not pressed and since is not None and _ticks_diff(now, since) >= DEBOUNCE_MS:
            del self._down[name]
            self._up[name] = now

    def poll(self):
        return self._events.pop(0) if self._events else None

    def held(self, name):
        return bool(self._read(name))
