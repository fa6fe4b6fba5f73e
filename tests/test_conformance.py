"""The recorded games of independent implementations, through shared/conformance/check_vectors.py,
under CPython and under MicroPython."""
import glob
import os
import subprocess
import sys

import pytest

from runtimes import ROOT, SHARED, micropython
from shared_rules import GAMES

# Each game has <game>.jsonl and perhaps <game>_*.jsonl.
VECTORS = GAMES


def _files(game):
    folder = os.path.join(SHARED, "conformance")
    files = sorted(glob.glob(os.path.join(folder, game + ".jsonl"))
                   + glob.glob(os.path.join(folder, game + "_*.jsonl")))
    assert files, "no conformance vectors for %s in %s (set STONEGRID_SHARED)" % (game, folder)
    return files


def _check(out, rc):
    last = out.strip().splitlines()[-1] if out.strip() else ""
    assert rc == 0 and last.endswith(" 0 failed"), out[-3000:]


@pytest.mark.parametrize("game", VECTORS)
def test_cpython(game):
    script = os.path.join(SHARED, "conformance", "check_vectors.py")
    proc = subprocess.run([sys.executable, script, "--repo", ROOT] + _files(game),
                          capture_output=True, text=True, timeout=600)
    _check(proc.stdout + proc.stderr, proc.returncode)


@pytest.mark.parametrize("game", VECTORS)
def test_micropython(game):
    script = os.path.join(SHARED, "conformance", "check_vectors.py")
    proc = micropython(script, "--repo", ROOT, *_files(game))
    _check(proc.stdout + proc.stderr, proc.returncode)
