"""The device opponent inside the app (firmware/app): levels chosen on the Setup screen,
thinking in slices on the Play screen, device against device as a demo; both runtimes."""
import json
import time

from app import core, journal, menu, recovery, wire
from app import play as play_screen
from hal import unix
from app.session import PLAYERS, Session, level, players_of
from shared_rules import search

from helpers import raises, remove_tree, scratch_dir


class Clock:
    """time.ticks_* for CPython (the app uses MicroPython's names); real time elsewhere."""

    def __init__(self):
        self.t = 0

    def ticks_ms(self):
        self.t += 1
        return self.t

    def ticks_add(self, a, b):
        return a + b

    def ticks_diff(self, a, b):
        return a - b


def run_app(fn):
    """fn(app, sent) with the journal in a scratch folder, the serial link captured and,
    under CPython, a clock for the app."""
    sent = []
    saved = (wire.send, core.time, play_screen.time, play_screen.DEVICE_DELAY_MS, journal.PATH)
    wire.send = sent.append
    if not hasattr(time, "ticks_ms"):
        core.time = play_screen.time = Clock()
    play_screen.DEVICE_DELAY_MS = 0
    folder = scratch_dir("device-app")
    journal.PATH = folder + "/journal.jsonl"
    try:
        fn(core.App(unix.make({})), sent)  # no $STONEGRID_SIM: no LEDs, no buttons
    finally:
        wire.send, core.time, play_screen.time, play_screen.DEVICE_DELAY_MS, journal.PATH = saved
        remove_tree(folder)


def test_player_values_and_levels():
    assert PLAYERS == ("human", "device:beginner", "device:easy", "device:normal",
                       "device:hard")
    assert [level(p) for p in PLAYERS] == [None, "beginner", "easy", "normal", "hard"]
    assert level("device") == "normal"  # records written before the levels existed
    raises(ValueError, Session, "morris", {}, ("human", "robot"))
    # a game with steps between normal and hard has them; one without refuses them
    assert players_of(search.load_ai("morris")) == PLAYERS
    steps = players_of(search.load_ai("gipf"))
    assert steps[:4] == PLAYERS[:4] and steps[-1] == "device:hard" and len(steps) > 5
    assert steps[4] == "device:normal+1" and level(steps[4]) == "normal+1"
    assert Session("gipf", {}, ("human", steps[4])).players[1] == "device:normal+1"
    for who in ("device:normal+1", "device:normal+", "device:normal+x", "device:normal+99"):
        raises(ValueError, Session, "morris", {}, ("human", who))
    raises(ValueError, Session, "gipf", {}, ("human", "device:normal+99"))


def test_setup_offers_the_levels_for_each_side():
    def go(app, sent):
        s = menu.Setup(app, "morris")
        assert (s.values["P1"], s.values["P2"]) == ("human", "device:normal")
        seen = []
        for _ in range(5):
            s.handle("right", "press", 0)
            seen.append(s.values["P1"])
        assert seen == ["device:beginner", "device:easy", "device:normal", "device:hard",
                        "human"]
        s.handle("left", "press", 0)
        s.handle("down", "press", 0)
        s.handle("left", "press", 0)  # P2: normal -> easy
        assert (s.values["P1"], s.values["P2"]) == ("device:hard", "device:easy")
        s.handle("ok", "press", 0)
        assert isinstance(app.screen, play_screen.Play)
        assert app.screen.session.players == ("device:hard", "device:easy")
        assert '"device:hard"' in sent[0] and '"device:easy"' in sent[0]  # the game record
        assert menu.Setup(app, "morris", players=("device", "human")).values["P1"] == \
            "device:normal"
    run_app(go)


def test_setup_offers_the_steps_a_game_adds_between_normal_and_hard():
    def go(app, sent):
        s = menu.Setup(app, "mixtour")
        s.handle("down", "press", 0)  # P2, the device at normal
        labels = []
        for _ in range(len(search.levels(search.load_ai("mixtour"))) - 2):
            s.handle("right", "press", 0)
            labels.append(menu.short(s.values["P2"]))
        assert labels == ["N+1", "N+2", "N+3", "HARD", "HUM"]
        assert "NORM N+1 N+2 N+3 HARD" in s.help["P2"]
        assert "NORM HARD" in menu.Setup(app, "morris").help["P2"]
        s.handle("left", "press", 0)
        s.handle("left", "press", 0)
        s.handle("ok", "press", 0)
        assert app.screen.session.players == ("human", "device:normal+3")
        assert '"device:normal+3"' in sent[0]
    run_app(go)


