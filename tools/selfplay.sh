#!/usr/bin/env bash
# Self-play sanity: very fast games of damas against itself, every move checked legal by the
# referee (the game layer) and timed. Fails (exit 1) on an illegal move, a move over its time
# by more than 5 ms, or a crash. Usage: tools/selfplay.sh [games] [ms-per-move] [variants...]
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
    # The referee forfeits a move over its time by more than 5 ms, and any illegal move.
    report=$(target/release/damas match --variant "$variant" --engine name=a --engine name=b \
        --tc "0.$(printf '%03d' "$ms")" --margin 0.005 -n "$games" --seed 7)
    echo "$report" | grep -E "^a vs b|^terminations"
    if echo "$report" | grep -qE "time forfeit|rules infraction|abandoned|stalled"; then
        status=1
    fi
done
exit $status
