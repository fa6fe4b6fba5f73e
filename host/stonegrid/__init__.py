"""stonegrid host tools: the `stonegrid` command."""
__version__ = "0.1.0"
