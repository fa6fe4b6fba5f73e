"""Where things are, and copying the firmware onto the virtual board's flash directory."""
import os
import shutil

from stonegrid import build
from stonegrid.build import repo_root

HERE = os.path.dirname(os.path.abspath(__file__))
BOARDSHELL = os.path.join(HERE, "boardshell.py")
BOARDREPL = os.path.join(HERE, "boardrepl.py")


def default_flash_dir(root=None):
    """$XDG_DATA_HOME/stonegrid/flash/<checkout>-<hash of its path>, else the same under
    ~/.local/share: one per checkout, since each run installs its checkout's firmware there
    (and the journal of one checkout's firmware must not meet another's)."""
    import hashlib
    root = os.path.abspath(root or repo_root())
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share")
    key = hashlib.sha256(root.encode()).hexdigest()[:8]
    return os.path.join(base, "stonegrid", "flash", "%s-%s" % (os.path.basename(root), key))


def micropython_path():
    """The `micropython` unix port: $STONEGRID_MICROPYTHON, this environment's, else PATH."""
    return os.environ.get("STONEGRID_MICROPYTHON") or build.tool("micropython")


def sync(flash, root=None):
    """Install the checkout's firmware in `flash` as `stonegrid flash` builds it (compiled with
    mpy-cross; the source would not fit the heap), with hardware/unix.json as board.json.

    Only files whose content differs are written (atomically); a source file that a compiled
    one replaces is removed, and so is a flashed slot (/fw), so that the checkout is what
    runs; nothing else in `flash` (the journal, settings, files put there with mpremote) is
    touched.  Returns the flash paths written."""
    root = root or repo_root()
    files = build.build(root, profile=os.path.join(root, "hardware", "unix.json"))
    written = build.write_tree(files, flash)
    for path in files:
        if path.endswith(".mpy") and os.path.exists(os.path.join(flash, path[:-4] + ".py")):
            os.remove(os.path.join(flash, path[:-4] + ".py"))
    shutil.rmtree(os.path.join(flash, "fw"), ignore_errors=True)
    return written
