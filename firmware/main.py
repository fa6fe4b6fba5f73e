# stonegrid firmware entry point: start the app, unless safe mode is asked for (a file named
# "safe" in the root, e.g. `mpremote fs touch :safe`; the app also skips itself when BACK is
# held at boot), so that the REPL always stays reachable.  `stonegrid flash` installs the code
# in a slot, /fw/a or /fw/b, named by /fw/current; without one the code is in the root.
import os
import sys

try:
    os.stat("safe")
except OSError:
    try:
        with open("fw/current") as f:
            sys.path.insert(0, "fw/" + f.read().strip())
    except OSError:
        pass
    import app

    app.start()
