"""Colours.  The default stone colours (orange and blue) stay apart for every common kind of
colour blindness; "game" gives each game its own colours instead."""
SAFE = (0xFF6A00, 0x1F6BFF)
GAME = {
    "morris": (0xE00000, 0x00C000),
    "gipf": (0xE8E8E8, 0x5A2DA0),  # black stones are invisible on LEDs: a dark violet
    "mixtour": (0xE8E8E8, 0xE00000),
    "rhombus": (0x5A2DA0, 0xE8E8E8),
}
LINE = 0x0A0A0A
POINT = 0x1E1E1E
CURSOR = 0xFFFFFF
REFUSED = 0xFF0000
LAST = 0x3C2800
TEXT = 0x909090


def stones(game_id, scheme="safe"):
    """The two players' colours for a game in a colour scheme ("safe" or "game")."""
    if scheme == "game":
        return GAME[game_id]
    return SAFE
