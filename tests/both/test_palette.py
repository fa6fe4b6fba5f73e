"""Each side is drawn in the colour of its name, and the refused/banned cue is no side's."""
from shared_rules import GAMES, load
from views import palette


def looks(rgb):
    """The colour name a person would give an LED colour (or None)."""
    r, g, b = rgb >> 16, rgb >> 8 & 255, rgb & 255
    if min(r, g, b) >= 0xC0 and max(r, g, b) - min(r, g, b) < 0x30:
        return "White"
    if max(r, g, b) <= 0xB0 and b > r and b > g:
        return "Black"  # an LED cannot show black: a dim blue-grey stands for it
    if r >= 0xC0 and g < 0x50 and b < 0x50:
        return "Red"
    if g >= 0xC0 and r < 0x50 and b < 0xA0:
        return "Green"
    return None


def test_each_side_looks_like_its_name():
    for game in GAMES:
        names = load(game).PLAYERS
        got = tuple(looks(c) for c in palette.stones(game))
        assert got == names, (game, got, names)


def test_the_refused_cue_is_no_sides_colour():
    assert looks(palette.REFUSED) is None
    for game in GAMES:
        assert palette.REFUSED not in palette.stones(game)


def test_a_game_without_colours_yet_gets_two_that_differ():
    got = palette.stones("a-fifth-game")
    assert len(got) == 2 and got[0] != got[1], got
    assert palette.REFUSED not in got
    assert tuple(looks(c) for c in got) == ("White", "Black")
