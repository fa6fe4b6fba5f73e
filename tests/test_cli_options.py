"""Every option of every command is checked for its kind and range before anything uses it:
a wrong one is the usage and one `error:` line naming the option, exit status 2, never a
traceback (`--control 99999` was an OverflowError, `--flash /dev/null` `[Errno 17]`)."""
import os
import subprocess
import sys

import pytest

STONEGRID = [sys.executable, "-m", "stonegrid.cli"]

WRONG = [
    (["sim", "--headless", "--control", "99999"], "argument --control: a port is a number"),
    (["sim", "--headless", "--control", "x"], "argument --control: a port is a number"),
    (["sim", "--headless", "--flash", "/dev/null"], "argument --flash: '/dev/null' is not a "
                                                    "folder"),
    (["sim", "--headless", "--heap", "99999999999k"], "argument --heap: '99999999999k' is "
                                                      "more than the 256m"),
    (["sim", "--headless", "--heap", "8k"], "argument --heap: a heap below 16k"),
    (["sim", "--headless", "--heap", "lots"], "argument --heap: not a heap size"),
    (["sim", "--headless", "--scale", "9"], "argument --scale: invalid choice"),
    (["web", "--port", "70000"], "argument --port: a port is a number"),
    (["logs", "--out", "/dev/null"], "argument --out: '/dev/null' is not a folder"),
    (["link", "a", "b", "--out", "/dev/null"], "argument --out: '/dev/null' is not a folder"),
    (["link", "a", "--serve", "--port", "-1"], "argument --port: a port is a number"),
    (["link", "a", "--join", "h:0", "--code", "X"], "argument --join: HOST:N"),
    (["flash", "--uf2", "x.uf2", "--drive", "/dev/null"], "argument --drive: '/dev/null' is "
                                                          "not a folder"),
    (["build", "--uf2", "x.uf2", "--board", "/dev/zero"], "board profile '/dev/zero' is not a "
                                                          "file"),
    (["build", "--uf2", "x.uf2", "--board", "nosuch"], "no board profile 'nosuch' (profiles: "
                                                       "cosmic-unicorn"),
    (["replay", "x.jsonl", "--to", "many"], "argument --to: invalid int value"),
    (["play", "nosuch"], "argument game: invalid choice"),
    (["play", "morris", "-o", "=1"], "argument -o/--option: options are NAME=VALUE"),
]


@pytest.mark.parametrize("argv,why", WRONG, ids=[" ".join(a) for a, _ in WRONG])
def test_a_wrong_option_is_one_line_and_status_2(tmp_path, argv, why):
    done = subprocess.run(STONEGRID + argv, capture_output=True, text=True, timeout=60,
                          cwd=str(tmp_path), stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error: " in line]
    assert len(errors) == 1 and why in errors[0], done.stderr
    assert not list(tmp_path.iterdir())  # nothing made, nothing written


def test_a_board_that_crashes_at_every_start_is_not_power_cycled_for_ever(tmp_path):
    """As a heap the machine cannot give made the unix port crash at once, again and again:
    after a few quick crashes in a row the sim stops, says why, and exits with status 1."""
    crash = tmp_path / "micropython"
    crash.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crash.chmod(0o755)
    env = dict(os.environ, STONEGRID_MICROPYTHON=str(crash))
    done = subprocess.run(STONEGRID + ["sim", "--headless", "--flash", str(tmp_path / "flash")],
                          capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("power-cycling the board") == 4, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "stonegrid: error: micropython exited with code -11 within 2 s of starting, 5 times in "
        "a row: the board is not power-cycled again"), done.stderr
