"""One game being played: the rules, who plays each side, and the record of every action,
journalled on flash and sent on the serial wire before the display shows it."""
from shared_rules import load, record

from app import VERSION, journal, wire

# Who plays a side: a person, or the device opponent at a level (shared_rules/search.py).
# "device" alone is the default level (records written before the levels existed say so).
# Every game has these; some add steps between normal and hard (players_of(ai)).
PLAYERS = ("human", "device:beginner", "device:easy", "device:normal", "device:hard")
DEVICE = "device:"


# The aids a person may turn on or off (the Setup screen), each with its default: a game
# record names those set otherwise.  hints: a hold of OK shows the device's move; warn: the
# device warns before a move it sees lose; targets: what OK may act on glows.
AIDS = (("hints", True), ("warn", False), ("targets", True))


# A person at one of two linked boards (app.peer): "human@" and that board's id, 6 hex digits.
AT = "human@"


def level(who):
    """The device opponent's level for a player value, None for a human."""
    if who.startswith("human"):
        return None
    return "normal" if who == "device" else who[len(DEVICE):]


def players_of(ai):
    """The player values of a game whose device opponent is the companion module ai."""
    from shared_rules import search

    return ("human",) + tuple(DEVICE + lv for lv in search.levels(ai))


def at_board(who):
    """True if `who` is a person at a linked board ("human@3f9a07")."""
    return (type(who) is str and len(who) == len(AT) + 6 and who.startswith(AT)
            and all(c in "0123456789abcdef" for c in who[len(AT):]))


def check_players(players):
    """ValueError unless `players` names the two sides' players: "human", "device" or the
    device at a level ("device:...": the game's levels are check_levels's to check), or two
    people at two different linked boards."""
    if len(players) != 2:
        raise ValueError("two players, not %d" % len(players))
    linked = [at_board(who) for who in players]
    if linked[0] or linked[1]:
        if not (linked[0] and linked[1]) or players[0] == players[1]:
            raise ValueError("a linked game is between people at two boards, "
                             "\"human@<id>\" each, not %r" % (list(players),))
        return
    for who in players:
        if type(who) is not str or (who != "human" and who != "device"
                                    and not who.startswith(DEVICE)):
            raise ValueError("a player is one of %s or \"device\", not %r"
                             % (", ".join('"%s"' % p for p in PLAYERS), who))


def check_levels(game_id, players):
    """ValueError unless each device player's level is one of the game's: some games add
    steps between normal and hard (shared_rules.search.levels), others have none."""
    # every game has PLAYERS: the companion is loaded for the other levels only
    others = [who for who in players
              if who not in PLAYERS and who != "device" and level(who) is not None]
    if others:
        from shared_rules import search

        known = players_of(search.load_ai(game_id))
        for who in others:
            if who not in known:
                raise ValueError("a %s player is one of %s, not %r" % (
                    game_id, ", ".join('"%s"' % p for p in known), who))


