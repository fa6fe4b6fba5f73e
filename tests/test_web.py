"""`stonegrid web` end to end, in real headless Chromium (Debian's, driven by Playwright): the
page runs the firmware in the pinned MicroPython WebAssembly port; the opening of each game is
clicked on its buttons and pressed on the virtual board (`stonegrid sim`, the unix port) at
the same time, and the two must show the same frames.  The log the page downloads must pass
`stonegrid replay`, and a loaded log must replay on the page as on the virtual board."""
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

from boardkit import Board, serving
from runtimes import ROOT
from shared_rules import GAMES, load, record, search
from shared_rules.remote import replay_commands
from stonegrid.sim import SimError
from views import load as load_view

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium's own connections are refused on a closed
# network and slow every page down.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SETTLE_S = 0.5  # a press's short-lived marks (a refused move, a bid's flash) are over by then
WINDOW_S = 1.0  # longer than one blink cycle (2 x 400 ms): every phase shows in it
PLIES = 6  # the opening: at least this many actions in each game

@pytest.fixture(scope="module")
def web_url():
    proc = subprocess.Popen([sys.executable, "-m", "stonegrid.cli", "web", "--port", "0",
                             "--no-open"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.match(r"web: (http://127\.0\.0\.1:\d+/)", line)
        assert url, "stonegrid web printed %r" % line
        yield url.group(1)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    assert os.path.exists(CHROMIUM), "no %s: make test installs Debian's chromium" % CHROMIUM
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser, web_url):
    context = browser.new_context(accept_downloads=True)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(web_url)
    pg.wait_for_function("window.stonegrid && window.stonegrid.running", timeout=30000)
    yield pg
    context.close()
    assert errors == [], errors


@pytest.fixture()
def sim(tmp_path):
    yield from serving(Board(tmp_path / "flash"))


def press_both(pg, sim, button, kind="press"):
    """Click the page's button (Shift+click: a long press) and press the virtual board's."""
    pg.click("[data-button=%s]" % button, modifiers=["Shift"] if kind == "long" else [])
    sim.client.press(button, long=kind == "long")


def pictures(pg, sim):
    """(page's frames, virtual board's frames) shown during the same WINDOW_S, as sets."""
    time.sleep(SETTLE_S)
    start = pg.evaluate("window.stonegrid.now()")
    on_page = {pg.evaluate("window.stonegrid.frame()")}
    f = sim.client.frame()
    on_sim = {f.rgb.hex()}
    deadline = time.monotonic() + WINDOW_S
    while time.monotonic() < deadline:
        try:
            f = sim.client.wait_frame(after=f, timeout=deadline - time.monotonic())
            on_sim.add(f.rgb.hex())
        except SimError as e:
            if "timeout" not in str(e):
                raise
    on_page |= set(hex_rgb for _, hex_rgb in pg.evaluate("window.stonegrid.frames(%r)" % start))
    return on_page, on_sim


def assert_same_picture(pg, sim, when, tries=3, below=0):
    """The same frames on both boards (from pixel row `below` down: the Setup screen scrolls
    its help along the top row, each board in its own time)."""
    cut = below * 16 * 3 * 2  # hex digits
    for _ in range(tries):  # a frame drawn at the very edge of a window may fall outside it
        on_page, on_sim = ({f[cut:] for f in frames} for frames in pictures(pg, sim))
        if on_page == on_sim:
            return
    assert on_page == on_sim, "%s: the page showed %d frame(s) the virtual board did not, " \
        "and missed %d" % (when, len(on_page - on_sim), len(on_sim - on_page))


def page_records(pg):
    return [json.loads(line) for line in pg.evaluate("window.stonegrid.records()")]


@pytest.mark.parametrize("game_id", GAMES)
def test_opening_on_the_page_matches_the_virtual_board(page, sim, tmp_path, game_id):
    games = sim.serial.ask({"cmd": "hello"})["games"]
    assert_same_picture(page, sim, "the menu")
    for _ in range(games.index(game_id)):
        press_both(page, sim, "right")
    press_both(page, sim, "ok")  # to the setup
    press_both(page, sim, "down")  # the second player: from the device (normal) to a person
    for _ in search.LEVELS[:search.LEVELS.index(search.DEFAULT) + 1]:
        press_both(page, sim, "left")
    assert_same_picture(page, sim, "the setup", below=7)
    press_both(page, sim, "ok")
    header = sim.serial.wait(lambda o: o.get("t") == "game")
    assert header["players"] == ["human", "human"]

    game = load(game_id).Game(**record.options(header["options"]))
    view = load_view(game_id)
    ui = view.new_ui(game)
    rng = random.Random(game_id)
    while len(game.actions()) < PLIES or game.hidden():  # a secret bid is logged once seen
        acts = game.legal()
        a = acts[rng.randrange(len(acts))]
        for button, kind in view.keys_for(game, ui, a):
            press_both(page, sim, button, kind)
            got = view.handle(game, ui, button, kind, 0)
        assert got == a
        game.play(a)
        view.sync(game, ui)
        assert_same_picture(page, sim, "after %s" % " ".join(game.turns()))
    played = [game.text(a) for a in game.actions()]
    sim_acts = [o["n"] for o in sim.serial.seen if o.get("t") == "act"]
    sim_acts += [sim.serial.wait(lambda o: o.get("t") == "act")["n"]
                 for _ in range(len(played) - len(sim_acts))]
    assert sim_acts == played
    assert [r["n"] for r in page_records(page) if r["t"] == "act"] == played

    with page.expect_download() as download:
        page.click("#download")
    log = tmp_path / download.value.suggested_filename
    download.value.save_as(log)
    assert log.name.endswith("-%s.jsonl" % game_id)
    out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "replay", str(log)],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "ply %d/%d" % (len(played), len(played)) in out.stdout


