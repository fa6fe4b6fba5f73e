"""Pimoroni Stellar Unicorn (16x16, Pico W / Pico 2 W) through Pimoroni's firmware modules
(`stellar`, `picographics`); the board logic is in hal.unicorn.  Buttons map to the app's
names through the profile's "buttons" table, e.g. {"ok": "A"}."""
from picographics import DISPLAY_STELLAR_UNICORN
from stellar import StellarUnicorn

from hal.unicorn import Board


def make(profile):
    return Board(profile, StellarUnicorn(), DISPLAY_STELLAR_UNICORN)
