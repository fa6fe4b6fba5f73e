"""Synthetic UF2 files shaped as stock MicroPython for the Pico: the program information and
the banner that stonegrid.pico.stock reads, around bytes that do nothing. No firmware: the
tests that need none (the checks, the flash image, `stonegrid build --uf2`) use these."""
import struct

from stonegrid.pico import image

XIP = image.XIP_BASE
RP2040 = image.RP2040
RP2350 = 0xE48BFF59  # a Pico 2 UF2's family
PICO_FS = (XIP + 0xA0000, 1408 * 1024)  # where RPI_PICO v1.28.0 mounts its littlefs
# the SDK's binary info markers, entry types, tags and ids, as stonegrid.pico.stock reads them
START, END = 0x7188EBF2, 0xE71AA390
TAG_RP, TAG_MP = 0x5052, 0x504D
NAME, VERSION, BOARD, BINARY_END = 0x02031C86, 0x11A9BC3A, 0xB63CFFBB, 0x68F465DE


def flash_bytes(name="MicroPython", version="v1.28.0", fs=PICO_FS, size=0x8000,
                banner=True, info=True, board="Raspberry Pi Pico"):
    """The firmware's bytes from the start of the flash (`size` of them)."""
    out = bytearray(size)
    strings = 0x800

    def text(s):
        nonlocal strings
        at = strings
        out[at:at + len(s) + 1] = s.encode() + b"\0"
        strings += len(s) + 1
        return XIP + at

    if info:
        entries = []
        at = 0x400
        for kind, tag, fields in [(6, TAG_RP, (NAME, text(name))),
                                  (6, TAG_RP, (VERSION, text(version))),
                                  (6, TAG_RP, (BOARD, text("pico"))),
                                  (5, TAG_RP, (BINARY_END, XIP + size)),
                                  (7, TAG_MP, (text(name), fs[0], fs[1], 0))]:
            struct.pack_into("<2H%dI" % len(fields), out, at, kind, tag, *fields)
            entries.append(XIP + at)
            at += 24
        struct.pack_into("<%dI" % len(entries), out, 0x300, *entries)
        struct.pack_into("<5I", out, 0x110, START, XIP + 0x300, XIP + 0x300 + 4 * len(entries),
                         XIP + 0x200, END)  # 0x200: an empty mapping table (zeros)
    if banner:
        line = "3.4.0; %s %s on 2026-12-01\0; %s with RP2040\0" % (name, version, board)
        out[0x1000:0x1000 + len(line)] = line.encode()
    return bytes(out)


def uf2(family=RP2040, **kw):
    """A UF2 file of flash_bytes(**kw), every block with `family`."""
    data = bytearray(image.write_uf2({XIP: flash_bytes(**kw)}))
    if family != RP2040:
        for at in range(0, len(data), 512):
            struct.pack_into("<I", data, at + 28, family)
    return bytes(data)


def write(path, data=None, **kw):
    """`data` (default: uf2(**kw)) written to `path`; returns the path as text."""
    with open(str(path), "wb") as f:
        f.write(uf2(**kw) if data is None else data)
    return str(path)
