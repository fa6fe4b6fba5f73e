"""Which code the heap holds: the games this flash has, one game's code at a time, and a
module let go of until next needed.  Its own module so that the screens (app.menu,
app.confirm...) and the serial commands use it without importing app.core."""
import gc
import os

from shared_rules import GAMES


def playable():
    """The games that have a view on this device (wherever the views package was found)."""
    import views
    return [g for g in GAMES if on_flash(views, g)]


def on_flash(package, name):
    """True when the (imported) package has the module `name`, which is not loaded to find
    out: as source or compiled."""
    folder = package.__path__ if isinstance(package.__path__, str) else package.__path__[0]
    for ext in (".py", ".mpy"):
        try:
            os.stat(folder + "/" + name + ext)
            return True
        except OSError:
            pass
    return False


def only(game_id):
    """Forget the other games' rules, views and opponents, so that one game's code is in
    the heap at a time (a heap of 96 KB holds one game and its opponent, not four)."""
    for other in GAMES:
        if other != game_id:
            forget("shared_rules", other)
            forget("shared_rules", other + "_ai")
            forget("views", other)
            forget("guides", other)
    forget("shared_rules", "simultaneous")  # the secret-bid solver: its game loads it again
    gc.collect()


def forget(package, name):
    """Let the garbage collector have a module's code (imported again when next needed).
    Only on the device: on a host the modules are shared with other code (tests, replays)."""
    import sys
    if sys.implementation.name != "micropython":
        return
    if sys.modules.pop(package + "." + name, None) is not None:
        parent = sys.modules.get(package)
        if parent is not None and hasattr(parent, name):
            delattr(parent, name)
