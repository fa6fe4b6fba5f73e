"""Two virtual boards, each the real firmware in MicroPython behind its own pty, joined by
`stonegrid link` (the real host tool, over pyserial): a whole game of each game by button
presses split between the boards, the frames of both checked after every action against the
views; a power cut mid-game; and the same through --serve / --join on 127.0.0.1.  Both
boards' logs must be the same game, and `stonegrid replay` must take each."""
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from boardkit import Board
from shared_rules import GAMES, load
from test_board import SCALE, Mirror
from views import palette

STONEGRID = [sys.executable, "-m", "stonegrid.cli"]
RECORDS = ("game", "act", "end")


def records(board):
    """The records the board has written (its serial output as the sim keeps it)."""
    out = []
    for line in board.client.output().splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if type(obj) is dict and obj.get("t") in RECORDS:
            out.append(obj)
    return out


def wait_for(pred, what, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("timeout: %s" % what)
        time.sleep(0.05)


class Seat(Mirror):
    """One board's side: the game as that board holds it, and the view state its own presses
    and the records keep equal to the board's (no cursor while the other side is to act)."""

    def __init__(self, header, seat, scale=SCALE):
        self.seat = seat
        super().__init__(header, scale)
        self.stand_in = False
        self._cursor()

    def _cursor(self):
        self.ui.cursor_hidden = self.game.to_move != self.seat
        self.view.sync(self.game, self.ui)

    def apply(self, rec):
        if self.stand_in:
            self.game.undo()
            self.stand_in = False
        if rec["ply"] <= self.game.plies():
            return
        super().apply(rec)
        self._cursor()

    def blind(self):
        """The other side's secret is in: this board holds a stand-in for it."""
        self.game.play(self.game.legal()[0])
        self.stand_in = True
        self._cursor()


def linked_pair(tmp_path, how="local", boards=None):
    """Two booted boards (serial ports free for the host; virtual boards unless given) and
    the `stonegrid link` process(es) between them."""
    if boards is None:
        boards = [Board(tmp_path / name, settings={"device_delay_ms": 0}) for name in "ab"]
    for b in boards:
        b.serial.ask({"cmd": "hello"}, timeout=60)
        b.serial.close()  # the port is the host tool's from here on
    out = str(tmp_path / "logs")

    def host(name, *args):  # what it prints goes to a file: a pipe nobody reads fills up
        said = tmp_path / ("%s.txt" % name)
        return subprocess.Popen(STONEGRID + ["link"] + list(args), stdout=said.open("w"),
                                stderr=subprocess.STDOUT), said
    if how == "local":
        procs = [host("link", boards[0].sim.serial, boards[1].sim.serial, "--out", out)[0]]
    else:
        port = str(_free_port())
        server, said = host("serve", boards[0].sim.serial, "--serve", "--port", port,
                            "--out", out + "/a")
        code = wait_for(lambda: _pairing_code(said), "the pairing code", 20)
        client = host("join", boards[1].sim.serial, "--join", "127.0.0.1:" + port, "--code",
                      code, "--out", out + "/b")[0]
        procs = [server, client]
    return boards, procs, out


def _free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pairing_code(said):
    for line in said.read_text().splitlines():
        if "code" in line.lower():
            return line.strip().split()[-1]
    return None


def stop(boards, procs):
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()

    for b in boards:
        b.sim.stop()


def linked_output(board):
    """True once the board was told of the other (its own link line is out)."""
    return '"t": "link"' in board.client.output()


def link_lines(board):
    return board.client.output().count('"t": "link"')


BELOW_HELP = 7 * 16 * 3  # the Setup screen's bytes under its top row (its help scrolls there)


def linked_setup(game_id, scale=SCALE):
    """The frame of a linked board's Setup screen: P1 ME (the value row and the item dots:
    compare from BELOW_HELP)."""
    from types import SimpleNamespace

    from app.menu import Setup
    from views.canvas import Canvas
    app = SimpleNamespace(peer=SimpleNamespace(present=True, me="000000", id="111111"),
                          unfinished=None)
    c = Canvas()
    Setup(app, game_id).render(c, 0)
    return bytes(scale[v] for v in c.buf)


def start_game(a, game_id, scale=SCALE):
    """On board a, by buttons: the menu's game, Setup once it offers ME (the other board's
    link line has come), OK; the game record."""
    games = list(GAMES)
    for _ in range(games.index(game_id)):
        a.client.press("right")
    want = linked_setup(game_id, scale)
    for _ in range(20):
        a.client.press("ok")
        try:
            a.client.wait_until(lambda f: f.rgb[BELOW_HELP:] == want[BELOW_HELP:], timeout=2)
            break
        except Exception:
            a.client.press("back")  # not linked yet: back to the menu, and again
    a.client.press("ok")
    return wait_for(lambda: [r for r in records(a) if r["t"] == "game"], "a game record")[-1]


def short_seed(game_id, tries=40):
    """A seed whose random game is short, so that a whole game by presses stays quick."""
    best = None
    for seed in range(tries):
        rng, g = random.Random(seed), load(game_id).Game()
        while g.result() is None and g.plies() < 400:
            acts = g.legal()
            g.play(acts[rng.randrange(len(acts))])
        if g.result() is not None and (best is None or g.plies() < best[1]):
            best = (seed, g.plies())
    return best[0]


def frames_agree(board, seat):
    seat.wait_shown(board.client)


def play_by_presses(boards, header, rng, cut=None, plies=1000, scales=(SCALE, SCALE)):
    """Both sides by buttons, each on its own board, frames checked on both after each
    action (`scales`: each board's brightness table), until the end (or `plies`); cut(referee)
    may cut a board's power and returns which.  Returns the referee."""
    seats = [Seat(header, 0, scales[0]), Seat(header, 1, scales[1])]
    referee = load(header["game"]).Game()
    while referee.plies() < plies:
        if referee.result() is not None:
            break
        p = referee.to_move
        board, seat = boards[p], seats[p]
        frames_agree(board, seat)  # its side may act: the cursor is up
        acts = referee.legal()
        a = acts[rng.randrange(len(acts))]
        for button, kind in seat.view.keys_for(seat.game, seat.ui, a):
            assert board.client.press(button, long=kind == "long"), "a press not taken"
            seat.view.handle(seat.game, seat.ui, button, kind, 0)
        referee.play(a)
        if referee.hidden():  # a secret bid: the other board bids blind, then both reveal
            seats[1 - p].blind()
            if not seat.stand_in:
                seat.game.play(a)
                seat._cursor()
            frames_agree(boards[1 - p], seats[1 - p])  # the commitment is there: its turn
            _cut(cut, referee, seats)
            continue
        ply = referee.plies()
        for b, s in zip(boards, seats):
            recs = wait_for(lambda: [r for r in records(b) if r["t"] == "act"
                                     and r["ply"] == ply], "ply %d on a board" % ply)
            del recs
            for r in records(b):
                if r["t"] == "act" and r["ply"] > s.game.plies() - s.stand_in:
                    s.apply(r)
        for b, s in zip(boards, seats):
            assert s.game.position() == referee.position()
            frames_agree(b, s)
        _cut(cut, referee, seats)
    assert referee.result() is not None or referee.plies() >= plies
    return referee


def _cut(cut, referee, seats):
    victim = cut(referee) if cut is not None else None
    if victim is not None:  # the board starts its view afresh
        s = seats[victim]
        s.ui = s.view.new_ui(s.game)
        s.ui.colours = palette.stones(s.game_id)
        s._cursor()


def same_logs(out, ended=True):
    """The log files of both boards: the same records, each replayed by `stonegrid replay`."""
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs
                   if f.endswith(".jsonl"))
    assert len(files) == 2, files
    games = []
    for path in files:
        with open(path) as f:
            games.append([json.loads(line) for line in f if line.strip()])
        check = subprocess.run(STONEGRID + ["replay", path, "--to", "0"], capture_output=True,
                               text=True, timeout=60)
        assert check.returncode == 0, check.stderr
    strip = [[dict((k, v) for k, v in r.items() if k != "fw") for r in g] for g in games]
    assert strip[0] == strip[1], [(sorted(x.items()), sorted(y.items())) for x, y in
                                  zip(*strip) if x != y][:3] or [len(g) for g in strip]
    assert games[0][-1]["t"] == "end" or not ended
    return games[0]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_on_two_linked_boards(tmp_path, game_id):
    boards, procs, out = linked_pair(tmp_path)
    try:
        a, b = boards
        wait_for(lambda: linked_output(a) and linked_output(b), "both boards linked")
        header = start_game(a, game_id)
        assert header["players"][0].startswith("human@")
        wait_for(lambda: [r for r in records(b) if r["t"] == "game"], "the game on board b")
        referee = play_by_presses(boards, header, random.Random(short_seed(game_id)))
        for board in boards:
            wait_for(lambda: [r for r in records(board) if r["t"] == "end"], "the end")
    finally:
        stop(boards, procs)
    log = same_logs(out)
    assert sum(r["t"] == "act" for r in log) == referee.plies()
    # the host tells each move once, and the game's start and end; each board's logs are in
    # a folder named by the date and the board's id
    said = (tmp_path / "link.txt").read_text().splitlines()
    moves = [line for line in said if re.match(r"link: +\d+\. ", line)]
    assert len(moves) == referee.plies(), said[-20:]
    assert len([line for line in said if line.startswith("link: new game: %s" % game_id)]) == 1
    assert len([line for line in said if line.startswith("link: game over: ")]) == 1, said[-5:]
    ids = sorted(h["players"][i][len("human@"):] for h in [header] for i in (0, 1))
    assert sorted(re.sub(r"^\d{8}-", "", d) for d in os.listdir(out)) == ids, os.listdir(out)


