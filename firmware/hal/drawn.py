"""What the backends whose LEDs a host draws share (unix: the virtual board; web: the browser
page).  A module of its own: the boards with real LEDs never load it."""
from hal import scale_table


class DrawnBoard:
    """The size and cap from the profile, and dim(frame, out, start), which writes
    the frame scaled to min(brightness, cap) into out from index start; the table is made
    again only when the level changes."""

    def __init__(self, profile):
        self.width = profile.get("width", 16)
        self.height = profile.get("height", 16)
        self.cap = profile.get("brightness_cap", 255)
        self.brightness = self.cap
        self._level = -1
        self._table = b""

    def set_brightness(self, level):
        self.brightness = level

    def dim(self, frame, out, start=0):
        level = min(self.brightness, self.cap)
        if level != self._level:
            self._table, self._level = scale_table(level), level
        table = self._table
        for i in range(len(frame)):
            out[start + i] = table[frame[i]]
