"""The Raspberry Pi Pico (RP2040) as stonegrid meets it: the pinned MicroPython firmware and
boot ROM (parts/), and flash images holding that firmware and the app (image.py)."""
