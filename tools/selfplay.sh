#!/usr/bin/env bash
# Self-play sanity: very fast games of damas against itself, every move checked legal by the
# rules library and timed. Fails (exit 1) on an illegal move, a move over its time budget, or a
# crash. Usage: tools/selfplay.sh [games] [ms-per-move] [variants...]
# (default: 200 games at 10 ms a move in english and international).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
games=${1:-200}
ms=${2:-10}
shift 2 || shift $# || true
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(english international)
status=0
for variant in "${variants[@]}"; do
    line=$(target/release/damas match --variant "$variant" --a "time=$ms" --b "time=$ms" \
        -n "$games" --seed 7 | tail -1)
    echo "$line"
    case "$line" in
        *"illegal moves 0  over time 0"*) ;;
        *) status=1 ;;
    esac
done
exit $status
