import atexit
import os
import shutil
import sys
import tempfile

import pytest

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
os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")  # the boot ROM's copy

# Each test file's tier: the markers (declared in pyproject.toml) of the slow end-to-end tests
# that `make check` leaves out; () is the fast tier. tests/both/ is all fast.
# tests/test_project_files.py fails for a test file missing here.
FAST = ()
TIERS = {
    "test_analyse.py": FAST,
    "test_guideshots.py": FAST,
    "test_bad_files.py": FAST,
    "test_checklist.py": FAST,
    "test_cli_options.py": FAST,
    "test_endgames.py": ("tools",),
    "test_code_shape.py": FAST,
    "test_conformance.py": FAST,
    "test_fuzz.py": FAST,
    "test_hardware.py": FAST,
    "test_ladder.py": FAST,
    "test_perfect_bench.py": FAST,
    "test_harness.py": FAST,
    "test_host_paths.py": FAST,
    "test_led.py": FAST,
    "test_pictures.py": FAST,
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
    "test_link_host.py": ("tools",),
    "test_install.py": ("sim", "tools"),
    "test_link_boards.py": ("sim", "tools"),
    "test_web.py": ("browser",),
    "test_pico.py": ("emulated",),
    "test_pico_bench.py": ("emulated",),
    "test_pico_image.py": FAST,
}
# Under pytest-xdist (`make test`: --dist loadgroup) the tests of one group run on one worker,
# in the order collected: the cases of one tests/both file under micropython (one run serves
# them all: _runs in test_under_micropython.py), test_sim's board shared by its tests, and
# the emulated Picos one at a time, and the browser's pages one at a time (each is a process
# that keeps a core busy and waits for its frames against the host's clock; a Pico beside a
# browser is fine since its buttons follow the chip's own reads, host/stonegrid/pico/run.mjs).
# The slow tiers are collected first, so that the last tests to finish are short ones.
ONE_WORKER = {"test_sim.py", "test_ladder.py", "test_perfect_bench.py"}  # benches' own pools
ONE_AT_A_TIME = ("emulated", "browser")
FIRST = ["emulated", "browser", "sim"]


def group(nodeid):
    """The group of a test by its id (all the scheduler has); a test alone is its own."""
    path, _, test = nodeid.partition("::")
    name = os.path.basename(path)
    for tier in ONE_AT_A_TIME:
        if tier in TIERS.get(name, FAST):
            return "one at a time: " + tier
    if name == "test_under_micropython.py":  # test_case[test_gipf::test_start]
        return "both/" + test.partition("[")[2].partition("::")[0]
    return name if name in ONE_WORKER else nodeid


# The emulated tier runs the maker's own MicroPython UF2 for the Pico: the project carries
# no firmware, so without one named the tier is skipped, and the summary says so.
UF2 = "STONEGRID_MICROPYTHON_UF2"
NO_UF2 = ("the emulated tier needs a MicroPython UF2 for the Pico: set %s to the RPI_PICO file "
          "from https://micropython.org/download/RPI_PICO" % UF2)


def pytest_collection_modifyitems(items):
    for item in items:
        for marker in TIERS.get(item.path.name, FAST):
            item.add_marker(marker)
        if "emulated" in TIERS.get(item.path.name, FAST) and not os.environ.get(UF2):
            item.add_marker(pytest.mark.skip(reason=NO_UF2))
    items.sort(key=lambda item: min([FIRST.index(m) for m in FIRST if item.get_closest_marker(m)]
                                    or [len(FIRST)]))


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # a hook of pytest-xdist's
def pytest_xdist_make_scheduler(config, log):
    # xdist's own loadgroup reads xdist_group marks through a node attribute that pytest 9
    # no longer has, so the groups are given here, by test id
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class Groups(LoadGroupScheduling):
        def _split_scope(self, nodeid):
            return group(nodeid)

    return Groups(config, log)


def pytest_terminal_summary(terminalreporter):
    if os.environ.get(UF2):
        return
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if getattr(r, "longrepr", None) and NO_UF2 in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line("the emulated tier did not run: %d test%s skipped, %s is not "
                                    "set" % (len(skipped), "s"[len(skipped) == 1:], UF2),
                                    yellow=True)
