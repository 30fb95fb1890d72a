#!/usr/bin/env bash
# Rebuilds the built-in weights of one rule set: self-play data with the classic evaluation,
# then training, then the weight file in src/eval/weights/ (rebuild damas afterwards to embed
# it). The exact commands the shipped weights were made with; see the README's "Trained
# evaluation" for their sizes and times.
#
#   tools/train-weights.sh VARIANT [GAMES] [NODES]
#
# The data goes to ${DAMAS_DATA:-target/training} (not in git); a run that is stopped resumes
# where it stopped when started again with the same arguments.
set -euo pipefail
variant=${1:?usage: tools/train-weights.sh VARIANT [GAMES] [NODES]}
games=${2:-6000}
nodes=${3:-4000}
cd "$(dirname "$0")/.."
data=${DAMAS_DATA:-target/training}
mkdir -p "$data"
cargo build --release --quiet
damas=target/release/damas
$damas datagen --variant "$variant" --games "$games" --nodes "$nodes" --seed 1 --eval classic \
    --out "$data/$variant-1.data"
$damas train --variant "$variant" --data "$data/$variant-1.data" --seed 1 \
    --out "src/eval/weights/$variant.dmw"