def test_setup_scrolls_what_each_item_means_the_first_time_it_shows():
    """2X ON, RET OFF, HCP 0/0, PTS 1 meant nothing to a newcomer: each item's meaning
    scrolls along the top row the first time it shows, then its label stays."""
    from shared_rules import GAMES
    from views import load as load_view
    from views.canvas import Canvas
    from views.font import glyph
    for game_id in GAMES:  # every option has its words, in letters the font has
        view = load_view(game_id)
        assert sorted(view.HELP) == sorted(view.CHOICES), game_id
        players = players_of(search.load_ai(game_id))
        for text in list(view.HELP.values()) + [menu.player_help("P2", players)]:
            assert all(glyph(ch) or ch == " " for ch in text), text

    def top(s, now):
        c = Canvas()
        s.render(c, now)
        return bytes(c.buf[:6 * 16 * 3])

    def label(text):
        c = Canvas()
        c.text(0, 1, text, 0x909090)
        return bytes(c.buf[:6 * 16 * 3])

    def go(app, sent):
        s = menu.Setup(app, "morris")
        frames = [top(s, t) for t in range(1000, 1000 + 16 * menu.SCROLL_MS, menu.SCROLL_MS)]
        assert len(set(frames)) > 10 and label("P1") not in frames  # it moves, no label yet
        done = 1000 + (16 + 4 * len(menu.player_help("P1", PLAYERS))) * menu.SCROLL_MS
        assert top(s, done) == label("P1")  # scrolled past: the label
        s.handle("down", "press", 0)
        assert top(s, 5000) != label("P2")  # P2's own meaning, the first time
        s.handle("down", "press", 0)
        s.handle("up", "press", 0)  # back to P2: shown once is enough
        assert top(s, 9000) == label("P2")
    run_app(go)


def test_menu_and_replay_code_leave_the_heap_while_a_game_is_played():
    def go(app, sent):
        import sys

        from app import replay  # noqa: F401 - in the heap, as after a replay
        app.start(Session("morris", {}, ("human", "human")))
        gone = "app.menu" not in sys.modules and "app.replay" not in sys.modules
        assert gone == (sys.implementation.name == "micropython")  # kept on a host
        app.screen.handle("back", "long", 0)
        assert type(app.screen).__name__ == "Menu"  # back when asked for
        assert app.resume() and type(app.screen).__name__ == "Play"  # as after a restart
        gone = "app.menu" not in sys.modules
        assert gone == (sys.implementation.name == "micropython")
    run_app(go)


def test_device_against_device_plays_a_whole_game():
    def go(app, sent):
        app.start(Session("morris", {}, ("device:easy", "device:easy")))
        play, g = app.screen, app.screen.session.game
        ticks = 0
        while g.result() is None and ticks < 20000:
            play.tick(core.time.ticks_ms())
            ticks += 1
        assert g.result() is not None
        acts = [line for line in sent if '"act"' in line]
        assert len(acts) == len(g.actions()) and '"end"' in sent[-1]
    run_app(go)


def test_the_device_thinks_in_slices():
    def go(app, sent):
        app.start(Session("morris", {}, ("human", "device:hard")))
        play, g = app.screen, app.screen.session.game
        play.tick(core.time.ticks_ms())
        assert play.thinker is None  # the human's turn: nothing to think about
        app.play(g.parse("d6"))
        passes = 0
        while len(g.actions()) == 1:
            play.tick(core.time.ticks_ms())
            passes += 1
            if len(g.actions()) == 1:
                assert play.busy() != (play.choice is not None)  # searching, or found
        assert passes > 10 and g.to_move == 0 and play.thinker is None and play.choice is None
        app.play(g.legal()[0])  # the device's reply varies with the seed: any free point
        play.tick(core.time.ticks_ms())
        assert play.busy()
        app.command({"cmd": "undo"})  # taken back over the serial link: think again
        assert play.thinker is None and play.choice is None and len(g.actions()) == 2

    saved = play_screen.THINK_MS
    play_screen.THINK_MS = 0  # one step of the search per pass of the main loop
    try:
        run_app(go)
    finally:
        play_screen.THINK_MS = saved


