#!/usr/bin/env bash
# damas for 64-bit Windows, cross-built from Linux: damas.exe (the engine: Hub, DXP, UCI, text
# mode, every command) and damas_cb.dll (the CheckerBoard engine library), in target/windows/.
#
#   tools/windows.sh           build both, list what each imports and exports, check the lists
#   tools/windows.sh --wine    the same, then run both under Wine: a CheckerBoard-like host
#                              (tests/windows/cb_host.c) plays a game through the DLL's getmove,
#                              and pydraughts plays Hub games against damas.exe
#
# Needs: `rustup target add x86_64-pc-windows-gnu`, MinGW-w64 (Debian/Ubuntu:
# `apt install gcc-mingw-w64-x86-64`) and, for --wine, Wine (`apt install wine`) and a Python
# with pydraughts 0.6.7 (PYTHON=.venv/bin/python; default: .venv/bin/python where it exists).
#
# It fails (status 1) when the DLL's exports are not exactly getmove, enginecommand and islegal
# under their plain names, when either file imports a DLL that Windows does not ship (a MinGW
# runtime such as libgcc_s_seh-1.dll would stop a user's engine from loading), or when a Wine
# run's check fails. The lists it prints are docs/windows.md's.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
out=target/windows
wine_run=false
for arg in "$@"; do
    case "$arg" in
        --wine) wine_run=true ;;
        -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "tools/windows.sh: unknown argument $arg (try --help)" >&2; exit 2 ;;
    esac
done

missing() { echo "tools/windows.sh: $1 is missing: $2" >&2; exit 2; }
rustup target list --installed 2>/dev/null | grep -qx "$target" \
    || missing "the Rust target $target" "rustup target add $target"
command -v x86_64-w64-mingw32-gcc >/dev/null \
    || missing "MinGW-w64" "apt install gcc-mingw-w64-x86-64 (Debian, Ubuntu)"
objdump=x86_64-w64-mingw32-objdump

step() { printf '\n== %s\n' "$*"; }

step "cross-building damas.exe and damas_cb.dll for $target"
cargo build --quiet --release --target "$target" --bin damas
cargo build --quiet --profile cb -p damas-cb --target "$target"
mkdir -p "$out"
cp "target/$target/release/damas.exe" "target/$target/cb/damas_cb.dll" cb/damas_cb.htm "$out/"

# The DLLs every 64-bit Windows 10 or later ships (and Wine, but for bcryptprimitives.dll in
# Wine 8). Anything else in an import table is a file the user would have to find.
system_dlls="kernel32.dll msvcrt.dll ntdll.dll api-ms-win-core-synch-l1-2-0.dll
bcryptprimitives.dll combase.dll shell32.dll ws2_32.dll advapi32.dll userenv.dll
api-ms-win-core-winrt-error-l1-1-0.dll oleaut32.dll ole32.dll user32.dll secur32.dll"

# "DLL: function function ..." for each imported DLL of a PE file.
imports() {
    "$objdump" -p "$1" | awk '
        /^\tDLL Name: / { dll = tolower($3); if (!(dll in names)) names[dll] = ""; next }
        dll && /^\t[0-9a-f]+\t +[0-9]+  / { names[dll] = names[dll] " " $3; next }
        /^$/ { dll = "" }
        END { for (d in names) print d ":" names[d] }' | sort -f
}

# The exported names of a PE file, one per line.
exports() {
    "$objdump" -p "$1" | awk '
        /^\[Ordinal\/Name Pointer\] Table/ { table = 1; next }
        table && /^\t\[ *[0-9]+\] / { print $NF; next }
        table && !/^\t/ { table = 0 }'
}

