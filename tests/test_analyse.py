"""stonegrid replay --analyse: in a game of each kind with a blunder put in on purpose, the
analysis finds it and names a better action; it says the same on every run."""
import functools

import pytest
from PIL import Image, ImageSequence

from helpers import random_game
from shared_rules import GAMES, load, search

from stonegrid import analyse, arrows, cli, records, replay
from stonegrid.firmware import views
from stonegrid.firmware.views import palette
from stonegrid.firmware.views.canvas import Canvas
from stonegrid.sim import png

HEADER = {"players": ["human", "human"], "fw": "test"}


def worst(g, ai):
    """(action, loss in units) of the action that throws away the most, by the normal level's
    search from the position after each; None where the search would play a matrix game."""
    p = g.to_move
    if not isinstance(search.start(g, p, ai, nodes=1), search.Search):
        return None
    values = []
    for a in g.legal():
        h = g.view_for(p)
        h.play(a)
        s = search.Search(h, p, ai, search.budget(ai, "normal"), search.Rng(1), value_only=True)
        while not s.step(4096):
            pass
        values.append((s.value, a))
    values.sort()
    return values[0][1], (values[-1][0] - values[0][0]) / float(ai.UNIT)


def play_normal(g, ai, seed):
    g.play(search.choose(g, g.to_move, ai, "normal", seed + g.plies()))


