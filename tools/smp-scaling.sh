#!/usr/bin/env bash
# Lazy-SMP speed-up: the time the bench positions take to reach a fixed depth with N threads,
# as a ratio of the one-thread time. Usage: tools/smp-scaling.sh [depth] [threads...]
# (default: depth 10, threads 1 2). Run on an otherwise idle machine; each count runs 3 times
# and the fastest is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
depth=${1:-10}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; depth $depth"
base=""
for t in "${threads[@]}"; do
    best=""
    for _ in 1 2 3; do
        s=$(target/release/damas bench "$depth" --threads "$t" 2>&1 >/dev/null | sed -E 's/.* ([0-9.]+) s searching.*/\1/')
        if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
    done
    [ -n "$base" ] || base=$best
    ratio=$(awk "BEGIN{printf \"%.2f\", $best / $base}")
    echo "threads $t: ${best} s to depth $depth (ratio to 1 thread: $ratio)"
done
