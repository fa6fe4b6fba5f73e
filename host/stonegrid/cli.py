"""The `stonegrid` command."""
import argparse
import ast
import sys

from shared_rules import GAMES

from stonegrid import __version__


def _option(text):
    """NAME=VALUE, the value a Python literal (True, 2, (0, 1)) or else a plain string."""
    name, eq, value = text.partition("=")
    if not eq or not name:
        raise argparse.ArgumentTypeError("options are NAME=VALUE, not %r" % text)
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value


def _play(args):
    from stonegrid.terminal import play
    try:
        play(args.game, dict(args.option))
    except (KeyboardInterrupt, EOFError):
        print()
    return 0


def parser():
    p = argparse.ArgumentParser(prog="stonegrid", description="stonegrid: four board games "
                                "on a 16x16 LED matrix, and the tools around them.")
    p.add_argument("--version", action="version", version="stonegrid " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    play = sub.add_parser("play", help="two people play a game in this terminal",
                          description="Two people play a game in this terminal, "
                          "typing moves in the game's notation.")
    play.add_argument("game", nargs="?", default="morris", choices=GAMES,
                      help="which game (default: morris)")
    play.add_argument("-o", "--option", action="append", type=_option, default=[],
                      metavar="NAME=VALUE", help="a rules option, e.g. "
                      "no_immediate_returns=True (repeatable)")
    play.set_defaults(run=_play)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:  # bad options and the like: say what, no traceback
        print("stonegrid: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
