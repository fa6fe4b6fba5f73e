"""Run the plain test_* functions of one tests/both module under MicroPython.

Usage (from the project root): micropython tests/mp_run.py tests/both/test_x.py
Prints one JSON line per test: {"test": name, "ok": true|false, "error": text}.
"""
import io
import json
import sys


def main(path):
    folder, _, name = path.rpartition("/")
    sys.path.insert(0, "firmware")  # app, hal, views: as in the device's root
    sys.path.insert(0, "")  # the project root: shared_rules
    sys.path.insert(0, folder)  # helpers
    mod = __import__(name[:-3])
    for test in sorted(n for n in dir(mod) if n.startswith("test_")):
        error = None
        try:
            getattr(mod, test)()
        except Exception as e:  # noqa: BLE001 - reported, not hidden
            buf = io.StringIO()
            sys.print_exception(e, buf)
            error = buf.getvalue()
        print(json.dumps({"test": test, "ok": error is None, "error": error}))


main(sys.argv[1])
