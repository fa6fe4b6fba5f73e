"""Whatever file `stonegrid replay` is given: one clear line naming the file (and the line
for a bad line), exit status 2, never a traceback; a last line cut short is left out."""
import json
import random
import resource
import subprocess
import sys

import pytest

from helpers import random_game
from shared_rules import GAMES, load
from stonegrid import cli, records, replay

HEADER = {"players": ["human", "device"], "fw": "test"}


def game_lines(game_id="morris", seed=2):
    return records.to_records(dict(HEADER, game=game_id), random_game(load(game_id), seed))


def replay_error(path, capsys):
    """stonegrid replay PATH --to 0: (exit status, its one line on stderr)."""
    status = cli.main(["replay", str(path), "--to", "0"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return status, err


def with_line(lines, n, line):
    return "\n".join(lines[:n - 1] + [line] + lines[n:]) + "\n"


DEEP = "[" * 100000 + "]" * 100000
BAD_LOGS = [  # (file text, line named, words in the message)
    (lambda ls: with_line(ls, 3, '{"a": %s}' % DEEP), 3, "nested"),
    (lambda ls: with_line(ls, 1, json.dumps(dict(json.loads(ls[0]), options={
        "handicap": "deep"})).replace('"deep"', "[" * 5000 + "]" * 5000)), 1, "nested"),
    (lambda ls: with_line(ls, 2, json.dumps(dict(json.loads(ls[1]), v=True))), 2, "v is true"),
    (lambda ls: with_line(ls, 2, json.dumps(dict(json.loads(ls[1]), ply=True))), 2,
     "ply is true"),
]


@pytest.mark.parametrize("damage,line,why", BAD_LOGS)
def test_bad_log_lines_name_file_and_line(tmp_path, capsys, damage, line, why):
    path = tmp_path / "bad.jsonl"
    path.write_text(damage(game_lines()))
    status, err = replay_error(path, capsys)
    assert status == 2 and ("bad.jsonl:line %d: " % line) in err and why in err, err


def test_an_export_with_an_option_that_is_not_a_value(tmp_path, capsys):
    g = random_game(load("morris"), 5)
    text = records.export(g, dict(HEADER, game="morris"))
    path = tmp_path / "game.txt"
    path.write_text(text.replace('[Options "', '[Options "double_mill_takes_two={[]}; '))
    status, err = replay_error(path, capsys)
    assert status == 2 and "game.txt:line 2: options" in err, err
    path.write_text(text.replace('[Options "', '[Options "handicap=%s; '
                                 % ("(" * 5000 + ")" * 5000)))
    status, err = replay_error(path, capsys)
    assert status == 2 and "game.txt:line 2: options" in err, err


def test_dev_zero_and_a_huge_line_are_refused_without_reading_them_all(tmp_path):
    def limit():  # as a small machine: reading it all would be a MemoryError
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    huge = tmp_path / "zeros.jsonl"
    huge.write_bytes(bytes(3 << 20))  # no newline in 3 MB
    for path, why in (("/dev/zero", "/dev/zero: not a file to read (a device"),
                      (str(huge), "zeros.jsonl:line 1: longer than")):
        out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "replay", path],
                             capture_output=True, text=True, timeout=60, preexec_fn=limit)
        assert out.returncode == 2 and why in out.stderr, out.stderr
        assert len(out.stderr.splitlines()) == 1


def test_a_byte_order_mark_first_is_skipped(tmp_path, capsys):
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + ("\n".join(game_lines()) + "\n").encode())
    assert cli.main(["replay", str(log), "--to", "0"]) == 0
    export = tmp_path / "bom.txt"
    assert cli.main(["replay", str(log), "--export", str(export), "--to", "0"]) == 0
    export.write_bytes(b"\xef\xbb\xbf" + export.read_bytes())
    assert cli.main(["replay", str(export), "--to", "0"]) == 0


