"""Pimoroni Cosmic Unicorn (32x32, Pico W / Pico 2 W) through Pimoroni's firmware modules
(`cosmic`, `picographics`); the board logic is in hal.unicorn.  The views draw 16x16 logical
pixels and scale them to 2x2 blocks themselves (views/canvas.py)."""
from cosmic import CosmicUnicorn
from picographics import DISPLAY_COSMIC_UNICORN

from hal.unicorn import Board


def make(profile):
    return Board(profile, CosmicUnicorn(), DISPLAY_COSMIC_UNICORN)
