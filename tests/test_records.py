"""Logs and exports on the host: every game round-trips; broken logs name the line."""
import json

import pytest

from helpers import random_game
from shared_rules import GAMES, load
from stonegrid import records

HEADER = {"players": ["human", "device"], "fw": "test"}


def log_of(game_id, seed, **options):
    g = random_game(load(game_id), seed, **options)
    return g, records.to_records(dict(HEADER, game=game_id), g)


@pytest.mark.parametrize("game_id", GAMES)
def test_log_export_import_round_trip(game_id, tmp_path):
    g, lines = log_of(game_id, 11)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    [got] = records.read_log_file(str(path))
    assert got.actions == g.actions() and got.game.result() == g.result()
    text = records.export(got.game, got.header)
    header, again = records.import_export(text)
    assert again.actions() == g.actions() and again.options == g.options
    assert records.to_records(header, again) == lines
    assert "[Result" in text and text.rstrip().endswith(records.RESULTS[g.result()[0]])


def test_unfinished_game_exports_with_a_star():
    g = load("morris").Game()
    for m in ("d7", "a1", "d6"):
        g.play(m)
    text = records.export(g, dict(HEADER, game="morris"))
    assert '[Result "*"]' in text and text.rstrip().endswith("1. d7 2. a1 3. d6 *")
    assert records.import_export(text)[1].actions() == g.actions()


@pytest.mark.parametrize("damage,line,why", [
    (lambda ls: ls[:3] + [ls[3][:20]] + ls[4:], 4, "not JSON"),
    (lambda ls: ls[:3] + [json.dumps(dict(json.loads(ls[3]), n="a1-a1"))] + ls[4:], 4,
     "move must change"),
    (lambda ls: [json.dumps(dict(json.loads(ls[0]), game="chess"))] + ls[1:], 1, "unknown game"),
    (lambda ls: ls[:2] + [json.dumps(dict(json.loads(ls[2]), v=9))] + ls[3:], 3, "version 9"),
    (lambda ls: ls[:5] + ["\x00\x01\x02 binary"] + ls[5:], 6, "not JSON"),
    (lambda ls: ls[:5] + [ls[7]] + ls[5:], 6, "ply"),
])
def test_broken_logs_name_the_line(tmp_path, damage, line, why):
    _, lines = log_of("morris", 2)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(damage(lines)) + "\n")
    with pytest.raises(records.LogError) as e:
        records.read_log_file(str(path))
    assert ("bad.jsonl:line %d: " % line) in str(e.value) and why in str(e.value)


def test_binary_junk_that_is_not_utf8(tmp_path):
    path = tmp_path / "junk.jsonl"
    _, lines = log_of("morris", 2)
    path.write_bytes(("\n".join(lines[:3]) + "\n").encode() + b"\xff\xfe\x00junk\n")
    with pytest.raises(records.LogError, match="junk.jsonl:line 4: not UTF-8"):
        records.read_log_file(str(path))


def test_broken_exports():
    g, _ = log_of("morris", 5)
    text = records.export(g, dict(HEADER, game="morris"))
    with pytest.raises(records.LogError, match="turn 3"):
        records.import_export(text.replace("3. ", "3. z9", 1))
    with pytest.raises(records.LogError, match="no \\[Game"):
        records.import_export(text.replace('[Game "morris"]\n', ""))
    with pytest.raises(records.LogError, match="result says"):
        records.import_export(text.replace('[Result "%s"]' % records.RESULTS[g.result()[0]],
                                           '[Result "*"]'))
    with pytest.raises(records.LogError, match="options are name=value"):
        records.import_export(text.replace("[Options \"", "[Options \"nonsense; "))


@pytest.mark.parametrize("game_id", GAMES)
def test_export_of_a_game_cut_at_any_ply_imports_to_the_same_actions(game_id):
    for seed in (1, 2):
        g = random_game(load(game_id), seed)
        cut = load(game_id).Game()
        for a in g.actions():
            cut.play(a)
            _, back = records.import_export(records.export(cut, dict(HEADER, game=game_id)))
            assert back.actions() == cut.actions(), (seed, cut.plies())


def test_logs_follow_names_the_sides_as_the_game_does(tmp_path):
    from stonegrid import logs
    said = []
    cap = logs.Capture(str(tmp_path), follow=True, write=said.append)
    g, lines = log_of("morris", 3)
    for line in lines:
        cap.line(line.encode())
    cap.close()
    assert "   1. Red: %s" % g.turns()[0] in said and "   2. Green: " in said[2], said[:3]
    assert said[-1].startswith("game over: %s wins" % load("morris").PLAYERS[g.result()[0]])
    assert not [s for s in said if "player" in s]


