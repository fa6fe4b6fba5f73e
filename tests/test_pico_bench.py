"""tests/bench/pico.py in its smallest setting: one game, two plies, on the emulated Pico."""
import os
import re
import subprocess
import sys

from runtimes import ROOT


def test_the_pico_bench_prints_its_figures():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "pico.py"),
                           "--game", "morris", "--moves", "2", "--playouts", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.stdout, done.stderr[-3000:])
    out = done.stdout
    assert "at 125 MHz" in out and "ERROR" not in out, out
    assert 0 < int(re.search(r"reset to the menu's first frame (\d+) ms", out).group(1)) < 5000
    for level in ("easy", "normal", "hard"):
        row = re.search(r"^morris +%s +2 +([\d.]+) +([\d.]+) " % level, out, re.M)
        assert row and 0 < float(row.group(1)) <= float(row.group(2)), out
    # the same search on both runtimes: the device plays CPython's recorded moves
    assert "morris: the device's normal action is CPython's at 2 of 2 plies" in out
    assert re.search(r"WS2812 write [1-9][\d.]* ms", out), out
    # bit masks cut before they are shifted: no long int (a small int holds 30 bits there)
    assert "morris: an evaluation leaves at most 0 bytes on the heap" in out, out
    # the rules' random games, ours and the base revision's, and the speedup per ply
    assert re.search(r"^morris +random games/s [\d.]+ .*; rules of \w+ [\d.]+ games/s .*"
                     r"speedup per ply [\d.]+x$", out, re.M), out


def test_the_pico_bench_tunes_the_default_level():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "pico.py"),
                           "--game", "mixtour", "--moves", "2", "--tune"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.stdout, done.stderr[-3000:])
    out = done.stdout
    assert not re.search(r"^mixtour +(easy|hard) ", out, re.M), out  # the default level only
    row = re.search(r"^mixtour +normal +2 +([\d.]+) +([\d.]+) ", out, re.M)
    tuned = re.search(r"^  mixtour +(\d+) -> (\d+): NODES = \((\d+), (\d+), (\d+), (\d+)\)$",
                      out, re.M)
    assert row and tuned, out
    now, new = int(tuned.group(1)), int(tuned.group(2))
    mean, slowest = float(row.group(1)), float(row.group(2))
    # time taken as proportional to the budget, 10% below the tighter target
    assert abs(new - now * min(0.3 / mean, 1.0 / slowest) * 0.9) <= 2, out  # ms rounding
    assert int(tuned.group(5)) == new, out  # beginner, easy, normal, hard


def test_the_latency_bench_times_presses_against_the_goal():
    """tests/bench/latency.py in its smallest setting: the menu's presses, then four of a
    Morris game against the device thinking on the player's time."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "latency.py"),
                           "--game", "morris", "--presses", "4"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = done.stdout
    rows = dict((m.group(1), (int(m.group(2)), float(m.group(3)), float(m.group(4))))
                for m in re.finditer(r"^(menu|morris) +(\d+) +([\d.]+) +([\d.]+) ", out, re.M))
    assert rows.get("menu", (0,))[0] == 8 and rows.get("morris", (0,))[0] == 4, out
    for presses, median, slowest in rows.values():
        assert 5 < median <= slowest <= 40, out  # ms: the goal, from a pin's edge to light
    assert done.returncode == 0 and "everywhere: met" in out, (out, done.stderr[-3000:])
