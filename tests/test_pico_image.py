"""The Pico's flash image: the pinned parts, UF2 files, the littlefs filesystem holding the app,
and `stonegrid build --uf2`."""
import os
import struct
import subprocess
import sys

import littlefs
import pytest

from runtimes import ROOT
from stonegrid import build, cli
from stonegrid.pico import image, parts

PROFILE = os.path.join(ROOT, "hardware", "pico-ws2812.json")
STONEGRID = [os.path.join(os.path.dirname(sys.executable), "stonegrid")]


# What MicroPython v1.28.0's rp2 port mounts on a Pico, read from its source (ports/rp2:
# modules/_boot.py, rp2_flash.c, boards/RPI_PICO; extmod/vfs_lfs.c, vfs_lfsx.c), stated here
# apart from image.py so that a change there shows
RP2_LFS = dict(block_size=4096, block_count=352, read_size=32, prog_size=256, lookahead_size=32,
               cache_size=1024, block_cycles=100, disk_version=0x00020001)


def mount(fs_bytes):
    """littlefs-python on the image, with exactly the parameters the rp2 port mounts with."""
    assert image.LFS_CONFIG == RP2_LFS
    fs = littlefs.LittleFS(context=littlefs.UserContext(len(fs_bytes)), mount=False, **RP2_LFS)
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
def flash():
    return image.flash_image(PROFILE)


def test_the_filesystem_holds_exactly_the_built_tree(flash):
    assert len(flash) == 2 * 1024 * 1024 and image.FS_OFFSET == 0xA0000
    fs = mount(flash[image.FS_OFFSET:])
    stat = fs.fs_stat()
    assert (stat.block_size, stat.block_count, stat.disk_version) == (4096, 352, 0x00020001)
    want = build.build(compiled=True, profile=PROFILE)
    got = tree(fs)
    assert got.pop("fw/current") == b"a"
    assert got.pop("main.py") == want.pop("main.py")
    assert got.pop("board.json") == want.pop("board.json")
    assert got == dict(("fw/a/" + p, d) for p, d in want.items())
    assert any(p.endswith(".mpy") for p in got) and not any(p.endswith(".py") for p in got)


def test_an_app_too_big_for_the_filesystem_is_refused():
    with pytest.raises(image.ImageError, match="do not fit the Pico's 1408 KB filesystem"):
        image.filesystem({"fw/a/big.mpy": bytes(image.FS_BYTES)})


def test_the_flash_starts_with_micropython_and_ends_before_the_filesystem(flash):
    firmware = image.read_uf2(parts.read(parts.MICROPYTHON))
    for address, data in firmware.items():
        at = address - image.XIP_BASE
        assert flash[at:at + len(data)] == data
    end = max(firmware) + 256 - image.XIP_BASE
    assert end <= image.FS_OFFSET
    assert flash[end:image.FS_OFFSET] == b"\xff" * (image.FS_OFFSET - end)


def test_uf2_round_trip():
    pinned = parts.read(parts.MICROPYTHON)
    assert image.write_uf2(image.read_uf2(pinned)) == pinned
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
    with pytest.raises(image.ImageError, match="x.uf2 is not for the RP2040: block 2 has "
                       "family id 0xe48bff59"):
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


def test_the_checksum_catches_an_altered_or_missing_part(tmp_path):
    for name in parts.SHA256:
        assert parts.read(name) == open(parts.path(name), "rb").read()
        altered = bytearray(parts.read(name))
        altered[len(altered) // 2] ^= 1
        (tmp_path / name).write_bytes(altered)
        with pytest.raises(parts.PartError, match="%s is not the pinned file" % name):
            parts.path(name, str(tmp_path))
        os.remove(tmp_path / name)
        with pytest.raises(parts.PartError, match="%s cannot be read" % name):
            parts.read(name, str(tmp_path))
    with pytest.raises(parts.PartError, match="no Pico part named 'x.uf2'"):
        parts.path("x.uf2")


def test_build_uf2_writes_micropython_and_the_app(tmp_path):
    out = tmp_path / "stonegrid.uf2"
    done = subprocess.run(STONEGRID + ["build", "--uf2", str(out), "--board", "pico-ws2812"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "wrote %s" % out in done.stdout, done.stderr
    flash = bytearray(b"\xff" * image.FLASH_BYTES)
    for address, data in image.read_uf2(out.read_bytes()).items():
        flash[address - image.XIP_BASE:address - image.XIP_BASE + len(data)] = data
    assert bytes(flash) == image.flash_image(PROFILE)


def _build(argv, capsys):
    status = cli.main(["build"] + argv)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return status, err


def test_build_uf2_errors_are_one_line(tmp_path, capsys, monkeypatch):
    assert _build(["--uf2", str(tmp_path / "no" / "x.uf2")], capsys) == (
        2, "stonegrid: error: cannot write %s: No such file or directory\n" % (
            tmp_path / "no" / "x.uf2"))
    status, err = _build(["--uf2", str(tmp_path / "x.uf2"), "--board", "stellar-unicorn"],
                         capsys)
    assert status == 2 and "not a board for stock MicroPython on a Pico" in err
    (tmp_path / "bad.json").write_text('{"name": "x",\n')
    status, err = _build(["--uf2", str(tmp_path / "x.uf2"), "--board",
                          str(tmp_path / "bad.json")], capsys)
    assert status == 2 and "bad.json is not a board profile: Expecting" in err and "line 2" in err
    folder = tmp_path / "parts"
    folder.mkdir()
    monkeypatch.setattr(parts, "FOLDER", str(folder))
    status, err = _build(["--uf2", str(tmp_path / "x.uf2")], capsys)
    assert status == 2 and "%s cannot be read" % parts.MICROPYTHON in err
    foreign = image.write_uf2({image.XIP_BASE: bytes(256)}).replace(
        struct.pack("<I", image.RP2040), struct.pack("<I", 0x68ED2B88))  # an ESP32's family
    (folder / parts.MICROPYTHON).write_bytes(foreign)
    status, err = _build(["--uf2", str(tmp_path / "x.uf2")], capsys)
    assert status == 2 and "is not the pinned file" in err
    monkeypatch.setitem(parts.SHA256, parts.MICROPYTHON, build.digest(foreign))
    status, err = _build(["--uf2", str(tmp_path / "x.uf2")], capsys)
    assert status == 2 and "is not for the RP2040: block 0 has family id 0x68ed2b88" in err
    assert not (tmp_path / "x.uf2").exists()



def test_micropython_boots_the_uf2_and_runs_the_app(tmp_path):
    """The emulated RP2040 (rp2040js, npm) boots what `stonegrid build --uf2` writes, laid
    on an erased flash as the boot ROM would: MicroPython mounts the littlefs as it is
    (rp2040js drops flash writes, so a reformat would leave it empty) and the app, read from
    /fw/a, says hello on USB serial."""
    uf2 = tmp_path / "stonegrid.uf2"
    image.save_uf2(str(uf2), PROFILE)
    erased = bytearray(b"\xff" * image.FLASH_BYTES)
    for address, data in image.read_uf2(uf2.read_bytes()).items():
        erased[address - image.XIP_BASE:address - image.XIP_BASE + len(data)] = data
    flash = tmp_path / "flash.bin"
    flash.write_bytes(erased)
    done = subprocess.run(["node", os.path.join(ROOT, "tests", "pico_boot.js"),
                           parts.path(parts.BOOTROM), str(flash), '"t": "hello"', "60000"],
                          cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert '"games": ["morris", "gipf", "mixtour", "rhombus"]' in done.stdout, done.stdout
