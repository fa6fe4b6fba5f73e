"""Two boards, one game (firmware/README.md, "Two boards"): each board plays one side of a
game whose other side is played on another board, through a host (`stonegrid link`) that
relays lines between them and decides nothing.  Each board runs the whole game with its own
rules and journal, checks every action of the other's, and compares positions after each.
A secret action (a Rhombus bid) crosses first as a commitment, sha256 of it and a random
nonce, and is revealed only once the other board's commitment is in: neither board, nor the
host, learns a bid early or can change one later.  Loaded with the first `link` command or
a linked game."""
import json
import os
from binascii import hexlify
from hashlib import sha256

from shared_rules.record import MAX_LINE, check_json, game_line, options

from app import journal, link
from app.session import AT, at_board

PROTO = 1  # the link protocol's version: the "proto" of the link line
ID_PATH = "board-id"  # this board's id, 6 hex digits, made at its first link
SECRET_PATH = "secret.json"  # this board's own secret action and its nonce, until revealed
MAX_WHY = 100  # characters of a halt's reason

_id = None


def board_id():
    """This board's id: 6 hex digits, random, kept on the flash."""
    global _id
    if _id is None:
        try:
            with open(ID_PATH) as f:
                text = f.read(8)
            if not at_board(AT + text):
                raise ValueError(text)
        except (OSError, ValueError):  # none yet, or not one of ours: a new one
            text = hexlify(os.urandom(3)).decode()
            with open(ID_PATH, "w") as f:
                f.write(text)
            journal.sync()
        _id = text
    return _id


def digest(g):
    """8 hex digits of the position: the two boards compare them after every action."""
    return hexlify(sha256(g.position().encode()).digest()[:4]).decode()


def commitment(ply, p, text, nonce):
    """The commitment to action `text` as ply `ply` of side `p`, with `nonce` (hex)."""
    return hexlify(sha256(("%d:%d:%s:%s" % (ply, p, text, nonce)).encode()).digest()).decode()


def _again(line):
    """A record line of this board's log sent again for the other board to catch up on, in
    a sync line: not a new record, so no log takes it twice."""
    link.send({"t": "sync", "v": 1, "line": line})


def _hex(value, digits, what):
    if not (type(value) is str and len(value) == digits
            and all(c in "0123456789abcdef" for c in value)):
        raise ValueError("%s must be %d hex digits" % (what, digits))
    return value


def _int(rec, key, low=0, high=1 << 20):
    value = rec.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ValueError("%s must be a number from %d to %d" % (key, low, high))
    return value


def _text(rec, key):
    value = rec.get(key)
    if type(value) is not str or not 0 < len(value) <= 16:
        raise ValueError("%s must be text of 1 to 16 characters" % key)
    return value


