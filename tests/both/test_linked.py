"""Two linked boards (app.peer), each a whole app with its own journal, in one process, with a
relay between them that does what `stonegrid link` does: it passes on the relayed lines of
firmware/README.md ("Two boards") and nothing else, and says `link` to each board as the
pair forms and breaks.  Both runtimes."""
import json
import random
import time

from app import boards, core, journal, sealed, wire
from app.session import AT
from hal import unix
from shared_rules import GAMES
from shared_rules.reader import Reader

from helpers import remove_tree, scratch_dir
from test_device_app import Clock

RELAYED = ("link", "game", "act", "end", "commit", "reveal", "halt", "sync")


class Board:
    """One board: its app, its flash (a folder), and what it wrote on its serial link.
    The app's modules are shared by the two boards of a test, so their per-board names (the
    journal's path, the link's output, the board's id) are swapped in for each call."""

    def __init__(self, name):
        self.name = name
        self.folder = scratch_dir("linked-" + name)
        self.out = []  # every line written, as dicts
        self.id = None
        self.boot()

    def __enter__(self):
        self.saved = (wire.send, journal.PATH, boards.ID_PATH, sealed.SECRET_PATH, boards._id)
        wire.send = self._send
        journal.PATH = self.folder + "/journal.jsonl"
        boards.ID_PATH, sealed.SECRET_PATH = self.folder + "/board-id", self.folder + "/secret.json"
        boards._id = self.id

    def __exit__(self, *exc):
        self.id = boards._id
        wire.send, journal.PATH, boards.ID_PATH, sealed.SECRET_PATH, boards._id = self.saved

    def _send(self, line):
        self.out.append(json.loads(line) if isinstance(line, str) else line)

    def boot(self):
        """Power on (again): a new app from what the flash holds, as app.core.App.run does."""
        with self:
            self.app = core.App(unix.make({}))
            self.app.resume()
            if self.id is None:
                self.id = boards.board_id()

    def line(self, obj):
        """One line on the board's serial link, answered as the board answers it."""
        with self:
            wire._dispatch(json.dumps(obj).encode(), self.app.command)

    def session(self):
        return getattr(self.app.screen, "session", None)

    def records(self):
        """The journal as records."""
        with open(self.folder + "/journal.jsonl") as f:
            return [json.loads(line) for line in f if line.strip()]

    def errors(self):
        return [o["error"] for o in self.out if o.get("t") == "error"]

    def close(self):
        remove_tree(self.folder)


class Relay:
    """The host between two boards: relays, and nothing else; `tamper` may change a line."""

    def __init__(self, a, b, tamper=None):
        self.boards = (a, b)
        self.seen = [len(a.out), len(b.out)]
        self.up = [True, True]  # each board powered and plugged in
        self.tamper = tamper
        self.chaos = None  # random numbers (seeded): then a board may lose its power as a line comes

    def pair(self):
        for b in self.boards:
            b.line({"cmd": "link", "peer": True})
        self.pump()

    def pump(self):
        moved, lines = True, 0
        while moved:
            moved = False
            lines += 1
            assert lines < 200, "the boards never settle: they answer each other for ever"
            for i in (0, 1):
                src, dst = self.boards[i], self.boards[1 - i]
                while self.seen[i] < len(src.out):
                    obj = src.out[self.seen[i]]
                    self.seen[i] += 1
                    if obj.get("t") in RELAYED and self.up[1 - i]:
                        if self.chaos is not None and self.chaos.random() < 0.03:
                            self.cut(1 - i)  # the line is lost with the power
                            moved = True
                            continue
                        if self.tamper:
                            obj = self.tamper(obj)
                        dst.line(obj)
                        moved = True

    def cut(self, i):
        """Board i loses its power (what is in flight to it is lost) and comes back."""
        self.up[i] = False
        self.boards[1 - i].line({"cmd": "link", "peer": False})
        self.pump()
        self.boards[i].boot()
        self.seen[i] = len(self.boards[i].out)
        self.up[i] = True
        self.pair()


def linked(fn, tamper=None):
    saved = core.time
    if not hasattr(time, "ticks_ms"):
        core.time = Clock()
    a, b = Board("a"), Board("b")
    try:
        relay = Relay(a, b, tamper)
        relay.pair()
        fn(a, b, relay)
    finally:
        core.time = saved
        a.close()
        b.close()


def start(a, b, relay, game_id):
    a.line({"cmd": "new", "game": game_id, "players": [AT + a.id, AT + b.id]})
    relay.pump()


def mover(a, b):
    """The board whose side may act now, or None."""
    for board in (a, b):
        s = board.session()
        if s is not None and s.human_to_move():
            return board
    return None


def seeded(seed):
    """The random module seeded (MicroPython has no random.Random)."""
    random.seed(seed)
    return random


