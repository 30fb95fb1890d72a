#!/usr/bin/env bash
# Runs the README's commands that a new user can run as written: every ```sh block right after a
# line `<!-- ci: run -->`. Each command runs with bash in a temporary directory, with `damas`
# being the binary given as $1 (default target/release/damas) and the per-user data directory
# ($XDG_DATA_HOME) a temporary one, so that nothing outside the temporary directories is written.
# Lines starting with `#` are skipped; a line ending with `\` continues on the next one.
# Prints each command before it runs; exit 1 naming the first command that fails.
#
#   tools/readme-commands.sh [DAMAS] [README]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

binary="${1:-$repo/target/release/damas}"
readme="${2:-$repo/README.md}"
case "$binary" in /*) ;; *) binary="$PWD/$binary" ;; esac
if [ ! -x "$binary" ]; then
    echo "readme-commands: no executable damas at $binary (cargo build --release)" >&2
    exit 1
fi
[ -f "$readme" ] || { echo "readme-commands: no $readme" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/run" "$work/data"
ln -s "$binary" "$work/bin/damas"

# The commands, one a line (continuations joined), from the marked ```sh blocks.
commands="$work/commands"
awk '
    /^<!-- ci: run -->[ \t]*$/ { marked = 1; next }
    marked && /^```sh[ \t]*$/ { inside = 1; marked = 0; next }
    { marked = 0 }
    inside && /^```[ \t]*$/ {
        if (pending != "") { print pending; pending = "" }
        inside = 0; next
    }
    inside {
        line = $0
        if (pending == "" && line ~ /^[ \t]*#/) next
        if (pending == "" && line ~ /^[ \t]*$/) next
        if (line ~ /\\$/) { pending = pending substr(line, 1, length(line) - 1); next }
        print pending line; pending = ""
    }
    END { if (inside) { print "readme-commands: a marked block is not closed" > "/dev/stderr"; exit 1 } }
' "$readme" >"$commands"

count=0
while IFS= read -r command; do
    count=$((count + 1))
    printf '\n$ %s\n' "$command"
    status=0
    (cd "$work/run" && PATH="$work/bin:$PATH" XDG_DATA_HOME="$work/data" bash -c "$command") \
        </dev/null || status=$?
    if [ "$status" -ne 0 ]; then
        printf '\nreadme-commands: FAILED (exit %d): %s\n' "$status" "$command" >&2
        exit 1
    fi
done <"$commands"

if [ "$count" -eq 0 ]; then
    echo "readme-commands: no marked command in $readme" >&2
    exit 1
fi
printf '\nreadme-commands: %d commands ran, all succeeded\n' "$count"
