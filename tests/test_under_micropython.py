"""Every case in tests/both/ again, under the real MicroPython unix port."""
import ast
import glob
import json
import os

import pytest

from runtimes import ROOT, micropython

MODULES = sorted(glob.glob(os.path.join(ROOT, "tests", "both", "test_*.py")))


def _cases():
    for path in MODULES:
        with open(path) as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield pytest.param(path, node.name,
                                   id="%s::%s" % (os.path.basename(path)[:-3], node.name))


_runs = {}


def _run(path):
    if path not in _runs:
        rel = os.path.relpath(path, ROOT)
        proc = micropython("tests/mp_run.py", rel)
        results = {}
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                results[r["test"]] = r
        _runs[path] = (results, proc)
    return _runs[path]


@pytest.mark.parametrize("path,name", list(_cases()))
def test_case(path, name):
    results, proc = _run(path)
    r = results.get(name)
    assert r is not None, "micropython did not run %s:\n%s%s" % (name, proc.stdout, proc.stderr)
    assert r["ok"], r["error"]