class Peer:
    """This board's side of a link: the other board's id and presence, and the secret
    actions in flight.  One per app (App.linked())."""

    def __init__(self, app):
        self.app = app
        self.me = board_id()
        self.id = None  # the other board's id, from its link line
        self.present = False  # the host says the other board is there
        self.theirs = None  # the other's commitment not yet revealed: (ply, side, hash)
        self.stand_in = False  # the game holds a stand-in for the other's secret action
        self.behind = 0  # the other board's ply while this one catches up to it
        self.halted = None  # why the linked game stopped
        self.their_ply = 0  # the actions both may see on the other board, by its link line
        # the game on screen was given whole by the other board, or this board's journal
        # lost its end: only then may the other board's catch-up carry this side's actions
        self.rebuilding = False
        self.mine = None  # this board's secret action: {"ply", "p", "n", "k", "blind"}
        try:
            with open(SECRET_PATH) as f:
                text = f.read(MAX_LINE)
            check_json(text)
            self.mine = json.loads(text)
        except (OSError, ValueError):
            pass

    # -- what the app asks --------------------------------------------------------------
    def session(self):
        """The linked game being played here, or None."""
        s = getattr(self.app.screen, "session", None)
        return s if s is not None and s.seat is not None else None

    def attach(self, s):
        """A linked game comes on screen (started, received or resumed)."""
        self.theirs, self.stand_in, self.behind, self.halted = None, False, 0, None
        self.rebuilding = s.lost
        g, mine = s.game, self.mine
        if mine is not None and not (type(mine) is dict and mine.get("p") == s.seat and (
                mine.get("ply") == g.plies() + 2 if mine.get("blind") else
                mine.get("ply") == g.plies() and g.hidden() or self._played(g))):
            self._forget_secret()  # of another game, or played and known to both
        if self.mine is None and g.hidden() and g.to_move != s.seat:
            # journalled, but the power went before its nonce was kept: it was never
            # committed to, so a new nonce is as good
            self._keep_secret(g.plies(), s.seat, g.text(g.last()), False)
        self._update(s)

    def connect(self, present):
        """The host's `link` command: the other board is there, or gone (and, when it is
        back, not linked again until its link line comes)."""
        self.present = present
        if not present:
            self.id = None
        else:
            self._resume_linked()
            self.announce(ask=True)
        s = self.session()
        if s is not None:
            self._changed(s)

    def announce(self, ask=False):
        """The link line: who this board is and where its linked game stands; `ask`: the
        other board answers with its own, whatever the order in which the host told the two
        boards of each other."""
        s = self.session()
        g = s.game if s is not None else None
        line = {"t": "link", "v": 1, "proto": PROTO, "id": self.me,
                "game": self._header(s) if s is not None else None,
                "ply": g.plies() - g.hidden() if g is not None else 0}
        if ask:
            line["ask"] = True
        link.send(line)

    def play(self, a):
        """An action of this board's side (the buttons or the serial `play`)."""
        s = self.session()
        g = s.game
        if isinstance(a, str):
            a = g.parse(a)
        if self.stand_in:  # acting blind, after the other's secret: kept until both reveal
            g.play(a)  # legal? (IllegalMove leaves the game as it was)
            g.undo()
            self._keep_secret(g.plies() + 1, s.seat, g.text(a), True)
            self._commit_mine()
        else:
            p = g.to_move
            s.play(a)
            if g.hidden():  # a secret: the other board gets its commitment only
                self._keep_secret(g.plies(), p, g.text(a), False)
                self._commit_mine()
        self._changed(s)

    # -- lines from the other board -----------------------------------------------------
    def receive(self, rec, catch_up=False):
        """A line of the other board (firmware/README.md, "Two boards": who may send each
        line, and when); `catch_up`: a record of its journal sent again in a sync line."""
        if rec.get("v") != 1:
            raise ValueError("a line of format version 1, not %r" % (rec.get("v"),))
        kind = rec["t"]
        if kind == "link":
            self._link(rec)
        elif kind == "halt":
            why = rec.get("why")
            self.halt("the other board: %s" % (why if type(why) is str else "?")[:MAX_WHY],
                      tell=False)
        elif kind == "end":
            pass  # each board's own rules end the game
        elif kind == "game":
            self._game(rec, catch_up)
        elif kind == "sync":
            line = rec.get("line")
            if type(line) is not str:
                raise ValueError("sync: line must be a record line")
            check_json(line)
            inner = json.loads(line)
            if type(inner) is not dict or inner.get("t") not in ("game", "act"):
                raise ValueError("sync: a game or act record, not %r" % line[:40])
            self.receive(inner, True)
        elif kind in ("act", "commit", "reveal"):
            s = self.session()
            if s is None:
                raise ValueError("%s: no linked game is being played here" % kind)
            if self.halted is None:
                if kind == "act":
                    self._act(s, rec, catch_up)
                else:
                    getattr(self, "_" + kind)(s, rec)
                self._changed(s)
        else:
            raise ValueError("unknown line type %r" % kind[:16])

    def _link(self, rec):
        if rec.get("proto") != PROTO:
            raise ValueError("the other board speaks link protocol %r, this one %d: give both "
                             "the same firmware" % (rec.get("proto"), PROTO))
        self.id = _hex(rec.get("id"), 6, "id")
        if self.id == self.me:
            raise ValueError("a board linked to itself (both ids %s)" % self.me)
        theirs, ply = rec.get("game"), _int(rec, "ply")
        if theirs is not None and type(theirs) is not dict:
            raise ValueError("game must be a game record or null")
        self.their_ply = ply
        if rec.get("ask") is True:
            self.announce()
        if self.mine is not None:  # before any act: the other checks its acts against it
            self._commit_mine()
        s = self.session()
        if s is not None and AT + self.id in s.players:
            g = s.game
            public = g.plies() - g.hidden()
            if theirs is not None and self._same(s, theirs):
                self._send_acts(ply, public)
                self.behind = ply
            elif (theirs is None and g.result() is None) or (  # this board's game stands
                    theirs is not None and self.me < self.id):
                _again(game_line(s.game_id, s.options, s.players, ""))
                self._send_acts(0, public)
        if s is not None:
            self._settle(s)
            self._changed(s)

    def _game(self, rec, catch_up):
        players = rec.get("players")
        if type(players) is not list or AT + self.me not in players or (
                self.id is not None and AT + self.id not in players):
            raise ValueError("a game record for other boards (players %r)" % (players,))
        if rec.get("start") is not None:
            raise ValueError("a linked game starts from the start")
        s = self.session()
        if s is not None and self._same(s, rec):
            return  # the echo of this board's own
        if (s is not None and s.game.plies() == 0 and self.id is not None
                and AT + self.id in s.players and self.me < self.id):
            # both boards started a game at once: as at a link, the smaller id's stands,
            # sent again for the other board, which takes it in place of its own
            _again(game_line(s.game_id, s.options, s.players, ""))
            return
        s = None  # not held while the game on screen is let go of for this one
        self.app.command({"cmd": "new", "game": rec.get("game"), "players": players,
                          "options": rec.get("options") or {}})
        # a game sent again for this board to catch up on (it lost its own): its actions,
        # this side's too, come from the other board up to where that board stands
        self.rebuilding = catch_up

    def _act(self, s, rec, catch_up):
        g = s.game
        ply, text, a = _int(rec, "ply", 1), _text(rec, "n"), rec.get("a")
        if self.stand_in and ply == g.plies():
            # the other's secret bid in the clear, where its commitment stands: a bid is
            # only ever taken as the reveal of that commitment (it cannot change)
            self.halt("ply %d: the other board's secret action came in the clear, not as the "
                      "reveal of its commitment" % ply)
            return
        if ply <= g.plies():  # one this board has: its own echoed, or caught up already
            if a != g.last(g.plies() - ply + 1):
                self.halt("ply %d: the other board played %s there" % (ply, text))
            return
        if ply != g.plies() + 1:  # lines lost: the other board sends them again
            self.announce()
            return
        p = g.to_move
        if rec.get("p") != p:
            self.halt("ply %d: an action of side %r, where side %r acts" % (ply, rec.get("p"), p))
            return
        if p == s.seat and not (catch_up and self.rebuilding and ply <= self.their_ply):
            self.halt("ply %d: the other board sent an action of this board's side" % ply)
            return
        if self.theirs is not None and self.theirs[0] == ply:
            self.halt("ply %d: the other board's committed action came in the clear, not as "
                      "the reveal of its commitment" % ply)
            return
        try:
            s.play(text)  # journalled and logged as if played here
        except ValueError as e:
            self.halt("ply %d: %s is not legal here (%s)" % (ply, text, e))
            return
        if rec.get("d") != digest(g):
            self.halt("after ply %d the positions differ" % ply)
        if ply >= self.their_ply:
            self.rebuilding = False  # caught up: from now on only the other side's
        self.their_ply = max(self.their_ply, ply)
        self._settle(s)

    def _commit(self, s, rec):
        g = s.game
        ply, p, h = _int(rec, "ply", 1), _int(rec, "p", 0, 1), _hex(rec.get("h"), 64, "h")
        if p == s.seat:
            raise ValueError("a commitment for this board's own side")
        if ply <= g.plies() - g.hidden():
            return  # revealed here already: sent again after a cut
        if self.theirs is not None and self.theirs[0] == ply:
            if self.theirs[2] != h:
                self.halt("the other board's commitment for ply %d changed" % ply)
            return  # sent again: this board's answer went with the link line
        mine = self._pending(g)
        if mine is not None and not mine["blind"]:  # the answer to this board's
            if ply != mine["ply"] + 1:
                raise ValueError("a commitment for ply %d, where %d is due"
                                 % (ply, mine["ply"] + 1))
            self.theirs = (ply, p, h)
        else:  # the other's secret comes first: a stand-in, so that this side acts blind
            if ply != g.plies() + 1 or p != g.to_move:
                raise ValueError("a commitment for ply %d of side %d, where ply %d of side %r "
                                 "is due" % (ply, p, g.plies() + 1, g.to_move))
            g.play(g.legal()[0])  # not journalled: no one sees it (hidden) and it goes
            if not g.hidden():
                g.undo()
                self.halt("a commitment for ply %d, which is no secret" % ply)
                return
            self.stand_in, self.theirs = True, (ply, p, h)
        if self.mine is not None:
            self._reveal_mine()

    def _reveal(self, s, rec):
        g = s.game
        ply, p, text = _int(rec, "ply", 1), _int(rec, "p", 0, 1), _text(rec, "n")
        nonce = _hex(rec.get("k"), 32, "k")
        if self.theirs is None or self.theirs[:2] != (ply, p):
            if ply <= g.plies() - g.hidden():
                return  # revealed here already
            raise ValueError("a reveal for ply %d with no commitment to it" % ply)
        if commitment(ply, p, text, nonce) != self.theirs[2]:
            self.halt("the other board's reveal for ply %d (%s) does not match its "
                      "commitment" % (ply, text))
            return
        self.theirs = None
        if self.stand_in:
            g.undo()
            self.stand_in = False
        try:
            mine = self._pending(g)
            s.play(text)
            if mine is not None and mine["blind"]:
                s.play(mine["n"])
        except ValueError as e:
            self.halt("ply %d: %s is not legal here (%s)" % (ply, text, e))
            return
        self._settle(s)

    # -- this board's secret ------------------------------------------------------------
    def _keep_secret(self, ply, p, text, blind):
        self.mine = {"ply": ply, "p": p, "n": text, "k": hexlify(os.urandom(16)).decode(),
                     "blind": blind}
        with open(SECRET_PATH, "w") as f:  # before the commitment leaves: the same after a cut
            f.write(json.dumps(self.mine))
        journal.sync()

    def _forget_secret(self):
        self.mine = None
        try:
            os.remove(SECRET_PATH)
        except OSError:
            pass

    def _commit_mine(self):
        """Send this board's commitment (again, after a break: the other may have missed
        it), and reveal once the other's is in."""
        m = self.mine
        link.send({"t": "commit", "v": 1, "ply": m["ply"], "p": m["p"],
                   "h": commitment(m["ply"], m["p"], m["n"], m["k"])})
        self._reveal_mine()

    def _reveal_mine(self):
        """Reveal this board's secret once the other's commitment is in, or again when both
        are played here but the other board may have missed the reveal (a cut)."""
        m, s = self.mine, self.session()
        if self.theirs is not None or (s is not None and self._played(s.game)):
            link.send({"t": "reveal", "v": 1, "ply": m["ply"], "p": m["p"], "n": m["n"],
                       "k": m["k"]})

    def _pending(self, g):
        """This board's secret action while it is not played in the clear here, else None."""
        m = self.mine
        return m if m is not None and g.plies() - g.hidden() < m["ply"] else None

    def _played(self, g):
        """Whether this board's secret action is played in the clear here, where it was."""
        m = self.mine
        if type(m.get("ply")) is not int:
            return False
        back = g.plies() - m["ply"] + 1
        return (0 < back <= g.plies() and m["ply"] <= g.plies() - g.hidden()
                and g.text(g.last(back)) == m.get("n"))

    def _settle(self, s):
        """Let go of this board's secret once it is played in the clear here and the other
        board has shown that it holds it too (its link line or an action after it): until
        then it is revealed again whenever the pair forms, since the reveal may be lost."""
        if (self.mine is not None and self._pending(s.game) is None
                and self.their_ply >= self.mine["ply"]):
            self._forget_secret()

    # -- state ----------------------------------------------------------------------------
    def halt(self, why, tell=True):
        """Stop the linked game here (and on the other board): it can only be left."""
        self.halted = why
        link.error("linked game stopped: %s" % why)
        if tell:
            link.send({"t": "halt", "v": 1, "why": why[:MAX_WHY]})
        self._update(self.session())

    def _update(self, s):
        """What holds this board's side: the game stopped, the other board away, a blind
        action waiting for the reveals, or lines to catch up on."""
        if s is None:
            return
        g = s.game
        mine = self._pending(g)
        s.hold = ("halt" if self.halted else "away" if not (self.present and self.id) else
                  "wait" if (mine is not None and mine["blind"]) or
                  g.plies() - g.hidden() < self.behind else None)
        self.app.dirty = True

    def _changed(self, s):
        self._update(s)
        if self.app.screen is not None and getattr(self.app.screen, "session", None) is s:
            self.app.screen.changed()

    def _same(self, s, rec):
        return (rec.get("game") == s.game_id and rec.get("players") == list(s.players)
                and options(rec.get("options") or {}) == s.options)

    @staticmethod
    def _header(s):
        return {"t": "game", "v": 1, "game": s.game_id, "options": s.options,
                "players": list(s.players)}

    def _send_acts(self, after, upto):
        """The journal's act lines of plies after..upto, as they were written."""
        if upto <= after:
            return
        with open(journal.PATH) as f:
            while True:
                line = f.readline()
                if not line:
                    break
                if '"act"' in line:
                    ply = json.loads(line).get("ply")
                    if after < ply <= upto:
                        _again(line.rstrip("\n"))

    def _resume_linked(self):
        """A linked game left for the menu (a long BACK) comes back when the pair forms."""
        app = self.app
        if self.session() is not None or not app.unfinished:
            return
        try:
            with open(journal.PATH) as f:
                head = f.read(MAX_LINE).split("\n", 1)[0]
            check_json(head)
            players = json.loads(head).get("players")
        except (OSError, ValueError, AttributeError):
            return
        if type(players) is list and players and at_board(players[0]):
            from app.heap import only

            only(app.unfinished[0])
            app.unfinished = None
            app.resume()
