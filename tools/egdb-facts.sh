#!/usr/bin/env bash
# Known endgame facts, probed in databases of up to 4 pieces that `damas egdb build` made:
#   tools/egdb-facts.sh DIR   (DIR/english, DIR/russian, DIR/brazilian, DIR/international)
# Exit 1 when a probe or a count disagrees. The facts and where they are published:
# - the position counts are the combinatorial totals (one side to move, both sides present,
#   no man on its own crowning row), counted from binomial coefficients;
# - English: a king against a king is not always a draw: a lone king shut in its single corner
#   is lost; two kings beat one king (irishdraughts.org/endings.html, "Diagram One shows how
#   two kings can beat one king"), here from the double corner, the defender's best refuge;
# - Russian and Brazilian (flying kings on 8x8): three kings holding the main road a1-h8 catch a
#   lone king within 13 moves, from Petrov's own position WKa1,c1,e1 v BKf8 too, and it is a
#   draw when the lone king holds the main road ("Petrov's triangle", A. D. Petrov, 1827;
#   ru.wikipedia.org/wiki/Треугольник_Петрова);
# - International: three kings against one "usually is a draw" (FMJD's course, "The endgame",
#   chapter 3): a draw when the lone king holds the long diagonal 46-5, a win in positions
#   where it is kept off it.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:?usage: tools/egdb-facts.sh DIR}"
damas=target/release/damas
failed=0

expect() { # variant fen wanted-start-of-answer
    local got
    got=$("$damas" egdb probe --variant "$1" --egdb-path "$dir/$1" --fen "$2" | head -n 1)
    if [[ "$got" == "$3"* ]]; then
        printf '%-14s %-26s %s\n' "$1" "$2" "$got"
    else
        printf 'WRONG: %s %s: %s (expected %s...)\n' "$1" "$2" "$got" "$3"
        failed=1
    fi
}

counts() { # variant "2 pieces: N positions" ...
    local variant="$1" stats line
    shift
    stats=$("$damas" egdb stats --variant "$variant" --egdb-path "$dir/$variant")
    for line in "$@"; do
        if grep -q "^$line," <<<"$stats"; then
            printf '%-14s %s\n' "$variant" "$line"
        else
            printf 'WRONG: %s: no line "%s"\n' "$variant" "$line"
            failed=1
        fi
    done
}

for variant in english russian brazilian; do
    counts "$variant" "2 pieces: 3488 positions" "3 pieces: 196032 positions" \
        "4 pieces: 6209316 positions"
done
counts international "2 pieces: 8845 positions" "3 pieces: 806300 positions" \
    "4 pieces: 41971200 positions"

expect english "W:WK29:BK22" "loss"
expect english "W:WK1:BK32" "draw"
expect english "B:WK18,K14:BK27" "loss"
for variant in russian brazilian; do
    expect "$variant" "B:WKa1,Kc1,Ke1:BKf8" "loss in 19 plies"
    expect "$variant" "W:WKa1,Kc1,Ke1:BKh2" "win"
    expect "$variant" "W:WKc1,Ke1,Kg1:BKa1" "draw"
done
expect international "W:WK1,K2,K3:BK46" "draw"
expect international "W:WK23,K4,K49:BK45" "win"
exit "$failed"
