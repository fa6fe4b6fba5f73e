"""Two people play one game in a terminal, through the rules API alone."""
from shared_rules import load

REASON_TEXT = {
    "men": "fewer than three stones",
    "blocked": "no legal move",
    "repetition": "threefold repetition",
    "reserve": "empty reserve",
    "double_pass": "two passes in a row",
    "points": "reached the points to win",
    "score": "higher score",
}

_MORRIS_ART = """\
7 {a7}-----------{d7}-----------{g7}
  |           |           |
6 |   {b6}-------{d6}-------{f6}   |
  |   |       |       |   |
5 |   |   {c5}---{d5}---{e5}   |   |
  |   |   |       |   |   |
4 {a4}---{b4}---{c4}       {e4}---{f4}---{g4}
  |   |   |       |   |   |
3 |   |   {c3}---{d3}---{e3}   |   |
  |   |       |       |   |
2 |   {b2}-------{d2}-------{f2}   |
  |           |           |
1 {a1}-----------{d1}-----------{g1}
  a   b   c   d   e   f   g"""


def diagram(mod, g):
    """The board as text: Morris gets its drawing, other games their position line."""
    if mod.ID == "morris":
        marks = {}
        for i, name in enumerate(mod.POINTS):
            owner = g.stone_at(i)
            marks[name] = "+" if owner is None else "RG"[owner]
        return _MORRIS_ART.format(**marks)
    return g.position()


def status(mod, g):
    if g.result() is not None:
        winner, reason = g.result()
        who = "Draw" if winner is None else "%s wins" % mod.PLAYERS[winner]
        return "%s (%s)." % (who, REASON_TEXT.get(reason, reason))
    return "%s to play." % mod.PLAYERS[g.to_move]


HELP = ("Type a move in the game's notation (e.g. d7, d7-d6, xa1, or a whole turn d7-d6xa1),\n"
        "'moves' for the legal moves, 'undo' to take one back, 'quit' to stop.")


def play(game_id, options, read=input, write=print):
    mod = load(game_id)
    g = mod.Game(**options)
    write("%s. %s" % (mod.NAME, HELP))
    while True:
        write("")
        write(diagram(mod, g))
        write(status(mod, g))
        if g.result() is not None:
            return g
        try:
            line = read("> ").strip()
        except EOFError:
            return g
        if line in ("quit", "q"):
            return g
        if line in ("moves", "?"):
            write(" ".join(sorted(g.text(a) for a in g.legal())))
        elif line == "undo":
            try:
                g.undo()
            except ValueError as e:
                write("! %s" % e)
        elif line:
            try:
                if len(g.split_turn(line)) > 1:
                    g.play_turn(line)
                else:
                    g.play(line)
            except ValueError as e:
                write("! %s" % e)
