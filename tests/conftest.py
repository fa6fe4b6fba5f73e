import atexit
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "both"))  # the dual-runtime cases import helpers
sys.path.insert(0, os.path.join(ROOT, "firmware"))  # app, hal, views as on the device
sys.path.insert(0, ROOT)
# The tools remember the last board (device.json) under $XDG_CONFIG_HOME and keep the virtual
# board's flash under $XDG_DATA_HOME: the tests must not touch the user's own. One home per
# process, so each pytest-xdist worker has its own.
_HOME = tempfile.mkdtemp(prefix="stonegrid-tests-home-")
atexit.register(shutil.rmtree, _HOME, True)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")

# Each test file's tier: the markers (declared in pyproject.toml) of the slow end-to-end tests
# that `make check` leaves out; () is the fast tier. tests/both/ is all fast.
# tests/test_project_files.py fails for a test file missing here.
FAST = ()
TIERS = {
    "test_bad_files.py": FAST,
    "test_conformance.py": FAST,
    "test_hardware.py": FAST,
    "test_harness.py": FAST,
    "test_host_paths.py": FAST,
    "test_led.py": FAST,
    "test_pico_image.py": FAST,  # its one test that boots the chip is marked `emulated`
    "test_play.py": FAST,
    "test_project_files.py": FAST,
    "test_records.py": FAST,
    "test_search_memory.py": FAST,
    "test_under_micropython.py": FAST,
    "test_web_server.py": FAST,
    "test_sim.py": ("sim",),
    "test_board.py": ("sim",),
    "test_board_recovery.py": ("sim",),
    "test_tools.py": ("sim", "tools"),
    "test_web.py": ("browser",),
    "test_pico.py": ("emulated",),
    "test_pico_bench.py": ("emulated",),
}
# Under pytest-xdist (`make test`: --dist loadgroup) the tests of one group run on one worker,
# in the order collected: a module's board or browser shared by its tests starts once, and the
# emulated Picos (timed by the host's clock) never run two at a time. The slow tiers come first
# so that the last tests to finish are short ones.
ONE_WORKER = {"test_sim.py", "test_web.py"}
FIRST = ["emulated", "browser", "sim"]


def pytest_collection_modifyitems(items):
    import pytest
    for item in items:
        name = item.path.name
        for marker in TIERS.get(name, FAST):
            item.add_marker(marker)
        if item.get_closest_marker("emulated"):
            item.add_marker(pytest.mark.xdist_group("emulated"))
        elif name == "test_under_micropython.py":
            # one micropython run per tests/both file serves all its cases (_runs there)
            item.add_marker(pytest.mark.xdist_group(os.path.basename(item.callspec.params["path"])))
        elif name in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(name))
    items.sort(key=lambda item: min([FIRST.index(m) for m in FIRST if item.get_closest_marker(m)]
                                    or [len(FIRST)]))
