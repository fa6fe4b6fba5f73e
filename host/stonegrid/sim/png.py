"""A tiny PNG encoder (zlib + struct): frames of the LED matrix as pictures."""
import struct
import zlib

from stonegrid import led

GAP = (0, 0, 0)  # between LEDs: the board's black, a little darker than an LED that is off


def encode(width, height, rgb):
    """PNG bytes of an 8-bit RGB image; `rgb` is width*height*3 bytes, row-major."""
    if len(rgb) != width * height * 3:
        raise ValueError("need %d bytes of RGB, got %d" % (width * height * 3, len(rgb)))
    stride = width * 3
    raw = b"".join(b"\x00" + bytes(rgb[y * stride:(y + 1) * stride]) for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def _mask(scale, gap):
    """Which pixels of one LED cell are lit: a rounded square with a dark gap around it."""
    lit = scale - gap
    r = lit / 4.0  # corner radius
    rows = []
    for y in range(scale):
        row = []
        for x in range(scale):
            inside = x < lit and y < lit
            if inside:
                cx = min(max(x + 0.5, r), lit - r)
                cy = min(max(y + 0.5, r), lit - r)
                inside = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r
            row.append(inside)
        rows.append(row)
    return rows


def matrix(width, height, rgb, scale=16, gap=None):
    """PNG bytes of a WxH LED frame drawn as an LED matrix: each LED `scale` px, dark gaps,
    in the colours an LED shows (stonegrid.led)."""
    return encode(*matrix_pixels(width, height, rgb, scale, gap))


def matrix_pixels(width, height, rgb, scale=16, gap=None):
    """(W, H, RGB bytes) of the picture matrix() encodes."""
    if scale < 1:
        raise ValueError("scale must be at least 1")
    if gap is None:
        gap = max(1, scale // 8) if scale >= 4 else 0
    mask = _mask(scale, gap)
    pad = gap  # a gap-wide border on the top and left too, so the picture is symmetric
    W, H = width * scale + pad, height * scale + pad
    gap_px = bytes(GAP)
    out = bytearray()
    for _ in range(pad):
        out += gap_px * W
    shown = led.picture(rgb)
    for y in range(height):
        leds = [shown[(y * width + x) * 3:][:3] for x in range(width)]
        for my in range(scale):
            line = bytearray(gap_px * pad)
            m = mask[my]
            for c in leds:
                for mx in range(scale):
                    line += c if m[mx] else gap_px
            out += line
    return W, H, bytes(out)


def save(path, width, height, rgb, scale=16, gap=None):
    data = matrix(width, height, rgb, scale, gap)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def decode(data):
    """(width, height, rgb bytes) of a PNG written by `encode` (8-bit RGB, no interlace).

    For tests and tools; handles every PNG filter type."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, ctype, interlace) != (8, 2, 0):
                raise ValueError("only 8-bit RGB, non-interlaced PNGs")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * 3
    out = bytearray()
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return w, h, bytes(out)
