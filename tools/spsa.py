#!/usr/bin/env python3
"""SPSA tuning of the search's numbers with damas's own match tool.

Simultaneous perturbation stochastic approximation (Spall, "Multivariate stochastic
approximation using a simultaneous perturbation gradient approximation", IEEE TAC 1992), in the
form chess engines' testing frameworks run it: at iteration k every number is moved by +c_k or
-c_k at random (one sign per number), the engine with the "plus" numbers plays a few game pairs
against the one with the "minus" numbers (`damas match`, both Hub engines of the same binary
given `option.search-params=...`), and each number moves by a_k * (wins - losses) / (c_k * sign).
The gains follow Spall's schedule: c_k = c / k^0.101, a_k = a / (A + k)^0.602, with A a tenth
of the iterations, c chosen so that c_N is the step asked for and a so that a number moves
about r_end * c_N^2 per unit of result at the end.

The session is resumable: its state (iteration, numbers, the results so far) is written to a
JSON file after every iteration and read back at the start. The numbers to tune, and their
current values, come from the engine's text mode (`help` lists `search-params` with its value).

Usage:
  tools/spsa.py [--damas target/release/damas] [--variant english] [--tc 0.02]
                [--pairs 8] [--iterations 200] [--concurrency 2] [--state spsa.json]
                [--tune NAME:STEP ...] [--openings FILE]

Prints a line per iteration on stderr and, at the end, the tuned numbers as the
`search-params` option takes them. Verify them with a match before using them (`damas match`,
new against old, option.search-params=...).
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import time

# What each number moves by at the end of a session (c_N), where --tune does not say.
DEFAULT_STEPS = {
    "static-cut-depth": 0.5,
    "static-cut-margin": 8,
    "probcut-depth": 0.5,
    "probcut-depth-percent": 4,
    "probcut-margin": 2,
    "probcut-min-pieces": 1,
    "lmr-depth": 0.5,
    "lmr-count": 0.5,
    "lmr-late-count": 1,
    "aspiration-window": 5,
}
# The least value of the numbers that cannot be 0 (the engine refuses less; every other number
# may be 0).
AT_LEAST_ONE = {"probcut-depth", "lmr-depth", "lmr-count", "lmr-late-count", "aspiration-window"}
R_END = 0.002
ALPHA = 0.602
GAMMA = 0.101


def engine_defaults(damas, variant):
    """The engine's search parameters in `variant`, read from its text mode's help."""
    out = subprocess.run([damas, "text"], input=f"variant {variant}\nhelp\nquit\n",
                         capture_output=True, text=True,
                         timeout=60, check=False).stdout
    found = re.search(r"search-params .*\(now ([^)]*)\)", out)
    if not found:
        sys.exit("spsa: the engine's help does not list search-params (an old build?)")
    values = {}
    for pair in found.group(1).split(","):
        name, value = pair.split(":")
        values[name] = float(value)
    return values


def params_text(values):
    def clamp(name, value):
        return max(round(value), 1 if name in AT_LEAST_ONE else 0)
    return ",".join(f"{name}:{clamp(name, value)}" for name, value in values.items())


def play(args, plus, minus, seed):
    """Wins minus losses of the plus engine over the iteration's games."""
    engine = f"{args.damas} hub"
    command = [
        args.damas, "match", "--variant", args.variant,
        "--engine", f"cmd={engine}", "name=plus", f"option.search-params={params_text(plus)}",
        "--engine", f"cmd={engine}", "name=minus", f"option.search-params={params_text(minus)}",
        "--each", "option.threads=1", "option.hash=16", "option.book=false",
        "--tc", str(args.tc), "--games", str(2 * args.pairs),
        "--concurrency", str(args.concurrency), "--seed", str(seed),
    ]
    if args.openings:
        command += ["--openings", args.openings, "--shuffle"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    found = re.search(r"^plus vs minus: \+(\d+) =(\d+) -(\d+)", result.stdout, re.M)
    if result.returncode != 0 or not found:
        sys.exit(f"spsa: the match failed (exit {result.returncode}):\n{result.stderr[-2000:]}")
    wins, draws, losses = map(int, found.groups())
    return wins - losses, (wins, draws, losses)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--damas", default="target/release/damas")
    parser.add_argument("--variant", default="english")
    parser.add_argument("--tc", type=float, default=0.02)
    parser.add_argument("--pairs", type=int, default=8, help="game pairs an iteration")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--state", default="spsa.json")
    parser.add_argument("--openings", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tune", nargs="*", default=None,
                        help="NAME:STEP (c at the end); default: every search parameter")
    args = parser.parse_args()

    start = engine_defaults(args.damas, args.variant)
    steps = dict(DEFAULT_STEPS)
    if args.tune:
        steps = {}
        for item in args.tune:
            name, _, step = item.partition(":")
            if name not in start:
                sys.exit(f"spsa: unknown search parameter {name}; known: {' '.join(start)}")
            steps[name] = float(step) if step else DEFAULT_STEPS.get(name, 1.0)
    steps = {name: step for name, step in steps.items() if name in start}

    state = {"iteration": 0, "values": start, "history": [], "settings": vars(args)}
    if os.path.exists(args.state):
        with open(args.state, encoding="utf-8") as file:
            state = json.load(file)
        print(f"spsa: resuming {args.state} at iteration {state['iteration']}", file=sys.stderr)
    values = state["values"]

    n = args.iterations
    big_a = 0.1 * n
    c_scale = {name: step * n ** GAMMA for name, step in steps.items()}
    a_scale = {name: R_END * step * step * (big_a + n) ** ALPHA for name, step in steps.items()}
    rng = random.Random(args.seed * 1_000_003 + state["iteration"])
    began = time.time()
    done_before = state["iteration"]
    while state["iteration"] < n:
        k = state["iteration"] + 1
        signs = {name: rng.choice((-1, 1)) for name in steps}
        c_k = {name: c_scale[name] / k ** GAMMA for name in steps}
        plus, minus = dict(values), dict(values)
        for name in steps:
            plus[name] = values[name] + c_k[name] * signs[name]
            minus[name] = values[name] - c_k[name] * signs[name]
        result, (wins, draws, losses) = play(args, plus, minus, seed=args.seed * 100_000 + k)
        for name in steps:
            a_k = a_scale[name] / (big_a + k) ** ALPHA
            values[name] += a_k * result / (c_k[name] * signs[name])
        state["iteration"] = k
        state["history"].append({"k": k, "result": [wins, draws, losses],
                                 "values": dict(values)})
        with open(args.state + ".tmp", "w", encoding="utf-8") as file:
            json.dump(state, file, indent=1)
        os.replace(args.state + ".tmp", args.state)
        spent = time.time() - began
        left = spent / (k - done_before) * (n - k)
        tuned = " ".join(f"{name}:{values[name]:.2f}" for name in steps)
        print(f"iteration {k}/{n}: +{wins} ={draws} -{losses}  {tuned}  "
              f"({spent:.0f} s, about {left:.0f} s left)", file=sys.stderr)
    print(params_text(values))


if __name__ == "__main__":
    main()