def test_logs_saves_the_hints_a_player_asked_for_and_replay_reads_them(tmp_path):
    from shared_rules import record
    from stonegrid import logs
    said = []
    cap = logs.Capture(str(tmp_path), follow=True, write=said.append)
    g, lines = log_of("morris", 3)
    lines.insert(1, record.hint_line(1, 0))
    for line in lines:
        cap.line(line.encode())
    cap.close()
    assert said[1] == "      Red asked for a hint" and said[2].startswith("   1. Red: ")
    [saved] = tmp_path.glob("*-morris.jsonl")
    assert saved.read_text().splitlines() == lines
    [game] = records.read_log_file(str(saved))
    assert game.game.actions() == g.actions()


@pytest.mark.parametrize("game_id", GAMES)
def test_logs_started_mid_turn_rebuilds_the_game_so_far_from_the_state(tmp_path, game_id):
    from stonegrid import logs
    g = random_game(load(game_id), 4)
    h = records.fresh(dict(HEADER, game=game_id), g)
    for a in g.actions()[:-1]:  # up to the first ply in the middle of a turn, if any
        h.play(a)
        if not h._turn_start():
            break
    while h._turn_start() and h.plies() > 9:  # every ply starts a turn (Mixtour)
        h.undo()
    asked = []
    cap = logs.Capture(str(tmp_path), warn=asked.append)
    cap.ask = asked.append
    lines = records.to_records(dict(HEADER, game=game_id), h)
    cap.line(lines[-1].encode())  # the move that shows a game is under way
    assert asked == [{"cmd": "state", "turns": True}]
    state = {"t": "state", "game": game_id, "options": h.options, "players": ["human", "human"],
             "ply": h.plies(), "turns": h.turns()}
    cap.line(json.dumps(state).encode())
    cap.close()
    [got] = records.read_log_file(cap.path)
    assert got.actions == h.actions() and cap.path.endswith("-%s.jsonl" % game_id)


def test_logs_keeps_the_records_when_the_board_shows_no_game(tmp_path):
    from stonegrid import logs
    said, asked = [], []
    cap = logs.Capture(str(tmp_path), warn=said.append)
    cap.ask = asked.append
    _, lines = log_of("morris", 3)
    cap.line(lines[1].encode())
    cap.line(json.dumps({"t": "state", "game": None}).encode())
    cap.line(lines[2].encode())
    cap.close()
    assert asked and "shows no game" in said[0], said
    with open(cap.path) as f:
        assert f.read().splitlines() == lines[1:3] and cap.path.endswith("-unknown.jsonl")


def _state_of(game_id, g, players=("human", "device")):
    """The board's answer to {"cmd": "state", "turns": true} for its game g."""
    v = g.view_for(g.to_move) if g.to_move is not None else g
    return json.dumps({"t": "state", "game": game_id, "options": g.options,
                       "players": list(players), "ply": v.plies(), "turns": v.turns()}).encode()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lost", ["act", "undo", "end"])
def test_logs_writes_what_the_link_lost_while_the_board_was_away(tmp_path, game_id, lost):
    """The power goes after the board journalled a line and before it reached the link:
    back, the board says "resumed"; logs asks for the game so far and writes what it lacks,
    once, so that the file replays to the board's game."""
    from stonegrid import logs
    g, lines = log_of(game_id, 5)
    h = records.fresh(dict(HEADER, game=game_id), g)
    for a in g.actions()[:-3]:
        h.play(a)
    while h.hidden():  # the board would hold a pending secret bid back from the link
        h.undo()
    public = records.to_records(dict(HEADER, game=game_id), h)
    said, asked = [], []
    cap = logs.Capture(str(tmp_path), warn=said.append)
    cap.ask = asked.append
    if lost == "act":  # the last action never reached the link
        sent, board = public[:-1], h
    elif lost == "undo":  # nor did the taking back of it
        sent, board = public, records.fresh(dict(HEADER, game=game_id), g)
        for a in h.actions()[:-1]:
            board.play(a)
    else:  # nor the last action and the end record with it
        sent, board = lines[:-2], g
    for line in sent:
        cap.line(line.encode())
    cap.line(json.dumps({"t": "hello", "fw": "test"}).encode())
    if lost == "end":  # no game to resume: the board says how the journalled one ended
        from app.recovery import ended
        from shared_rules.reader import Reader
        journal = Reader()
        for line in lines:
            journal.feed(line)
        cap.line(ended(journal).encode())
        assert not asked
    else:
        cap.line(json.dumps({"t": "resumed", "game": game_id, "ply": board.plies()}).encode())
        assert asked == [{"cmd": "state", "turns": True}]
        cap.line(_state_of(game_id, board))
    more = board.copy()
    if more.result() is None:  # the game goes on: the next action comes as usual
        more.play(more.legal()[0])
        while more.hidden():
            more.play(more.legal()[0])
        for line in records.to_records(dict(HEADER, game=game_id), more)[board.plies() + 1:]:
            cap.line(line.encode())
    cap.close()
    [got] = records.read_log_file(cap.path)
    assert got.actions == more.actions() and got.game.result() == more.result()
    assert said and "lost" in said[0], said


