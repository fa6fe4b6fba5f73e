"""Each game's board as text for `stonegrid play`, one module per game (textboard/<game>.py),
so that the terminal's loop knows no game.  A module offers:
  EXAMPLES      the game's notation, with examples, for the help text
  draw(g)       the position as lines of text: the board with its coordinates on the edges,
                and what else a player needs (hands, reserves, scores, bids); never a secret
                (the loop draws the view of the player to act)
and, where the game asks for something a player would type otherwise:
  ask(g)        what the prompt asks for now, in words (default: a move)
  understand(g, text) -> the notation the player meant ("2" for a bid of two)"""
from importlib import import_module


def load(game_id):
    return import_module("stonegrid.textboard." + game_id)
