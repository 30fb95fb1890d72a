#!/usr/bin/env bash
# Measures the perft speed table of docs/speed.md: English perft 12, International perft 10 and
# Turkish perft 8 (and the published Turkish d9 in kish's convention), on 1 and 2 threads.
# Usage: tools/perft-speed.sh [threads...]   (default: 1 2)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
damas=target/release/damas
threads=("${@:-1}")
[ $# -gt 0 ] || threads=(1 2)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
for t in "${threads[@]}"; do
    "$damas" perft 12 --threads "$t"
    "$damas" perft 10 --variant international --threads "$t"
    "$damas" perft 8 --variant turkish --threads "$t"
    "$damas" perft 9 --variant turkish --every-stop --threads "$t"
done
