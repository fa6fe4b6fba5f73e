"""The rules of the four stonegrid games, for MicroPython and CPython alike.

Every game module offers the same API (see core.Game); load(game_id) imports only that game.
"""
GAMES = ("morris", "gipf", "mixtour", "rhombus")


def load(game_id):
    """The rules module for a game id, imported on first use."""
    if game_id not in GAMES:
        text = repr(game_id)  # cut: a log's tag may be megabytes
        raise ValueError("unknown game %s (games: %s)" % (
            text if len(text) <= 40 else text[:40] + "...", ", ".join(GAMES)))
    return getattr(__import__("shared_rules." + game_id), game_id)