class Session:
    def __init__(self, game_id, options=None, players=("human", "human"), game=None,
                 lost=False, aids=None):
        check_players(players)
        # the journal this game was resumed from lost its end (a cut): a linked board may
        # then take this side's lost actions from the other board's catch-up (app.peer)
        self.lost = lost
        self.game_id = game_id
        self.game = game if game is not None else load(game_id).Game(**(options or {}))
        self.options = self.game.options
        self.players = tuple(players)
        # in a linked game (app.peer): the side played here, and why it may not act now
        # (None, or a word the display shows: the other board away, the game stopped)
        self.seat = self.hold = None
        if at_board(players[0]):
            from app.boards import board_id

            me = AT + board_id()
            self.seat = players.index(me) if me in players else None
            if self.seat is None:
                raise ValueError("a linked game of two other boards (%s)" % ", ".join(players))
        on = dict(AIDS)  # `aids`: {name: true or false} of those set otherwise
        on.update(aids or {})
        self.hints = on["hints"] and self.seat is None  # never between two boards
        self.warn = on["warn"] and self.has_device()  # a device is to see the loss
        self.targets = on["targets"]  # views.UI.show_targets
        self.hinted = None  # the ply of the action after a hint (app.aids), until played
        self.lines = []  # record lines kept back from the serial wire while secret
        if game is not None and game.hidden():  # journalled secret actions, not sent yet
            from app.heap import forget
            from app.secret import held_back  # rarely needed: not kept in the heap

            self.lines = held_back(game, self.seat is not None)
            forget("app", "secret")
        self.ai = None  # the game's companion module for the device opponent, if one plays
        if self.has_device():
            from shared_rules import search

            self.ai = search.load_ai(game_id)
            check_levels(game_id, players)
        else:  # people: the device's code, which the Setup screen loaded for its levels,
            self._let_go_of_the_device()  # leaves the heap (a hint loads it again)

    def begin(self):
        aids = dict((name, getattr(self, name)) for name, on in AIDS if getattr(self, name) != on)
        line = record.game_line(self.game_id, self.options, self.players, VERSION, aids=aids)
        journal.begin(line)
        wire.send(line)

    def set_hold(self, why):
        """What holds this board's side of a linked game (app.peer): None, or a word the
        display shows (HOLDS in app.play)."""
        self.hold = why

    def human_to_move(self):
        """A person at this board may act now (in a linked game: only on its own side's turn,
        while nothing holds it)."""
        p = self.game.to_move
        if p is None:
            return False
        if self.seat is not None:
            return p == self.seat and self.hold is None
        return self.players[p] == "human"

    def has_device(self):
        return not (self.players[0].startswith("human") and self.players[1].startswith("human"))

    def think(self, seed):
        """Start the device's choice for the side to move: an object whose step(work) returns
        True once its `best` action is ready (shared_rules.search.start).  It sees only what
        that side may see (Rhombus bids)."""
        from shared_rules import search

        p = self.game.to_move
        return search.start(self.game, p, self.ai, level(self.players[p]), seed)

    def companion(self):
        """The game's companion module for the device's search (shared_rules.search.load_ai):
        in a game of two people, loaded for a hint (app.aids)."""
        if self.ai is None:
            from shared_rules import search

            self.ai = search.load_ai(self.game_id)
        return self.ai

    def got_hint(self):
        """A hint is shown (app.aids): the record says so with the action that follows it."""
        self.hinted = self.game.plies() + 1

    def aids(self):
        """{name: on} of each of AIDS in this game."""
        return dict((name, getattr(self, name)) for name, _ in AIDS)

    def ponder(self, seed):
        """While a person is to act against the device: the device's thinking on their time
        (shared_rules.ponder), or None where there is none to do (no device here, two
        devices, a game with secrets, the beginner level: it is to overlook moves)."""
        g = self.game
        if g.to_move is None or g.SECRETS or self.seat is not None:
            return None
        p = 1 - g.to_move
        who = level(self.players[p])
        if who is None or level(self.players[g.to_move]) is not None:
            return None
        from shared_rules.search import BEGINNER  # loaded already, with the device

        if who == BEGINNER:
            return None
        from shared_rules.ponder import Ponder  # not in the heap of other games

        return Ponder(g, p, self.ai, who, seed)

    def play(self, a):
        """Play an action (int or notation); IllegalMove leaves everything unchanged."""
        g = self.game
        p = g.to_move
        if isinstance(a, str):
            a = g.parse(a)
        g.play(a)
        digest = None
        if self.seat is not None:  # the other board checks its position against this
            from app import boards

            digest = boards.digest(g)
        lines = [record.act_line(g.plies(), p, a, g.text(a), digest)]
        if self.hinted == g.plies():  # with the act line it goes with, kept back with it
            lines[0] = record.hint_line(g.plies(), p) + "\n" + lines[0]  # while secret
        self.hinted = None
        if g.result() is not None:
            lines.append(record.end_line(g))
        try:
            journal.append("\n".join(lines))  # one write, the end line with its action
        except OSError:
            g.undo()  # not on flash: as if it never happened
            raise
        self.lines += lines
        self._publish()
        if g.result() is not None and self.ai is not None:
            self._let_go_of_the_device()

    def _let_go_of_the_device(self):
        """The game is over, or is between people: the device opponent's code leaves the
        heap (the room the end of a long game needs, for its record and the `state` of all
        its turns); a new game loads it again."""
        from app.heap import forget

        later = getattr(self.ai, "LOADS", ())  # what the companion loads when needed
        self.ai = None
        for name in ("search", self.game_id + "_ai", "simultaneous", "ponder") + later:
            forget("shared_rules", name)

    def _publish(self):
        """Send the record lines that are no longer secret (a Rhombus bid waits for the
        other bid); the journal on flash has them all at once."""
        keep = self.game.hidden()
        while len(self.lines) > keep:
            wire.send(self.lines.pop(0))

    def undo(self):
        g = self.game
        ply = g.plies()
        if not ply:
            raise ValueError("nothing to take back")
        g.undo()
        self.hinted = None  # a hint is for the position it was given in
        line = record.undo_line(ply)
        journal.append(line)
        if self.lines:  # never sent: nothing to take back on the wire
            self.lines.pop()
        else:
            wire.send(line)
