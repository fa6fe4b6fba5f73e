"""Where the real tools are: the micropython unix port and the shared folder."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("STONEGRID_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))


def tool(name):
    """A console script of this environment (the pinned one), else one on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    path = here if os.path.exists(here) else shutil.which(name)
    if not path:
        raise RuntimeError("%s is not installed; run `make test` to set up" % name)
    return path


def micropython(*args, heap=None, timeout=600):
    cmd = [tool("micropython")] + (["-X", "heapsize=%s" % heap] if heap else []) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
