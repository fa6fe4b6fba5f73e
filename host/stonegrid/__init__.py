"""stonegrid host tools: the `stonegrid` command."""
import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
_SHIPPED = os.path.join(_HERE, "tree")
# The project tree this package came with (firmware/, shared_rules/, hardware/): the copy that
# `pip install .` puts inside the package (pyproject.toml), else the checkout it runs from.
TREE = _SHIPPED if os.path.isdir(_SHIPPED) else os.path.dirname(os.path.dirname(_HERE))


def _firmware_version():
    """The firmware's app.VERSION, which a board reports in `hello` as `fw`: the one place the
    version is named (pyproject.toml reads it too)."""
    with open(os.path.join(TREE, "firmware", "app", "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^VERSION = "(.+)"$', f.read(), re.M).group(1)


__version__ = _firmware_version()
