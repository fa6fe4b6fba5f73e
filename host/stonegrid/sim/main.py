"""`stonegrid sim`: run the virtual board, in this terminal or headless."""
import argparse
import asyncio
import os
import signal
import sys

from stonegrid.args import folder, tcp_port
from stonegrid.sim.sync import default_flash_dir, micropython_path, sync


def heap_size(text):
    """argparse type of --heap: a MicroPython heap size such as 96k, 2m or 131072."""
    from stonegrid.sim.engine import MAX_HEAP, heap_bytes
    try:
        n = heap_bytes(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a heap size: %r (e.g. 96k, 2m, 131072)" % text)
    if n < 16 * 1024:
        raise argparse.ArgumentTypeError("a heap below 16k cannot even start the board: %r" % text)
    if n > heap_bytes(MAX_HEAP):
        raise argparse.ArgumentTypeError("%r is more than the %s the virtual board takes (a "
                                         "board's heap is a few hundred KB)" % (text, MAX_HEAP))
    return text.strip().lower()


def _flash_dir_text():
    try:
        return default_flash_dir()
    except ValueError as e:  # no checkout found: the command run says so, not --help
        return "none here, %s" % e


def add_arguments(p):
    p.add_argument("--board", choices=("unix", "pico-ws2812"), default="unix",
                   help="unix: the firmware in MicroPython's unix port (default); pico-ws2812: "
                   "stock MicroPython on an emulated Raspberry Pi Pico (rp2040js) with a "
                   "WS2812 panel, as hardware/pico-ws2812.json wires it")
    from stonegrid.pico.stock import DOWNLOAD, ENV
    p.add_argument("--micropython", metavar="FILE",
                   help="with --board pico-ws2812: the MicroPython UF2 the emulated Pico runs, "
                   "the one you download for a Pico from %s (default: $%s)" % (DOWNLOAD, ENV))
    p.add_argument("--flash", metavar="DIR", type=folder, help="the board's flash directory; "
                   "it persists between runs (default: one for each checkout, this one's: %s)"
                   % _flash_dir_text())
    from stonegrid.sim.engine import DEFAULT_HEAP
    p.add_argument("--heap", default=DEFAULT_HEAP, metavar="SIZE", type=heap_size,
                   help="MicroPython heap size (default: " + DEFAULT_HEAP + ", a Raspberry Pi "
                   "Pico's 240 KB heap on this 64-bit port; a smaller one, such as "
                   "96k, shows memory regressions)")
    p.add_argument("--headless", action="store_true",
                   help="no display: print `serial: PATH` and `control: HOST:PORT`, then run "
                   "until SIGTERM or SIGINT")
    p.add_argument("--no-sync", action="store_true",
                   help="do not copy firmware/, shared_rules/ and hardware/unix.json from the "
                   "checkout to the flash directory first")
    p.add_argument("--control", type=tcp_port, default=0, metavar="PORT",
                   help="TCP port of the control socket on 127.0.0.1 (default: any free port)")
    p.add_argument("--scale", type=int, choices=(1, 2, 3), default=None,
                   help="terminal cells per LED across (default: 2 if the terminal is big "
                   "enough, else 1)")


def run(args):
    flash = os.path.abspath(os.path.expanduser(args.flash or default_flash_dir()))
    firmware = None
    if args.board == "unix" and args.micropython:
        print("stonegrid: error: --micropython is the emulated Pico's UF2: it goes with "
              "--board pico-ws2812", file=sys.stderr)
        return 2
    if args.board != "unix":
        from stonegrid.pico.board import SetupError, check_setup
        try:
            firmware = check_setup(args.micropython)
        except SetupError as e:
            print("stonegrid: error: %s" % e, file=sys.stderr)
            return 2
        print("sim: %s" % firmware.describe(), file=sys.stderr)
        if firmware.mpy_note():
            print("sim: %s" % firmware.mpy_note(), file=sys.stderr)
        try:
            os.makedirs(flash, exist_ok=True)
            probe = os.path.join(flash, ".write-test")
            open(probe, "w").close()
            os.remove(probe)
        except OSError as e:
            print("stonegrid: error: the flash folder %s is not writable (%s)"
                  % (flash, e.strerror or e), file=sys.stderr)
            return 2
    try:
        micropython = micropython_path() if args.board == "unix" else None
        os.makedirs(flash, exist_ok=True)
        written = [] if args.no_sync or args.board != "unix" else sync(flash)
    except OSError as e:
        print("stonegrid: error: %s" % e, file=sys.stderr)
        return 1
    if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("stonegrid: error: the interactive virtual board needs a terminal; "
              "use --headless", file=sys.stderr)
        return 2
    return asyncio.run(_main(args, flash, micropython, written, firmware))


async def _main(args, flash, micropython, written, firmware):
    from stonegrid.sim.engine import Board
    loop = asyncio.get_running_loop()
    ui = None

    def log(msg):
        if ui is not None:
            ui.message = msg
            ui._on_event("status")
        else:
            print("sim: " + msg, file=sys.stderr, flush=True)

    if args.board == "unix":
        board = Board(flash, heap=args.heap, micropython=micropython,
                      control_port=args.control, log=log)
    else:
        from stonegrid.pico.board import PicoBoard
        board = PicoBoard(flash, firmware, board=args.board, control_port=args.control,
                          log=log)
    try:
        if args.board != "unix" and not args.no_sync:
            written = board.prepare()
        await board.start()
        if args.board != "unix" and not args.no_sync:
            written = written or await board.provision()
    except (OSError, ValueError) as e:  # ValueError: image.ImageError, an app too big
        print("stonegrid: error: %s" % e, file=sys.stderr)
        await board.stop()
        return 1
    try:
        if args.headless:
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                loop.add_signal_handler(sig, lambda: loop.create_task(board.stop()))
            print("serial: %s" % board.serial)
            print("control: %s" % board.control)
            print("flash: %s (%d files updated)" % (flash, len(written)), flush=True)
            await board.wait_stopped()
        else:
            from stonegrid.sim.render import TerminalUI
            ui = TerminalUI(board, scale=args.scale)
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                loop.add_signal_handler(sig, ui.quit)
            if written:
                ui.message = "flash: %d files updated" % len(written)
            ui_task = loop.create_task(ui.run())
            stopped = loop.create_task(board.wait_stopped())
            await asyncio.wait([ui_task, stopped], return_when=asyncio.FIRST_COMPLETED)
            ui.quit()
            await ui_task
    finally:
        await board.stop()
    if board.gave_up:
        print("stonegrid: error: %s" % board.gave_up, file=sys.stderr)
        return 1
    return 0