def play_random(a, b, relay, rng, max_plies=400, cut=None):
    """Random actions, each on the board whose side it is, until the game ends; `cut(ply)`
    may cut a board's power."""
    for n in range(max_plies):
        board = mover(a, b)
        if board is None:
            break
        g = board.session().game
        acts = g.legal()
        board.line({"cmd": "play", "action": g.text(acts[rng.randrange(len(acts))])})
        relay.pump()
        if cut is not None:
            cut(n)
    for board in (a, b):
        assert not board.errors(), (board.name, board.errors())


def same_game(a, b):
    """Both journals hold the same records, a whole game that the reader takes."""
    ra, rb = a.records(), b.records()
    assert ra == rb, (ra[-3:], rb[-3:])
    reader = Reader()
    for rec in ra:
        reader.feed(json.dumps(rec))
    return reader


def test_every_game_played_on_two_linked_boards_gives_one_game_on_both():
    for k, game_id in enumerate(GAMES):
        def go(a, b, relay):
            start(a, b, relay, game_id)
            assert b.session().players == (AT + a.id, AT + b.id) and b.session().seat == 1
            play_random(a, b, relay, seeded(k))
            for board in (a, b):
                assert board.session().game.result() is not None, game_id
            reader = same_game(a, b)
            assert reader.game.result() is not None and reader.ended
        linked(go)


def test_a_bid_crosses_as_a_commitment_and_is_revealed_only_after_the_others():
    def go(a, b, relay):
        start(a, b, relay, "rhombus")
        a.line({"cmd": "play", "action": "bid3"})  # Black, on board a
        relay.pump()
        shown = [o for o in a.out if o.get("t") in RELAYED]
        assert shown[-1]["t"] == "commit" and "bid3" not in json.dumps(shown)
        sb = b.session()
        assert sb.game.position() == a.session().game.position()  # '?' on both
        assert sb.human_to_move()  # White bids blind
        b.line({"cmd": "play", "action": "bid1"})
        relay.pump()
        for board in (a, b):
            g = board.session().game
            assert (g.bid(0), g.bid(1), g.hidden()) == (3, 1, 0), board.name
        same_game(a, b)
        kinds = [o["t"] for o in a.out + b.out if o.get("t") in ("commit", "reveal")]
        assert kinds == ["commit", "reveal", "commit", "reveal"], kinds
    linked(go)


def test_a_reveal_changed_on_the_way_stops_the_game_on_both_boards():
    def tamper(obj):
        if obj.get("t") == "reveal" and obj["p"] == 1:
            obj = dict(obj)
            obj["n"] = "bid4"
        return obj

    def go(a, b, relay):
        start(a, b, relay, "rhombus")
        a.line({"cmd": "play", "action": "bid2"})
        relay.pump()
        b.line({"cmd": "play", "action": "bid1"})
        relay.pump()
        for board in (a, b):
            assert board.session().hold == "halt", board.name
            assert not board.session().human_to_move()
        assert any("does not match its commitment" in e for e in a.errors())
        g = a.session().game  # a's own bid only, still secret: the changed one never played
        assert (g.plies(), g.hidden(), len(a.records())) == (1, 1, 2)
    linked(go, tamper)


def test_an_illegal_or_mismatched_action_from_the_other_board_stops_the_game():
    def go(a, b, relay):
        start(a, b, relay, "morris")
        a.line({"cmd": "play", "action": "a1"})
        relay.pump()
        ply = b.session().game.plies()
        b.line({"t": "act", "v": 1, "ply": ply + 1, "p": 0, "a": 0, "n": "zz9", "d": "0"})
        assert b.session().hold == "halt" and b.session().game.plies() == ply
        relay.pump()
        assert a.session().hold == "halt"
    linked(go)

    def go2(a, b, relay):
        start(a, b, relay, "morris")
        b.line({"t": "act", "v": 1, "ply": 1, "p": 0, "a": 0, "n": "a1", "d": "00000000"})
        relay.pump()
        assert any("positions differ" in e for e in b.errors())
        assert a.session().hold == b.session().hold == "halt"
    linked(go2)


def test_the_side_of_the_other_board_takes_no_input_here():
    def go(a, b, relay):
        start(a, b, relay, "mixtour")
        assert a.session().human_to_move() and not b.session().human_to_move()
        b.line({"cmd": "play", "action": a.session().game.text(a.session().game.legal()[0])})
        assert b.session().game.plies() == 0 and "other board" in b.errors()[-1]
        b.line({"cmd": "undo"})
        assert "take-backs" in b.errors()[-1]
    linked(go)


