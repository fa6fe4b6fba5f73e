"""Colours.  Each game's two sides are drawn in the colours of their names (shared_rules'
PLAYERS, the rules, the CLI, the docs), so a person never has to translate.  An LED cannot
show black: a Black side is a dim blue-grey, which no other mark uses.  Morris' green leans
to blue, so that red and green also differ for red-green colour blindness (and in lightness).  A refused press and Mixtour's banned reversal are magenta, no side's colour."""
WHITE = 0xE8E8E8
BLACK = 0x3050A0  # "black" stones: blue-grey, brighter than the board's dots
RED = 0xFF0000
GAME = {
    "morris": (RED, 0x00E060),
    "gipf": (WHITE, BLACK),
    "mixtour": (WHITE, RED),
    "rhombus": (BLACK, WHITE),
}
SAFE = GAME["morris"]  # a view's colours until the app sets its game's (views.UI)
# A game without a line in GAME yet: White and Black, the names most games give their sides.
UNKNOWN = (WHITE, BLACK)
LINE = 0x0A0A0A
POINT = 0x1E1E1E
CURSOR = 0xFFFFFF
REFUSED = 0xFF00FF
LAST = 0x3C2800
GUIDE = 0xFFB000  # the move a first-game guide asks for (app.learn): bright, no side's colour
TEXT = 0x909090


def stones(game_id):
    """The two players' colours for a game: its names' colours (one naming everywhere)."""
    return GAME.get(game_id, UNKNOWN)
