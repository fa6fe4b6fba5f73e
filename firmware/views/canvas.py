"""A frame to draw on in logical pixels: 16x16 whatever the matrix, each logical pixel a
scale x scale block (2 on a 32x32 Cosmic Unicorn)."""
SIZE = 16


class Canvas:
    def __init__(self, width=16, height=16):
        self.width, self.height = width, height
        self.scale = max(1, min(width, height) // SIZE)
        self.buf = bytearray(width * height * 3)

    def clear(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0

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

    def get(self, x, y):
        i = (y * self.scale * self.width + x * self.scale) * 3
        return self.buf[i] << 16 | self.buf[i + 1] << 8 | self.buf[i + 2]

    def rect(self, x, y, w, h, rgb):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.set(xx, yy, rgb)

    def text(self, x, y, s, rgb, size=1):
        """Draw s in the 3x5 font from (x, y), each dot size x size pixels; returns the x
        after it."""
        from views.font import glyph
        for ch in s:
            bits = glyph(ch)
            for row in range(5):
                for col in range(3):
                    if bits >> (14 - row * 3 - col) & 1:
                        self.rect(x + size * col, y + size * row, size, size, rgb)
            x += 4 * size
        return x


def dim(rgb, num, den):
    """rgb scaled by num/den."""
    return ((rgb >> 16 & 255) * num // den) << 16 | ((rgb >> 8 & 255) * num // den) << 8 \
        | (rgb & 255) * num // den