def test_the_device_thinks_on_the_players_time_unless_told_not_to():
    from shared_rules import search

    def go(app, sent):
        app.start(Session("morris", {}, ("human", "device:normal")))
        play = app.screen
        for _ in range(10000):  # the person's turn: it ponders until it has done its most
            play.tick(core.time.ticks_ms())
            if not play.busy():
                break
        thought = play.pondering
        assert thought is not None and thought.search is None and thought.line
        for a in thought.line:  # the person plays what it foresaw
            app.play(a)
        while play.choice is None:
            play.tick(core.time.ticks_ms())
        level = search.budget(app.screen.session.ai, "normal")
        assert play.choice == thought.reply.best and play.work > level  # deeper than usual
        assert play.pondering is None
        app.settings["ponder"] = 0  # settings.json: off
        app.start(Session("morris", {}, ("human", "device:normal")))
        play = app.screen
        play.tick(core.time.ticks_ms())
        assert play.pondering is None and not play.busy()
    run_app(go)


def test_rhombus_device_bids_blind_in_the_app():
    def go(app, sent):
        app.start(Session("rhombus", {}, ("human", "device:easy")))
        play, g = app.screen, app.screen.session.game
        app.play(g.parse("bid3"))  # Black's bid: secret, not on the link yet
        assert not [line for line in sent if '"act"' in line]
        while g.bidding():
            play.tick(core.time.ticks_ms())
        acts = [line for line in sent if '"act"' in line]
        assert len(acts) == 2  # both bids revealed together
    run_app(go)


def test_a_game_that_runs_out_of_memory_at_every_boot_is_set_aside():
    """Restarts for want of memory are counted on flash; an action played starts the count
    again, and after GIVE_UP_AFTER in a row the journal is kept under another name and the
    board starts at the menu instead of restarting for ever."""
    def go(app, sent):
        import os
        app.start(Session("morris", {}, ("human", "human")))
        app.play("d6")
        journal.count_restart()
        assert app.resume() and journal.restarts() == 1
        app.play("d2")  # the game goes on: the count starts again
        assert journal.restarts() == 0
        for n in range(1, recovery.GIVE_UP_AFTER + 1):
            journal.count_restart()
            resumed = app.resume()
            assert resumed == (n < recovery.GIVE_UP_AFTER), n
        assert "not resumed" in sent[-1]["error"] and journal.restarts() == 0
        assert os.stat(journal.PATH[:-6] + "-oom.jsonl")[6] > 0  # the game is kept
        raises(OSError, os.stat, journal.PATH)
        assert not app.resume()  # nothing to resume: the menu
        for _ in range(recovery.GIVE_UP_AFTER):  # out of memory with no game at all
            journal.count_restart()
        assert not app.resume() and journal.restarts() == 0
    run_app(go)


def test_a_new_command_with_bad_players_leaves_the_game_alone():
    def go(app, sent):
        app.start(Session("morris", {}, ("human", "human")))
        playing = app.screen
        raises(ValueError, app.command, {"cmd": "new", "game": "gipf",
                                         "players": ["human", "robot"]})
        raises(ValueError, app.command, {"cmd": "new", "game": "chess"})
        assert app.screen is playing
        # a step between normal and hard that GIPF has and Morris has not
        raises(ValueError, app.command, {"cmd": "new", "game": "morris",
                                         "players": ["human", "device:normal+1"]})
        assert app.screen is playing
        raises(ValueError, app.command, {"cmd": "new", "game": "gipf",  # after GIPF's code
                                         "players": ["device:normal+9", "human"]})  # came
        assert type(app.screen).__name__ == "Play" and app.session().game_id == "morris"
    run_app(go)