def blundered(game_id):
    """A game of the device against itself at the normal level with, at the first ply where
    one action loses two units or more, that action played instead; and the ply.  A game
    that ends without such an action (a Morris game can repeat early) is played again with
    other seeds."""
    ai = search.load_ai(game_id)
    for seed in range(0, 4000, 1000):
        g = load(game_id).Game()
        while g.result() is None:
            found = worst(g, ai)
            if found and found[1] >= 2 and abs(found[1]) < search.WIN // 2 // ai.UNIT:
                ply = g.plies()
                g.play(found[0])
                for _ in range(6):
                    if g.result() is None:
                        play_normal(g, ai, seed)
                return g, ply
            play_normal(g, ai, seed)
    raise AssertionError("no action loses two units in 4 %s games" % game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_analysis_finds_the_blunder_put_in_and_names_a_better_action(game_id):
    g, ply = blundered(game_id)
    header = dict(HEADER, game=game_id)
    marks = analyse.analyse(header, g)
    m = marks[ply]
    assert m.mark in ("inaccuracy", "blunder") and m.best != m.action, (ply, m.mark)
    assert m.loss >= search.load_ai(game_id).UNIT
    text = analyse.report(header, g, marks)
    turn = "ply %d, %s: %s, a" % (ply + 1, records.player_names(game_id)[m.side],
                                  g.text(m.action))
    assert turn in text and "better %s" % g.text(m.best) in text, text
    again = analyse.analyse(header, g)
    assert [(x.best, x.loss, x.mark) for x in again if x] == \
        [(x.best, x.loss, x.mark) for x in marks if x]  # deterministic


def test_replay_analyse_from_the_command_line(tmp_path, capsys):
    g, ply = blundered("morris")
    path = tmp_path / "game.txt"
    path.write_text(records.export(g, dict(HEADER, game="morris")))
    assert cli.main(["replay", "--analyse", str(path)]) == 0
    out = capsys.readouterr().out
    assert "turning points:" in out and "ply %d, " % (ply + 1) in out, out
    assert out.count("\n") >= g.plies() + 3


# --- the better moves drawn on the GIF (`replay --analyse --gif`) -------------------------

@functools.lru_cache(maxsize=None)
def analysed(game_id):
    """(game, blunder's ply, header, marks): blundered() and its analysis, once a game."""
    g, ply = blundered(game_id)
    header = dict(HEADER, game=game_id)
    return g, ply, header, analyse.analyse(header, g)


def named(game_id, text):
    """The board pixels that an action's notation names, by the view's own tables: a
    Mixtour square's is the middle of its 2x2 block."""
    view, rules = views.load(game_id), load(game_id)
    if text == "pass" or text.startswith("bid"):
        return ()
    names = [n.split(":")[0] for n in text.lstrip("x").split("-")]
    if game_id == "morris":
        return tuple(view.XY[rules.POINTS.index(n)] for n in names)
    if game_id == "gipf":
        return tuple((view.X[rules.index(n)], view.Y[rules.index(n)]) for n in names)
    if game_id == "mixtour":
        squares = [rules.SQUARES.index(n) for n in names]
        return tuple((view.CX[i] + 0.5, view.CY[i] + 0.5) for i in squares)
    cells = [[rules.cell_name(i) for i in range(64)].index(n) for n in names]
    return tuple((view.X[i], view.Y[i]) for i in cells)


def board(game_id, g):
    """The 16x16 RGB frame of g's board as a replay draws it (no cursor, no card)."""
    view = views.load(game_id)
    ui = view.new_ui(g)
    ui.paint(palette.stones(game_id), cursor_hidden=True)
    ui.board_only = True
    c = Canvas()
    view.render(g, ui, c, 0)
    return bytes(c.buf)


def under(frame, point):
    """The colours of the frame's pixels at a board point (four round an x.5, y.5 one)."""
    xs, ys = sorted({int(point[0]), int(point[0] + 0.5)}), sorted({int(point[1]), int(point[1] + 0.5)})
    return [frame[3 * (16 * y + x):3 * (16 * y + x) + 3] for y in ys for x in xs]


def kind(text):
    return "pass" if text == "pass" else "bid" if text.startswith("bid") else \
        "take" if text.startswith("x") else "move" if "-" in text else "place"


SEEDS = tuple(range(8)) + (49,)  # random games; in GIPF's 49th rows cross (ply 18)


@pytest.mark.parametrize("game_id", GAMES)
def test_each_view_points_an_action_at_the_pixels_it_draws_its_pieces_on(game_id):
    """arrow() of every legal action in random games and in the blundered one names the
    pixels of the points its notation names; and those pixels are where the view draws the
    action: each changes with it, or shows the mover's piece after it (checked for the
    first and last legal action of each position, and the first of each kind: a
    placement, a move or push, a piece or row taken, a bid or pass)."""
    view, mod = views.load(game_id), load(game_id)
    colours = [c.to_bytes(3, "big") for c in palette.stones(game_id)]
    gone = getattr(view, "GONE", 0).to_bytes(3, "big")  # where the view marks pieces taken
    games = [analysed(game_id)[0]] + [random_game(mod, seed, max_plies=120)
                                      for seed in SEEDS]
    seen = set()
    for played in games:
        g = mod.Game(**played.options)
        for a in played.actions():
            legal = g.legal()
            for k, b in enumerate(legal):
                text = g.text(b)
                points = view.arrow(g, b)
                assert points == named(game_id, text), (text, points)
                if kind(text) in seen and k not in (0, len(legal) - 1):
                    continue
                seen.add(kind(text))
                mover, before = g.to_move, board(game_id, g)
                g.play(b)
                after = board(game_id, g)
                g.undo()
                for p in points:  # (a GIPF piece pushed in may be taken at once: GONE)
                    assert under(before, p) != under(after, p) or colours[mover] in under(
                        after, p) or gone in under(after, p), (text, p)
            g.play(a)
    assert len(seen) >= 2, seen  # every game has two kinds at least (a GIPF row taken)


def read_gif(path):
    """The RGB bytes of each frame of a GIF, by Pillow."""
    with Image.open(path) as im:
        return [f.convert("RGB").tobytes() for f in ImageSequence.Iterator(im)]


def centre(v):
    """The picture pixel (scale 8) in the middle of board pixel v, or of the two round an
    x.5: LED v lights picture pixels 8v + 1 .. 8v + 7, after a 1 px dark edge."""
    return int(8 * v + 4)


def colour_at(rgb, x, y, width=129):
    return rgb[3 * (y * width + x):3 * (y * width + x) + 3]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_gif_draws_the_better_move_before_each_poor_one(game_id, tmp_path):
    """With the marks, the frame of the position before an inaccuracy or a blunder is the
    board with the better action drawn on it (an arrow from its first pixel to its last,
    a ring round one), in the arrows' colour and nowhere else; every other frame is the
    plain GIF's."""
    g, ply, header, marks = analysed(game_id)
    better = replay.better_moves(marks)
    assert better.get(ply) == marks[ply].best  # the blunder put in is drawn
    view = views.load(game_id)
    plain, marked = tmp_path / "plain.gif", tmp_path / "marked.gif"
    assert replay.gif(replay.Frames(header, g), str(plain)) == replay.gif(
        replay.Frames(header, g), str(marked), marks)
    plain, marked = read_gif(plain), read_gif(marked)
    assert len(marked) == len(plain) and len(plain) >= g.plies() + 1
    for k in range(len(plain)):
        assert (marked[k] == plain[k]) == (k not in better), k
    frames, h = replay.Frames(header, g), records.fresh(header, g)
    for k in range(max(better) + 1):  # in order, as the GIF draws them
        if k not in better:
            frames.at(k)
            h.play(g.actions()[k])
            continue
        buf, points = frames.better(k, better[k])
        assert points and points == view.arrow(h, better[k]) == named(
            game_id, h.text(better[k]))
        rgb = png.matrix_pixels(16, 16, buf, scale=8)[2]
        changed = set((i // 3 % 129, i // 3 // 129) for i in range(0, len(rgb), 3)
                      if rgb[i:i + 3] != marked[k][i:i + 3])
        assert changed and changed <= arrows.shape(points, 8, 1), k
        assert all(colour_at(marked[k], x, y) == arrows.COLOUR for x, y in changed)
        ends = [(centre(x), centre(y)) for x, y in points]
        if len(points) == 1:  # a ring: round the LED (or 2x2 block), which stays as it was
            (x, y), = ends
            r = 4 if points[0][0] % 1 == 0 else 8  # the dark gap past the lit pixels
            assert colour_at(marked[k], x, y) == colour_at(rgb, x, y)
            for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r), (r, r), (-r, -r)):
                assert colour_at(marked[k], x + dx, y + dy) == arrows.COLOUR, (dx, dy)
        else:  # an arrow: from the first pixel's middle through the way to the last's
            (x0, y0), (x1, y1) = ends[0], ends[-1]
            for t in (0, 0.5, 1):
                x, y = round(x0 + t * (x1 - x0)), round(y0 + t * (y1 - y0))
                assert colour_at(marked[k], x, y) == arrows.COLOUR, (t, x, y)
        if game_id == "rhombus" and k == ply:  # the reveal card was up: the board instead
            assert plain[k] != rgb
        h.play(g.actions()[k])


