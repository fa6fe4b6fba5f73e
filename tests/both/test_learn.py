"""The first-game guides (firmware/guides, app.learn): each guide agrees with the rules, and
each is followed by its buttons from the menu's LRN to its last step, a wrong move refused
at every step with the position unchanged; both runtimes."""
from shared_rules import GAMES, load
from views import load as load_view
from views.font import glyph

from app import learn, menu
from app.session import Session
from test_device_app import run_app

MAX_STEPS = 16  # a dot a step along the top row


def guided():
    return [g for g in GAMES if learn.guide(g) is not None]


def test_every_game_has_a_guide_whose_steps_the_rules_allow():
    assert guided() == list(GAMES)
    for game_id in GAMES:
        guide = learn.guide(game_id)
        assert 3 <= len(guide.STEPS) <= MAX_STEPS, game_id
        g = None
        for k, (words, start, want, why, then) in enumerate(guide.STEPS):
            for text in (words, why):
                assert text and all(glyph(ch) or ch == " " for ch in text), (game_id, text)
            if start is not None:
                g = load(game_id).Game()
                if start:
                    g.set_position(start)
            assert g is not None, "%s: the first step sets up a position" % game_id
            a = g.parse(want)
            legal = g.legal()
            assert a in legal and len(legal) > 1, (game_id, k, want)  # a wrong move exists
            g.play(a)
            for reply in then.split():
                g.play(g.parse(reply))
            assert g.result() is None or k == len(guide.STEPS) - 1, (game_id, k)
        assert all(glyph(ch) or ch == " " for ch in guide.END), game_id


def press_all(app, keys):
    for button, kind in keys:
        app.press(button, kind, 0)


def test_each_guide_is_followed_by_its_buttons_and_refuses_a_wrong_move_at_each_step():
    def go(app, sent):
        for game_id in GAMES:
            app.show(menu.Menu(app))
            while app.screen.games[app.screen.i] != menu.LEARN:
                app.press("right", "press", 0)
            app.press("ok", "press", 0)
            assert app.screen.NAME == "guides"  # (a game forgets app.learn: NAMEs, not classes)
            while app.screen.games[app.screen.i] != game_id:
                app.press("right", "press", 0)
            app.press("ok", "press", 0)
            screen = app.screen
            assert screen.NAME == "learn" and screen.game_id == game_id
            view = load_view(game_id)
            for k, step in enumerate(screen.guide.STEPS):
                assert screen.k == k and screen.words == step[0], (game_id, k)
                app.press("up", "press", 0)  # the words skipped: the board
                g = screen.game
                before = g.position()
                wrong = [a for a in g.legal() if a != screen.want][-1]
                press_all(app, view.keys_for(g, screen.ui, wrong))
                assert screen.words == step[3] and screen.refused, (game_id, k)
                assert g.position() == before and screen.k == k, (game_id, k)
                app.press("left", "press", 0)
                app.press("back", "press", 0)  # BACK: the step's words again
                assert screen.words == step[0], (game_id, k)
                app.press("ok", "press", 0)
                press_all(app, view.keys_for(g, screen.ui, screen.want))
            assert screen.want is None and screen.words == screen.guide.END
            app.press("ok", "press", 0)  # then a game of it
            assert app.screen.NAME == "setup" and app.screen.game_id == game_id
    run_app(go)


def test_a_guide_leaves_no_record_and_a_long_back_returns_to_the_menu():
    def go(app, sent):
        app.show(learn.Learn(app, "morris"))
        app.press("ok", "press", 0)
        press_all(app, load_view("morris").keys_for(app.screen.game, app.screen.ui,
                                                    app.screen.want))
        assert app.screen.k == 1 and not sent  # nothing journalled, nothing on the wire
        app.press("back", "long", 0)
        assert app.screen.NAME == "menu" and app.screen.games[app.screen.i] == "guides"
        app.start(Session("morris", {}, ("human", "human")))
        assert app.screen.NAME == "play"
    run_app(go)
