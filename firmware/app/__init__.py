"""The stonegrid app: `async def main(hal)` runs the menu, one game at a time, the serial
link and the journal.  start() opens the board from its profile and runs main()."""
VERSION = "0.1.0"


def start():
    import asyncio

    from hal import open_board

    board = open_board()
    if board.held("back"):
        print("stonegrid: BACK held at boot - safe mode, the app does not start")
        return
    asyncio.run(main(board))


async def main(hal):
    from app.core import App

    await App(hal).run()
