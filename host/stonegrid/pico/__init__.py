"""The Raspberry Pi Pico (RP2040) as stonegrid meets it: the maker's own MicroPython UF2,
checked (stock.py), the RP2040 boot ROM from a registry package (bootrom.py), flash images
holding that firmware and the app (image.py), and the emulated Pico of `stonegrid sim --board
pico-ws2812`: stock MicroPython's rp2 port in rp2040js (run.mjs), driven by the virtual
board's host side (board.py)."""
