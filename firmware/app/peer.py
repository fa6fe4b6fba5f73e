"""Two boards, one game (firmware/README.md, "Two boards"): each board plays one side of a
game whose other side is played on another board, through a host (`stonegrid link`) that
relays lines between them and decides nothing.  Each board runs the whole game with its own
rules and journal, checks every action of the other's, and compares positions after each.
This module pairs the boards (presence, the link line) and exchanges their turns; a secret
action (a Rhombus bid) crosses by commitment and reveal (app.sealed); who is who and the
position's digest are app.boards'.  Loaded with the first `link` command or a linked game."""
import json

from shared_rules.record import check_json, game_line, options

from app import wire
from app.boards import board_id, digest, hex_field, int_field, text_field
from app.session import AT, at_board
from app.sealed import Sealed

PROTO = 1  # the link protocol's version: the "proto" of the link line
MAX_WHY = 100  # characters of a halt's reason


def _again(line):
    """A record line of this board's log sent again for the other board to catch up on, in
    a sync line: not a new record, so no log takes it twice."""
    wire.send({"t": "sync", "v": 1, "line": line})


class Peer:
    """This board's side of a link: the other board's id and presence, and the secret
    actions in flight.  One per app (App.linked())."""

    def __init__(self, app):
        self.app = app
        self.me = board_id()
        self.id = None  # the other board's id, from its link line
        self.present = False  # the host says the other board is there
        self.behind = 0  # the other board's ply while this one catches up to it
        self.halted = None  # why the linked game stopped
        self.their_ply = 0  # the actions both may see on the other board, by its link line
        # the game on screen was given whole by the other board, or this board's journal
        # lost its end: only then may the other board's catch-up carry this side's actions
        self.rebuilding = False
        self.sealed = Sealed()  # the secret actions in flight

    # -- what the app asks --------------------------------------------------------------
    def session(self):
        """The linked game being played here, or None."""
        s = self.app.session()
        return s if s is not None and s.seat is not None else None

    def attach(self, s):
        """A linked game comes on screen (started, received or resumed)."""
        self.behind, self.halted = 0, None
        self.rebuilding = s.lost
        self.sealed.attach(s)
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
        wire.send(line)

    def play(self, a):
        """An action of this board's side (the buttons or the serial `play`)."""
        s = self.session()
        g = s.game
        if isinstance(a, str):
            a = g.parse(a)
        self.sealed.play(s, a)
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
                    self._sealed(s, rec)
                self._changed(s)
        else:
            raise ValueError("unknown line type %r" % kind[:16])

    def _link(self, rec):
        if rec.get("proto") != PROTO:
            raise ValueError("the other board speaks link protocol %r, this one %d: give both "
                             "the same firmware" % (rec.get("proto"), PROTO))
        self.id = hex_field(rec.get("id"), 6, "id")
        if self.id == self.me:
            raise ValueError("a board linked to itself (both ids %s)" % self.me)
        theirs, ply = rec.get("game"), int_field(rec, "ply")
        if theirs is not None and type(theirs) is not dict:
            raise ValueError("game must be a game record or null")
        self.their_ply = ply
        if rec.get("ask") is True:
            self.announce()
        s = self.session()
        self.sealed.send(s)  # before any act: the other checks its acts against it
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
        ply, text, a = int_field(rec, "ply", 1), text_field(rec, "n"), rec.get("a")
        sealed = self.sealed
        if sealed.stand_in and ply == g.plies():
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
        if sealed.theirs is not None and sealed.theirs[0] == ply:
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

    def _sealed(self, s, rec):
        """A commitment or a reveal of the other board's (app.sealed)."""
        if rec["t"] == "commit":
            why = self.sealed.commit(s, rec)
        else:
            why = self.sealed.reveal(s, rec)
            if why is None:
                self._settle(s)
        if why is not None:
            self.halt(why)

    def _settle(self, s):
        self.sealed.settle(s.game, self.their_ply)

    # -- state ----------------------------------------------------------------------------
    def halt(self, why, tell=True):
        """Stop the linked game here (and on the other board): it can only be left."""
        self.halted = why
        wire.error("linked game stopped: %s" % why)
        if tell:
            wire.send({"t": "halt", "v": 1, "why": why[:MAX_WHY]})
        self._update(self.session())

    def _update(self, s):
        """What holds this board's side: the game stopped, the other board away, a blind
        action waiting for the reveals, or lines to catch up on."""
        if s is None:
            return
        g = s.game
        s.set_hold("halt" if self.halted else "away" if not (self.present and self.id) else
                   "wait" if self.sealed.waiting(g) or g.plies() - g.hidden() < self.behind
                   else None)
        self.app.redraw()

    def _changed(self, s):
        self._update(s)
        if self.app.session() is s:
            self.app.screen.changed()

    def _same(self, s, rec):
        return (rec.get("game") == s.game_id and rec.get("players") == list(s.players)
                and options(rec.get("options") or {}) == s.options)

    @staticmethod
    def _header(s):
        return {"t": "game", "v": 1, "game": s.game_id, "options": s.options,
                "players": list(s.players)}

    def _send_acts(self, after, upto):
        """The journal's act lines of plies after..upto, sent again as they were written."""
        if upto > after:
            from app import journal_read

            for line in journal_read.act_lines(after, upto):
                _again(line)

    def _resume_linked(self):
        """A linked game left for the menu (a long BACK) comes back when the pair forms."""
        if self.session() is not None or not self.app.unfinished:
            return
        from app import journal_read

        try:
            players = journal_read.header().get("players")
        except (OSError, ValueError):
            return
        if type(players) is list and players and at_board(players[0]):
            self.app.resume_unfinished()
