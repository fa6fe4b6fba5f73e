"""The stonegrid app: `async def main(hal)` runs the menu, one game at a time, the serial
wire and the journal.  start() opens the board from its profile and runs main()."""
VERSION = "0.1.0"


def start():
    import asyncio

    from hal import open_board

    board = open_board()
    if board.held("back"):
        print("stonegrid: BACK held at boot - safe mode, the app does not start")
        return
    if not hasattr(asyncio, "run"):  # the WebAssembly port: the page's event loop runs tasks
        asyncio.create_task(main(board))
        return
    while True:  # an error in the app restarts it; the journal brings the game back
        try:
            asyncio.run(main(board))
        except (KeyboardInterrupt, SystemExit):
            raise  # Ctrl-C: to the REPL, as on every MicroPython board
        except MemoryError as e:
            import sys
            sys.print_exception(e)
            restart_board()
        except Exception as e:  # noqa: BLE001 - reported, then the app starts again
            import gc
            import sys
            sys.print_exception(e)
            asyncio.new_event_loop()
            gc.collect()


def restart_board(count=True):
    """After running out of memory: the heap may be in pieces, or full of the names interned
    by every game played since boot (MicroPython never frees them).  A reset gives a whole
    heap, and the journal brings the game back.  `count`: the restart counts against the
    journalled game (app.recovery.GIVE_UP_AFTER); not when a serial command ran out."""
    try:
        from machine import reset
    except ImportError:  # no board to reset (the browser, a plain unix port): go on as we are
        return
    if count:
        try:
            from app import journal

            journal.count_restart()
        except (OSError, MemoryError):
            pass  # restart all the same
    reset()


async def main(hal):
    from app.core import App

    await App(hal).run()
