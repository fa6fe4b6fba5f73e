"""The virtual board: the firmware in the real MicroPython unix port, without hardware.

    stonegrid sim [--headless]          # the command (see `stonegrid sim --help`)
    with spawn(flash) as sim:            # a headless sim as a subprocess, for tests
        sim.serial                       # the pty: mpremote / pyserial talk to it
        sim.client.press("ok")           # the control socket (Client)
        sim.client.frame().pixel(0, 0)

The pieces: boardshell.py (runs inside MicroPython: the board's USB-serial REPL); the host
side: engine.py (the board: its process, and the parts wired to it), serialport.py (the pty),
stdio.py (the process's stdin and stdout as a serial line), device.py (LEDs and buttons),
control.py (the control socket); render.py (terminal), png.py (screenshots), sync.py (paths,
copying the firmware to the flash directory).
"""
from stonegrid.sim.client import BoardThread, Client, Frame, SimError, SimProcess, spawn
from stonegrid.sim.sync import default_flash_dir, repo_root, sync

__all__ = ["BoardThread", "Client", "Frame", "SimError", "SimProcess", "spawn",
           "default_flash_dir", "repo_root", "sync", "run"]


def run(args):
    """`stonegrid sim` (args from the argparse parser in stonegrid.cli)."""
    from stonegrid.sim.main import run as _run
    return _run(args)
