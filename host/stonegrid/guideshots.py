"""The pictures of the first-game guides' steps (firmware/guides/screenshots/<game>-<k>.png)
and their page (firmware/guides/README.md), drawn by the device's own guide screen
(app.learn): each step's board as the player sees it once the words have scrolled (and a
card over it, such as Rhombus's bids, is closed), the move it asks for lit.  `python -m stonegrid.guideshots` writes them again after a guide or view
changed; tests/test_guideshots.py fails until they are what the code draws."""
import os
import sys

from shared_rules import GAMES

from stonegrid.build import repo_root
from stonegrid.sim import png

SCALE = 8
FOLDER = os.path.join("firmware", "guides")


class _Board:
    """What the guide screen asks of the app: the games on this flash."""
    games = list(GAMES)


def steps(game_id):
    """[(words, RGB bytes of the 16x16 board)] for each step of the game's guide."""
    from stonegrid.firmware.app.learn import Learn
    from stonegrid.firmware.views.canvas import Canvas
    screen = Learn(_Board(), game_id)
    out = []
    while screen.want is not None:
        words = screen.words
        screen.words = None  # the board, as after the words
        screen.ui.board_only = True  # not a card that a press closes (Rhombus's bids)
        canvas = Canvas()
        screen.render(canvas, 0)  # lit: what blinks starts lit
        out.append((words, bytes(canvas.buf)))
        screen.act(screen.want, 0)
    return out


def page():
    """{path: bytes} of every picture and the page that shows them."""
    files = {}
    lines = ["# The first-game guides", "",
             "The menu's `LRN` item, then a game: each step's words scroll, then the board "
             "shows the position and the move the step asks for, lit (it blinks on the board). "
             "The player makes it with the game's own buttons; any other move is refused with "
             "its reason. `python -m stonegrid.guideshots` draws these pictures again.", ""]
    for game_id in GAMES:
        lines += ["## %s" % game_id, "", "| step | what it says |", "|---|---|"]
        for k, (words, rgb) in enumerate(steps(game_id), 1):
            name = "%s-%d.png" % (game_id, k)
            files[os.path.join(FOLDER, "screenshots", name)] = png.matrix(16, 16, rgb, SCALE)
            lines.append("| ![%s step %d](screenshots/%s) | %s |" % (game_id, k, name, words))
        lines.append("")
    files[os.path.join(FOLDER, "README.md")] = "\n".join(lines).encode()
    return files


def main():
    root = repo_root()
    for path, data in sorted(page().items()):
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "wb") as f:
            f.write(data)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
