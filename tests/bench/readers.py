"""How the host's readers cope with what a hostile or broken board or peer sends: time and
the most memory held, for one line of 1, 4 and 16 MB with no newline (the serial and TCP
splitter, stonegrid.logs.Lines), for `stonegrid replay --to N` of logs of 100, 1,000 and
10,000 records (a whole process each, as a user runs it), and the slowest of 200 requests
made at once to `stonegrid web`'s server.
Run: .venv/bin/python tests/bench/readers.py"""
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
from shared_rules import load, record  # noqa: E402
from stonegrid.logs import Lines  # noqa: E402


def long_line(mb):
    """(seconds, peak bytes traced) to split one mb-MB line without a newline, then a line."""
    chunk = b"x" * 4096
    lines = Lines(record.MAX_LINE)
    tracemalloc.start()
    start = time.perf_counter()
    for _ in range(mb * 1024 * 1024 // len(chunk)):
        lines.feed(chunk)
    got = lines.feed(b'\n{"t": "act"}\n')
    took = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert got == [b'{"t": "act"}'] and lines.skipped == 1
    return took, peak


def log_of(records, path):
    """A Mixtour log of at least `records` lines: games one after another."""
    mod, lines, seed = load("mixtour"), [], 0
    while len(lines) < records:
        rng, g = random.Random(seed), mod.Game()
        header = record.game_line("mixtour", g.options, ["human", "human"], "")
        lines.append(header)
        while g.result() is None and len(lines) < records:
            p, a = g.to_move, rng.choice(g.legal())
            g.play(a)
            lines.append(record.act_line(g.plies(), p, a, g.text(a)))
        seed += 1
        if g.result() is None:
            break
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main():
    print("serial/TCP splitter, one line without a newline (cap %d bytes):" % record.MAX_LINE)
    for mb in (1, 4, 16):
        took, peak = long_line(mb)
        print("  %2d MB: %.3f s (%.0f MB/s), most held %.1f KB" % (
            mb, took, mb / took, peak / 1024))
    print("stonegrid replay --to N (a whole process; max RSS):")
    with tempfile.TemporaryDirectory() as tmp:
        for records in (100, 1000, 10000):
            path = os.path.join(tmp, "log%d.jsonl" % records)
            n = log_of(records, path)
            plies = sum(1 for line in open(path) if '"act"' in line)
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "stonegrid.cli", "replay", path,
                                   "--to", "0"], capture_output=True, text=True)
            took = time.perf_counter() - start
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            status = "ok" if done.returncode == 0 else done.stderr.strip()[:80]
            print("  %5d records (%d act lines): %.2f s, RSS %d MB (%s)" % (
                n, plies, took, rss // 1024, status))


def web_burst(n=200):
    """The slowest and the median of n requests for the page made at once (seconds)."""
    import socket
    import threading

    sys.path.insert(0, os.path.dirname(HERE))  # tests/: webkit
    from webkit import web_server
    times, go = [], threading.Event()
    with web_server() as address:
        request = b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % address[1]

        def one():
            go.wait()
            start = time.perf_counter()
            with socket.create_connection(address, timeout=30) as s:
                s.sendall(request)
                while s.recv(65536):
                    pass
            times.append(time.perf_counter() - start)
        threads = [threading.Thread(target=one) for _ in range(n)]
        for t in threads:
            t.start()
        go.set()
        for t in threads:
            t.join()
    times.sort()
    return times[-1], times[len(times) // 2], len(times)


if __name__ == "__main__":
    main()
    slowest, median, n = web_burst()
    print("stonegrid web: %d requests at once: slowest %.3f s, median %.3f s" % (
        n, slowest, median))
