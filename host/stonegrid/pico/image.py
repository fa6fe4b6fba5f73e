"""Flash images of a Raspberry Pi Pico: the maker's MicroPython UF2 (stock.py checks it) plus a
littlefs filesystem holding the app, where and as MicroPython's rp2 port mounts it:

- where: the block device that the firmware's own program information names (for RPI_PICO
  v1.28.0, 1408 KB at 0xA0000, the end of the 2 MB flash), in blocks of the flash's 4096-byte
  sectors;
- as: ports/rp2/modules/_boot.py mounts it as vfs.VfsLfs2(rp2.Flash(), progsize=256),
  formatting it only when that mount fails; extmod/vfs_lfs.c's defaults give readsize 32 and
  lookahead 32, and extmod/vfs_lfsx.c sets block_cycles 100 and cache_size
  min(block, 4 * max(read, prog));
- lib/littlefs is littlefs 2.11, on-disk version 2.1, as in littlefs-python 0.19.0.
An image built with those parameters mounts on the board as it is: the app is there at the
first boot, nothing is formatted."""
import json
import os
import struct

import littlefs

from stonegrid import build

XIP_BASE = 0x10000000  # where the RP2040 maps its flash
FLASH_BYTES = 2 * 1024 * 1024
BLOCK = 4096
LFS_CONFIG = dict(block_size=BLOCK, read_size=32, prog_size=256, lookahead_size=32,
                  cache_size=1024, block_cycles=100, disk_version=0x00020001)

RP2040 = 0xE48BFF56  # the UF2 family id the RP2040's boot ROM accepts
FAMILIES = {RP2040: "the RP2040 (a Raspberry Pi Pico)",
            0xE48BFF57: "an RP2350's absolute block (a Raspberry Pi Pico 2 UF2)",
            0xE48BFF59: "the RP2350 (a Raspberry Pi Pico 2)",
            0xE48BFF5A: "the RP2350's RISC-V cores (a Raspberry Pi Pico 2)",
            0xE48BFF5B: "the RP2350 (a Raspberry Pi Pico 2)"}
_MAGIC = (0x0A324655, 0x9E5D5157)  # "UF2\n", then a random one
_MAGIC_END = 0x0AB16F30
_NOT_MAIN_FLASH = 0x00000001
_FAMILY_ID = 0x00002000
_PAGE = 256  # the payload of each block, as the boot ROM wants it
_HEAD = struct.Struct("<8I")


class ImageError(ValueError):
    """A UF2 file that is not a flash image for the RP2040, or a tree that does not fit."""


