"""The rules of the four stonegrid games, for MicroPython and CPython alike.

Every game module offers the same API (see core.Game); load(game_id) imports only that game.
"""
GAMES = ("morris", "gipf", "mixtour", "rhombus")


def load(game_id):
    """The rules module for a game id, imported on first use."""
    if game_id not in GAMES:
        raise ValueError("unknown game %r (games: %s)" % (game_id, ", ".join(GAMES)))
    return getattr(__import__("shared_rules." + game_id), game_id)
