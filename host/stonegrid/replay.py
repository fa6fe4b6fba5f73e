"""`stonegrid replay`: check a game log (or an export), then step through it in the terminal,
export it, render it as an animated GIF, analyse it (stonegrid.analyse), or send it to the
board to replay on its LEDs.
Frames come from the firmware's own views, so they are what the device shows."""
import json
import os
import sys

from stonegrid import records


def _views():
    from stonegrid.firmware import views
    from stonegrid.firmware.views import palette
    from stonegrid.firmware.views.canvas import Canvas
    return views, palette, Canvas


def load(path, warn=lambda text: print(text, file=sys.stderr)):
    """(header, Game) from a .jsonl log (its last game) or an export file; warn() is told
    of a last line left out."""
    if records.is_export(path):
        return records.read_export_file(path)
    notes = []
    game = records.read_log_file(path, notes)[-1]
    for note in notes:
        warn("replay: %s" % note)
    return game.header, game.game


class Frames:
    """The device's picture of the game after any number of actions."""

    def __init__(self, header, g):
        views, palette, Canvas = _views()
        self.view = views.load(header["game"])
        self.game = records.fresh(header, g)
        self.actions = g.actions()
        self.players = records.player_names(header["game"])
        self.ui = self.view.new_ui(self.game)
        self.ui.paint(palette.stones(header["game"]), cursor_hidden=True)
        self.canvas = Canvas()

    def at(self, ply):
        g = self.game  # plies(), not len(actions()): that list is built anew on each call
        while g.plies() > ply:
            g.undo()
        while g.plies() < ply:
            g.play(self.actions[g.plies()])
        self.view.sync(g, self.ui)
        self.view.render(g, self.ui, self.canvas, 0)
        return bytes(self.canvas.buf)

    def better(self, ply, action):
        """The board after `ply` plies (never a card instead: views.UI.board_only) and the
        pixels `action` goes through there (the view's arrow(); () if it has none)."""
        arrow = getattr(self.view, "arrow", None)
        if arrow is None:
            return self.at(ply), ()
        self.ui.board_only = True
        try:
            picture = self.at(ply)
        finally:
            self.ui.board_only = False
        return picture, tuple(arrow(self.game, action))

    def result_card(self):
        """The board's game-over card for the whole game, or None (not over, or the view
        draws the result on the board itself)."""
        self.at(len(self.actions))  # the game at its end
        result = self.game.result()
        if result is None or getattr(self.view, "SHOWS_RESULT", False):
            return None
        views, _, _ = _views()
        views.result_card(result, self.ui.colours, self.canvas)
        return bytes(self.canvas.buf)


def status(frames, ply):
    g = frames.game
    turns = g.turns()
    last = turns[-1] if turns else "start"
    res = g.result()
    end = "" if res is None else "  %s (%s)" % (
        "draw" if res[0] is None else "%s wins" % frames.players[res[0]], res[1])
    return "ply %d/%d  %s%s" % (ply, len(frames.actions), last, end)


def show(frames, ply, out=None, color=None):
    """The board after `ply` plies and a status line: the LEDs in colour (ANSI) on a
    terminal, else the game's text board (stonegrid.textboard, as `stonegrid play` draws
    it), plain; `color` True or False says which whatever `out` is."""
    out = out or sys.stdout  # the one of now, not of the import (tests replace it)
    if color is None:
        color = out.isatty()
    picture = frames.at(ply)
    if color:
        from stonegrid.sim.render import ansi_lines
        lines = ansi_lines(16, 16, picture, scale=2)
    else:
        from stonegrid import textboard
        lines = textboard.load(frames.game.ID).draw(frames.game).rstrip("\n").split("\n")
    for line in lines:
        out.write(line + "\n")
    out.write(status(frames, ply) + "\n")


def step(frames, start):
    """Interactive: left/right a ply, up/down to either end, q quits."""
    import termios
    import tty
    from stonegrid.sim.render import KeyReader
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    ply, keys = start, KeyReader()
    try:
        tty.setcbreak(fd)
        while True:
            sys.stdout.write("\x1b[H\x1b[2J")
            show(frames, ply)
            sys.stdout.write("\u2190 \u2192 one ply   \u2191 \u2193 start / end   q quit\n")
            sys.stdout.flush()
            for action in keys.feed(os.read(fd, 16), final=True):
                if action[0] == "quit":
                    return
                if action[0] == "press":
                    button = action[1]
                    if button == "right":
                        ply = min(ply + 1, len(frames.actions))
                    elif button == "left":
                        ply = max(ply - 1, 0)
                    elif button == "up":
                        ply = 0
                    elif button == "down":
                        ply = len(frames.actions)
                    elif button in ("back", "ok"):
                        return
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


HOLD_CS = 300  # the last position, and the result after it, stay 3 s before the GIF loops
SCALE = 8  # picture pixels per LED in a GIF