def test_logs_writes_nothing_twice_when_the_link_lost_nothing(tmp_path):
    from stonegrid import logs
    g, lines = log_of("gipf", 4)
    h = records.fresh(dict(HEADER, game="gipf"), g)
    for a in g.actions()[:10]:
        h.play(a)
    said, asked = [], []
    cap = logs.Capture(str(tmp_path), warn=said.append)
    cap.ask = asked.append
    sent = records.to_records(dict(HEADER, game="gipf"), h)
    for line in sent:
        cap.line(line.encode())
    assert cap.check() and not cap.check()  # the port is back: one question at a time
    cap.line(_state_of("gipf", h))
    cap.close()
    with open(cap.path) as f:
        assert f.read().splitlines() == sent and not said


def test_logs_starts_a_file_for_a_game_whose_game_record_was_lost(tmp_path):
    from stonegrid import logs
    g, lines = log_of("morris", 6)
    asked = []
    cap = logs.Capture(str(tmp_path), warn=asked.append)
    cap.ask = asked.append
    for line in lines:  # a whole game, ended
        cap.line(line.encode())
    first = cap.path
    h = load("morris").Game()
    h.play("d7")
    cap.line(json.dumps({"t": "resumed", "game": "morris", "ply": 1}).encode())
    cap.line(_state_of("morris", h))
    cap.close()
    assert cap.path != first and records.read_log_file(cap.path)[0].actions == h.actions()
    assert records.read_log_file(first)[0].actions == g.actions()


def test_logs_catching_up_keeps_the_lines_the_board_sent_meanwhile_as_they_were(tmp_path):
    """A linked board's act lines carry the position's digest, which a state does not tell:
    those that came while the answer was awaited are written as they came."""
    from stonegrid import logs
    _, lines = log_of("morris", 3)
    cap = logs.Capture(str(tmp_path), warn=[].append)
    cap.ask = [].append
    for line in lines[:4]:
        cap.line(line.encode())
    cap.check()
    meanwhile = [dict(json.loads(line), d="%08x" % n) for n, line in enumerate(lines[4:6])]
    for rec in meanwhile:
        cap.line(json.dumps(rec).encode())  # held for the answer, which has them already
    h = load("morris").Game()
    for line in lines[1:6]:
        h.play(json.loads(line)["n"])
    cap.line(_state_of("morris", h))
    cap.close()
    with open(cap.path) as f:
        saved = [json.loads(line) for line in f.read().splitlines()]
    assert saved == [json.loads(line) for line in lines[:4]] + meanwhile


def test_logs_saves_the_held_records_when_the_board_restarts_before_answering(tmp_path):
    from stonegrid import logs
    _, lines = log_of("mixtour", 2)
    asked = []
    cap = logs.Capture(str(tmp_path), warn=asked.append)
    cap.ask = asked.append
    for line in lines[:4]:
        cap.line(line.encode())
    cap.check()
    cap.line(lines[4].encode())  # held for the answer...
    cap.line(json.dumps({"t": "hello", "fw": "test"}).encode())  # ...that will not come
    cap.line(lines[5].encode())
    cap.close()
    with open(cap.path) as f:
        assert f.read().splitlines() == lines[:6]


def test_replay_export_of_a_rhombus_log_stopped_mid_turn_reads_back(tmp_path, capsys):
    from stonegrid import cli
    g = load("rhombus").Game()
    g.play("bid3")  # Black's bid: White's is still to come
    log, export = tmp_path / "game.jsonl", tmp_path / "x.txt"
    log.write_text("\n".join(records.to_records(dict(HEADER, game="rhombus"), g)) + "\n")
    assert cli.main(["replay", str(log), "--export", str(export), "--to", "1"]) == 0
    assert cli.main(["replay", str(export), "--to", "1"]) == 0, capsys.readouterr().err
    assert "ply 1/1" in capsys.readouterr().out
