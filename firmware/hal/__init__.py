"""The hardware layer: the only code that touches pins, LEDs or the host of a virtual board.

Every backend module offers make(profile) -> a board object with:
  width, height                 the matrix size
  show(frame)                   frame: bytearray of width*height*3 RGB bytes, row-major, y=0 top;
                                the backend scales it to min(brightness, cap) before showing
  set_brightness(level)         0..255, from the app's settings; shown at min(level, cap),
                                cap the profile's limit (ws2812: what its power supply allows)
  poll()                        the next button event (name, kind) or None; names: up down left
                                right ok back; kind "press" or "long"
  held(name)                    whether a button is down now (safe mode at boot)
  wake_on_press(wake)           optional: call wake() whenever a button changes (ws2812: from
                                the pins' interrupt), so that the app's loop, asleep between
                                its passes, reads the buttons at once
  serial                        optional: where app.wire reads its commands on a board without
                                a stdin (web: the browser page), see app.wire.serve
Pin-based backends turn raw button states into events with hal.buttons.
The board profile (board.json in the root) names the backend and its pins and limits; the
profiles and every key are in hardware/ (hardware/README.md).  Backends: stellar and cosmic
(Pimoroni Unicorns, sharing hal.unicorn), ws2812 (Pico + WS2812B panel), unix (virtual board),
web (the browser page of `stonegrid web`, on MicroPython's WebAssembly port).
"""
import json

BUTTONS = ("up", "down", "left", "right", "ok", "back")


def load_profile(path="board.json"):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return {"name": "virtual board", "backend": "unix", "width": 16, "height": 16,
                "brightness_cap": 160}


def open_board(profile=None):
    profile = profile or load_profile()
    backend = profile.get("backend", "unix")
    mod = getattr(__import__("hal." + backend), backend)
    return mod.make(profile)


MIN_LIT = 3  # the least drive a real WS2812 shows in a lit room: the dimmest mark lights so


def scale_table(level):
    """Byte -> byte at brightness `level`, for backends that dim in software: 0 stays off, and
    1..255 spread evenly over MIN_LIT..level, so that the dim marks of a view (lines, dots)
    still light, and stay apart, at a low cap (at 40, plain level/255 drove a line's 10 at 2).
    255 gives `level`, so no frame draws more than the cap allows; a level below MIN_LIT
    lights everything at that level."""
    low = min(level, MIN_LIT)
    return bytes([0] + [low + ((v - 1) * (level - low) + 127) // 254 for v in range(1, 256)])