def better_moves(marks):
    """{ply: the better action} where the analysis' marks (stonegrid.analyse) say an
    inaccuracy or a blunder was played."""
    if not marks:
        return {}
    from stonegrid import analyse
    return dict((m.ply, m.best) for m in marks if m and m.mark in analyse.MARKS[2:])


def pictures(frames, marks=None):
    """The GIF's pictures, (width, height, RGB bytes) each: a frame a ply, then the result
    card (as the board shows it) when the game is over and the view does not draw it itself.
    With the analysis' marks, the position before each inaccuracy or blunder has the better
    action drawn on the board (stonegrid.arrows, through the pixels of the view's arrow())."""
    from stonegrid import arrows
    from stonegrid.sim.png import matrix_pixels
    better = better_moves(marks)
    out = []
    for ply in range(len(frames.actions) + 1):
        if ply not in better:
            out.append(matrix_pixels(16, 16, frames.at(ply), scale=SCALE))
            continue
        buf, points = frames.better(ply, better[ply])
        width, height, rgb = matrix_pixels(16, 16, buf, scale=SCALE)
        gap = width - 16 * SCALE  # the picture's dark edge: as wide as the gaps
        out.append((width, height, arrows.draw(width, height, rgb, points, SCALE, gap)))
    card = frames.result_card()
    if card is not None:
        out.append(matrix_pixels(16, 16, card, scale=SCALE))
    return out


def gif(frames, path, marks=None):
    """The game as an animated GIF of its pictures() (the better actions drawn where the
    analysis' marks, if given, say an inaccuracy or a blunder was played), the last position
    and the result held; the number of frames."""
    from stonegrid import gif as gifwriter
    shown = pictures(frames, marks)
    width, height = shown[0][:2]
    last = len(frames.actions)
    gifwriter.write(path, width, height, [rgb for _, _, rgb in shown],
                    hold={last: HOLD_CS, last + 1: HOLD_CS})
    return len(shown)


def to_device(header, g, port, timeout=10.0):
    """Send the game to the board, which replays it on its LEDs (buttons step it)."""
    import time

    import serial
    from shared_rules.remote import replay_commands
    from stonegrid.device import choose
    port = choose(port)
    commands = replay_commands(header, g)
    expected = len(g.actions())
    with serial.Serial(port, 115200, timeout=0.2) as s:
        for cmd in commands:
            s.write((json.dumps(cmd) + "\n").encode())
        s.flush()
        deadline, pending = time.time() + timeout, b""
        while time.time() < deadline:
            pending += s.read(4096)
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                try:
                    reply = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    continue
                if isinstance(reply, dict) and reply.get("t") == "ok" and reply.get(
                        "cmd") == "replay" and reply.get("plies") == expected:
                    return expected
                if isinstance(reply, dict) and reply.get("t") == "error":
                    raise records.LogError("the board refused the replay: %s" % reply["error"])
    raise records.LogError("the board did not answer the replay within %g s (is the app "
                           "running? `stonegrid flash` restarts it)" % timeout)


def run(args):
    header, g = load(args.file)
    n = len(g.actions())
    frames = Frames(header, g)
    if args.to is not None and not 0 <= args.to <= n:
        raise records.LogError("--to %d: the game has %d plies (0..%d)" % (args.to, n, n))
    did = False
    marks = None
    if args.export:
        text = records.export(g, header)  # all of it first: a failure leaves OUT as it was
        try:
            with open(args.export + ".tmp", "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(args.export + ".tmp", args.export)
        except OSError as e:  # a bad path is bad input: the same status as a bad file
            raise records.file_error(args.export, e)
        print("replay: wrote %s (%d turns)" % (args.export, len(g.turns())))
        did = True
    if args.analyse:  # once, for the report and the GIF's better moves
        from stonegrid import analyse
        from stonegrid.progress import progress
        advance, finish = progress(n)
        marks = analyse.analyse(header, g, advance)
        finish()
    if args.gif:
        try:
            count = gif(frames, args.gif, marks)
        except OSError as e:
            raise records.file_error(args.gif, e)
        k = len(better_moves(marks))
        drawn = "" if marks is None else ", %d better move%s drawn" % (k, "" if k == 1 else "s")
        print("replay: wrote %s (%d frames, %d bytes%s)" % (
            args.gif, count, os.path.getsize(args.gif), drawn))
        did = True
    if args.analyse:
        sys.stdout.write(analyse.report(header, g, marks))
        did = True
    if args.device:
        plies = to_device(header, g, args.port)
        print("replay: the board shows the game (%d plies); its buttons step it" % plies)
        did = True
    color = {"always": True, "never": False}.get(args.color)
    if args.to is not None or (not did and not sys.stdin.isatty()):
        show(frames, n if args.to is None else args.to, color=color)
    elif not did:
        step(frames, n)
    return 0
