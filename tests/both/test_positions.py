"""Positions set up from text are the positions play reaches: every game, both runtimes."""
from shared_rules import GAMES, load

from helpers import check_position_round_trip

# Options that change what a position may hold, beside the defaults.
OPTIONS = {
    "morris": ({"double_mill_takes_two": False, "no_immediate_returns": True},),
    "gipf": ({"handicap": (2, 0)},),
    "mixtour": ({"points_to_win": 3},),
}


def test_every_position_of_random_games_comes_back_from_its_text():
    for game_id in GAMES:
        mod = load(game_id)
        for options in ({},) + OPTIONS.get(game_id, ()):
            checked = 0
            for seed in range(3):
                checked += check_position_round_trip(mod, seed, **options)
            assert checked > 30, (game_id, options, checked)