def test_a_jsonl_file_is_json_lines_even_if_it_starts_with_a_bracket(tmp_path, capsys):
    path = tmp_path / "odd.jsonl"
    path.write_text('[Game "morris"]\n\n1. d7 *\n')
    status, err = replay_error(path, capsys)
    assert status == 2 and "odd.jsonl:line 1: not JSON" in err, err


def test_a_turn_number_of_5000_digits(tmp_path, capsys):
    path = tmp_path / "long.txt"
    path.write_text('[Game "morris"]\n\n1. d7\n%s. a1 *\n' % ("9" * 5000))
    status, err = replay_error(path, capsys)
    assert status == 2 and "long.txt:line 4: turn 999" in err and "due" in err, err


@pytest.mark.parametrize("name", ["over.jsonl", "over.txt"])
def test_an_overlong_utf8_sequence_is_not_utf8(tmp_path, capsys, name):
    path = tmp_path / name
    lines = game_lines()
    text = ("\n".join(lines) + "\n") if name.endswith(".jsonl") else records.export(
        records.read_log(lines)[0].game, dict(HEADER, game="morris"))
    data = text.encode().split(b"\n")
    data[2] = data[2] + b"\xc0\xaf"  # '/' in two bytes: overlong, not UTF-8
    path.write_bytes(b"\n".join(data))
    status, err = replay_error(path, capsys)
    assert status == 2 and "%s:line 3: not UTF-8 text" % name in err, err


def test_a_missing_file_is_one_line_and_status_2(tmp_path, capsys):
    status, err = replay_error(tmp_path / "nope.jsonl", capsys)
    assert status == 2 and "nope.jsonl: No such file" in err and "Errno" not in err, err
    status, err = replay_error(tmp_path, capsys)  # a folder
    assert status == 2 and "Errno" not in err, err


def test_a_last_line_cut_short_is_left_out_and_named(tmp_path, capsys):
    lines = game_lines()
    whole = "\n".join(lines[:-1]) + "\n"
    path = tmp_path / "cut.jsonl"
    for cut in range(1, len(lines[-1])):
        path.write_text(whole + lines[-1][:cut])
        assert cli.main(["replay", str(path), "--to", "0"]) == 0
        err = capsys.readouterr().err
        assert "cut.jsonl:line %d: left out, cut short" % len(lines) in err, err
        header, g = replay.load(str(path), warn=lambda text: None)
        assert len(g.actions()) == len(lines) - 2  # the game record, and the line cut
    path.write_bytes((whole + lines[-1][:-10] + '"\u00e9').encode()[:-1])  # in a character
    assert cli.main(["replay", str(path), "--to", "0"]) == 0
    assert "cut.jsonl:line %d: left out" % len(lines) in capsys.readouterr().err
    path.write_text(whole + lines[-1][:10] + "\n")  # a whole line that is bad: refused
    status, err = replay_error(path, capsys)
    assert status == 2 and "cut.jsonl:line %d: not JSON" % len(lines) in err


VALUES = [True, False, None, 0, -1, 1 << 40, 1e999, "", "x" * 300, [], {}, [[0, 0]], {"a": 1}]


def mutate(rng, data):
    """One random damage to a file's bytes."""
    if not data:
        return b"{"
    kind = rng.randrange(6)
    if kind == 0:  # flip bytes
        data = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if kind == 1:  # cut short
        return data[:rng.randrange(len(data))]
    if kind == 2:  # insert bytes, or a piece of the file itself
        at = rng.randrange(len(data))
        piece = (bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) if rng.random() < 0.5
                 else data[rng.randrange(len(data)):][:rng.randint(1, 40)])
        return data[:at] + piece + data[at:]
    lines = data.split(b"\n")
    n = rng.randrange(len(lines))
    try:
        rec = json.loads(lines[n])
    except (ValueError, RecursionError):  # an export (or nested already): damage its options
        value = ("(" * rng.choice((3, 50, 2000, 50000)) if kind == 3
                 else repr(rng.choice(VALUES + [{(): 1}, {0, 1}])))
        return data.replace(b'[Options "', b'[Options "handicap=%s; ' % value.encode())
    if not isinstance(rec, dict) or not rec:
        return data[::-1]
    key = rng.choice(sorted(rec) + ["options", "start", "game"])
    if kind == 3:  # nest a value deeply
        depth = rng.choice((3, 50, 2000, 50000))
        rec[key] = "deep"
        lines[n] = json.dumps(rec).replace('"deep"', "[" * depth + "]" * depth).encode()
    else:  # a value of the wrong type
        rec[key] = rng.choice(VALUES)
        lines[n] = json.dumps(rec).encode()
    return b"\n".join(lines)