def test_a_game_left_by_a_long_back_resumes_from_the_menu_or_ends_with_a_record():
    def screen(app):  # by name: on the device app.menu is imported afresh after each game
        return type(app.screen).__name__

    def go(app, sent):
        def last(k):
            return [json.loads(r) if isinstance(r, str) else r for r in sent[-k:]]

        app.start(Session("morris", {}, ("human", "human")))
        for move in ("a1", "d7"):
            app.play(move)
        app.press("back", "long", 0)
        assert screen(app) == "Menu" and app.unfinished == ("morris", 2)
        assert app.screen.games[app.screen.i] == "morris"  # at the game left
        app.press("left", "press", 0)  # RES, the first item, resumes it
        app.press("ok", "press", 0)
        assert screen(app) == "Play" and app.screen.session.game.plies() == 2
        app.play("a4")
        app.press("back", "long", 0)
        app.press("ok", "press", 0)  # the setup of a new game of the one left
        app.press("ok", "press", 0)  # start: asked once
        assert screen(app) == "Confirm"
        app.press("back", "press", 0)  # no: back to the setup, nothing written
        assert screen(app) == "Setup" and last(1)[0]["n"] == "a4"
        app.press("ok", "press", 0)
        app.press("ok", "press", 0)  # yes: the old game's end, then the new game
        end, game = last(2)
        assert (end["t"], game["t"]) == ("end", "game")
        assert (end["ply"], end["winner"], end["reason"]) == (3, None, "abandoned")
        assert app.unfinished is None and screen(app) == "Play"
        app.press("back", "long", 0)  # no action: still a game to resume
        app.command({"cmd": "new", "game": "gipf"})  # a new game over it ends it too
        end, game = last(2)
        assert (end["t"], end["ply"], game["game"]) == ("end", 0, "gipf")

    run_app(go)


def test_the_menu_command_leaves_a_game_as_a_long_back_does():
    """Over serial, "menu" mid-game keeps the game to resume (RES), and a new game started
    from the menu ends it for good with its end record, as after a long BACK."""
    def go(app, sent):
        app.start(Session("mixtour", {}, ("human", "human")))
        app.play("c3")
        app.command({"cmd": "menu"})
        assert type(app.screen).__name__ == "Menu" and app.unfinished == ("mixtour", 1)
        assert app.screen.i == 0  # the serial "menu": at the first item, RES
        app.press("ok", "press", 0)
        assert app.screen.session.game.plies() == 1
        app.command({"cmd": "menu"})
        app.command({"cmd": "new", "game": "morris"})
        end = [json.loads(r) for r in sent if isinstance(r, str) and '"end"' in r]
        assert len(end) == 1 and (end[0]["ply"], end[0]["reason"]) == (1, "abandoned"), sent

    run_app(go)



def test_the_device_waits_with_both_bids_shown_before_it_places():
    """Rhombus: when the device places first, the reveal card stays up REVEAL_MS (it closed
    at once, as the device's stone came, so its bid was never seen); a press still closes it
    at once for a person."""
    from views import rhombus as view

    def go(app, sent):
        for bid in ("bid1", "bid2", "bid3", "bid4"):  # a bid the device outbids: it places
            app.start(Session("rhombus", {}, ("human", "device:easy")))
            app.play(bid)
            screen = app.screen
            for _ in range(200):  # the device's bid
                screen.tick(0)
                if not screen.session.game.bidding():
                    break
            g = screen.session.game
            if g.to_move == 1:
                break
        assert g.to_move == 1 and screen.ui.card, "no bid made the device place first"
        plies = g.plies()
        screen.render(app.canvas, 1000)  # the card goes up at 1000
        for _ in range(500):  # the device's placement found, in slices
            screen.tick(1000)
            if screen.choice is not None:
                break
        assert screen.choice is not None and g.plies() == plies
        for now in (2000, 3999):
            screen.tick(now)
            assert g.plies() == plies and screen.ui.card, now
        screen.tick(1000 + view.REVEAL_MS)
        assert g.plies() == plies + 1  # then the device places
    run_app(go)


