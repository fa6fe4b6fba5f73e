"""Debounced press / long-press events from raw button states, for the pin-based backends
(ws2812, the Unicorns); the virtual board gets its events ready-made."""
import time

# ticks_ms() wraps around (every 2^30 ms on rp2): durations go through ticks_diff on the
# device; plain milliseconds under CPython (host tests)
_ticks_diff = getattr(time, "ticks_diff", None) or (lambda a, b: a - b)

LONG_MS = 600  # a press held this long is a long press
DEBOUNCE_MS = 30


class Buttons:
    """Debounced press / long-press events from raw button states, for pin-based backends.
    read(name) -> True while pressed; call update(now_ms) often."""

    def __init__(self, names, read):
        self._names = names
        self._read = read
        self._down = {}  # name -> ms when it went down; absent when up
        self._long_sent = {}
        self._events = []

    def update(self, now):
        for name in self._names:
            pressed = self._read(name)
            since = self._down.get(name)
            if pressed and since is None:
                self._down[name] = now
                self._long_sent[name] = False
            elif pressed and not self._long_sent[name] and _ticks_diff(now, since) >= LONG_MS:
                self._long_sent[name] = True
                self._events.append((name, "long"))
            elif not pressed and since is not None:
                if _ticks_diff(now, since) >= DEBOUNCE_MS and not self._long_sent[name]:
                    self._events.append((name, "press"))
                del self._down[name]

    def poll(self):
        return self._events.pop(0) if self._events else None

    def held(self, name):
        return bool(self._read(name))
