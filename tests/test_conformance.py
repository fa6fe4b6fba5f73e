"""The recorded games of independent implementations, through shared/conformance/check_vectors.py,
under CPython and under MicroPython."""
import os
import subprocess
import sys

import pytest

from runtimes import ROOT, SHARED, micropython

VECTORS = {
    "morris": ["morris.jsonl"],
}


def _files(game):
    files = [os.path.join(SHARED, "conformance", f) for f in VECTORS[game]]
    missing = [f for f in files if not os.path.exists(f)]
    assert not missing, "conformance vectors missing: %s (set STONEGRID_SHARED)" % missing
    return files


def _check(out, rc):
    last = out.strip().splitlines()[-1] if out.strip() else ""
    assert rc == 0 and last.endswith(" 0 failed"), out[-3000:]


@pytest.mark.parametrize("game", sorted(VECTORS))
def test_cpython(game):
    script = os.path.join(SHARED, "conformance", "check_vectors.py")
    proc = subprocess.run([sys.executable, script, "--repo", ROOT] + _files(game),
                          capture_output=True, text=True, timeout=600)
    _check(proc.stdout + proc.stderr, proc.returncode)


@pytest.mark.parametrize("game", sorted(VECTORS))
def test_micropython(game):
    script = os.path.join(SHARED, "conformance", "check_vectors.py")
    proc = micropython(script, "--repo", ROOT, *_files(game))
    _check(proc.stdout + proc.stderr, proc.returncode)
