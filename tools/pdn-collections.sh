#!/usr/bin/env bash
# Replays every game of the real PDN collections in ../shared/data/pdn (where the project's
# workspace has them; users do not) with `damas pdn check`, each file under its rule set (the
# English, Russian and Czech files carry no GameType tag; the small feature files are guessed).
# Three games are wrong in the files themselves, and the check must say so and why; any other
# game that does not replay, or one of the three that does, fails the script (exit 1).
#   tools/pdn-collections.sh [DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
dir="${1:-../shared/data/pdn}"
if [ ! -d "$dir" ]; then
    echo "no PDN collections at $dir: skipped"
    exit 0
fi
damas=target/release/damas
out=$(
    cd "$dir" || exit 2
    "$OLDPWD/$damas" pdn check -q -v international DUTCH96H.pdn nk2003-amsterdam.pdn wk2003.pdn kurnik.pdn
    "$OLDPWD/$damas" pdn check -q -v english OCA_head.pdn beginner.pdn gem.pdn bridges.pdn oca1.pdn
    "$OLDPWD/$damas" pdn check -q -v russian ussr1947.pdn rus1.pdn rus1_nofen.pdn
    "$OLDPWD/$damas" pdn check -q -v czech mrcd2007.pdn
    "$OLDPWD/$damas" pdn check alphanumeric.pdn fen.pdn linecomment.pdn movestrength.pdn \
        string.pdn unicode.pdn variation.pdn
)
echo "$out"
# The games the files get wrong: a white man on its own crowning row (square 1), a FEN with no
# pieces at all, a FEN whose side to move is "?".
expected='beginner.pdn: game 10 "Beginner'"'"'s Problem #10" White - Red: FEN tag: bad FEN '"'"'W:W18,K15,1:BK30,K26,2'"'"': impossible position: a man stands on its own promotion row
bridges.pdn: game 14 "Boland'"'"'s Bridges #14": FEN tag: bad FEN '"'"'W::'"'"': piece list '"'"''"'"' must start with W or B
fen.pdn: game 1 (no GameType tag; square numbers up to 32: english assumed): FEN tag: bad FEN '"'"'?:W29,13,11:B22,4,2'"'"': side to move must be W or B, not '"'"'?'"'"''
errors=$(grep -v -e ' replayed$' -e '^[0-9]* games: ' <<<"$out" || true)
if [ "$errors" != "$expected" ]; then
    echo "the games that do not replay are not the three the files get wrong:"
    diff <(echo "$expected") <(echo "$errors")
    exit 1
fi
games=$(grep '^[0-9]* games: ' <<<"$out" | awk '{n += $1} END {print n}')
echo "all $games games replay but the three the files get wrong, each reported with its reason"
