"""Game records (shared_rules.record) and the device journal (app.journal), on both runtimes."""
import json
import os

from shared_rules import morris, record
from shared_rules.reader import Reader, RecordError
from helpers import raises, random_game, scratch_dir, remove_tree


def lines_of(g, players=("human", "device")):
    """The record lines of a finished game, as the device writes them."""
    out = [record.game_line("morris", g.options, players, "test")]
    h = morris.Game(**g.options)
    for a in g.actions():
        p = h.to_move
        h.play(a)
        out.append(record.act_line(len(h.actions()), p, a, h.text(a)))
    if h.result() is not None:
        out.append(record.end_line(h))
    return out


def test_round_trip_of_a_random_game():
    g = random_game(morris, 3, no_immediate_returns=True)
    r = Reader()
    for line in lines_of(g):
        r.feed(line)
    assert r.ended and r.game.actions() == g.actions() and r.game.result() == g.result()
    assert r.game.options == g.options and r.header["players"] == ["human", "device"]


def test_undo_records_and_blank_lines():
    r = Reader()
    g = morris.Game()
    r.feed(record.game_line("morris", g.options, ("human", "human"), "t"))
    r.feed(record.act_line(1, 0, 5, "d7"))
    r.feed("")
    r.feed(record.undo_line(1))
    r.feed(record.act_line(1, 0, 0, "a1"))
    assert r.game.actions() == [0] and r.line == 5


def test_bad_lines_name_the_line_and_change_nothing():
    header = record.game_line("morris", {}, ("human", "human"), "t")
    cases = [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({"t": "act", "v": 2, "ply": 2, "n": "a1"}), "version"),
        (json.dumps({"t": "act", "v": 1, "ply": 3, "n": "a1"}), "ply 3"),
        (json.dumps({"t": "act", "v": 1, "ply": 2, "n": "d7"}), "not legal"),
        (json.dumps({"t": "act", "v": 1, "ply": 2, "n": "z9"}), "unknown point"),
        (json.dumps({"t": "act", "v": 1, "ply": 2, "p": 0, "n": "a1"}), "player 0"),
        (json.dumps({"t": "act", "v": 1, "ply": 2, "a": 3, "n": "a1"}), "does not match"),
        (json.dumps({"t": "end", "v": 1, "ply": 1, "winner": 0, "reason": "men"}), "not over"),
        (json.dumps({"t": "undo", "v": 1, "ply": 7}), "undo of ply 7"),
        (record.hint_line(3, 1), "a hint for ply 3"),
        (record.hint_line(2, 0), "player 1 to move"),
        (json.dumps({"t": "hint", "v": 1, "ply": 2}), "player None"),
        (json.dumps({"t": "nope", "v": 1}), "unknown record type"),
        (json.dumps({"t": "game", "v": 1, "game": "chess"}), "unknown game"),
        (json.dumps({"t": "game", "v": 1, "game": "morris", "options": {"x": 1}}), "option"),
        ('{"t": "act", "v": 1, "ply": 2, "n": "a', "not JSON"),
    ]
    for text, why in cases:
        r = Reader()
        r.feed(header)
        r.feed(record.act_line(1, 0, 5, "d7"))
        e = raises(RecordError, r.feed, text)
        assert e.line == 3 and why in str(e) and str(e).startswith("line 3: "), (text, str(e))
        assert r.game.actions() == [5], text
    e = raises(RecordError, Reader().feed, record.act_line(1, 0, 5, "d7"))
    assert "before any game" in str(e)


