"""Each game's board as text for `stonegrid play`, one module per game (textboard/<game>.py),
so that the terminal's loop knows no game.  A module offers:
  EXAMPLES      the game's notation, with examples, for the help text
  draw(g)       the position as lines of text: the board with its coordinates on the edges,
                and what else a player needs (hands, reserves, scores, bids); never a secret
                (the loop draws the view of the player to act)"""
from importlib import import_module


def load(game_id):
    return import_module("stonegrid.textboard." + game_id)
