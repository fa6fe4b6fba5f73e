"""What every game module shares: errors, result reasons, options, the Game base class.

Runs unchanged on MicroPython and CPython.  A game subclass supplies:
  ID, OPTIONS (tuple of (name, default)), _check_option(name, value) -> value,
  legal(), text(a), _parse(s) -> action (syntax only), _is_legal(a), play_unchecked(a),
  undo(), copy(), position(), set_position(s), _turn_start(), split_turn(s), join_turn(texts),
  actions() (the list of every action played), plies() (how many: len(actions()) without
  building the list) and last(back=1) (the action `back` plies ago, None before the first;
  the views and records look back a few plies of a long game without copying it).
It keeps `to_move` (0 or 1, None once the game is over) in step with its state and result.

Two things MicroPython in particular pays for shape the subclasses.  `to_move` is a plain
attribute, not a property: a property in a class makes MicroPython look every attribute
stored on its instances up in the class first (~30 us a store on the RP2040).  And the
methods of this class called on every ply (play, result) are bound again in a subclass
(`play = Game.play`): a method is sought among the instance's attributes, then in each class
in turn, and a miss in a nearly full class dict (MicroPython grows one only once it is full)
scans most of it.
"""


# MicroPython looks a builtin up in the module's globals first and then in a second table:
# a module global is one look-up, where play() tests the type of every action.
_type, _int = type, int


class IllegalMove(ValueError):
    """A well-formed action that the rules do not allow now."""


class NotationError(ValueError):
    """Text that is not an action (or turn, or position) of this game."""


class OptionError(ValueError):
    """An unknown game option, or a value out of its range."""


# Result reasons, shared so that the UI and logs can name them uniformly.
MEN = "men"                # Morris: fewer than 3 stones
BLOCKED = "blocked"        # the player to move has no legal action
REPETITION = "repetition"  # threefold repetition: draw
RESERVE = "reserve"        # GIPF: must move with an empty reserve
DOUBLE_PASS = "double_pass"  # Mixtour: two passes in a row
POINTS = "points"          # Mixtour: reached the points to win
SCORE = "score"            # Rhombus: the higher score once the board is full
ABANDONED = "abandoned"    # left unfinished for good (an end record only, no rules' result)


class Game:
    ID = ""
    OPTIONS = ()
    # True for a game in which an action may stay hidden from the other player for a while
    # (hidden(), view_for(): Rhombus's sealed bids); the search then treats such choices as
    # made at the same time (shared_rules/search.py, "Hidden information")
    SECRETS = False

    def __init__(self, **options):
        known = [name for name, _ in self.OPTIONS]
        for name in options:
            if name not in known:
                raise OptionError("unknown option %r for %s (options: %s)" % (
                    name, self.ID, ", ".join(known) or "none"))
        self.options = {}
        for name, default in self.OPTIONS:
            value = options.get(name, default)
            self.options[name] = self._check_option(name, value)
        self._result = None
        self.to_move = 0  # a plain attribute, kept in step by the game (module docstring)
        self._start = None  # position text when set_position() was used, else None

    def _check_option(self, name, value):
        return value

    @staticmethod
    def _check_bool(name, value):
        if value is not True and value is not False:
            raise OptionError("option %s must be True or False, not %r" % (name, value))
        return value

    # -- the shared surface ----------------------------------------------------------------
    def result(self):
        return self._result

    def parse(self, s):
        if not isinstance(s, str):
            raise NotationError("expected notation text, got %r" % (s,))
        a = self._parse(s.strip())
        if not self._is_legal(a):
            raise IllegalMove("%s is not legal now%s" % (s.strip(), self._why_over()))
        return a

    def play(self, a):
        if _type(a) is not _int:  # one test for the common case (a bool is not an int here)
            if not isinstance(a, str):
                raise IllegalMove("action %r is not legal now%s" % (a, self._why_over()))
            a = self.parse(a)
        elif not self._is_legal(a):
            raise IllegalMove("action %r is not legal now%s" % (a, self._why_over()))
        self.play_unchecked(a)

    # -- hidden information (Rhombus bids); the defaults suit games of perfect information --
    def view_for(self, p):
        """What player p may see and search: a copy without what p must not know."""
        return self.copy()

    def hidden(self):
        """How many of the last actions are still secret: logs show them once revealed."""
        return 0

    def _why_over(self):
        return " (the game is over)" if self._result is not None else ""

    def _is_legal(self, a):
        return a in self.legal()

    # -- whole turns -------------------------------------------------------------------------
    def play_turn(self, s):
        """Play a whole turn in standard notation; on any error the state is unchanged."""
        if not isinstance(s, str):
            raise NotationError("expected a turn in notation, got %r" % (s,))
        if not self._turn_start():
            raise IllegalMove("a turn is already under way")
        done = 0
        try:
            for part in self.split_turn(s):
                self.play(part)
                done += 1
            if self._result is None and not self._turn_start():
                raise IllegalMove("incomplete turn %r" % s)
        except ValueError:
            for _ in range(done):
                self.undo()
            raise

    def at_turn_start(self):
        """True when the side to move begins a turn (not in the middle of one: a Morris
        removal after a mill, a GIPF row to take)."""
        return self._turn_start()

    def turns(self):
        """The game so far as a list of whole-turn notation strings.  Each action's text
        needs the position before it: the game is taken back to its start and played again
        (no second game in the heap, at the end of a long one; undo restores exactly)."""
        acts = self.actions()
        for _ in acts:
            self.undo()
        turns = []
        for a in acts:
            if self._turn_start() or not turns:
                turns.append([])
            turns[-1].append(self.text(a))
            self.play_unchecked(a)
        return [self.join_turn(t) for t in turns]