def test_a_power_cut_on_one_board_mid_game_loses_nothing(tmp_path):
    boards, procs, out = linked_pair(tmp_path)
    rng = random.Random(7)
    cuts = []

    def cut(referee):
        """Board 0 while its second bid is secret (committed, not revealed); board 1
        between two placements later."""
        ply = referee.plies()
        due = (len(cuts) == 0 and referee.hidden() and ply > 2) or (
            len(cuts) == 1 and not referee.hidden() and ply > cuts[0] + 3)
        if not due:
            return None
        victim = len(cuts)
        links = [link_lines(b) for b in boards]
        boards[victim].client.kill()
        cuts.append(ply)
        # the pair formed again: each board has asked for the other's link line and
        # answered the other's question (so each knows the other is back)
        wait_for(lambda: all(link_lines(b) >= n + 2 for b, n in zip(boards, links)),
                 "the boards linked again", 30)
        return victim
    try:
        a, b = boards
        wait_for(lambda: linked_output(a) and linked_output(b), "both boards linked")
        header = start_game(a, "rhombus")
        wait_for(lambda: [r for r in records(b) if r["t"] == "game"], "the game on board b")
        play_by_presses(boards, header, rng, cut=cut)
    finally:
        stop(boards, procs)
    assert len(cuts) == 2
    same_logs(out)