def test_ten_thousand_damaged_files_give_only_log_errors(tmp_path):
    rng = random.Random(15)
    originals = []
    for game_id in GAMES:
        for seed in (1, 2):
            lines = game_lines(game_id, seed)
            g = records.read_log(lines)[0]
            originals.append(("\n".join(lines) + "\n").encode())
            originals.append(records.export(g.game, g.header).encode())
    path = tmp_path / "damaged"
    for i in range(10000):
        data = mutate(rng, originals[i % len(originals)])
        path.write_bytes(data)
        try:
            replay.load(str(path), warn=lambda text: None)
        except records.LogError:
            pass
        except Exception as e:  # noqa: BLE001 - the point: nothing else may come out
            pytest.fail("file %d (%r...): %s: %s" % (i, data[:80], type(e).__name__, e))


@pytest.mark.parametrize("option", ["--export", "--gif"])
def test_an_output_that_cannot_be_written_is_status_2(tmp_path, capsys, option):
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(game_lines()) + "\n")
    out = tmp_path / "no" / "such" / "folder.out"
    status = cli.main(["replay", str(log), option, str(out), "--to", "0"])
    err = capsys.readouterr().err
    assert status == 2 and "%s: No such file" % out in err and "Errno" not in err, err


def _header_with(**fields):
    return lambda ls: with_line(ls, 1, json.dumps(dict(json.loads(ls[0]), **fields)))


FIELDS_OF_THE_WRONG_KIND = [  # each was accepted, then failed in export or drawing
    (_header_with(players=[1, 2]), 1, "players must be a list of two names"),
    (_header_with(players=5), 1, "players must be a list"),
    (_header_with(players={"a": 1}), 1, "players must be a list"),
    (_header_with(players=["x" * 40, "y"]), 1, "players must be a list"),
    (_header_with(fw=5), 1, "fw must be a firmware version"),
    (_header_with(game="x" * 1500), 1, "unknown game 'xxxxxxxx"),
    (lambda ls: "\n".join(ls) + '\n{"t": "end", "v": 1, "ply": NaN, "winner": 0, '
     '"reason": "men"}\n', None, "an end at ply nan"),
]


@pytest.mark.parametrize("damage,line,why", FIELDS_OF_THE_WRONG_KIND)
def test_a_field_of_the_wrong_kind_is_refused_where_it_is_read(tmp_path, capsys, damage, line,
                                                                why):
    path = tmp_path / "bad.jsonl"
    lines = game_lines(seed=3)
    if line is None:  # an unfinished game's end, at a ply that is no number
        lines = lines[:-1] if json.loads(lines[-1])["t"] == "end" else lines
        line = len(lines) + 1
    path.write_text(damage(lines))
    status, err = replay_error(path, capsys)
    assert status == 2 and ("bad.jsonl:line %d: " % line) in err and why in err, err
    assert len(err) < 300, err  # what is echoed of a value is cut


