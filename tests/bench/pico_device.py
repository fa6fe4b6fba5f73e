"""The Pico benchmark's device side: tests/bench/pico.py puts it on a flash image as
pico_device.mpy, with bench.json saying what to run, and boots it in rp2040js. MicroPython on
a Pico only (rp2 port); every time is the chip's own clock (time.ticks_us), so emulated time.

main.py calls app(), rules() or share() (which runs on the unix port too). Prints one JSON
line per figure ({"figure": NAME, ...}), then
END (after an error: a {"figure": "error"} line and the traceback first)."""
import gc
import json
import sys
import time

END = "pico-bench: end"


def figure(name, values):
    values["figure"] = name
    print(json.dumps(values))


def heap(where):
    gc.collect()
    figure("heap", {"at": where, "free": gc.mem_free(), "alloc": gc.mem_alloc()})


class _FirstFrame(Exception):
    pass


def first_frame():
    """The app as app.start() runs it, up to its first frame on the LEDs: the App (its menu
    screen) and the board, and the time from reset (the chip's ticks start there)."""
    import asyncio

    from app.core import App
    from hal import open_board

    board = open_board()
    shown = board.show

    def show(frame):
        shown(frame)
        raise _FirstFrame(time.ticks_ms())
    board.show = show
    app = App(board)
    try:
        asyncio.run(app.run())
    except _FirstFrame as e:
        figure("boot", {"first_frame_ms": e.args[0]})
    del board.show  # the board's own again
    asyncio.new_event_loop()  # the app's serial task is not wanted any more
    return app


def game(app, game_id, actions, samples, levels, check_level, peaks=True):
    """Replay a recorded game on the app's Play screen; at each sampled ply weigh what one
    evaluation leaves on the heap, draw a frame and time the device's search at each level,
    twice: once timed alone, once sampling the heap
    in use between its steps (the same search: same position, same seed; not with peaks
    False)."""
    from app import play
    from app.heap import only
    from app.session import Session
    from shared_rules import search

    only(game_id)
    who = "device:" + check_level
    app._playing(Session(game_id, players=(who, who)))
    screen = app.screen
    g, ai = screen.session.game, screen.session.ai
    times = dict((level, []) for level in levels)
    peaks = dict((level, 0) for level in levels)
    units = dict((level, 0) for level in levels)
    frames = []
    agree = garbage = 0
    for ply in range(len(actions) + 1):
        if ply in samples:
            if g.result() is None:  # the heap an evaluation leaves: a long int is garbage
                gc.collect()
                before = gc.mem_alloc()
                ai.evaluate(g, g.to_move)
                garbage = max(garbage, gc.mem_alloc() - before)
            screen.changed()  # what the app does after every action: the view's targets
            now = time.ticks_ms()
            t0 = time.ticks_us()
            screen.render(app.canvas, now)
            t1 = time.ticks_us()
            app.hal.show(app.canvas.buf)
            frames.append((time.ticks_diff(t1, t0), time.ticks_diff(time.ticks_us(), t1)))
            for level in levels if g.result() is None else ():
                gc.collect()  # as Play.tick does before each search
                t0 = time.ticks_us()
                s = search.start(g, g.to_move, ai, level, ply)
                while not s.step(play.THINK_STEP):
                    pass
                times[level].append(time.ticks_diff(time.ticks_us(), t0))
                units[level] += s.nodes
                if level == check_level and ply < len(actions) and s.best == actions[ply]:
                    agree += 1
                s = None
                if not peaks:
                    continue
                gc.collect()
                s = search.start(g, g.to_move, ai, level, ply)
                peak = gc.mem_alloc()
                while not s.step(play.THINK_STEP):
                    peak = max(peak, gc.mem_alloc())
                peaks[level] = max(peaks[level], peak)
                s = None
        if ply < len(actions):
            g.play(actions[ply])
    for level in levels:
        t = times[level]
        figure("move", {"game": game_id, "level": level, "moves": len(t),
                        "mean_us": sum(t) // max(1, len(t)), "max_us": max(t) if t else 0,
                        "units": units[level], "peak_alloc": peaks[level]})
    figure("frame", {"game": game_id, "frames": len(frames),
                     "render_us": sum(f[0] for f in frames) // len(frames),
                     "render_max_us": max(f[0] for f in frames),
                     "show_us": sum(f[1] for f in frames) // len(frames),
                     "show_max_us": max(f[1] for f in frames)})
    figure("garbage", {"game": game_id, "evaluate": garbage})
    figure("agree", {"game": game_id, "level": check_level, "same": agree,
                     "of": len([p for p in samples if p < len(actions)])})
    from app.menu import Menu

    app.screen = Menu(app, game_id)  # a long BACK: the game is let go of
    screen = g = ai = None
    heap("after " + game_id)


