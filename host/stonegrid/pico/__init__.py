"""The Raspberry Pi Pico (RP2040) as stonegrid meets it: the pinned MicroPython firmware and
boot ROM (parts/), flash images holding that firmware and the app (image.py), and the
emulated Pico of `stonegrid sim --board pico-ws2812`: stock MicroPython's rp2 port in
rp2040js (run.mjs), driven by the virtual board's host side (board.py)."""