def test_two_boards_through_serve_and_join_on_this_machine(tmp_path):
    boards, procs, out = linked_pair(tmp_path, how="tcp")
    try:
        a, b = boards
        wait_for(lambda: linked_output(a) and linked_output(b), "both boards linked", 40)
        header = start_game(a, "mixtour")
        wait_for(lambda: [r for r in records(b) if r["t"] == "game"], "the game on board b")
        play_by_presses(boards, header, random.Random(short_seed("mixtour")))
    finally:
        stop(boards, procs)
    same_logs(out)


class Middle:
    """A man in the middle on 127.0.0.1 between `--join` and `--serve`, as anyone on the
    network could be: passes every byte on and keeps a copy (what a passive observer sees),
    and may flip one byte of the joiner's `flip`-th line after pairing."""

    def __init__(self, server_port, flip=None):
        import socket
        import threading
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.server_port = server_port
        self.flip, self.flipped = flip, False
        self.seen = bytearray()
        self.connections = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        import socket
        import threading
        while True:  # the joiner comes back after a drop
            joiner, _ = self.listener.accept()
            self.connections += 1
            try:
                server = socket.create_connection(("127.0.0.1", self.server_port))
            except OSError:  # the server is gone (the test is over): so is this joiner
                joiner.close()
                continue
            for src, dst, change in ((joiner, server, True), (server, joiner, False)):
                threading.Thread(target=self._pipe, args=(src, dst, change),
                                 daemon=True).start()

    def _pipe(self, src, dst, change):
        lines, sealed = 0, False  # lines passed; past the ':' of a sealed line
        while True:
            try:
                chunk = src.recv(4096)
            except OSError:  # the other direction's end closed this socket: the link is down
                chunk = b""
            if not chunk:  # its end closed: so does the other (a shutdown wakes its reader)
                for sock in (dst, src):
                    try:
                        sock.shutdown(2)
                    except OSError:
                        pass
                dst.close()
                return
            self.seen += chunk
            if change and self.flip is not None and not self.flipped:
                for k, byte in enumerate(chunk):
                    if byte == 10:
                        lines, sealed = lines + 1, False
                    elif byte == 58:
                        sealed = True
                    elif lines == self.flip + 2 and sealed:
                        chunk = chunk[:k] + (b"1" if byte != 49 else b"2") + chunk[k + 1:]
                        self.flipped = True  # a digit of a sealed line's hex changed
                        break
            try:
                dst.sendall(chunk)
            except OSError:  # closed by the other direction's end
                return