def test_a_loaded_log_replays_as_on_the_virtual_board(page, sim, tmp_path):
    g = load("morris").Game()
    lines = [record.game_line("morris", g.options, ["human", "human"], "0.1.0")]
    for ply, text in enumerate(["d6", "a1", "f4", "g1", "b2", "d2"], 1):
        a = g.parse(text)
        lines.append(record.act_line(ply, g.to_move, a, text))
        g.play(a)
    log = tmp_path / "morris.jsonl"
    log.write_text("\n".join(lines) + "\n")
    page.set_input_files("#load", str(log))
    page.wait_for_function("window.stonegrid.lines().some(l => l.includes('\"replay\"') && "
                           "l.includes('\"plies\": 6'))")
    for cmd in replay_commands(json.loads(lines[0]), g):
        sim.serial.ask(cmd)
    assert_same_picture(page, sim, "the replay's last ply")
    press_both(page, sim, "left")
    press_both(page, sim, "left")
    assert_same_picture(page, sim, "two plies back in the replay")


def test_a_bad_log_or_bad_command_is_reported_and_the_app_runs_on(page, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": "game", "v": 1, "game": "morris", "options": {}}\n'
                   '{"t": "act", "v": 1, "ply": 1, "n": "z9"}\n')
    page.set_input_files("#load", str(bad))
    page.wait_for_selector("#log .error >> text=line 2")
    for line, answer in (("not json", "not JSON"), ("x" * 3000, "line too long")):
        page.fill("#line", line)
        page.press("#line", "Enter")
        page.wait_for_function("window.stonegrid.lines().some(l => l.includes(%r))" % answer)
    page.fill("#line", '{"cmd": "new", "game": "gipf", "players": ["human", "human"]}')
    page.press("#line", "Enter")
    page.wait_for_function("window.stonegrid.records().length == 1")
    assert page_records(page)[0]["game"] == "gipf"


def state(pg):
    """The app's state reply, asked on the page's serial link."""
    asked = len(pg.evaluate("window.stonegrid.lines()"))
    pg.evaluate("window.stonegrid.send('{\"cmd\": \"state\"}')")
    pg.wait_for_function("window.stonegrid.lines().slice(%d).some(l => l.includes("
                         "'\"state\"'))" % asked)
    return [json.loads(line) for line in pg.evaluate("window.stonegrid.lines()")[asked:]
            if '"state"' in line][-1]


def screen(pg):
    """The app's screen (menu, setup, play, replay)."""
    return state(pg)["screen"]


def wait_screen(pg, want, timeout=5):
    """Until the app shows screen `want` (the link may answer before it polls the button)."""
    deadline = time.monotonic() + timeout
    while screen(pg) != want:
        assert time.monotonic() < deadline, "the app never showed its %s screen" % want


