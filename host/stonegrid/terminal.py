"""Two people play one game in a terminal, through the rules API and the game's text board
(stonegrid.textboard) alone: one loop for every game."""
import getpass
import sys

from shared_rules import load

from stonegrid import textboard

REASON_TEXT = {
    "men": "fewer than three stones",
    "blocked": "no legal move",
    "repetition": "threefold repetition",
    "reserve": "empty reserve",
    "double_pass": "two passes in a row",
    "points": "reached the points to win",
    "score": "higher score",
}

COMMANDS = ("Type a move, or: 'moves' the legal moves, 'undo' takes the last action back, "
            "'help' this text, 'quit' stops.")


def help_text(board):
    return "Moves: %s.\n%s" % (board.EXAMPLES, COMMANDS)


def status(mod, g):
    if g.result() is not None:
        winner, reason = g.result()
        who = "Draw" if winner is None else "%s wins" % mod.PLAYERS[winner]
        return "%s (%s)." % (who, REASON_TEXT.get(reason, reason))
    return "%s to play." % mod.PLAYERS[g.to_move]


def secret(g):
    """True when the next action stays hidden from the other player (a Rhombus bid)."""
    legal = g.legal()
    if not legal:
        return False
    c = g.copy()
    c.play(legal[0])
    return c.hidden() > g.hidden()


def enter(g, line):
    """Play one action, or a whole turn in the game's notation (d7-d6xa1, 3:2 a1 b1)."""
    try:
        g.play(line)
    except ValueError as e:
        try:
            whole = len(g.split_turn(line)) > 1
        except ValueError:
            whole = False
        if not whole:
            raise e
        g.play_turn(line)


def read_unseen(prompt):
    """A line typed without echo on a terminal; from a pipe, plainly (nothing shows it, and
    getpass would warn that it cannot hide it)."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return input(prompt)


def play(game_id, options, read=input, write=print, read_secret=read_unseen):
    mod = load(game_id)
    board = textboard.load(game_id)
    g = mod.Game(**options)
    write("%s. %s" % (mod.NAME, help_text(board)))
    changed = True
    while True:
        if changed:
            shown = g if g.to_move is None else g.view_for(g.to_move)  # no secret on screen
            write("")
            write(board.draw(shown))
            if shown.plies():
                write("Last: %s" % shown.text(shown.last()))
            write(status(mod, g))
        if g.result() is not None:
            return g
        changed = False
        hide = secret(g)
        asked = getattr(board, "ask", None)
        prompt = "%s, %s%s> " % (mod.PLAYERS[g.to_move], asked(g) if asked else "your move",
                                 " (typed unseen)" if hide else "")
        try:
            line = (read_secret if hide else read)(prompt).strip()
        except EOFError:
            return g
        understand = getattr(board, "understand", lambda g, text: text)
        if line in ("quit", "q"):
            return g
        if line in ("help", "?"):
            write(help_text(board))
        elif line == "moves":
            write(" ".join(sorted(g.text(a) for a in g.legal())))
        elif line:
            try:
                g.undo() if line == "undo" else enter(g, understand(g, line))
                changed = True
            except ValueError as e:
                write("! %s" % e)