def test_a_board_away_pauses_the_game_on_the_other():
    def go(a, b, relay):
        start(a, b, relay, "morris")
        a.line({"cmd": "link", "peer": False})
        assert a.session().hold == "away" and not a.session().human_to_move()
        relay.pair()  # the host says so to both boards when the pair forms again
        assert a.session().hold is None and a.session().human_to_move()
    linked(go)


def test_power_cuts_at_random_points_lose_nothing_and_play_nothing_twice():
    for k, game_id in enumerate(GAMES):
        rng = seeded(100 + k)

        def go(a, b, relay):
            start(a, b, relay, game_id)
            relay.chaos = rng  # also as lines arrive: those in flight are lost

            def cut(n):
                if rng.random() < 0.1:
                    relay.cut(rng.randrange(2))
            play_random(a, b, relay, rng, cut=cut)
            reader = same_game(a, b)
            assert reader.game.result() is not None, game_id
        linked(go)


def test_a_board_that_lost_its_journal_gets_the_game_from_the_other():
    def go(a, b, relay):
        start(a, b, relay, "gipf")
        play_random(a, b, relay, seeded(5), max_plies=12)
        import os
        os.remove(b.folder + "/journal.jsonl")
        relay.cut(1)
        assert b.session() is not None and b.session().game.plies() == 12
        same_game(a, b)
    linked(go)


def test_setup_on_a_linked_board_chooses_who_begins_and_the_other_board_follows():
    def go(a, b, relay):
        with a:
            a.app.press("ok", "press", 0)  # the menu's first game
            setup = a.app.screen
            game_id = setup.game_id
            assert [item[0] for item in setup.items][0] == "P1" and setup.values["P1"] == AT + a.id
            a.app.press("right", "press", 0)  # P1: YOU, the other board begins
            assert setup.values["P1"] == AT + b.id
            a.app.press("ok", "press", 0)
        relay.pump()
        assert a.session().players == b.session().players == (AT + b.id, AT + a.id)
        assert b.session().game_id == game_id and b.session().seat == 0
        assert b.session().human_to_move() and not a.session().human_to_move()
        with a:
            a.app.screen.tick(0)  # no device thinks for the other board's side
        assert a.session().game.plies() == 0
    linked(go)


def test_two_games_started_at_once_become_one():
    def go(a, b, relay):
        a.line({"cmd": "new", "game": "morris", "players": [AT + a.id, AT + b.id]})
        b.line({"cmd": "new", "game": "mixtour", "players": [AT + a.id, AT + b.id]})
        relay.pump()  # the two game records cross
        smaller = a if a.id < b.id else b
        sa, sb = a.session(), b.session()
        assert sa.game_id == sb.game_id == smaller.session().game_id
        assert sa.game_id == ("morris" if smaller is a else "mixtour")
        play_random(a, b, relay, seeded(9), max_plies=6)
        assert not a.errors() and not b.errors()
        assert a.session().game.plies() == b.session().game.plies() == 6
    linked(go)


# A board never takes its peer's word (firmware/README.md, "Two boards": who may send each
# line, and when). Board a plays honestly up to a point; then the test, as a peer that knows
# the game and the pairing, writes to board b what a could: b refuses each forgery, keeps
# its journal and its game as they were, and says why.

def forged(board, obj):
    """Board b gets `obj` from its peer; (its journal, its plies) before, for unchanged()."""
    before = (board.records(), board.session().game.plies())
    board.line(obj)
    return before


def unchanged(board, before, halted=True, said=True):
    assert (board.records(), board.session().game.plies()) == before
    assert (board.session().hold == "halt") == halted, board.session().hold
    assert bool(board.errors()) == said, board.errors()


def act(g, text, ply=None, p=None):
    """The act line a peer would write for `text` in game g (the digest after it right)."""
    c = g.copy()
    a = c.parse(text)
    p = c.to_move if p is None else p
    c.play(a)
    return {"t": "act", "v": 1, "ply": c.plies() if ply is None else ply, "p": p, "a": a,
            "n": text, "d": boards.digest(c)}


def test_an_action_for_this_boards_own_side_is_refused():
    def go(a, b, relay):
        start(a, b, relay, "morris")
        a.line({"cmd": "play", "action": "d7"})  # the peer's own, legal: taken
        relay.pump()
        g = b.session().game
        assert g.plies() == 1 and g.to_move == b.session().seat
        for line in (act(g, "a1"), {"t": "sync", "v": 1, "line": json.dumps(act(g, "a1"))}):
            before = forged(b, line)
            unchanged(b, before)
            assert "an action of this board's side" in b.errors()[-1], b.errors()
    linked(go)

    def claimed(a, b, relay):  # the peer's side claimed, at a ply where b's side acts
        start(a, b, relay, "morris")
        a.line({"cmd": "play", "action": "d7"})
        relay.pump()
        unchanged(b, forged(b, act(b.session().game, "a1", p=0)))
        assert "an action of side 0, where side 1 acts" in b.errors()[-1]
        relay.pump()
        assert a.session().hold == "halt"  # the halt reaches the other board
    linked(claimed)


