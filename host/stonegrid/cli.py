"""The `stonegrid` command."""
import argparse
import ast
import os
import sys

from shared_rules import GAMES

from stonegrid import __version__
from stonegrid import args as argtypes


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


def _sim(args):
    from stonegrid.sim import run
    return run(args)


def _web(args):
    from stonegrid.web import run
    return run(args)


def _devices(args):
    from stonegrid import device
    found = device.ports()
    try:
        chosen = device.choose(None)
    except device.DeviceError:
        chosen = None
    if not found:
        print("no USB serial devices found")
    for port, ids, serial_no, desc, is_mp in found:
        print("%s %-30s %s  %s%s%s" % ("*" if port == chosen else " ", port, ids, serial_no,
                                       desc, "  (MicroPython)" if is_mp else ""))
    if chosen:
        print("* the board `stonegrid` uses (--port overrides; the choice is remembered)")
    return 0


def _profile(name):
    """--board: a profile name from hardware/ (e.g. stellar-unicorn) or a JSON file."""
    from stonegrid.build import repo_root
    if name is None or os.path.isfile(name):
        return name
    if os.sep in name or name.endswith(".json") or os.path.exists(name):
        raise ValueError("board profile %r is not a file (a profile is a name from hardware/ "
                         "or a JSON file)" % name)
    path = os.path.join(repo_root(), "hardware", name + ".json")
    if not os.path.isfile(path):
        names = sorted(f[:-5] for f in os.listdir(os.path.dirname(path)) if f.endswith(".json"))
        raise ValueError("no board profile %r (profiles: %s)" % (name, ", ".join(names)))
    return path


def _flash(args):
    from stonegrid import device, flash
    if args.uf2:
        flash.flash_uf2(args.uf2, port=args.port, drive=args.drive)
        return 0
    profile = _profile(args.board)
    port = device.choose(args.port)
    plan = flash.flash(port, profile=profile, dry_run=args.dry_run)
    if args.dry_run:
        for path in plan.send + plan.root_send:
            print("would send %s (%d bytes)" % (path, len(plan.files[path])))
    print(flash.summary(plan, args.dry_run))
    return 0