def _report(free_at_main):
    import machine

    figure("chip", {"freq": machine.freq(), "heap": gc.mem_free() + gc.mem_alloc(),
                    "platform": sys.platform, "version": sys.version})
    figure("heap", {"at": "main.py", "free": free_at_main})


def app(free_at_main):
    """The app's boot to its first frame (nothing before it but main.py), then each game of
    bench.json in turn; free_at_main: gc.mem_free() as main.py started."""
    try:
        board_app = first_frame()
        _report(free_at_main)
        heap("menu")
        with open("bench.json") as f:
            config = json.load(f)
        for game_id, actions, samples in config["games"]:
            game(board_app, game_id, actions, samples, config["levels"], config["check_level"],
                 config.get("peaks", True))
    except Exception as e:  # noqa: BLE001 - MemoryError too: reported, then END
        figure("error", {"error": "%s: %s" % (type(e).__name__, e)})
        sys.print_exception(e)
    print(END)


def rules(free_at_main):
    """Random games of each game of bench.json with the rules of each of its folders in turn
    (the app's, then an earlier revision's): tests/bench/playouts.py's line after a
    {"figure": "playouts"} line naming the game and the folder."""
    import playouts

    _report(free_at_main)
    with open("bench.json") as f:
        config = json.load(f)
    for tree in config["trees"]:
        for game_id in config["games"]:
            figure("playouts", {"game": game_id, "tree": tree})
            playouts.main(game_id, config["n"], tree)
            sys.path.remove(tree)  # playouts put it first: the next folder's rules come
            for name in [m for m in sys.modules if m.startswith("shared_rules")]:
                del sys.modules[name]  # from their own folder
            gc.collect()
    print(END)


def share(free_at_main=None):
    """The share of its heap that a board needs for the same games: the peak of
    gc.mem_alloc() while the device's search runs at the sampled plies of each game of
    bench.json (all in one run, one game's code at a time, as the app plays them), against
    the whole heap. Plain MicroPython: tests/test_pico.py runs it on the Pico and on the unix
    board and compares the two."""
    from app import core, play  # noqa: F401 - the app's modules, its collection threshold
    from app.heap import only
    from shared_rules import load, search

    with open("bench.json") as f:
        config = json.load(f)
    gc.collect()
    peak = 0
    for game_id, actions, samples in config["games"]:
        only(game_id)
        g, ai = load(game_id).Game(), search.load_ai(game_id)
        for ply in range(len(actions) + 1):
            if ply in samples and g.result() is None:
                gc.collect()  # as Play.tick does before each search
                s = search.start(g, g.to_move, ai, search.DEFAULT, ply)
                while not s.step(play.THINK_STEP):
                    peak = max(peak, gc.mem_alloc())
                s = None
            if ply < len(actions):
                g.play(actions[ply])
        g = ai = None
    figure("share", {"heap": gc.mem_free() + gc.mem_alloc(), "peak": peak,
                     "platform": sys.platform})
    print(END)