def test_an_action_out_of_turn_or_of_another_ply_is_refused():
    def go(a, b, relay):
        start(a, b, relay, "morris")
        g = b.session().game
        ahead = act(g, "a1", ply=5)  # lines lost, maybe: it asks for them again
        unchanged(b, forged(b, ahead), halted=False, said=False)
        assert b.out[-1]["t"] == "link"
        a.line({"cmd": "play", "action": "d7"})
        relay.pump()
        wrong = act(g, "a1", ply=1)  # a ply both hold, another action there
        unchanged(b, forged(b, wrong))
        assert "ply 1: the other board played a1 there" in b.errors()[-1]
    linked(go)


def test_a_bid_changed_after_the_others_was_revealed_is_refused():
    """The issue's second forgery: the peer commits to bid1, sees this board's bid revealed,
    then sends a plain act of bid4 for its own ply with the right digest."""
    def go(a, b, relay):
        start(a, b, relay, "rhombus")
        a.line({"cmd": "play", "action": "bid1"})  # Black on a: its commitment only
        relay.pump()
        relay.up[0] = False  # from here the peer is the test: nothing of b's reaches a
        b.line({"cmd": "play", "action": "bid3"})  # White bids blind, commits and reveals
        assert [o["t"] for o in b.out[-2:]] == ["commit", "reveal"]
        g = b.session().game
        g.undo()  # what the peer's game would show: bid4 at ply 1, the right digest
        forgery = act(g, "bid4", ply=1, p=0)
        g.play(g.legal()[0])  # the stand-in again
        unchanged(b, forged(b, forgery))
        assert "came in the clear, not as the reveal of its commitment" in b.errors()[-1]
        assert not b.session().human_to_move()
    linked(go)


def test_a_commitment_for_the_wrong_side_or_ply_is_refused():
    h = "0" * 64

    def go(a, b, relay):
        start(a, b, relay, "rhombus")
        for line in ({"t": "commit", "v": 1, "ply": 1, "p": 1, "h": h},  # b's own side
                     {"t": "commit", "v": 1, "ply": 3, "p": 0, "h": h}):  # not the ply due
            unchanged(b, forged(b, line), halted=False)
        assert "own side" in b.errors()[-2] and "where ply 1 of side 0" in b.errors()[-1]
        a.line({"cmd": "play", "action": "bid2"})
        relay.pump()
        commit = [o for o in a.out if o.get("t") == "commit"][-1]
        changed = dict(commit, h="f" * 64)
        unchanged(b, forged(b, changed))
        assert "commitment for ply 1 changed" in b.errors()[-1]
    linked(go)


def test_a_reveal_with_no_commitment_or_not_matching_it_is_refused():
    def go(a, b, relay):
        start(a, b, relay, "rhombus")
        reveal = {"t": "reveal", "v": 1, "ply": 1, "p": 0, "n": "bid4", "k": "0" * 32}
        unchanged(b, forged(b, reveal), halted=False)
        assert "no commitment" in b.errors()[-1]
        a.line({"cmd": "play", "action": "bid2"})
        relay.pump()
        relay.up[0] = False
        b.line({"cmd": "play", "action": "bid1"})
        unchanged(b, forged(b, reveal))  # with a commitment in: bid4 is not what it holds
        assert "does not match its commitment" in b.errors()[-1]
    linked(go)


def test_lines_the_protocol_does_not_have_or_that_decide_nothing_change_nothing():
    def go(a, b, relay):
        start(a, b, relay, "morris")
        a.line({"cmd": "play", "action": "d7"})
        relay.pump()
        for line in ({"t": "undo", "v": 1, "ply": 1},  # no take-backs between boards
                     {"t": "end", "v": 1, "ply": 1, "result": [0, "men"]},  # rules decide
                     {"t": "sync", "v": 1, "line": json.dumps({"t": "end", "v": 1})},
                     {"t": "game", "v": 1, "game": "morris", "options": {},
                      "players": [AT + "abcdef", AT + "fedcba"]},  # other boards' game
                     {"t": "link", "v": 1, "proto": 2, "id": "abcdef", "game": None, "ply": 0},
                     {"t": "link", "v": 1, "proto": 1, "id": b.id, "game": None, "ply": 0}):
            before = forged(b, line)
            assert (b.records(), b.session().game.plies()) == before, line
            assert b.session().game.result() is None and b.session().hold is None, line
        assert len(b.errors()) == 5, b.errors()  # the end record is ignored, not refused
    linked(go)