def _build(args):
    from stonegrid.pico import image, stock
    profile = _profile(args.board)
    firmware = stock.load(args.micropython)
    print("build: %s" % firmware.describe())
    note = firmware.mpy_note()
    if note:
        print("build: %s" % note)
    size = image.save_uf2(args.uf2, profile, firmware, compiled=note is None)
    print("build: wrote %s (%d KB): MicroPython %s and the app's filesystem; drag it onto "
          "the Pico's RPI-RP2 drive (BOOTSEL mode)" % (args.uf2, size // 1024, firmware.version))
    return 0


def _logs(args):
    import signal
    import threading
    from stonegrid import device, logs
    port = device.choose(args.port, check=not args.wait, hint=device.WAIT_HINT)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    cap = logs.Capture(args.out, follow=args.follow)
    print("logs: capturing %s into %s (Ctrl-C stops)" % (port, args.out), file=sys.stderr)
    try:
        logs.capture(port, cap, stop=done.is_set)
    except KeyboardInterrupt:
        cap.close()
    print(cap.summary(), file=sys.stderr)
    return 0


def _link(args):
    import signal
    import threading
    from stonegrid import link
    lk = args.link_parser
    if args.serve and args.join:
        lk.error("argument --serve: not with --join (one computer serves, the other joins)")
    if (args.serve or args.join) and args.port_b:
        lk.error("argument --%s: takes one PORT, the board on this computer (the other "
                 "board is on the other computer)" % ("serve" if args.serve else "join"))
    if not (args.serve or args.join or args.port_b):
        lk.error("argument PORT_B: two boards here need two ports; or --serve / --join "
                 "HOST:N to link with a board on another computer")
    if args.join and not args.code:
        lk.error("argument --join: needs --code, the pairing code the serving side printed")
    if args.code and not args.join:
        lk.error("argument --code: only with --join")
    if args.port is not None and not args.serve:
        lk.error("argument --port: only with --serve (--join takes HOST:N)")
    if args.port_a == args.port_b:
        lk.error("argument PORT_B: the same port as PORT_A")
    if not args.wait:
        from stonegrid.device import WAIT_HINT, check_port
        for port in (args.port_a, args.port_b):
            if port:
                check_port(port, WAIT_HINT)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    try:
        if args.port_b:
            for line in link.run_pair(args.port_a, args.port_b, args.out, done):
                print(line, file=sys.stderr)
        else:
            link.run_tcp(args.port_a, args.out, done, join_address=args.join, code=args.code,
                         serve_port=(8017 if args.port is None else args.port)
                         if args.serve else None)
    except link.Failed as e:
        print("stonegrid link: %s" % e, file=sys.stderr)
        return 1
    return 0


def _replay(args):
    from stonegrid import replay
    return replay.run(args)


def parser():
    p = argparse.ArgumentParser(prog="stonegrid", description="stonegrid: four board games "
                                "on a 16x16 LED matrix, and the tools around them.")
    p.add_argument("--version", action="version", version="stonegrid " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    play = sub.add_parser("play", help="two people play a game in this terminal",
                          description="Two people play a game in this terminal, "
                          "typing moves in the game's notation (`help` shows it, `moves` "
                          "the legal ones, `undo` takes one back). A Rhombus bid is typed "
                          "unseen.")
    play.add_argument("game", nargs="?", default="morris", choices=GAMES,
                      help="which game (default: morris)")
    play.add_argument("-o", "--option", action="append", type=_option, default=[],
                      metavar="NAME=VALUE", help="a rules option, e.g. "
                      "no_immediate_returns=True (repeatable)")
    play.set_defaults(run=_play)
    from stonegrid.sim.main import add_arguments as sim_arguments
    sim = sub.add_parser("sim", help="the virtual board: the firmware in MicroPython, shown "
                         "in this terminal", description="The virtual board: runs the "
                         "firmware in the MicroPython unix port, shows the 16x16 LEDs in this "
                         "terminal and takes keys as the buttons. Its USB serial is a "
                         "pseudo-terminal that mpremote and pyserial use like a real board's.")
    sim_arguments(sim)
    sim.set_defaults(run=_sim)

    web = sub.add_parser("web", help="the board in a browser page, on this machine",
                         description="Serve a page on localhost that runs the same firmware "
                         "and rules in MicroPython's WebAssembly port: the 16x16 LEDs drawn, "
                         "the buttons clickable and on the keyboard, the serial log beside "
                         "them (downloadable as JSON Lines; a log can be loaded and replayed). "
                         "Works offline: everything comes from this checkout.")
    web.add_argument("--port", type=argtypes.tcp_port, default=8016,
                     help="the TCP port on 127.0.0.1 (default: 8016; 0: any free port)")
    web.add_argument("--no-open", action="store_true", help="only print the address; do not "
                     "open a browser")
    web.set_defaults(run=_web)

    port_help = "the board's serial port (default: the one used last, or the only board)"
    dev = sub.add_parser("devices", help="list connected boards",
                         description="List USB serial devices (VID:PID, serial number); "
                         "MicroPython boards are 2E8A:0005. Marks the one that would be used.")
    dev.set_defaults(run=_devices)

    fl = sub.add_parser("flash", help="put the firmware on a board",
                        description="Compile firmware/ and shared_rules/ with mpy-cross for the "
                        "board, send only what changed, verify every file, switch to the new "
                        "build atomically and restart the app. An interrupted flash leaves the "
                        "old firmware booting.")
    fl.add_argument("--port", help=port_help)
    fl.add_argument("--board", metavar="PROFILE", help="board profile to install as "
                    "board.json: a name from hardware/ (stellar-unicorn, pico-ws2812, ...) "
                    "or a JSON file")
    fl.add_argument("--dry-run", action="store_true", help="show what would be sent; change "
                    "nothing")
    fl.add_argument("--uf2", metavar="FILE", help="put MicroPython itself on the board: "
                    "reboot it into its bootloader (or hold BOOTSEL while plugging it in) and "
                    "copy this .uf2 file onto the drive that appears")
    fl.add_argument("--drive", metavar="DIR", type=argtypes.folder, help="with --uf2: the "
                    "mounted BOOTSEL drive (default: found under /media, /run/media, /Volumes, "
                    "/mnt)")
    fl.set_defaults(run=_flash)

    from stonegrid.pico.stock import DOWNLOAD, ENV
    bd = sub.add_parser("build", help="write one UF2 file holding MicroPython and the app",
                        description="Write one UF2 file for a Raspberry Pi Pico: your "
                        "MicroPython UF2 for the Pico (from %s) and a filesystem holding the "
                        "firmware compiled for the board. Copied onto the Pico in BOOTSEL "
                        "mode, it installs both at once; it replaces every file on the board."
                        % DOWNLOAD)
    bd.add_argument("--uf2", required=True, metavar="OUT", help="the UF2 file to write")
    bd.add_argument("--micropython", metavar="FILE", help="the MicroPython UF2 for the Pico "
                    "(RPI_PICO) to put in it (default: $%s)" % ENV)
    bd.add_argument("--board", default="pico-ws2812", metavar="PROFILE", help="board profile "
                    "to install as board.json: a name from hardware/ or a JSON file; one for "
                    "stock MicroPython on a Pico (default: pico-ws2812)")
    bd.set_defaults(run=_build)

    lg = sub.add_parser("logs", help="save the board's game logs, one file per game",
                        description="Capture the board's JSON record lines into one JSON "
                        "Lines file per game; started mid-game, it asks the board for the "
                        "game so far. Survives the board being unplugged and plugged "
                        "in again, or its power cut: once it is back, what the link lost "
                        "meanwhile is written from the board's journal, each action once. "
                        "Ctrl-C stops.")
    lg.add_argument("--port", help=port_help)
    lg.add_argument("--out", default="logs", metavar="DIR", type=argtypes.folder,
                    help="folder for the files (default: ./logs)")
    lg.add_argument("--follow", action="store_true", help="print the moves as they happen")
    lg.add_argument("--wait", action="store_true", help="wait for a board that is not "
                    "plugged in yet (without it, a port that cannot be opened is an error)")
    lg.set_defaults(run=_logs)

    lk = sub.add_parser("link", help="two boards play one game: side by side, or on two "
                        "computers", description="Two boards play one game, each owning one "
                        "side: this relays their link lines and decides nothing. PORT PORT_B: "
                        "both boards on this computer. PORT --serve on one computer and PORT "
                        "--join HOST:N --code CODE on the other: over TCP, the serving side "
                        "prints the pairing code. Each board's game logs are saved as `logs` "
                        "saves them, in a folder per board. A board unplugged or restarted "
                        "pauses the game on both until it is back. Ctrl-C stops.")
    lk.add_argument("port_a", metavar="PORT", help="a board's serial port")
    lk.add_argument("port_b", metavar="PORT_B", nargs="?", help="the other board's serial port, "
                    "when both are on this computer")
    lk.add_argument("--serve", action="store_true", help="wait for the other computer's board "
                    "to join over TCP; prints the pairing code")
    lk.add_argument("--port", type=argtypes.tcp_port, metavar="N", help="with --serve: the "
                    "TCP port to listen on (default: 8017; 0: any free port)")
    lk.add_argument("--join", type=argtypes.host_port, metavar="HOST:N",
                    help="join the board served at HOST:N")
    lk.add_argument("--code", help="with --join: the pairing code the serving side printed")
    lk.add_argument("--out", default="logs", metavar="DIR", type=argtypes.folder,
                    help="folder for the game logs, a folder per board in it named by the "
                    "date and the board's id (default: ./logs)")
    lk.add_argument("--wait", action="store_true", help="wait for boards that are not "
                    "plugged in yet (without it, a port that cannot be opened is an error)")
    lk.set_defaults(run=_link, link_parser=lk)

    rp = sub.add_parser("replay", help="check and replay a game log",
                        description="Check a game log (or an exported record) with the rules; "
                        "the first bad line is reported with its number (a last line cut short, "
                        "as a power cut leaves it, is left out and named). Then step through "
                        "the game in the terminal as the board draws it, or export it, render "
                        "it, or replay it on the board.")
    rp.add_argument("file", help="a .jsonl log from `stonegrid logs`, or an export")
    rp.add_argument("--to", type=int, metavar="N", help="print the board after N plies and "
                    "exit")
    rp.add_argument("--export", metavar="FILE", help="write the game as tag pairs and "
                    "numbered turns (readable back by replay)")
    rp.add_argument("--gif", metavar="FILE", help="write the game as an animated GIF; with "
                    "--analyse, the better move is drawn on the position before each "
                    "inaccuracy or blunder, as an arrow (a ring round a placement)")
    rp.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                    help="the board in colour (the LEDs, ANSI) or as plain text; auto: colour "
                    "on a terminal, plain text into a pipe or a file (default)")
    rp.add_argument("--analyse", action="store_true", help="mark every action best, good, "
                    "inaccuracy or blunder by the device's search at 3 times the hard level's "
                    "work, and list the turning points with the better move")
    rp.add_argument("--device", action="store_true", help="replay it on the board's LEDs")
    rp.add_argument("--port", help=port_help + " (with --device)")
    rp.set_defaults(run=_replay)

    from stonegrid.endgames import DEFAULT_OUT
    eg = sub.add_parser("endgames", help="solve the Morris endgames the device plays perfectly",
                        description="Solve every Nine Men's Morris position with 3 or 4 stones "
                        "against 3, all placed, by retrograde analysis, and write the table "
                        "that the device plays them from (the flash's root holds it). It takes "
                        "about a minute; `make endgames` runs it.")
    eg.add_argument("--out", default=DEFAULT_OUT, metavar="FILE", help="the table to write "
                    "(default: %s)" % DEFAULT_OUT)
    eg.set_defaults(run=_endgames)
    return p


def _endgames(args):
    from stonegrid.endgames import run
    return run(args.out)


def main(argv=None):
    from stonegrid.device import DeviceError
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader of a pipe had enough (`| head`): nothing to say
        sys.stdout = open(os.devnull, "w")  # the interpreter's own flush at exit, too
        return 0
    except (ValueError, DeviceError, OSError) as e:  # say what, no traceback
        print("stonegrid: error: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, ValueError) else 1


if __name__ == "__main__":
    sys.exit(main())
