"""The MicroPython runner must report failures, or the dual-runtime suite proves nothing."""
import json

from runtimes import micropython


def test_runner_reports_pass_and_fail(tmp_path):
    case = tmp_path / "test_probe.py"
    case.write_text("def test_good():\n    assert 1 + 1 == 2\n\n"
                    "def test_bad():\n    assert [] == [1], 'boom'\n\n"
                    "def helper():\n    raise RuntimeError\n")
    proc = micropython("tests/mp_run.py", str(case))
    rows = {r["test"]: r for r in map(json.loads, proc.stdout.splitlines())}
    assert sorted(rows) == ["test_bad", "test_good"]
    assert rows["test_good"]["ok"] and not rows["test_bad"]["ok"]
    assert "boom" in rows["test_bad"]["error"]