def test_what_crosses_the_network_is_sealed_and_an_altered_line_is_refused(tmp_path):
    """A Rhombus turn through `--serve` and `--join` with a man in the middle: what he sees
    holds no pairing code, no bid and no move; one byte he changes in a sealed line is
    refused and the connection closed, the joiner comes back by the session's key (not the
    code), and the boards finish the turn with the bids as made."""
    boards = []
    for name in ("a", "b"):
        b = Board(tmp_path / name, settings={"device_delay_ms": 0})
        b.serial.ask({"cmd": "hello"})
        b.serial.close()
        boards.append(b)
    port = _free_port()
    said = tmp_path / "serve.txt"
    procs = [subprocess.Popen(STONEGRID + ["link", boards[0].sim.serial, "--serve", "--port",
                                           str(port), "--out", str(tmp_path / "a")],
                              stdout=said.open("w"), stderr=subprocess.STDOUT)]
    try:
        code = wait_for(lambda: _pairing_code(said), "the pairing code", 20)
        middle = Middle(port, flip=0)  # the joiner's first sealed line: its board's link
        procs.append(subprocess.Popen(
            STONEGRID + ["link", boards[1].sim.serial, "--join", "127.0.0.1:%d" % middle.port,
                         "--code", code, "--out", str(tmp_path / "b")],
            stdout=(tmp_path / "join.txt").open("w"), stderr=subprocess.STDOUT))
        a, b = boards
        wait_for(lambda: middle.connections >= 2, "the joiner back after the altered line")
        header = start_game(a, "rhombus")
        seats = [Seat(header, 0), Seat(header, 1)]
        for board, seat, bid in ((a, seats[0], "bid2"), (b, seats[1], "bid3")):
            wait_for(lambda: [r for r in records(board) if r["t"] == "game"], "the game")
            frames_agree(board, seat)
            g = seat.game
            for button, kind in seat.view.keys_for(g, seat.ui, g.parse(bid)):
                board.client.press(button, long=kind == "long")
                seat.view.handle(g, seat.ui, button, kind, 0)
            if board is a:
                seats[1].blind()
        for board in boards:
            wait_for(lambda: [r for r in records(board) if r["t"] == "act" and r["ply"] == 2],
                     "both bids played", 30)
            bids = [r["n"] for r in records(board) if r["t"] == "act"]
            assert bids == ["bid2", "bid3"] and "linked game stopped" not in \
                board.client.output()
    finally:
        stop(boards, procs)
    assert middle.flipped and "altered on the way" in said.read_text(), said.read_text()
    seen = bytes(middle.seen)
    for secret in (code.encode(), code.replace("-", "").encode(), b"bid", b'"act"',
                   b'"reveal"', b'"commit"', b'"t"'):
        assert secret not in seen, secret


