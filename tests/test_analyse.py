"""stonegrid replay --analyse: in a game of each kind with a blunder put in on purpose, the
analysis finds it and names a better action; it says the same on every run."""
import pytest

from shared_rules import GAMES, load, search

from stonegrid import analyse, cli, records

HEADER = {"players": ["human", "human"], "fw": "test"}


def worst(g, ai):
    """(action, loss in units) of the action that throws away the most, by the normal level's
    search from the position after each; None where the search would play a matrix game."""
    p = g.to_move
    if not isinstance(search.start(g, p, ai, nodes=1), search.Search):
        return None
    values = []
    for a in g.legal():
        h = g.view_for(p)
        h.play(a)
        s = search.Search(h, p, ai, search.budget(ai, "normal"), search.Rng(1), value_only=True)
        while not s.step(4096):
            pass
        values.append((s.value, a))
    values.sort()
    return values[0][1], (values[-1][0] - values[0][0]) / float(ai.UNIT)


def blundered(game_id):
    """A game of the device against itself at the normal level with, at the first ply where
    one action loses two units or more, that action played instead; and the ply."""
    g, ai = load(game_id).Game(), search.load_ai(game_id)
    while g.result() is None:
        found = worst(g, ai)
        if found and found[1] >= 2 and abs(found[1]) < search.WIN // 2 // ai.UNIT:
            ply = g.plies()
            g.play(found[0])
            for _ in range(6):
                if g.result() is None:
                    g.play(search.choose(g, g.to_move, ai, "normal", g.plies()))
            return g, ply
        g.play(search.choose(g, g.to_move, ai, "normal", g.plies()))
    raise AssertionError("no action loses two units in a %s game" % game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_analysis_finds_the_blunder_put_in_and_names_a_better_action(game_id):
    g, ply = blundered(game_id)
    header = dict(HEADER, game=game_id)
    marks = analyse.analyse(header, g)
    m = marks[ply]
    assert m.mark in ("inaccuracy", "blunder") and m.best != m.action, (ply, m.mark)
    assert m.loss >= search.load_ai(game_id).UNIT
    text = analyse.report(header, g, marks)
    turn = "ply %d, %s: %s, a" % (ply + 1, records.player_names(game_id)[m.side],
                                  g.text(m.action))
    assert turn in text and "better %s" % g.text(m.best) in text, text
    again = analyse.analyse(header, g)
    assert [(x.best, x.loss, x.mark) for x in again if x] == \
        [(x.best, x.loss, x.mark) for x in marks if x]  # deterministic


def test_replay_analyse_from_the_command_line(tmp_path, capsys):
    g, ply = blundered("morris")
    path = tmp_path / "game.txt"
    path.write_text(records.export(g, dict(HEADER, game="morris")))
    assert cli.main(["replay", "--analyse", str(path)]) == 0
    out = capsys.readouterr().out
    assert "turning points:" in out and "ply %d, " % (ply + 1) in out, out
    assert out.count("\n") >= g.plies() + 3
