#!/usr/bin/env bash
# The depth the search completes in a fixed time on each bench position (src/cli/bench.rs), one
# thread, and their mean: the "mean depth at 0.1 s" column of the search table in docs/experiments.md.
#   tools/mean-depth.sh [damas-binary] [seconds]
# Compare two builds by running it on each, alternately, more than once: the depth reached in a
# fixed time varies with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
damas="${1:-target/release/damas}"
seconds="${2:-0.1}"
python3 - "$damas" "$seconds" <<'PY'
import json, re, subprocess, sys
damas, seconds = sys.argv[1], sys.argv[2]
source = open("src/cli/bench.rs").read()
table = source[source.index("pub const POSITIONS"):]
table = table[:table.index("];")]
def depth_of(variant, fen):
    base = [damas, "analyze", "--variant", variant.lower(), "--fen", fen, "--time", seconds,
            "--threads", "1"]
    run = subprocess.run(base + ["--json", "--egdb-path", "none"], capture_output=True, text=True)
    if run.returncode == 0:
        found = [json.loads(line)["depth"] for line in run.stdout.splitlines()
                 if '"bestmove"' in line]
        return found[-1] if found else 0
    # Builds older than `--json` and the databases (such as 1036133, the yardstick of the
    # search table in docs/experiments.md): the text line "best move M  (score S, depth D, ...)" (now "(S for SIDE, depth D, ...)").
    out = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    found = re.findall(r"best move .*depth (\d+)", out)
    return int(found[-1]) if found else 0

depths = [depth_of(variant, fen) for variant, fen in re.findall(r'Variant::(\w+),\s*"([^"]+)"', table)]
print(" ".join(map(str, depths)), f"mean {sum(depths) / len(depths):.2f}")
PY
