"""A frame to draw on in logical pixels: 16x16 whatever the matrix, each logical pixel a
scale x scale block (2 on a 32x32 Cosmic Unicorn)."""
try:
    from micropython import const
except ImportError:  # CPython: the host draws the same frames
    def const(x):
        return x

SIZE = const(16)

try:
    from views.pixel import put, wipe
except (ImportError, SyntaxError):  # no native code here: the Python below
    put = wipe = None


class Canvas:
    def __init__(self, width=16, height=16):
        self.width, self.height = width, height
        self.scale = max(1, min(width, height) // SIZE)
        self.buf = bytearray(width * height * 3)
        self._backdrop, self._drawn = None, None  # backdrop()
        if self.scale == 1:
            self.set = self._set_pixel

    def _clear_python(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0

    clear = _clear_python if wipe is None else wipe

    def backdrop(self, name, draw):
        """Start a frame from what draw(canvas) draws on a clear canvas, the same in every
        frame (a board's lines): drawn once, then copied while `name` stays the one asked
        for.  Only the name is kept, not draw: the code of a view let go of leaves the heap."""
        if name != self._drawn:
            self.clear()
            draw(self)
            self._backdrop = bytes(self.buf)
            self._drawn = name
        else:
            self.buf[:] = self._backdrop

    def set(self, x, y, rgb):
        """Colour logical pixel (x, y); rgb is 0xRRGGBB.  Off-canvas pixels are ignored."""
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return
        s, w, buf = self.scale, self.width, self.buf
        r, g, b = rgb >> 16 & 255, rgb >> 8 & 255, rgb & 255
        for yy in range(y * s, y * s + s):
            i = (yy * w + x * s) * 3
            for _ in range(s):
                buf[i] = r
                buf[i + 1] = g
                buf[i + 2] = b
                i += 3

    def _set_python(self, x, y, rgb):
        """set() where a logical pixel is one pixel: every board but the 32x32 one.  The
        views call it for every point of every frame: it is kept short (views.pixel, the
        same in machine code, where it loads)."""
        if 0 <= x < SIZE and 0 <= y < SIZE:
            i = (y * self.width + x) * 3
            buf = self.buf
            buf[i] = rgb >> 16 & 255
            buf[i + 1] = rgb >> 8 & 255
            buf[i + 2] = rgb & 255

    _set_pixel = _set_python if put is None else put

    def get(self, x, y):
        i = (y * self.scale * self.width + x * self.scale) * 3
        return self.buf[i] << 16 | self.buf[i + 1] << 8 | self.buf[i + 2]

    def rect(self, x, y, w, h, rgb):
        put = self.set
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                put(xx, yy, rgb)

    def text(self, x, y, s, rgb, size=1):
        """Draw s in the 3x5 font from (x, y), each dot size x size pixels; returns the x
        after it."""
        from views.font import glyph
        put = self.set
        for k in range(len(s)):
            if x >= SIZE:  # the rest is off the right edge (scrolled text)
                return x + 4 * size * (len(s) - k)
            if x + 3 * size <= 0:
                x += 4 * size  # off the left edge
                continue
            bits = glyph(s[k])
            for dot in range(15):  # from the top left, row by row
                if bits >> (14 - dot) & 1:
                    if size == 1:
                        put(x + dot % 3, y + dot // 3, rgb)
                    else:
                        self.rect(x + size * (dot % 3), y + size * (dot // 3), size, size, rgb)
            x += 4 * size
        return x


def dim(rgb, num, den):
    """rgb scaled by num/den."""
    return ((rgb >> 16 & 255) * num // den) << 16 | ((rgb >> 8 & 255) * num // den) << 8 \
        | (rgb & 255) * num // den
