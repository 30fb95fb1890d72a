#!/usr/bin/env bash
# The tree profile: where damas's nodes go, per iteration, on the bench positions and on middle
# games of real International and English games (tests/data/middlegames-*.fen, made by
# tools/middlegames.py from public game collections). Builds damas with the `profile` feature
# (the counters stay out of the normal build) into target/profile and runs `damas bench
# --profile` three times; docs/experiments.md explains the columns and what they showed.
#
#   tools/tree-profile.sh [DEPTH_INTERNATIONAL] [DEPTH_ENGLISH]     (default 12 and 16)
set -euo pipefail
cd "$(dirname "$0")/.."
intl=${1:-12}
english=${2:-16}
cargo build --release --quiet --features profile --target-dir target/profile
damas=target/profile/release/damas
echo "== bench positions, depth 12"
$damas bench --profile 12
echo "== International middle games ($(grep -c . tests/data/middlegames-international.fen) positions), depth $intl"
$damas bench --profile --variant international --file tests/data/middlegames-international.fen "$intl" | sed -n '/^tree profile/,$p'
echo "== English middle games ($(grep -c . tests/data/middlegames-english.fen) positions), depth $english"
$damas bench --profile --variant english --file tests/data/middlegames-english.fen "$english" | sed -n '/^tree profile/,$p'
