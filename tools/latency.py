#!/usr/bin/env python3
"""Protocol latency of damas in Hub mode: ping -> pong and stop -> done during searches.

Purpose
    The Hub protocol asks an engine to answer `ping` at once, even mid-search, and to stop
    quickly on `stop`.  This tool measures both over many trials while a multi-threaded search
    runs, on positions chosen to be hard to interrupt (many kings and long capture chains, the
    opening, Turkish and Frisian positions with 8 capture directions), and prints the median,
    99th percentile and worst case in milliseconds.  It is a measurement, not a test: the
    numbers depend on the machine, so name the machine when you report them.

Usage
    python3 tools/latency.py [--damas target/release/damas] [--trials 200] [--threads 2]
                             [--seed 1]

Output
    One line per position set, then the overall summary:
        ping->pong  trials 200  median 0.08 ms  p99 0.31 ms  worst 0.52 ms
        stop->done  trials 200  median 0.41 ms  p99 1.20 ms  worst 2.10 ms
    Exit status 0 (1 if the engine misbehaved: no pong, no done, an error line).
"""

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

# (variant, position in pos= form: Hub string or PDN FEN)
POSITIONS = [
    ("normal", "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"),
    # Kings everywhere: long flying-king capture trees.
    ("normal", "W:WK47,K46,K40,K38,K33,K29,27,22:BK3,K5,K9,K13,12,18,17,24,19"),
    ("frisian", "W:WK46,K47,K33,K36,31,32:BK4,K5,K11,K17,19,20"),
    ("english", "B:W21-32:B1-12"),
    ("turkish", "W:WKa1,Kh1,Kd4,b3,c3,e3,f3:BKa8,Kh8,Ke5,b6,c6,f6,g6"),
    ("russian", "W:WKa1,Kc3,e3,g3,b2:BKh8,Kf6,d6,b6,g7"),
]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Hub:
    def __init__(self, binary, threads):
        self.process = subprocess.Popen(
            [binary, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            bufsize=1)
        self.send("hub")
        self.until("wait")
        self.send(f"set-param name=threads value={threads}")
        self.variant = None

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"engine closed its output waiting for {prefix}")
            line = line.strip()
            if line.startswith("error"):
                sys.exit(f"engine error: {line}")
            if line.startswith(prefix):
                return line

    def use(self, variant):
        if variant != self.variant:
            self.send(f"set-param name=variant value={variant}")
            self.send("init")
            self.until("ready")
            self.variant = variant

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip())
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--damas", default=str(root / "target/release/damas"))
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.trials < 1 or args.threads < 1:
        parser.error("--trials and --threads must be positive")
    rng = random.Random(args.seed)
    hub = Hub(args.damas, args.threads)
    pings, stops = [], []
    per_set = {}
    for trial in range(args.trials):
        variant, position = POSITIONS[trial % len(POSITIONS)]
        hub.use(variant)
        hub.send(f"pos pos={position}")
        hub.send("level infinite")
        hub.send("go analyze")
        hub.until("info")
        # Let the search get deep (tables full, long lines) before interrupting it.
        time.sleep(rng.uniform(0.02, 0.25))
        start = time.perf_counter()
        hub.send("ping")
        hub.until("pong")
        pings.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        hub.send("stop")
        hub.until("done")
        elapsed = (time.perf_counter() - start) * 1000
        stops.append(elapsed)
        per_set.setdefault(f"{variant} {position[:24]}", []).append(elapsed)
    hub.quit()
    for name, values in per_set.items():
        print(f"stop->done  {name:<34} trials {len(values):>4}  worst {max(values):.2f} ms")
    for name, values in (("ping->pong", pings), ("stop->done", stops)):
        print(f"{name}  trials {len(values)}  median {percentile(values, 0.5):.2f} ms  "
              f"p99 {percentile(values, 0.99):.2f} ms  worst {max(values):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