def test_keys_and_a_held_button_are_the_board_buttons(page):
    for keys, game in ((("l", "Enter", "Enter"), "gipf"),  # right from the first game
                       # a long BACK: the menu at gipf (unfinished, RES before morris);
                       # left to morris; OK again at END? to end gipf for good
                       (("Shift+B", "ArrowLeft", "o", "Escape", "Enter", " ", "Enter"),
                        "morris")):
        for key in keys:
            page.keyboard.press(key)
        wait_screen(page, "play")
        assert page_records(page)[0]["game"] == game, keys
    back = page.locator("[data-button=back]").bounding_box()
    page.mouse.move(back["x"] + 5, back["y"] + 5)
    page.mouse.down()  # held: a long BACK, to the menu, while it is still down
    wait_screen(page, "menu")
    page.mouse.up()


def resumed(pg):
    pg.wait_for_function("window.stonegrid.lines().some(l => l.includes('\"resumed\"'))")
    line = [json.loads(text) for text in pg.evaluate("window.stonegrid.lines()")
            if '"resumed"' in text][-1]
    return line["game"], line["ply"]


def test_power_cycle_and_reload_resume_the_game(page):
    page.fill("#line", '{"cmd": "new", "game": "mixtour", "players": ["human", "human"]}')
    page.press("#line", "Enter")
    page.fill("#line", '{"cmd": "play", "action": "c3"}')
    page.press("#line", "Enter")
    page.wait_for_function("window.stonegrid.records().length == 2")
    before = page.evaluate("window.stonegrid.running")
    page.click("#restart")
    page.wait_for_function("window.stonegrid.running > %d" % before)
    assert resumed(page) == ("mixtour", 1)
    page.reload()  # the journal was kept in the page's storage
    page.wait_for_function("window.stonegrid && window.stonegrid.running")
    assert resumed(page) == ("mixtour", 1)
    assert [r["t"] for r in page_records(page)] == ["game", "act"]  # still downloadable


def test_a_secret_bid_survives_a_power_cycle_and_a_reload(page):
    """A Rhombus bid is journalled but sent on no line until both bids are in: the page must
    keep the journal all the same."""
    page.fill("#line", '{"cmd": "new", "game": "rhombus", "players": ["human", "human"]}')
    page.press("#line", "Enter")
    page.fill("#line", '{"cmd": "play", "action": "bid3"}')
    page.press("#line", "Enter")
    deadline = time.monotonic() + 10
    while state(page)["ply"] != 1:
        assert time.monotonic() < deadline, "the bid was not played"
    assert [r["t"] for r in page_records(page)] == ["game"]  # the bid is not on the link
    before = page.evaluate("window.stonegrid.running")
    page.click("#restart")
    page.wait_for_function("window.stonegrid.running > %d" % before)
    assert resumed(page) == ("rhombus", 1)
    page.reload()
    page.wait_for_function("window.stonegrid && window.stonegrid.running")
    assert resumed(page) == ("rhombus", 1)


def test_server_serves_only_its_files_and_the_port_offline(web_url):
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 itself
    with direct.open(web_url + "micropython/micropython.wasm") as r:
        assert r.headers["Content-Type"] == "application/wasm" and r.read(4) == b"\0asm"
    with direct.open(web_url + "firmware.json") as r:
        files = json.load(r)
    assert json.loads(files["board.json"])["backend"] == "web"
    with open(os.path.join(ROOT, "firmware", "hal", "web.py")) as f:
        assert files["hal/web.py"] == f.read()
    assert "shared_rules/morris.py" in files and "main.py" in files
    for path in ("../pyproject.toml", "%2e%2e/pyproject.toml", "nothing.html"):
        with pytest.raises(urllib.error.HTTPError) as e:
            direct.open(web_url + path)
        assert e.value.code == 404
    with open(os.path.join(ROOT, "host", "stonegrid", "web", "static", "board.js")) as f:
        page_code = f.read()
    assert not re.search(r"https?://", page_code), "the page must load nothing from the web"


def test_web_says_what_is_wrong(tmp_path):
    (tmp_path / "firmware").mkdir()
    out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "web", "--no-open"],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, STONEGRID_ROOT=str(tmp_path)))
    assert out.returncode == 2 and "npm ci" in out.stderr, out.stderr
    out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "web", "--no-open"],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, STONEGRID_ROOT=str(tmp_path / "nowhere")))
    assert out.returncode == 2 and "cannot find the firmware/ tree" in out.stderr \
        and "Traceback" not in out.stderr, out.stderr
    out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "web", "--port", "http"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "a port is a number" in out.stderr, out.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "stonegrid.cli", "web", "--port", str(port),
                              "--no-open"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "port %d" % port in out.stderr and "--port 0" in out.stderr