class FakePeer:
    """The other board, played by the test over `stonegrid link --serve`'s TCP port with the
    right pairing code, as the other player could: it answers the link lines, starts games
    and writes whatever lines it likes."""

    def __init__(self, port, code):
        import socket

        from stonegrid import link, pairing
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.channel = pairing.join(self.sock, link._normal(code))
        self.file = self.sock.makefile("rb")
        self.id = "abcdef"
        self.seen = []

    def send(self, obj):
        self.channel.send(json.dumps(obj).encode())

    def wait(self, pred, what):
        while True:
            raw = self.file.readline()
            assert raw, "the link closed while waiting for %s; seen %s" % (what, self.seen[-5:])
            obj = json.loads(self.channel.open(raw.rstrip(b"\n")))
            self.seen.append(obj)
            if pred(obj):
                return obj

    def link(self):
        """The honest board's link line, answered with ours; its id."""
        theirs = self.wait(lambda o: o.get("t") == "link", "the board's link line")
        self.send({"t": "link", "v": 1, "proto": 1, "id": self.id, "game": None, "ply": 0})
        return theirs["id"]

    def close(self):
        self.sock.close()


def _act(g, text, p):
    """The act line of `text` by side p in game g, digest right (the honest board's own)."""
    from app.boards import digest
    c = g.copy()
    a = c.parse(text)
    c.play(a)
    return {"t": "act", "v": 1, "ply": c.plies(), "p": p, "a": a, "n": text, "d": digest(c)}


def test_forged_actions_from_a_fake_peer_are_refused_by_the_board(tmp_path):
    """Issue 33's two forgeries, over a real link to a virtual board: an action for the
    board's own side with the right digest, and a Rhombus bid changed after the board's
    bid was revealed. The board halts, keeps its game and journal, and says why."""
    a = Board(tmp_path / "a", settings={"device_delay_ms": 0})
    a.serial.ask({"cmd": "hello"}, timeout=60)
    a.serial.close()
    port = _free_port()
    said = tmp_path / "serve.txt"
    procs = [subprocess.Popen(STONEGRID + ["link", a.sim.serial, "--serve", "--port", str(port),
                                           "--out", str(tmp_path / "logs")],
                              stdout=said.open("w"), stderr=subprocess.STDOUT)]
    try:
        fake = FakePeer(port, wait_for(lambda: _pairing_code(said), "the pairing code", 20))
        honest = fake.link()
        players = ["human@" + fake.id, "human@" + honest]
        for game_id in ("morris", "rhombus"):
            fake.send({"t": "game", "v": 1, "game": game_id, "options": {},
                       "players": players, "fw": ""})
            header = wait_for(lambda: [r for r in records(a) if r["t"] == "game"
                                       and r["game"] == game_id], "the peer's game")[-1]
            g = load(game_id).Game()
            if game_id == "morris":
                first = _act(g, "d7", 0)
                fake.send(first)  # the peer's own action: taken
                g.play("d7")
                wait_for(lambda: [r for r in records(a) if r["t"] == "act"], "ply 1 taken")
                forgery = _act(g, "a1", 1)  # the board's own side
                why = "ply 2: the other board sent an action of this board's side"
            else:
                from app.sealed import commitment
                fake.send({"t": "commit", "v": 1, "ply": 1, "p": 0,
                           "h": commitment(1, 0, "bid1", "00" * 16)})
                seat = Seat(header, 1)
                seat.blind()
                frames_agree(a, seat)
                sg = seat.game
                for button, kind in seat.view.keys_for(sg, seat.ui, sg.parse("bid3")):
                    a.client.press(button, long=kind == "long")
                    seat.view.handle(sg, seat.ui, button, kind, 0)
                fake.wait(lambda o: o.get("t") == "reveal", "the board's bid revealed")
                forgery = _act(g, "bid4", 0)  # the peer's bid, changed, in the clear
                why = "ply 1: the other board's secret action came in the clear"
            before = records(a)
            fake.send(forgery)
            fake.wait(lambda o: o.get("t") == "halt", "the board's halt")
            wait_for(lambda: "linked game stopped: " + why in a.client.output(), why, 10)
            assert records(a) == before  # nothing of the forgery journalled or logged
        fake.close()
    finally:
        stop([a], procs)
