import atexit
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "both"))  # the dual-runtime cases import helpers
sys.path.insert(0, os.path.join(ROOT, "firmware"))  # app, hal, views as on the device
sys.path.insert(0, ROOT)
# The tools remember the last board (device.json) under $XDG_CONFIG_HOME and keep the virtual
# board's flash under $XDG_DATA_HOME: the tests must not touch the user's own.
_HOME = tempfile.mkdtemp(prefix="stonegrid-tests-home-")
atexit.register(shutil.rmtree, _HOME, True)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
