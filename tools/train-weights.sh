#!/usr/bin/env bash
# Rebuilds the built-in weights of one rule set, one generation at a time: self-play data, then
# training, then the weight file in src/eval/weights/ (rebuild damas afterwards to embed it).
# The exact commands the shipped weights were made with; src/eval/weights/README.md says which
# generation each rule set ships, with its data, losses and matches.
#
#   tools/train-weights.sh VARIANT [GAMES] [NODES] [GENERATION] [EGDB_PIECES]
#
# Generation 1 is played by the classic evaluation (seed 1). Generation N > 1 is played by the
# weights in src/eval/weights/ when it starts, which must be generation N - 1's (seed N), and is
# trained with their held-out loss reported beside the new weights' (`--compare`).
#
# EGDB_PIECES (0: none, the default) builds the endgame databases of up to that many pieces in
# $DATA/egdb/VARIANT first (a build resumes too) and plays the games with them: a position they
# hold ends its game with their exact value (International 5: 4; Russian, Spanish, Brazilian 3:
# 5; Turkish 3: 4). DAMAS_TRAIN_ARGS adds words to the training command (Turkish 3:
# `--without drawish`).
#
# The data goes to ${DAMAS_DATA:-target/training} (not in git); a run that is stopped resumes
# where it stopped when started again with the same arguments.
set -euo pipefail
variant=${1:?usage: tools/train-weights.sh VARIANT [GAMES] [NODES] [GENERATION] [EGDB_PIECES]}
games=${2:-6000}
nodes=${3:-4000}
generation=${4:-1}
egdb_pieces=${5:-0}
cd "$(dirname "$0")/.."
data=${DAMAS_DATA:-target/training}
mkdir -p "$data"
cargo build --release --quiet
damas=target/release/damas
weights="src/eval/weights/$variant.dmw"
if [ "$generation" = 1 ]; then
    eval=(--eval classic)
    compare=()
else
    # The weights that play generation N are generation N - 1's, kept beside the data (once:
    # a resumed run must not take the new weights for the old).
    previous="$data/$variant-$((generation - 1)).dmw"
    [ -e "$previous" ] || cp "$weights" "$previous"
    eval=(--eval-file "$previous")
    compare=(--compare "$previous")
fi
egdb=()
if [ "$egdb_pieces" != 0 ]; then
    $damas egdb build --variant "$variant" --pieces "$egdb_pieces" --egdb-path "$data/egdb/$variant"
    egdb=(--egdb-path "$data/egdb/$variant")
fi
$damas datagen --variant "$variant" --games "$games" --nodes "$nodes" --seed "$generation" \
    "${eval[@]}" "${egdb[@]}" --out "$data/$variant-$generation.data"
# shellcheck disable=SC2086 # DAMAS_TRAIN_ARGS is words
$damas train --variant "$variant" --data "$data/$variant-$generation.data" --seed 1 \
    "${compare[@]}" ${DAMAS_TRAIN_ARGS:-} --out "$weights"