def test_hints_are_read_where_the_player_to_move_asked_and_the_game_has_them():
    r = Reader()
    r.feed(record.game_line("morris", {}, ("human", "device:easy"), "t"))
    r.feed(record.hint_line(1, 0))
    r.feed(record.act_line(1, 0, 5, "d7"))
    r.feed(record.act_line(2, 1, 0, "a1"))
    r.feed(record.hint_line(3, 0))
    assert r.hints == [1, 3] and r.game.plies() == 2  # a hint plays nothing
    r.feed(record.game_line("morris", {}, ("human", "device:easy"), "t",
                            aids={"hints": False}))
    assert r.hints == [] and r.header["hints"] is False
    e = raises(RecordError, r.feed, record.hint_line(1, 0))
    assert "a hint in a game that has none" in str(e) and r.hints == []
    assert "hints" not in json.loads(record.game_line("morris", {}, ("human", "human"), "t"))


def test_options_as_json_lists_become_tuples():
    r = Reader()
    r.feed(json.dumps({"t": "game", "v": 1, "game": "morris",
                       "options": {"double_mill_takes_two": False}}))
    assert r.game.options["double_mill_takes_two"] is False


def test_journal_recovers_the_good_prefix():
    from app import journal, journal_read, recovery  # noqa: F401 - loaded before the chdir (relative sys.path)
    here = os.getcwd()
    folder = scratch_dir("journal")
    try:
        os.chdir(folder)
        assert recovery.recover() == (None, None)
        g = random_game(morris, 5)
        lines = lines_of(g)[:40]
        journal.begin(lines[0])
        for line in lines[1:]:
            journal.append(line)
        r, problem = recovery.recover()
        assert r.game.actions() == g.actions()[:39] and not r.ended and problem is None
        with open(journal.PATH, "a") as f:  # a power cut in the middle of a line
            f.write(lines_of(g)[40][:17])
        r, problem = recovery.recover()
        assert r.game.actions() == g.actions()[:39] and "line 41: cut short" in problem
        with open(journal.PATH) as f:
            assert f.read() == "\n".join(lines) + "\n"  # the torn line is gone
        with open(journal.PATH, "a") as f:  # a complete line that is wrong
            f.write(lines_of(g)[41] + "\n")
        assert recovery.recover()[0].game.actions() == g.actions()[:39]
        with open(journal.PATH, "w") as f:
            f.write("\x00\xff garbage\n")
        r, problem = recovery.recover()
        assert r is None and "line 1: not JSON" in problem
    finally:
        os.chdir(here)
        remove_tree(folder)


def test_journal_is_kept_whole_when_the_heap_runs_out():
    """Out of memory while reading is no fault of the journal's: nothing is cut (the app
    restarts the board, and the next boot reads it all)."""
    from app import journal, journal_read, recovery  # noqa: F401 - loaded before the chdir (relative sys.path)
    from shared_rules import reader
    here = os.getcwd()
    folder = scratch_dir("journal-heap")
    feed = reader.Reader.feed

    def starved(self, text):
        if self.line == 5:
            raise MemoryError("memory allocation failed")
        return feed(self, text)
    try:
        os.chdir(folder)
        lines = lines_of(random_game(morris, 6))[:12]
        journal.begin(lines[0])
        for line in lines[1:]:
            journal.append(line)
        reader.Reader.feed = starved
        raises(MemoryError, recovery.recover)
        reader.Reader.feed = feed
        with open(journal.PATH) as f:
            assert f.read() == "\n".join(lines) + "\n"
        assert recovery.recover()[0].game.plies() == 11
    finally:
        reader.Reader.feed = feed
        os.chdir(here)
        remove_tree(folder)


def test_a_game_left_for_good_ends_without_a_result():
    r = Reader()
    r.feed(record.game_line("morris", {}, ("human", "human"), "test"))
    g = morris.Game()
    r.feed(record.act_line(1, 0, g.parse("a7"), "a7"))
    r.feed(record.abandoned_line(1))
    assert r.ended and r.game.result() is None
    raises(RecordError, r.feed, record.act_line(2, 1, g.parse("d7"), "d7"))  # nothing after
    r = Reader()
    r.feed(record.game_line("morris", {}, ("human", "human"), "test"))
    raises(RecordError, r.feed, json.dumps({"t": "end", "v": 1, "ply": 0, "winner": 0,
                                            "reason": "abandoned"}))  # no winner to it
