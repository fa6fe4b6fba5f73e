"""The better move on a replay's picture (`stonegrid replay --analyse --gif`): an arrow
through the board pixels a view's arrow() names, or a ring round the one pixel of a
placement or a removal, drawn on the scaled-up picture of the LEDs that
stonegrid.sim.png.matrix_pixels makes (each LED `scale` px, `gap` px of dark round it).
One colour, no blending: the GIF's palette gains one entry."""

# Cyan, at full brightness: no side's colour in any game (red, bluish green, white,
# blue-grey), not the cursor's white, the refusal's magenta nor the last move's amber, so
# the better move cannot be taken for a piece or a mark of the game; and bright on the
# dark board, over the dim lines and points it crosses.
COLOUR = b"\x00\xff\xff"
HALF_WIDTH = 1.0  # the line: the pixels within this of it, so about 2 px thick
HEAD = (6.0, 4.0)  # the arrowhead: its length, and its half width at the base
RING = 2  # the ring's thickness, right outside the LED (or the 2x2 block) it surrounds


def centre(v, scale, gap):
    """The picture's pixel at the middle of board pixel v (a half: of the two v +- .5)."""
    return gap + scale * v + (scale - gap - 1) / 2.0


def reach(v, scale, gap):
    """How far the lit part of board pixel v reaches from its middle (a half: of the two)."""
    return (scale - gap - 1) / 2.0 + scale * (v % 1)


def shape(points, scale, gap):
    """The picture's pixels (x, y) of the arrow through `points` (board pixels, in order;
    the head at the last), or of the ring round a single one; none for no points."""
    if len(points) == 1:
        (x, y), = points
        return _ring(centre(x, scale, gap), centre(y, scale, gap), reach(x, scale, gap),
                     reach(y, scale, gap))
    ends = [(centre(x, scale, gap), centre(y, scale, gap)) for x, y in points]
    out = set()
    for k in range(len(ends) - 1):
        last = k == len(ends) - 2
        out |= _line(ends[k], ends[k + 1], HEAD[0] / 2 if last else 0)
    if len(ends) > 1:
        out |= _head(ends[-2], ends[-1])
    return out


def _box(xs, ys, margin):
    """The pixels of the box round the points xs, ys, widened by margin."""
    for y in range(int(min(ys) - margin), int(max(ys) + margin) + 2):
        for x in range(int(min(xs) - margin), int(max(xs) + margin) + 2):
            yield x, y


def _ring(cx, cy, rx, ry):
    """A square outline RING px thick round the block that reaches rx, ry from (cx, cy)."""
    out = set()
    for x, y in _box((cx,), (cy,), max(rx, ry) + RING + 1):
        outside = max(abs(x - cx) - rx, abs(y - cy) - ry)
        if 0.5 < outside <= RING + 0.5:
            out.add((x, y))
    return out


def _line(a, b, short):
    """The pixels within HALF_WIDTH of the segment from a to b, cut `short` px before b."""
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    if length <= short:
        return set()
    ux, uy = (bx - ax) / length, (by - ay) / length
    end = length - short
    out = set()
    for x, y in _box((ax, bx), (ay, by), HALF_WIDTH + 1):
        along = (x - ax) * ux + (y - ay) * uy
        along = 0 if along < 0 else end if along > end else along
        if (x - ax - along * ux) ** 2 + (y - ay - along * uy) ** 2 <= HALF_WIDTH ** 2:
            out.add((x, y))
    return out


def _head(a, b):
    """The arrowhead's pixels: a triangle with its tip at b, pointing the way from a."""
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    if not length:
        return set()
    ux, uy = (bx - ax) / length, (by - ay) / length
    long, half = HEAD
    out = set()
    for x, y in _box((bx,), (by,), long + 1):
        back = (bx - x) * ux + (by - y) * uy  # from the tip, backwards
        side = abs((x - bx) * uy - (y - by) * ux)
        if -0.5 <= back <= long and side <= half * (back + 0.5) / (long + 0.5):
            out.add((x, y))
    return out


def draw(width, height, rgb, points, scale, gap):
    """The picture rgb (width x height RGB bytes) with the arrow or ring of `points` on it."""
    out = bytearray(rgb)
    for x, y in shape(points, scale, gap):
        if 0 <= x < width and 0 <= y < height:
            i = 3 * (y * width + x)
            out[i:i + 3] = COLOUR
    return bytes(out)
