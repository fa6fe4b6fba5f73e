"""The recorded games of independent implementations (tests/conformance/, see its README),
through its check_vectors.py under CPython and under MicroPython."""
import glob
import lzma
import os
import subprocess
import sys

import pytest

from runtimes import ROOT, micropython
from shared_rules import GAMES

FOLDER = os.path.join(ROOT, "tests", "conformance")
SCRIPT = os.path.join(FOLDER, "check_vectors.py")


PARTS = 3  # each file's games in three runs, which pytest-xdist spreads (GIPF's take 40 s)


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory):
    """The vectors decompressed into a temporary folder (MicroPython cannot read xz), every
    PARTS-th game of each file in the same subfolder 0..PARTS-1."""
    out = tmp_path_factory.mktemp("conformance")
    for part in range(PARTS):
        (out / str(part)).mkdir()
    for packed in glob.glob(os.path.join(FOLDER, "*.jsonl.xz")):
        with lzma.open(packed) as f:
            games = f.read().splitlines(keepends=True)
        for part in range(PARTS):
            (out / str(part) / os.path.basename(packed)[:-3]).write_bytes(
                b"".join(games[part::PARTS]))
    return str(out)


def _files(folder, game):
    """Each game has <game>.jsonl and perhaps <game>_*.jsonl."""
    files = sorted(glob.glob(os.path.join(folder, game + ".jsonl"))
                   + glob.glob(os.path.join(folder, game + "_*.jsonl")))
    assert files, "no conformance vectors for %s in %s" % (game, FOLDER)
    return files


def _check(out, rc):
    last = out.strip().splitlines()[-1] if out.strip() else ""
    assert rc == 0 and last.endswith(" 0 failed") and not last.startswith("0 "), out[-3000:]


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("game", GAMES)
def test_cpython(game, part, unpacked):
    proc = subprocess.run([sys.executable, SCRIPT, "--repo", ROOT]
                          + _files(os.path.join(unpacked, str(part)), game),
                          capture_output=True, text=True, timeout=600)
    _check(proc.stdout + proc.stderr, proc.returncode)


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("game", GAMES)
def test_micropython(game, part, unpacked):
    proc = micropython(SCRIPT, "--repo", ROOT, *_files(os.path.join(unpacked, str(part)), game))
    _check(proc.stdout + proc.stderr, proc.returncode)


def test_nothing_outside_the_checkout():
    """A fresh clone has nothing beside it: no test, Makefile or README reaches out of it."""
    outside = ("../" + "shared", "STONEGRID_" + "SHARED")
    paths = ["Makefile", "README.md"] + glob.glob(os.path.join(ROOT, "tests", "**", "*.py"),
                                                  recursive=True)
    found = []
    for path in paths:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            text = f.read()
        found += ["%s: %s" % (os.path.relpath(path, ROOT), o) for o in outside if o in text]
    assert not found, found