def test_a_huge_unknown_game_tag_is_not_echoed_whole(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text('[Game "%s"]\n\n1. a1 *\n' % ("x" * (1 << 20)))
    status, err = replay_error(path, capsys)
    assert status == 2 and "unknown game 'xxxx" in err and len(err) < 300, err[:300]


def test_an_export_that_fails_leaves_the_file_there_as_it_was(tmp_path, capsys, monkeypatch):
    path, out = tmp_path / "game.jsonl", tmp_path / "out.txt"
    path.write_text("\n".join(game_lines()) + "\n")
    out.write_text("kept")

    def broken(g, header):
        raise ValueError("cannot export")
    monkeypatch.setattr(records, "export", broken)
    assert cli.main(["replay", str(path), "--export", str(out)]) == 2
    assert out.read_text() == "kept" and "cannot export" in capsys.readouterr().err


def test_megabytes_of_blank_lines_are_read_in_linear_time(tmp_path, capsys):
    """5 MB of blank lines after a game took 23 s; each blank line now costs what reading
    it does. The bound here is loose (this machine is shared): the figure is the bench's."""
    import time
    path = tmp_path / "blank.jsonl"
    path.write_text("\n".join(game_lines()) + "\n" + "\n \r\n" * 1000000)
    start = time.process_time()
    assert cli.main(["replay", str(path), "--to", "0"]) == 0
    assert time.process_time() - start < 10
    path.write_text("\n".join(game_lines()) + "\n" * 1000 + '{"t": "x"}\n')
    status, err = replay_error(path, capsys)
    assert status == 2 and "line %d:" % (len(game_lines()) + 1000) in err, err


def test_replay_into_a_pipe_is_plain_text_and_colour_when_asked(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(game_lines("gipf")) + "\n")
    stonegrid = [sys.executable, "-m", "stonegrid.cli", "replay", str(path), "--to", "3"]
    plain = subprocess.run(stonegrid, capture_output=True, text=True, timeout=60)
    assert plain.returncode == 0 and "\x1b" not in plain.stdout, plain.stdout[:200]
    assert "White (W):" in plain.stdout and plain.stdout.splitlines()[-1].startswith("ply 3/")
    colour = subprocess.run(stonegrid + ["--color", "always"], capture_output=True, text=True,
                            timeout=60)
    assert colour.returncode == 0 and colour.stdout.count("\x1b[38;2;") > 100
    head = subprocess.run("%s | head -2" % " ".join(stonegrid), shell=True, capture_output=True,
                          text=True, timeout=60)
    assert head.stderr == "" and len(head.stdout.splitlines()) == 2  # no broken-pipe noise


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_only_a_regular_file_is_read(tmp_path, capsys, kind):
    """`mkfifo f.jsonl; stonegrid replay --to 0 f.jsonl` blocked for ever."""
    import os
    path = {"fifo": tmp_path / "f.jsonl", "folder": tmp_path, "device": "/dev/zero"}[kind]
    if kind == "fifo":
        os.mkfifo(str(path))
    status, err = replay_error(path, capsys)
    assert status == 2 and "%s: not a file to read (a %s" % (
        path, {"fifo": "pipe", "folder": "folder", "device": "device"}[kind]) in err, err


def test_lines_of_any_length_in_bounded_memory_and_one_look_at_each_byte():
    """The serial and TCP readers' splitter: a 16 MB line with no newline is skipped whole
    and counted, what is held never passes the cap and a chunk, and the lines around it come
    through (its time is the readers bench's)."""
    from stonegrid.logs import Lines
    lines, out, held = Lines(2048), [], 0
    out += lines.feed(b'{"t": "a"}\nstart of a long one')
    chunk = b"x" * 4096
    for _ in range(16 * 1024 * 1024 // len(chunk)):
        out += lines.feed(chunk)
        held = max(held, len(lines.pending))
    out += lines.feed(b"end\n" + b"y" * 2048 + b"\n" + b"z" * 2049 + b"\n" + b'{"t": "b"}\n')
    assert out == [b'{"t": "a"}', b"y" * 2048, b'{"t": "b"}'] and lines.skipped == 2
    assert held <= 2048
    parts = Lines(8)
    assert [parts.feed(bytes([b])) for b in b"ab\ncd"] == [[], [], [b"ab"], [], []]
    assert parts.feed(b"\n") == [b"cd"] and parts.pending == b""
