#!/usr/bin/env python3
"""Middle-game positions from real games, for the tree profile and depth measurements.

    tools/middlegames.py DAMAS VARIANT PLIES FILE.pdn... > positions.fen

PLIES is a comma-separated list (e.g. 20,30,40): for every game of the files, the position after
that many plies, where the game is that long, one FEN a line, each once. The moves are read by
damas itself (`damas show --moves`); a game that does not replay is skipped with a note on
stderr.
"""
import re
import subprocess
import sys


def games(text):
    """The movetext of each game: tags, comments, variations and results removed."""
    for block in re.split(r"\n\s*\n(?=\[)", text):
        if "[FEN" in block:
            continue  # positions set up by hand: not from a game's start
        body = re.sub(r"\[[^\]]*\]", " ", block)
        body = re.sub(r"\{[^}]*\}", " ", body)
        while re.search(r"\([^()]*\)", body):
            body = re.sub(r"\([^()]*\)", " ", body)
        # Space-padded squares (`1- 6`, `47x 9`) closed up; move numbers and results dropped.
        body = re.sub(r"(\d)\s*([-x])\s*(\d)", r"\1\2\3", body)
        moves = [w for w in body.split()
                 if re.fullmatch(r"\d+[-x]\d+([-x]\d+)*", w)]
        if moves:
            yield moves


def main():
    damas, variant, plies = sys.argv[1], sys.argv[2], [int(p) for p in sys.argv[3].split(",")]
    seen = set()
    for path in sys.argv[4:]:
        text = open(path, encoding="utf-8", errors="replace").read()
        for number, moves in enumerate(games(text), 1):
            for ply in plies:
                if len(moves) <= ply:
                    continue
                run = subprocess.run([damas, "show", "--variant", variant, "--moves",
                                      " ".join(moves[:ply])], capture_output=True, text=True)
                fen = [l[4:] for l in run.stdout.splitlines() if l.startswith("FEN ")]
                if run.returncode != 0 or not fen:
                    print(f"{path}: game {number}: {run.stderr.strip()}", file=sys.stderr)
                    break
                if fen[0] not in seen:
                    seen.add(fen[0])
                    print(fen[0])


main()
