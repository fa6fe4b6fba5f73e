"""The firmware's own code on the host, under stonegrid's name: `stonegrid.firmware.views` is
firmware/views of the project tree (build.repo_root), so that the host draws a game with the
very code the device runs.

On the device, app, hal and views are top-level packages at the flash's root, and their code
imports them so (`from views import palette`).  The host does not put them on sys.path (as
top-level names they would shadow any other `views` or `app`): the modules loaded here see an
__import__ that maps those names to stonegrid.firmware.<name>; the rest (shared_rules, the
standard library) imports as usual."""
import builtins
import importlib.machinery
import os
import sys

from stonegrid.build import CODE_DIRS, repo_root

__path__ = [os.path.join(repo_root(), "firmware")]  # a package: its modules are the tree's


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    top = name.partition(".")[0]
    if level or top not in CODE_DIRS:
        return builtins.__import__(name, globals, locals, fromlist, level)
    module = builtins.__import__(__name__ + "." + name, globals, locals, fromlist)
    # `import views.canvas` binds the package `views`, `from views import x` the module itself
    return module if fromlist else sys.modules[__name__ + "." + top]


_BUILTINS = dict(vars(builtins), __import__=_import)  # the builtins with that one name changed


class _Loader(importlib.machinery.SourceFileLoader):
    def exec_module(self, module):
        module.__builtins__ = _BUILTINS  # what the module's code (and its functions) import by
        super().exec_module(module)


class _Finder:
    """Loads this package's modules (found as usual, in __path__) with _Loader."""

    @staticmethod
    def find_spec(name, path, target=None):
        if not name.startswith(__name__ + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None:
            spec.loader = _Loader(name, spec.origin)
        return spec


sys.meta_path.insert(0, _Finder)
