#!/usr/bin/env bash
# Lazy-SMP speed-up: the time the bench positions take to reach a fixed depth with N threads,
# as a ratio of the one-thread time.
# Usage: tools/smp-scaling.sh [depth] [threads...]   (default: depth 12, threads 1 2)
# ROUNDS=N (default 5) rounds, each running every thread count once in turn, so that a drift of
# the machine falls on all of them alike; the ratio is of the medians. (The best of a few runs
# favoured the several-thread searches, whose time to a depth varies from run to run while the
# one-thread search is the same every time.) Run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
depth=${1:-12}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
rounds=${ROUNDS:-5}
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; depth $depth, $rounds rounds"
declare -A times
for _ in $(seq "$rounds"); do
    for t in "${threads[@]}"; do
        s=$(target/release/damas bench "$depth" --threads "$t" 2>&1 >/dev/null \
            | sed -nE 's/.* ([0-9.]+) s searching.*/\1/p')
        times[$t]="${times[$t]:-} $s"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
base=""
for t in "${threads[@]}"; do
    m=$(echo "${times[$t]}" | median)
    [ -n "$base" ] || base=$m
    ratio=$(awk "BEGIN{printf \"%.2f\", $m / $base}")
    echo "threads $t: median ${m} s to depth $depth (runs:${times[$t]}; ratio to 1 thread: $ratio)"
done
