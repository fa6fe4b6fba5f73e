"""Where the real tools are: the micropython unix port."""
import os
import subprocess

from stonegrid.build import tool  # noqa: F401 - the tests' way to the pinned tools

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def micropython(*args, heap=None, timeout=600):
    cmd = [tool("micropython")] + (["-X", "heapsize=%s" % heap] if heap else []) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
