"""`pip install .` (not editable) gives a stonegrid that works outside the checkout: it builds
the firmware, runs it on the virtual board, replays a log with the firmware's views and says
its version, which one place names."""
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest

from runtimes import ROOT

SOURCE = ("pyproject.toml", "README.md", "host", "firmware", "shared_rules", "hardware")


def test_the_version_is_named_once_by_the_firmware():
    """pyproject.toml reads its version from firmware/app's VERSION (what a board reports as
    `fw`), and so does stonegrid.__version__; the install test below checks what an install
    makes of them."""
    import tomllib

    import stonegrid
    from app import VERSION
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    setuptools = project["tool"]["setuptools"]
    module, _, name = setuptools["dynamic"]["version"]["attr"].rpartition(".")
    package, _, leaf = module.rpartition(".")
    assert (os.path.join(setuptools["package-dir"][package], leaf), name) == (
        os.path.join("firmware", "app"), "VERSION")
    assert stonegrid.__version__ == VERSION


def test_the_host_loads_the_views_under_its_own_name(tmp_path):
    """Replay draws with the firmware's views without making app, hal or views top-level names
    of the host process (a fresh one: the tests' own sys.path has the firmware on it)."""
    code = ("import sys\n"
            "from shared_rules import load\n"
            "from stonegrid import replay\n"
            "g = load('morris').Game()\n"
            "g.play('d7')\n"
            "frame = replay.Frames({'game': 'morris'}, g).at(1)\n"
            "print(len(frame), sys.modules['stonegrid.firmware.views.morris'].__file__)\n"
            "print(sorted(set(sys.modules) & {'app', 'hal', 'views'}), "
            "[p for p in sys.path if p.endswith('firmware')])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=str(tmp_path), check=True).stdout.splitlines()
    assert out == ["768 %s" % os.path.join(ROOT, "firmware", "views", "morris.py"), "[] []"]


def copy_source(src):
    """What pip builds from: the project's source, none of a checkout's leftovers."""
    for name in SOURCE:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.egg-info", "*.mpy"))
        else:
            shutil.copy(path, src / name)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder, env, a folder outside the checkout) of a fresh venv holding stonegrid
    installed from a copy of the source.  The pinned dependencies come from this venv (a .pth
    file), and setuptools too (no build isolation), so nothing is downloaded."""
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    copy_source(src)
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    with open(os.path.join(site.stdout.strip(), "pinned-dependencies.pth"), "w") as f:
        f.write(sysconfig.get_paths()["purelib"] + "\n")
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                          "--no-deps", "--no-build-isolation", "--no-index", str(src)],
                         capture_output=True, text=True, timeout=120)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    shutil.rmtree(src)  # nothing of the source is left to lean on
    env = dict(os.environ, PATH=os.pathsep.join([str(venv / "bin"), os.path.dirname(
        sys.executable), os.environ.get("PATH", "")]))
    for name in ("STONEGRID_ROOT", "PYTHONPATH"):
        env.pop(name, None)
    return venv / "bin", env, base


def stonegrid(installed, *args):
    bin_dir, env, cwd = installed
    return subprocess.run([str(bin_dir / "stonegrid")] + list(args), capture_output=True,
                          text=True, timeout=120, env=env, cwd=str(cwd))


def installed_python(installed, code):
    bin_dir, env, cwd = installed
    return subprocess.run([str(bin_dir / "python"), "-c", code], capture_output=True, text=True,
                          env=env, cwd=str(cwd), check=True).stdout.split()


def test_the_installed_package_is_not_the_checkout(installed):
    files = installed_python(installed, "import stonegrid, shared_rules; "
                             "print(stonegrid.__file__, shared_rules.__file__)")
    assert all(path.startswith(str(installed[0].parent)) for path in files), files


def test_help_and_one_version_everywhere(installed):
    out = stonegrid(installed, "--help")
    assert out.returncode == 0 and "replay" in out.stdout, out.stderr
    from app import VERSION  # what the board reports as `fw`
    out = stonegrid(installed, "--version")
    assert out.returncode == 0 and out.stdout.split() == ["stonegrid", VERSION], out
    assert installed_python(installed, "import importlib.metadata, stonegrid; print(importlib."
                            "metadata.version('stonegrid'), stonegrid.__version__)") == [
        VERSION, VERSION]


def test_build_a_uf2(installed):
    import fake_uf2
    firmware = fake_uf2.write(installed[2] / "RPI_PICO.uf2")
    out = stonegrid(installed, "build", "--uf2", "app.uf2", "--micropython", firmware)
    assert out.returncode == 0, out.stderr
    assert (installed[2] / "app.uf2").stat().st_size > 600 * 1024


def test_the_wheel_holds_no_firmware_or_rom_image(tmp_path):
    """What the project publishes carries only its own work: no UF2, no boot ROM (the
    emulated Pico takes them from the maker and from a registry package)."""
    import zipfile

    from test_project_files import is_image
    src = tmp_path / "src"
    src.mkdir()
    copy_source(src)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                           "--no-build-isolation", "--no-index", "-w", str(tmp_path / "wheel"),
                           str(src)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = os.listdir(str(tmp_path / "wheel"))
    with zipfile.ZipFile(str(tmp_path / "wheel" / wheel)) as z:
        names = z.namelist()
        assert "stonegrid/pico/stock.py" in names and "stonegrid/pico/run.mjs" in names
        assert [n for n in names if is_image(n, z.read(n)[:64])] == []


def test_replay_draws_with_the_firmware_views(installed):
    from helpers import random_game
    from shared_rules import load
    from stonegrid import records
    g = random_game(load("mixtour"), 5)
    path = installed[2] / "game.jsonl"
    path.write_text("\n".join(records.to_records({"game": "mixtour", "fw": "t"}, g)) + "\n")
    out = stonegrid(installed, "replay", str(path), "--to", str(g.plies()), "--gif", "game.gif")
    assert out.returncode == 0, out.stderr
    assert "ply %d/%d" % (g.plies(), g.plies()) in out.stdout and (installed[2] / "game.gif").exists(), out.stdout


def test_the_virtual_board_runs_the_installed_firmware(installed):
    bin_dir, env, cwd = installed
    from app import VERSION
    from boardkit import Serial
    sim = subprocess.Popen([str(bin_dir / "stonegrid"), "sim", "--headless", "--flash",
                            str(cwd / "flash")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, cwd=str(cwd))
    try:
        first = sim.stdout.readline()
        assert first.startswith("serial: "), first + sim.stderr.read()
        ser = Serial(first.split(None, 1)[1].strip())
        try:
            ser.send({"cmd": "hello"})
            assert ser.wait(lambda o: o.get("t") == "hello", 30)["fw"] == VERSION
        finally:
            ser.close()
    finally:
        sim.terminate()
        sim.wait(timeout=30)


@pytest.mark.parametrize("args,missing", [
    (["web", "--no-open", "--port", "0"], "micropython.wasm"),
    (["sim", "--headless", "--board", "pico-ws2812"], "rp2040js"),
])
def test_what_needs_the_node_packages_of_a_checkout_says_so(installed, args, missing):
    out = stonegrid(installed, *args)
    assert out.returncode == 2 and missing in out.stderr and "npm ci" in out.stderr, out.stderr
    assert "installed copy" in out.stderr and "checkout" in out.stderr  # not `npm ci` here
    assert "Traceback" not in out.stderr
