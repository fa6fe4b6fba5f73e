"""A person's aids at one board, on the Play screen: a hint (a hold of OK), a warning before a
move the device sees lose (Setup's WRN), taking back (BACK).  Loaded the first time one is
used: a game played without them keeps this code out of the heap, and the names it would
intern there for good (the small heap's room for a game counts them)."""
HINT_LEVEL = "normal"  # of the device's suggestion, and of its look at a person's move
WARNING = ("SURE?", "LOSS")  # the message shown by turns with the board after a warning


def ask(play, a, seed, now):
    """The aid a press asks for, under way (Play.aid), or None: a hint for a hold of OK
    (`a` None), else the look at the person's action `a` before it is played."""
    return hint(play, seed, now) if a is None else check(play, a, seed)


def hint(play, seed, now):
    """The search for the device's suggestion for the person to move (a Hint), or None where
    the game has hints turned off (Setup), refused so the person sees it."""
    from shared_rules import search  # (not kept here: it leaves the heap with a game's end)

    s = play.session
    if not s.hints:
        play.ui.refuse(now)
        return None
    g = s.game
    return Hint(search.start(g, g.to_move, s.companion(), HINT_LEVEL, seed))


class Hint:
    def __init__(self, thinking):
        self.thinking = thinking

    def step(self, play, now):
        """A slice of the search (Play.slice); once done, True, and the view is
        brought to the hinted action one press short of playing it (the presses keys_for
        gives, but the last): OK then plays it, anything else goes on."""
        if not play.slice(self.thinking, now):
            return False
        s, view = play.session, play.view
        for button, kind in view.keys_for(s.game, play.ui, self.thinking.best)[:-1]:
            view.handle(s.game, play.ui, button, kind, now)
        play.ui.touch(now)  # the cursor lit where it went
        s.got_hint()
        play.app.redraw()
        return True


def check(play, a, seed):
    """The look, at HINT_LEVEL, at the person's action `a` before it is played (a Check), the
    game itself unchanged; None, and the action played, where there is nothing to look at
    (the game over, or a secret the side then to move may not see, a Rhombus bid)."""
    from shared_rules import search

    s = play.session
    g = s.game
    p = g.to_move
    h = g.view_for(p)
    h.play(a)
    if h.result() is not None or h.hidden():
        play.app.play(a)
        return None
    return Check(a, search.Search(h, p, s.ai, search.budget(s.ai, HINT_LEVEL),
                                  search.Rng(seed), value_only=True))


class Check:
    def __init__(self, action, thinking):
        self.action = action
        self.thinking = thinking

    def step(self, play, now):
        """A slice of the search; once done, True, and the action is played, or, where the
        search sees the person lose by force, the warning is up (the same action made again
        is played: Play.warned)."""
        from shared_rules.search import WIN

        t = self.thinking
        if not play.slice(t, now):
            return False
        if t.value > -WIN // 2:
            play.app.play(self.action)
            return True
        play.warn(self.action, WARNING, now)
        return True


def take_back(play, now):
    """BACK at one board.  Between two people: the last ply, and a secret it made visible
    again (a Rhombus bid).  Against the device: the person's last turn and the device's reply
    to it, the plies back to the start of the last turn a person made here, and the device's
    secret that the person has seen since (a Rhombus bid: the device bids again).  An undo
    line for each (Session.undo); refused, changing nothing, where there is nothing to take
    back (the device has made the only turn so far).  At one board, once a ply is made."""
    s = play.session
    g = s.game
    if not s.has_device():
        s.undo()
        while g.hidden() and g.plies():
            s.undo()
        play.changed()
        return
    back, n, theirs = g.copy(), 0, False
    while back.plies() and not (theirs and back.at_turn_start() and not back.hidden()):
        back.undo()
        n += 1
        theirs = theirs or s.players[back.to_move] == "human"
    if not theirs:
        play.ui.refuse(now)
        return
    for _ in range(n):
        s.undo()
    play.changed()
