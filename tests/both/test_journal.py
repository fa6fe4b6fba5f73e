"""The journal at boot (app.journal.recover) against every way a flash can break it, for
every game: each boot resumes exactly the good prefix, keeps the rest on flash and names
the bad line.  Both runtimes."""
import os
import random

from app import journal, journal_read, recovery
from shared_rules import GAMES, load, record

from helpers import remove_tree, scratch_dir

PLIES = 7  # a journal of 8 lines: the game record and 7 actions


def journal_lines(game_id, seed):
    """(lines as bytes with their newlines, the actions) of a random start of a game."""
    random.seed(seed)
    g = load(game_id).Game()
    out = [record.game_line(game_id, g.options, ("human", "human"), "test")]
    for _ in range(PLIES):
        acts = g.legal()
        a = acts[random.randrange(len(acts))]
        p = g.to_move
        g.play(a)
        out.append(record.act_line(g.plies(), p, a, g.text(a)))
    return [(line + "\n").encode() for line in out], g.actions()


def in_folder(fn):
    folder = scratch_dir("journal-matrix")
    saved = journal.PATH
    journal.PATH = folder + "/journal.jsonl"
    try:
        fn(folder)
    finally:
        journal.PATH = saved
        remove_tree(folder)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def boot(folder, data, good_lines, actions, bad_line):
    """Write `data` as the journal, recover it, check what resumed and what was kept."""
    for name in os.listdir(folder):
        os.remove(folder + "/" + name)
    with open(journal.PATH, "wb") as f:
        f.write(data)
    reader, problem = recovery.recover()
    prefix = b"".join(good_lines)
    rest = data[len(prefix):] if good_lines else data
    if good_lines:
        assert reader is not None and reader.game.actions() == actions[:len(good_lines) - 1]
        assert read(journal.PATH) == prefix
    else:
        assert reader is None and "journal.jsonl" not in os.listdir(folder)
    if not rest:
        assert problem is None, problem
        return
    assert problem.startswith("journal line %d: " % bad_line), (problem, bad_line)
    assert read(folder + "/journal-rest.jsonl") == rest
    assert "kept as " + folder + "/journal-rest.jsonl" in problem


def test_truncated_at_every_byte_of_the_last_two_lines():
    def go(folder):
        for k, game_id in enumerate(GAMES):
            lines, actions = journal_lines(game_id, k)
            data = b"".join(lines)
            for cut in range(len(data) - len(lines[-1]) - len(lines[-2]), len(data) + 1):
                whole = data[:cut].count(b"\n")
                boot(folder, data[:cut], lines[:whole], actions, whole + 1)
    in_folder(go)


def test_a_broken_byte_in_every_line():
    def go(folder):
        for k, game_id in enumerate(GAMES):
            lines, actions = journal_lines(game_id, 10 + k)
            for i in range(len(lines)):
                for at, byte in ((0, b"~"), (len(lines[i]) // 2, b"\xff"),
                                 (len(lines[i]) - 1, b" ")):  # not JSON, not UTF-8, no end
                    bad = lines[i][:at] + byte + lines[i][at + 1:]
                    data = b"".join(lines[:i]) + bad + b"".join(lines[i + 1:])
                    boot(folder, data, lines[:i], actions, i + 1)
    in_folder(go)


def bad_lines(lines):
    """Every kind of line that cannot be read, as the flash might hold it."""
    header = lines[0].decode()
    deep_options = header.replace('"options": {', '"options": ' + "[" * 500 + "{", 1)
    return [b"x" * 200000 + b"\n", b'{"t": "act", "v": 1, "n": "' + b"a" * 20000 + b'"}\n',
            b"[" * 3000 + b"]" * 3000 + b"\n", b"\xff\n", b"\x00" * 40 + b"\n", b"{\n",
            lines[1].replace(b'"ply": 1', b'"ply": 99'), b'{"t": "act", "v": 1, "ply": 1}\n', b"[]\n", b"7\n",
            deep_options.encode()]


def test_every_kind_of_bad_line_after_each_line():
    def go(folder):
        for k, game_id in enumerate(GAMES):
            lines, actions = journal_lines(game_id, 20 + k)
            for after in (1, 6, len(lines)):
                for bad in bad_lines(lines):
                    data = b"".join(lines[:after]) + bad + b"".join(lines[after:])
                    boot(folder, data, lines[:after], actions, after + 1)
    in_folder(go)


def test_a_bad_game_record():
    def go(folder):
        lines, actions = journal_lines("morris", 3)
        for header in (b"[" * 500 + b"\n", lines[0].replace(b'"morris"', b'"chess"'),
                       lines[0].replace(b'"options": {', b'"options": {"x": 1, '),
                       lines[0].replace(b"false", b"2"), b"\xff" + lines[0]):
            boot(folder, header + b"".join(lines[1:]), [], actions, 1)
    in_folder(go)


def test_a_folder_where_the_journal_should_be():
    def go(folder):
        os.mkdir(journal.PATH)
        reader, problem = recovery.recover()
        assert reader is None and problem.startswith("journal line 1: unreadable")
        assert "journal.jsonl" not in os.listdir(folder)  # out of the way of the next game
        assert "journal-rest.jsonl" in os.listdir(folder)
        journal.begin(journal_lines("morris", 1)[0][0].decode().strip())
        assert recovery.recover()[0].game.plies() == 0
    in_folder(go)


def test_kept_files_are_never_written_over():
    def go(folder):
        lines, _ = journal_lines("mixtour", 4)
        for n in range(3):
            with open(journal.PATH, "wb") as f:
                f.write(b"".join(lines) + ("junk %d\n" % n).encode())
            assert recovery.recover()[0].game.plies() == PLIES
        assert read(folder + "/journal-rest.jsonl") == b"junk 0\n"
        assert read(folder + "/journal-rest-3.jsonl") == b"junk 2\n"
        for n in range(2):
            journal_read.set_aside()
            journal.begin(lines[0].decode().strip())
        assert read(folder + "/journal-oom.jsonl") == b"".join(lines)
        assert read(folder + "/journal-oom-2.jsonl") == lines[0]
    in_folder(go)


def test_an_ended_game_is_announced_with_its_last_records():
    """A journal whose game had ended boots to the menu with one "ended" line carrying its
    last action and end record again, for a link that lost them in the power cut."""
    import json

    def check(folder):
        for game_id in GAMES:
            for abandoned in (False, True):
                random.seed(len(game_id))
                g = load(game_id).Game()
                lines = [record.game_line(game_id, g.options, ("human", "human"), "test")]
                while g.result() is None and not (abandoned and g.plies() == PLIES):
                    acts = g.legal()
                    a = acts[random.randrange(len(acts))]
                    p = g.to_move
                    g.play(a)
                    lines.append(record.act_line(g.plies(), p, a, g.text(a)))
                lines.append(record.abandoned_line(g.plies()) if abandoned else
                             record.end_line(g))
                with open(journal.PATH, "w") as f:
                    f.write("\n".join(lines) + "\n")
                reader, problem = recovery.recover()
                assert problem is None and reader.ended, (game_id, problem)
                said = json.loads(recovery.ended(reader))
                assert said["t"] == "ended" and said["game"] == game_id, said
                assert said["ply"] == g.plies() == reader.game.plies(), said
                assert said["last"] == [json.loads(t) for t in lines[-2:]], (said, lines[-2:])
                assert reader.game.actions() == g.actions()  # as it was
    in_folder(check)