def read_uf2(data, name="the UF2 file"):
    """{flash address: bytes} of an RP2040 UF2 file's blocks; ImageError naming the block
    for anything else: bad magic, a block missing or out of its place in the numbering (a
    file cut short), another chip's family."""
    if not data or len(data) % 512:
        raise ImageError("%s is not a whole UF2 file: %d bytes, not a whole number of 512-byte "
                         "blocks (cut short?)" % (name, len(data)))
    chunks = {}
    expect = run = 0  # the next block's number, and the count of the run of blocks under way
    for n in range(len(data) // 512):
        block = data[n * 512:(n + 1) * 512]
        magic0, magic1, flags, address, size, number, count, family = _HEAD.unpack_from(block)
        if (magic0, magic1) != _MAGIC or struct.unpack_from("<I", block, 508)[0] != _MAGIC_END:
            raise ImageError("%s is not a UF2 file: block %d has bad magic numbers" % (name, n))
        if number == 0 and expect == run:  # a file may hold several runs, each from 0
            expect, run = 0, count
        if number != expect or count != run or number >= count:
            raise ImageError("%s is damaged: block %d is numbered %d of %d where %d of %d was "
                             "due" % (name, n, number, count, expect, run))
        expect = number + 1
        if flags & _NOT_MAIN_FLASH:
            continue
        if not flags & _FAMILY_ID or family != RP2040:
            raise ImageError("%s is not for the RP2040 (a Raspberry Pi Pico): block %d has "
                             "family id %s" % (name, n, "0x%08x, %s" % (
                                 family, FAMILIES.get(family, "another chip's"))
                                 if flags & _FAMILY_ID else "none"))
        if size > 476 or not XIP_BASE <= address <= XIP_BASE + FLASH_BYTES - size:
            raise ImageError("%s: block %d writes %d bytes at 0x%08x, outside the Pico's 2 MB "
                             "flash" % (name, n, size, address))
        chunks[address] = block[32:32 + size]
    if expect != run:
        raise ImageError("%s is cut short: it ends after block %d of %d" % (name, expect, run))
    return chunks


def write_uf2(chunks):
    """An RP2040 UF2 file writing {flash address: bytes}, in whole 256-byte pages at
    page-aligned addresses, as the boot ROM wants them (a short last page is filled with
    0xff, the erased state)."""
    pages = []
    for address in sorted(chunks):
        if address % _PAGE:
            raise ImageError("UF2 blocks start on a %d-byte page: 0x%08x does not"
                             % (_PAGE, address))
        data = chunks[address]
        for at in range(0, len(data), _PAGE):
            pages.append((address + at, data[at:at + _PAGE].ljust(_PAGE, b"\xff")))
    out = bytearray()
    for n, (address, page) in enumerate(pages):
        out += _HEAD.pack(_MAGIC[0], _MAGIC[1], _FAMILY_ID, address, len(page), n, len(pages),
                          RP2040)
        out += page.ljust(476, b"\0") + struct.pack("<I", _MAGIC_END)
    return bytes(out)


def check_profile(profile):
    """The board profile file `profile` must be one stock MicroPython for the Pico (RPI_PICO)
    runs: ImageError otherwise (a Unicorn needs Pimoroni's build, a Pico 2 an RP2350 one)."""
    with open(profile, "rb") as f:
        try:
            board = json.loads(f.read())
        except ValueError as e:
            raise ImageError("%s is not a board profile: %s" % (profile, e))
    if not str(board.get("firmware", "")).startswith("micropython.org rp2 build RPI_PICO-"):
        raise ImageError("%s is not a board for stock MicroPython on a Pico (RPI_PICO): its "
                         "firmware is %r" % (profile, board.get("firmware")))


def app_files(profile, built=None, compiled=True):
    """{path: bytes} on the board's filesystem: the build (build.build's, compiled or as
    source, or `built`) in slot /fw/a, as `stonegrid flash` lays it out (so a later flash
    sends only what changed), main.py and board.json in the root."""
    files = {}
    built = built or build.build(compiled=compiled, profile=profile)
    for path, data in built.items():
        files[path if "/" not in path else "fw/a/" + path] = data
    files["fw/current"] = b"a"
    return files


def filesystem(files, fs_bytes):
    """The littlefs image of fs_bytes holding {path: bytes}, as the rp2 port mounts it."""
    fs = littlefs.LittleFS(block_count=fs_bytes // BLOCK, **LFS_CONFIG)
    try:
        for path in sorted(files):
            folder = path.rpartition("/")[0]
            if folder:
                fs.makedirs(folder, exist_ok=True)
            with fs.open(path, "wb") as f:
                f.write(files[path])
    except littlefs.LittleFSError as e:
        raise ImageError("the app's files do not fit the Pico's %d KB filesystem (%s)"
                         % (fs_bytes // 1024, e))
    return bytes(fs.context.buffer)


def _chunks(firmware, files):
    """{flash address: bytes}: the firmware's blocks (a stock.Firmware, which has checked
    that they end before its filesystem) and the filesystem holding `files`."""
    chunks = dict(firmware.chunks)
    chunks[XIP_BASE + firmware.fs_offset] = filesystem(files, firmware.fs_bytes)
    return chunks


def flash_image(firmware, files):
    """The Pico's whole 2 MB flash (erased bytes 0xff): the firmware (a stock.Firmware) and
    a filesystem holding `files`, {path: bytes} (e.g. app_files(profile) and more)."""
    image = bytearray(b"\xff" * FLASH_BYTES)
    for address, data in _chunks(firmware, files).items():
        image[address - XIP_BASE:address - XIP_BASE + len(data)] = data
    return bytes(image)


def save_uf2(out, profile, firmware, compiled=True):
    """Write one UF2 file for a Pico in BOOTSEL mode: the firmware (a stock.Firmware) and the
    app's filesystem built for the board profile file `profile`; returns its size. The whole
    filesystem is written, so it replaces the board's files (saved games too). ImageError
    (one line) when the profile is not for a Pico or the file cannot be written."""
    check_profile(profile)
    data = write_uf2(_chunks(firmware, app_files(profile, compiled=compiled)))
    try:
        with open(out + ".tmp", "wb") as f:
            f.write(data)
        os.replace(out + ".tmp", out)
    except OSError as e:
        raise ImageError("cannot write %s: %s" % (out, e.strerror or e))
    return len(data)