def test_the_self_test_lights_each_channel_then_shows_each_button():
    """The menu's last item, TST: every LED red, green, blue, white a second each, then each
    button pressed by name and its pixel on the bottom row; a long BACK back to the menu."""
    from views.canvas import Canvas

    def go(app, sent):
        app.screen = menu.Menu(app)
        app.press("left", "press", 0)  # from the first game round to the last item
        assert app.screen.games[app.screen.i] == menu.TEST
        app.press("ok", "press", 0)
        test = app.screen
        assert test.NAME == "selftest"
        for k, colour in enumerate((0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF)):
            c = Canvas()
            test.render(c, 5000 + 1000 * k)
            assert set(c.get(x, y) for x in range(16) for y in range(16)) == {colour}, k
        c = Canvas()
        test.render(c, 9000)
        assert c.get(1, 15) == 0x1E1E1E  # no button seen yet
        for k, button in enumerate(("up", "down", "left", "right", "ok", "back")):
            app.press(button, "press", 0)
            c = Canvas()
            test.render(c, 9100)
            lit = [x for x in range(16) if c.get(x, 15) == 0xFFFFFF]
            assert len(lit) == 2 * (k + 1), (button, lit)
            name = Canvas()
            name.text(1, 4, {"up": "UP", "down": "DN", "left": "LT", "right": "RT",
                             "ok": "OK", "back": "BK"}[button], 0xFFFFFF, 2)
            assert bytes(c.buf[:15 * 48]) == bytes(name.buf[:15 * 48]), button  # its name
        app.press("back", "long", 0)
        assert type(app.screen).__name__ == "Menu" and app.screen.games[app.screen.i] == \
            menu.TEST
    run_app(go)


def test_the_device_opponent_leaves_the_heap_when_its_game_is_over():
    import sys

    def go(app, sent):
        app.start(Session("morris", players=("human", "device:easy")))
        s = app.screen.session
        assert s.ai is not None
        s.game.set_position("RR.R....GG.G............ 0 0 0 0 - -")
        s.play("g4-g1")  # Red flies to close a mill: ...
        assert s.ai is not None
        s.play("xb2")  # ... and Green is left with 2: over
        assert s.game.result() is not None and s.ai is None
        if sys.implementation.name == "micropython":  # (a host keeps its modules)
            assert "shared_rules.search" not in sys.modules
            assert "shared_rules.morris_ai" not in sys.modules
    run_app(go)


def hint_shown(app):
    """Hold OK on the Play screen and tick until the hint is shown: the action hinted."""
    play = app.screen
    app.press("ok", "long", core.time.ticks_ms())
    hint = play.aid
    assert hint is not None
    while play.aid is not None:
        play.tick(core.time.ticks_ms())
    return hint.thinking.best


def test_a_hold_of_ok_brings_the_view_one_ok_short_of_the_devices_suggestion():
    """In every game, against the device and between two people: the hint is the normal
    level's action, the view is left where OK plays it, and the record says a hint was used
    with the action it was for (a Rhombus bid's too, revealed with it)."""
    from shared_rules import GAMES

    def go(app, sent):
        for game_id in GAMES:
            for players in (("human", "device:easy"), ("human", "human")):
                del sent[:]
                app.start(Session(game_id, {}, players))
                play, g = app.screen, app.screen.session.game
                a = hint_shown(app)
                assert a in g.legal(), game_id
                app.press("ok", "press", core.time.ticks_ms())  # OK alone plays it
                assert g.plies() == 1 and g.last() == a, game_id
                while g.hidden():  # Rhombus: the other bid reveals both
                    if players[1] == "human":
                        app.play(g.legal()[0])
                    else:
                        play.tick(core.time.ticks_ms())
                lines = [json.loads(x) for text in sent if type(text) is str
                         for x in text.split("\n")]
                kinds = [(r["t"], r.get("ply")) for r in lines]
                assert kinds[1:3] == [("hint", 1), ("act", 1)], (game_id, kinds)
                assert kinds.count(("hint", 1)) == 1 and ("hint", 2) not in kinds
    run_app(go)


def test_hints_turned_off_on_the_setup_screen_stay_off_after_a_restart():
    def go(app, sent):
        s = menu.Setup(app, "mixtour")
        s.handle("down", "press", 0)
        s.handle("down", "press", 0)
        assert s.items[s.i][0] == menu.HINTS and s.values[menu.HINTS] is True
        s.handle("right", "press", 0)
        s.handle("ok", "press", 0)
        play = app.screen
        assert play.session.hints is False and '"hints": false' in sent[0]
        assert "hints" not in play.session.options  # not a rules option
        app.press("ok", "long", 0)
        assert play.aid is None and play.ui.refused > 0  # refused, and seen so
        assert app.resume() and app.screen.session.hints is False  # from the journal
    run_app(go)


