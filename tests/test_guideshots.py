"""The guides' pictures and page (firmware/guides/README.md) are what the guide screen draws
today: `python -m stonegrid.guideshots` writes them again after a guide or a view changed."""
import os

from shared_rules import GAMES

from stonegrid import guideshots
from stonegrid.build import repo_root


def test_the_guides_pictures_and_page_are_current():
    root = repo_root()
    stale = []
    for path, data in sorted(guideshots.page().items()):
        try:
            with open(os.path.join(root, path), "rb") as f:
                if f.read() != data:
                    stale.append(path)
        except OSError:
            stale.append(path)
    assert not stale, "out of date (python -m stonegrid.guideshots): %s" % ", ".join(stale)
    folder = os.path.join(root, guideshots.FOLDER, "screenshots")
    drawn = set(os.path.basename(p) for p in guideshots.page())
    assert set(os.listdir(folder)) <= drawn, "pictures of steps no guide has any more"


def test_each_step_lights_what_it_asks_for():
    """The guide's board at every step is the game's view with the move asked for lit."""
    from stonegrid.firmware.app.learn import Learn
    from stonegrid.firmware.views.canvas import Canvas
    for game_id in GAMES:
        screen = Learn(guideshots._Board(), game_id)
        while screen.want is not None:
            screen.words = None
            guided, plain = Canvas(), Canvas()
            screen.render(guided, 0)
            screen.view.render(screen.game, screen.ui, plain, 0)
            if screen.view.arrow(screen.game, screen.want):  # (a bid is on no point)
                assert guided.buf != plain.buf, (game_id, screen.k)
            screen.act(screen.want, 0)
