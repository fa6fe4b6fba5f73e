"""After a restart: the record lines of a journalled game's actions that are still secret (a
Rhombus bid), which app.session holds back as it does for one just played, so that the serial
wire gets them once they are revealed.  Loaded only then."""
from shared_rules import record

from app.boards import digest  # loaded with this module: after a restart only


def held_back(g, linked=False):
    """The act lines of g's hidden actions, oldest first, with the position's digest in a
    linked game (app.peer); g is left as it was."""
    secret = []
    for _ in range(g.hidden()):
        secret.append(g.last())
        g.undo()
    lines = []
    while secret:
        a = secret.pop()
        p = g.to_move
        g.play(a)
        lines.append(record.act_line(g.plies(), p, a, g.text(a), digest(g) if linked else None))
    return lines
