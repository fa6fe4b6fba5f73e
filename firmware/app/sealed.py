"""Secret actions between two linked boards (a Rhombus bid), by commitment and reveal: a
secret crosses first as a commitment, sha256 of it and a random nonce, and is revealed only
once the other board's commitment is in, so that neither board, nor the host, learns a bid
early or can change one later.  This board's secret and its nonce are kept on the flash
until both boards hold it in the clear: the same after a power cut.  Part of app.peer."""
import json
import os
from binascii import hexlify
from hashlib import sha256

from shared_rules.record import MAX_LINE, check_json

from app import journal, wire
from app.boards import hex_field, int_field, text_field

SECRET_PATH = "secret.json"  # this board's own secret action and its nonce, until revealed


def commitment(ply, p, text, nonce):
    """The commitment to action `text` as ply `ply` of side `p`, with `nonce` (hex)."""
    return hexlify(sha256(("%d:%d:%s:%s" % (ply, p, text, nonce)).encode()).digest()).decode()


class Sealed:
    """The secrets in flight: this board's (`mine`, {"ply", "p", "n", "k", "blind"}: blind
    when played after the other's secret, unseen) and the other's commitment not yet
    revealed (`theirs`, (ply, side, hash)); `stand_in`: the game holds a stand-in for the
    other's secret action.  Methods that find the other board at fault return why (the
    peer halts the game), those given a line that is no line of the protocol raise
    ValueError."""

    def __init__(self):
        self.theirs = None
        self.stand_in = False
        self.mine = None
        try:
            with open(SECRET_PATH) as f:
                text = f.read(MAX_LINE)
            check_json(text)
            self.mine = json.loads(text)
        except (OSError, ValueError):
            pass

    def attach(self, s):
        """A linked game comes on screen (started, received or resumed)."""
        self.theirs, self.stand_in = None, False
        g, mine = s.game, self.mine
        if mine is not None and not (type(mine) is dict and mine.get("p") == s.seat and (
                mine.get("ply") == g.plies() + 2 if mine.get("blind") else
                mine.get("ply") == g.plies() and g.hidden() or self.played(g))):
            self._forget()  # of another game, or played and known to both
        if self.mine is None and g.hidden() and g.to_move != s.seat:
            # journalled, but the power went before its nonce was kept: it was never
            # committed to, so a new nonce is as good
            self._keep(g.plies(), s.seat, g.text(g.last()), False)

    def play(self, s, a):
        """An action of this board's side: played, or kept blind after the other's secret;
        a secret one leaves as its commitment only."""
        g = s.game
        if self.stand_in:  # acting blind, after the other's secret: kept until both reveal
            g.play(a)  # legal? (IllegalMove leaves the game as it was)
            g.undo()
            self._keep(g.plies() + 1, s.seat, g.text(a), True)
            self.send(s)
        else:
            p = g.to_move
            s.play(a)
            if g.hidden():  # a secret: the other board gets its commitment only
                self._keep(g.plies(), p, g.text(a), False)
                self.send(s)

    def commit(self, s, rec):
        """The other board's commitment line."""
        g = s.game
        ply, p = int_field(rec, "ply", 1), int_field(rec, "p", 0, 1)
        h = hex_field(rec.get("h"), 64, "h")
        if p == s.seat:
            raise ValueError("a commitment for this board's own side")
        if ply <= g.plies() - g.hidden():
            return None  # revealed here already: sent again after a cut
        if self.theirs is not None and self.theirs[0] == ply:
            if self.theirs[2] != h:
                return "the other board's commitment for ply %d changed" % ply
            return None  # sent again: this board's answer went with the link line
        mine = self.pending(g)
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
                return "a commitment for ply %d, which is no secret" % ply
            self.stand_in, self.theirs = True, (ply, p, h)
        if self.mine is not None:
            self._reveal(s)
        return None

    def reveal(self, s, rec):
        """The other board's reveal line: its secret played here, and this board's blind
        action after it."""
        g = s.game
        ply, p, text = int_field(rec, "ply", 1), int_field(rec, "p", 0, 1), text_field(rec, "n")
        nonce = hex_field(rec.get("k"), 32, "k")
        if self.theirs is None or self.theirs[:2] != (ply, p):
            if ply <= g.plies() - g.hidden():
                return None  # revealed here already
            raise ValueError("a reveal for ply %d with no commitment to it" % ply)
        if commitment(ply, p, text, nonce) != self.theirs[2]:
            return "the other board's reveal for ply %d (%s) does not match its " \
                   "commitment" % (ply, text)
        self.theirs = None
        if self.stand_in:
            g.undo()
            self.stand_in = False
        try:
            mine = self.pending(g)
            s.play(text)
            if mine is not None and mine["blind"]:
                s.play(mine["n"])
        except ValueError as e:
            return "ply %d: %s is not legal here (%s)" % (ply, text, e)
        return None

    def send(self, s):
        """Send this board's commitment (again, after a break: the other may have missed
        it), and reveal once the other's is in."""
        m = self.mine
        if m is None:
            return
        wire.send({"t": "commit", "v": 1, "ply": m["ply"], "p": m["p"],
                   "h": commitment(m["ply"], m["p"], m["n"], m["k"])})
        self._reveal(s)

    def _reveal(self, s):
        """Reveal this board's secret once the other's commitment is in, or again when both
        are played here but the other board may have missed the reveal (a cut)."""
        m = self.mine
        if self.theirs is not None or (s is not None and self.played(s.game)):
            wire.send({"t": "reveal", "v": 1, "ply": m["ply"], "p": m["p"], "n": m["n"],
                       "k": m["k"]})

    def pending(self, g):
        """This board's secret action while it is not played in the clear here, else None."""
        m = self.mine
        return m if m is not None and g.plies() - g.hidden() < m["ply"] else None

    def waiting(self, g):
        """This board's side acted blind and waits for the reveals."""
        m = self.pending(g)
        return m is not None and m["blind"]

    def played(self, g):
        """Whether this board's secret action is played in the clear here, where it was."""
        m = self.mine
        if type(m.get("ply")) is not int:
            return False
        back = g.plies() - m["ply"] + 1
        return (0 < back <= g.plies() and m["ply"] <= g.plies() - g.hidden()
                and g.text(g.last(back)) == m.get("n"))

    def settle(self, g, their_ply):
        """Let go of this board's secret once it is played in the clear here and the other
        board has shown that it holds it too (its link line or an action after it, up to
        `their_ply`): until then it is revealed again whenever the pair forms, since the
        reveal may be lost."""
        if (self.mine is not None and self.pending(g) is None
                and their_ply >= self.mine["ply"]):
            self._forget()

    def _keep(self, ply, p, text, blind):
        self.mine = {"ply": ply, "p": p, "n": text, "k": hexlify(os.urandom(16)).decode(),
                     "blind": blind}
        with open(SECRET_PATH, "w") as f:  # before the commitment leaves: the same after a cut
            f.write(json.dumps(self.mine))
        journal.sync()

    def _forget(self):
        self.mine = None
        try:
            os.remove(SECRET_PATH)
        except OSError:
            pass