def test_arrow_and_ring_shapes():
    """An arrow along a row: 3 px thick, its head wider and pointing at the last point's
    middle, nothing past it; a ring: a square outline 2 px thick in the gaps round the LED."""
    line = arrows.shape(((1, 2), (5, 2)), 8, 1)
    xs, ys = [x for x, _ in line], [y for _, y in line]
    assert (min(xs), max(xs)) == (11, 44) and 44 == centre(5)  # the tip at (5, 2)'s middle
    assert {y for x, y in line if x < 30} == {19, 20, 21}  # the line, round y = centre(2)
    assert max(ys) - min(ys) == 8 and {y for x, y in line if x == 44} == {20}
    ring = arrows.shape(((5, 5),), 8, 1)
    assert ring == {(x, y) for x in range(39, 50) for y in range(39, 50)
                    if max(abs(x - 44), abs(y - 44)) in (4, 5)}
    block = arrows.shape(((5.5, 5.5),), 8, 1)
    assert {max(abs(x - 48), abs(y - 48)) for x, y in block} == {8, 9}
    assert arrows.shape((), 8, 1) == set()


def test_replay_analyse_gif_from_the_command_line(tmp_path, capsys, monkeypatch):
    """--analyse --gif: one analysis, printed and drawn; the frames before the blunder and
    before any other action the analysis finds a better move for are the only ones unlike
    --gif's alone."""
    g, ply, header, marks = analysed("morris")
    better = sorted(replay.better_moves(marks))
    assert ply in better
    path = tmp_path / "game.txt"
    path.write_text(records.export(g, header))
    calls = []
    real = analyse.analyse
    monkeypatch.setattr(analyse, "analyse", lambda *a: calls.append(1) or real(*a))
    assert cli.main(["replay", str(path), "--analyse", "--gif", str(tmp_path / "a.gif")]) == 0
    out = capsys.readouterr().out
    assert len(calls) == 1
    assert "replay: wrote %s (" % (tmp_path / "a.gif") in out
    assert "%d better move%s drawn" % (len(better), "s" if len(better) > 1 else "") in out, out
    assert "turning points:" in out and "ply %d, " % (ply + 1) in out, out
    assert cli.main(["replay", str(path), "--gif", str(tmp_path / "p.gif")]) == 0
    assert "better move" not in capsys.readouterr().out and len(calls) == 1
    drawn, plain = read_gif(tmp_path / "a.gif"), read_gif(tmp_path / "p.gif")
    assert [k for k in range(len(plain)) if drawn[k] != plain[k]] == better