failed=0
report="$out/imports-exports.txt"
: > "$report"
for file in damas.exe damas_cb.dll; do
    {
        printf '%s (%s bytes)\n  imports:\n' "$file" "$(stat -c %s "$out/$file")"
        imports "$out/$file" | sed 's/^/    /'
        printf '  exports:\n'
        exports "$out/$file" | sed 's/^/    /'
        [ -n "$(exports "$out/$file")" ] || printf '    (none)\n'
    } >> "$report"
    for dll in $(imports "$out/$file" | cut -d: -f1); do
        lower=$(printf '%s' "$dll" | tr 'A-Z' 'a-z')
        if ! grep -qx "$lower" <<< "$(tr ' ' '\n' <<< "$system_dlls")"; then
            echo "FAIL: $file imports $dll, which Windows does not ship" | tee -a "$report"
            failed=1
        fi
    done
done
step "imports and exports ($report)"
cat "$report"

dll_exports=$(exports "$out/damas_cb.dll" | sort | tr '\n' ' ')
if [ "$dll_exports" != "enginecommand getmove islegal " ]; then
    echo "FAIL: damas_cb.dll exports [$dll_exports]; CheckerBoard needs exactly enginecommand," \
        "getmove and islegal, undecorated" >&2
    failed=1
fi
[ "$failed" = 0 ] || exit 1
echo "ok: damas_cb.dll exports exactly enginecommand, getmove and islegal, undecorated;" \
    "both files import only DLLs that Windows 10 ships"

$wine_run || exit 0

command -v wine >/dev/null || missing "Wine" "apt install wine (Debian, Ubuntu)"
python=${PYTHON:-}
if [ -z "$python" ]; then
    if [ -x .venv/bin/python ]; then python=.venv/bin/python; else python=python3; fi
fi
"$python" -c 'import draughts' 2>/dev/null \
    || missing "pydraughts for $python" "python3 -m venv .venv && .venv/bin/pip install pydraughts==0.6.7"

# A prefix of our own, no Mono or Gecko installer, no debug chatter, no display needed.
export WINEPREFIX="$PWD/$out/wine-prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
run="$out/wine-run"
rm -rf "$run"
mkdir -p "$run"
cp "$out/damas.exe" "$out/damas_cb.dll" "$out/damas_cb.htm" "$run/"
x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -o "$run/cb_host.exe" tests/windows/cb_host.c

step "Wine $(wine --version 2>/dev/null): the CheckerBoard library through a Windows host"
# Wine 8 (Debian 12) has no bcryptprimitives.dll, which Rust's standard library imports for its
# ProcessPrng; Windows 10 and later have it. Where the library does not load for that reason
# (ERROR_MOD_NOT_FOUND, 126), the stand-in tests/windows/bcryptprimitives.c goes beside it.
wineboot --init >/dev/null 2>&1 || true  # the prefix, once: its messages are not the host's
probe=$(cd "$run" && timeout 300 wine cb_host.exe damas_cb.dll 0 2>/dev/null | tr -d "\r" || true)
if grep -qx "load failed 126" <<< "$probe"; then
    echo "this Wine has no bcryptprimitives.dll: using the stand-in tests/windows/bcryptprimitives.c"
    x86_64-w64-mingw32-gcc -O2 -Wall -shared -o "$run/bcryptprimitives.dll" \
        tests/windows/bcryptprimitives.c -ladvapi32
fi
status=0
(cd "$run" && timeout 600 wine cb_host.exe damas_cb.dll 40 0.05) > "$out/cb_host.log" 2>&1 || status=$?
[ "$status" = 0 ] || { echo "FAIL: cb_host.exe ended with status $status"; tail -n 5 "$out/cb_host.log"; failed=1; }
"$python" tests/windows/check_cb_host.py "$out/cb_host.log" --min-plies 20 --mutations || failed=1

step "Wine: pydraughts plays Hub games against damas.exe hub"
# pydraughts starts the engine as one program: a wrapper that hands its arguments to Wine.
cat > "$run/damas" <<EOF
#!/bin/sh
exec wine "$PWD/$run/damas.exe" "\$@"
EOF
chmod +x "$run/damas"
"$python" tests/pydraughts/hub_games.py --damas "$run/damas" --games 2 --seed 1 \
    --variants standard,english --max-plies 80 || failed=1

[ "$failed" = 0 ] || exit 1
echo "ok: under Wine, a getmove game through damas_cb.dll and Hub games against damas.exe"