def test_back_against_the_device_takes_back_the_persons_turn_and_the_reply():
    """In every game: two plies (more where a turn has several, or a secret bid is made
    visible); refused while the device has made the only turn."""
    from shared_rules import GAMES

    def go(app, sent):
        for game_id in GAMES:
            app.start(Session(game_id, {}, ("device:easy", "human")))
            play, g = app.screen, app.screen.session.game
            while not play.session.human_to_move():
                play.tick(core.time.ticks_ms())
            first = g.plies()
            app.press("back", "press", 0)
            assert g.plies() == first and play.ui.refused > 0, game_id  # only the device's
            start = g.position()
            while g.plies() == first or g.hidden() or not play.session.human_to_move():
                if play.session.human_to_move():
                    app.play(g.legal()[-1])
                else:
                    play.tick(core.time.ticks_ms())
                    app.draw(core.time.ticks_ms())  # a card the device waits on is shown
            later = g.plies()
            del sent[:]
            app.press("back", "press", 0)
            back = g.plies()  # a bid the person saw is taken back too: the device bids again
            assert back == first or g.SECRETS and back == first - 1, (game_id, back)
            undone = [json.loads(text)["ply"] for text in sent if '"undo"' in text]
            assert undone == list(range(later, back, -1)), (game_id, undone)
            while not play.session.human_to_move():
                play.tick(core.time.ticks_ms())
            assert g.plies() == first and (g.SECRETS or g.position() == start), game_id
    run_app(go)


def test_with_wrn_on_the_device_warns_once_before_a_move_it_sees_lose():
    """Red, flying with three stones, must fill a7, or Green flies there, closes a mill and
    wins; the same move made again after the warning is played."""
    from shared_rules import morris

    def flying():
        g = morris.Game()
        g.set_position("....GG.RG.......R.R..... 0 0 0 0 - -")
        return g

    def go(app, sent):
        for a, warned in (("c3-d2", True), ("c3-a7", False)):
            del sent[:]
            app.start(Session("morris", players=("human", "device:easy"), game=flying(),
                              aids={"warn": True}))
            play, g = app.screen, app.screen.session.game
            assert play.session.warn and '"warn": true' in sent[0]
            action, before = g.parse(a), g.position()
            tries = 0
            while not g.plies() and tries < 3:
                for button, kind in play.view.keys_for(g, play.ui, action):
                    app.press(button, kind, 0)
                while play.aid is not None:
                    play.tick(core.time.ticks_ms())
                tries += 1
                assert (play.message is not None) == (not g.plies()) and (g.plies() or g.position() == before)
            assert tries == (2 if warned else 1), (a, tries)  # warned once, then played
            assert g.last() == action and play.message is None, a
        assert not Session("morris", players=("human", "human"), aids={"warn": True}).warn  # no device
    run_app(go)


def test_legal_targets_glow_in_every_game_unless_setup_turns_them_off():
    """In each game, with a piece picked up (the presses of an action but its last), what it
    may do glows, and with TGT off the same state is drawn without it; the record keeps
    the choice for a restart."""
    from shared_rules import GAMES, load
    from views import load as load_view
    from views.canvas import Canvas

    def drawn(view, g, keys, on):
        ui = view.new_ui(g)
        ui.show_targets(on)
        for button, kind in keys:
            view.handle(g, ui, button, kind, 0)
        c = Canvas()
        view.render(g, ui, c, 0)
        return bytes(c.buf)

    for game_id in GAMES:
        view, g, seen = load_view(game_id), load(game_id).Game(), 0
        while g.result() is None and g.plies() < 40 and seen < 3:
            for a in g.legal()[-6:]:  # (moves come after entries)
                keys = view.keys_for(g, view.new_ui(g), a)[:-1]
                if drawn(view, g, keys, True) != drawn(view, g, keys, False):
                    seen += 1
            acts = g.legal()
            g.play(acts[g.plies() * 7 % len(acts)])  # any game will do: the same on both runtimes
        assert seen >= 3, game_id

    def go(app, sent):
        app.start(Session("gipf", {}, ("human", "human"), aids={"targets": False}))
        assert not app.screen.ui.targets_shown and '"targets": false' in sent[0]
        assert app.resume() and not app.screen.ui.targets_shown  # from the journal
    run_app(go)
