"""A small animated-GIF writer (GIF89a, LZW): a replayed game as one picture file."""
import struct


def _lzw(indices, min_size):
    """LZW-compress palette indices into GIF sub-blocks."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    table = dict(((i,), i) for i in range(clear))
    size, next_code = min_size + 1, end + 1
    bits, nbits, out = 0, 0, bytearray()

    def emit(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(bits & 255)
            bits >>= 8
            nbits -= 8

    emit(clear)
    prefix = ()
    for i in indices:
        key = prefix + (i,)
        if key in table:
            prefix = key
            continue
        emit(table[prefix])
        if next_code < 4096:
            table[key] = next_code
            next_code += 1
            if next_code > (1 << size) and size < 12:
                size += 1
        else:  # the table is full: start again
            emit(clear)
            table = dict(((j,), j) for j in range(clear))
            size, next_code = min_size + 1, end + 1
        prefix = (i,)
    if prefix:
        emit(table[prefix])
    emit(end)
    if nbits:
        out.append(bits & 255)
    blocks = bytearray()
    for k in range(0, len(out), 255):
        piece = out[k:k + 255]
        blocks += bytes((len(piece),)) + piece
    return bytes(blocks) + b"\x00"


def write(path, width, height, frames, delay_cs=60, hold=()):
    """frames: RGB byte strings of width*height pixels; one palette for all (<= 256 colours).
    Each is shown delay_cs hundredths of a second, those in `hold`, {index: cs}, as long as
    it says (the last position, the result)."""
    hold = dict(hold)
    palette = {}
    for rgb in frames:
        for i in range(0, len(rgb), 3):
            palette.setdefault(bytes(rgb[i:i + 3]), len(palette))
    if len(palette) > 256:
        raise ValueError("more than 256 colours: %d" % len(palette))
    depth = max(1, (len(palette) - 1).bit_length())
    table = bytearray(3 << depth)
    for colour, i in palette.items():
        table[3 * i:3 * i + 3] = colour
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", width, height, 0x80 | (depth - 1) << 4 | (depth - 1), 0, 0)
    out += table
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop for ever
    for n, rgb in enumerate(frames):
        out += struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 0, hold.get(n, delay_cs), 0, 0)
        out += struct.pack("<BHHHHB", 0x2C, 0, 0, width, height, 0)
        indices = [palette[bytes(rgb[i:i + 3])] for i in range(0, len(rgb), 3)]
        size = max(2, depth)
        out += bytes((size,)) + _lzw(indices, size)
    out += b"\x3b"
    with open(path, "wb") as f:
        f.write(out)
    return len(out)
