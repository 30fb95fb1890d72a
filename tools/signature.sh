#!/usr/bin/env bash
# Runs `damas bench` and compares its node count with the last "Bench: N" line in the git log
# (the signature every commit touching search or evaluation records). Exit 1 on a mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
nodes=$(target/release/damas bench 2>/dev/null | awk '/^Bench:/ {print $2}')
expected=$(git log --format=%B 2>/dev/null | awk '/^Bench: [0-9]+/ && !found {print $2; found = 1}')
echo "bench signature: ${nodes:-none} (last recorded: ${expected:-none})"
if [ -z "$nodes" ]; then
    echo "damas bench printed no signature"; exit 1
fi
if [ -n "$expected" ] && [ "$nodes" != "$expected" ]; then
    echo "signature changed: record 'Bench: $nodes' in the commit message that changes search"
    exit 1
fi
