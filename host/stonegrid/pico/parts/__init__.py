"""The pinned parts of the Pico: files beside this module, each checked against its sha256
here whenever it is used (README.md says where they come from and how they were built)."""
import hashlib
import os

MICROPYTHON = "micropython-v1.28.0-RPI_PICO.uf2"  # MicroPython v1.28.0, rp2 board RPI_PICO
BOOTROM = "rp2040-bootrom-b1.bin"  # the RP2040 B1 boot ROM, for the emulator

SHA256 = {
    MICROPYTHON: "5da6ca3de906adff6b9126bd854883c7222faeb7ff2c935ddab73330dab9f323",
    BOOTROM: "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae",
}

FOLDER = os.path.dirname(os.path.abspath(__file__))


class PartError(ValueError):
    """A part is unknown, missing or not the pinned file."""


def read(name, folder=None):
    """The bytes of the part `name`, checked; PartError if it is missing or altered."""
    return _checked(name, folder)[1]


def path(name, folder=None):
    """The path of the part `name`, checked (for tools that take a file)."""
    return _checked(name, folder)[0]


def _checked(name, folder):
    folder = folder or FOLDER
    if name not in SHA256:
        raise PartError("no Pico part named %r (the parts: %s)" % (name, ", ".join(sorted(SHA256))))
    where = os.path.join(folder, name)
    fix = "restore it from git (`git checkout -- %s`) or rebuild it as %s says" % (
        where, os.path.join(FOLDER, "README.md"))
    try:
        with open(where, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PartError("the Pico part %s cannot be read (%s); %s" % (where, e.strerror, fix))
    got = hashlib.sha256(data).hexdigest()
    if got != SHA256[name]:
        raise PartError("the Pico part %s is not the pinned file (sha256 %s, pinned %s); %s"
                        % (where, got, SHA256[name], fix))
    return where, data
