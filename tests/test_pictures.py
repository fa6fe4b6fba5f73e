"""The GIF and PNG writers against an independent decoder (Pillow): what they write reads back
pixel for pixel."""
import io
import random
import zlib

import pytest
from PIL import Image, ImageSequence

from helpers import random_game
from shared_rules import load
from stonegrid import gif, replay
from stonegrid.sim import png


def read_gif(path):
    """(width, height, RGB bytes of each frame, each frame's delay in ms, loop count)."""
    with Image.open(path) as im:
        frames = [f.convert("RGB").tobytes() for f in ImageSequence.Iterator(im)]
        delays = [f.info["duration"] for f in ImageSequence.Iterator(im)]
        return im.width, im.height, frames, delays, im.info.get("loop")


def random_frames(width, height, colours, count, seed):
    rng = random.Random(seed)
    palette = [bytes(rng.randrange(256) for _ in range(3)) for _ in range(colours)]
    return [b"".join(rng.choice(palette) for _ in range(width * height)) for _ in range(count)]


@pytest.mark.parametrize("width,height,colours", [
    (3, 2, 1),      # one colour: the smallest code size
    (16, 16, 2),
    (17, 9, 5),     # a palette padded to 8 entries
    (100, 60, 256),  # random pixels fill LZW's 4096 codes: the table starts again, twice
])
def test_gif_frames_read_back_pixel_for_pixel(tmp_path, width, height, colours):
    frames = random_frames(width, height, colours, 3, seed=colours)
    path = tmp_path / "x.gif"
    assert gif.write(str(path), width, height, frames, delay_cs=25) == path.stat().st_size
    assert read_gif(path) == (width, height, frames, [250] * 3, 0)


def test_gif_of_long_runs_reads_back(tmp_path):
    """Few colours in long runs: long LZW strings, the code size grows to 12 bits."""
    red, blue = b"\xff\x00\x00", b"\x00\x00\xff"
    frames = [red * (500 * k) + blue * (20000 - 500 * k) for k in range(4)]
    gif.write(str(tmp_path / "runs.gif"), 200, 100, frames)
    assert read_gif(tmp_path / "runs.gif")[2] == frames


def test_replay_gif_shows_each_ply_as_the_views_draw_it(tmp_path):
    g = random_game(load("gipf"), 3, max_plies=10)
    header = {"game": "gipf", "options": {}, "players": ["human", "human"]}
    frames = replay.Frames(header, g)
    replay.gif(frames, str(tmp_path / "game.gif"))
    want = [png.matrix_pixels(16, 16, frames.at(ply), scale=8)[2] for ply in range(11)]
    assert read_gif(tmp_path / "game.gif")[2] == want
    assert len(set(want)) > 5  # the game moves on from frame to frame


def test_png_reads_back_pixel_for_pixel():
    frame = bytes(random.Random(1).randrange(256) for _ in range(16 * 16 * 3))
    w, h, rgb = png.matrix_pixels(16, 16, frame, scale=5)
    with Image.open(io.BytesIO(png.matrix(16, 16, frame, scale=5))) as im:
        assert (im.mode, im.size, im.tobytes()) == ("RGB", (w, h), rgb)
    with Image.open(io.BytesIO(png.encode(3, 5, rgb[:45]))) as im:
        assert (im.size, im.tobytes()) == ((3, 5), rgb[:45])


def filters(data, width):
    """The filter type of each row of a small PNG (one IDAT chunk)."""
    at = data.index(b"IDAT")
    raw = zlib.decompress(data[at + 4:at + 4 + int.from_bytes(data[at - 4:at], "big")])
    return {raw[row] for row in range(0, len(raw), width * 3 + 1)}


def test_png_decode_reads_what_pillow_writes():
    """png.decode, which the tests use, against a PNG it did not write, in every row filter
    (Pillow tries Average only when optimising)."""
    w, h, rng = 40, 30, random.Random(2)
    rgb = bytes(rng.randrange(256) for _ in range(w * h * 3))
    out = io.BytesIO()
    Image.frombytes("RGB", (w, h), rgb).save(out, "PNG", optimize=True)
    assert filters(out.getvalue(), w) == {0, 1, 2, 3, 4}
    assert png.decode(out.getvalue()) == (w, h, rgb)


def test_replay_gif_holds_the_last_position_and_ends_on_the_result(tmp_path):
    from stonegrid.firmware import views
    from stonegrid.firmware.views.canvas import Canvas
    g = random_game(load("morris"), 1)
    assert g.result() is not None
    header = {"game": "morris", "options": {}, "players": ["human", "human"]}
    frames = replay.Frames(header, g)
    assert replay.gif(frames, str(tmp_path / "over.gif")) == g.plies() + 2
    _, _, got, delays, _ = read_gif(tmp_path / "over.gif")
    c = Canvas()
    views.result_card(g.result(), frames.ui.colours, c)
    assert got[-1] == png.matrix_pixels(16, 16, bytes(c.buf), scale=8)[2]
    assert got[-2] == png.matrix_pixels(16, 16, frames.at(g.plies()), scale=8)[2]
    assert delays[-2:] == [3000, 3000] and set(delays[:-2]) == {600}
    unfinished = random_game(load("morris"), 1, max_plies=6)
    frames = replay.Frames(header, unfinished)
    assert replay.gif(frames, str(tmp_path / "six.gif")) == 7  # no result to show
    assert read_gif(tmp_path / "six.gif")[3][-1] == 3000
