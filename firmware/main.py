# stonegrid firmware entry point: start the app, unless safe mode is asked for (a file named
# "safe" in the root, e.g. `mpremote fs touch :safe`; the app also skips itself when BACK is
# held at boot), so that the REPL always stays reachable.
import os

try:
    os.stat("safe")
except OSError:
    import app

    app.start()
