"""The emulated Raspberry Pi Pico: stock MicroPython's rp2 port in rp2040js (run.mjs), driven
by the virtual board's host side (board.py), for `stonegrid sim --board pico-ws2812`."""
