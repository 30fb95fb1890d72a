#!/usr/bin/env python3
"""Acceptance test: a `damas match` between two Hub engines writes a PDN file that pydraughts
reads back whole, every game replayed legally from its FEN tag.

It runs `damas match` (two `damas hub` processes with different settings, several games at
once, the English ballots or random openings), then reads the PDN file with pydraughts 0.6.7's
PDNReader and replays each game on a pydraughts Board from its FEN tag: every move must be one
of pydraughts' legal moves. The number of games read must be the number the report printed,
and the wins, draws and losses of the report must be those of the Result tags.

pydraughts 0.6.7's reader repeats the first move of a game whose FEN has Black to move (its
`_PDNGame._read`); the check drops that repeated move and says so. The same reader stops at a
game without moves (a time forfeit at the first move, valid PDN): it returns before it keeps the
rest of the file. The check therefore hands pydraughts one game at a time, cut at the blank line
before each game's tags, and says how many games had no moves.

Usage
    python tests/pydraughts/match_pdn.py [--damas target/release/damas] [--games 20]
        [--concurrency 2] [--tc 0.02] [--variant english] [--keep FILE]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from draughts import Board, Move
from draughts.PDN import PDNReader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYDRAUGHTS_NAMES = {"english": "english", "international": "standard", "russian": "russian",
                    "brazilian": "brazilian", "italian": "italian", "turkish": "turkish", "frisian": "frisian"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--damas", default=os.path.join(ROOT, "target", "release", "damas"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--tc", default="0.02")
    parser.add_argument("--variant", default="english")
    parser.add_argument("--keep", help="write the PDN file here instead of a temporary file")
    args = parser.parse_args()
    damas = os.path.abspath(args.damas)
    pdn_path = args.keep or os.path.join(tempfile.mkdtemp(), "match.pdn")
    if os.path.exists(pdn_path):
        os.remove(pdn_path)
    command = [damas, "match", "--variant", args.variant,
               "--engine", f"cmd={damas} hub", "name=full",
               "--engine", f"cmd={damas} hub", "name=level16", "level=16", "--each", "option.threads=1",
               "--games", str(args.games), "--concurrency", str(args.concurrency), "--tc", args.tc,
               "--pdn", pdn_path]
    if args.variant == "english":
        command += ["--openings", os.path.join(ROOT, "book", "openings", "english-3move-ballots.tsv"), "--shuffle"]
    print(" ".join(command), flush=True)
    report = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    print(report.stdout, end="")
    if report.returncode != 0:
        print(report.stderr, file=sys.stderr)
        return 1
    played = int(report.stdout.split()[0])
    totals = re.search(r"^full vs level16: \+(\d+) =(\d+) -(\d+)", report.stdout, re.M)
    with open(pdn_path, encoding="utf8") as pdn_file:
        texts = [text for text in re.split(r"\n\s*\n(?=\[)", pdn_file.read()) if text.strip()]
    games = [game for text in texts for game in PDNReader(pdn_text=text).games]
    failures = []
    if len(games) != played:
        failures.append(f"the report says {played} games, pydraughts read {len(games)}")
    variant = PYDRAUGHTS_NAMES[args.variant]
    points = {"win": 0, "draw": 0, "loss": 0}
    repeated_first = 0
    without_moves = 0
    for index, game in enumerate(games):
        fen = game.tags["FEN"]
        moves = list(game.moves)
        without_moves += not moves
        if fen.startswith("B") and len(moves) >= 2 and moves[0] == moves[1]:
            moves = moves[1:]
            repeated_first += 1
        board = Board(variant, fen)
        for number, text in enumerate(moves):
            legal = {move.pdn_move: move for move in board.legal_moves()}
            move = legal.get(text)
            if move is None:
                try:
                    candidate = Move(board, pdn_move=text)
                    move = next((m for m in board.legal_moves() if m.board_move == candidate.board_move), None)
                except Exception:  # pydraughts raises various errors on unknown moves
                    move = None
            if move is None:
                failures.append(f"game {index + 1} (round {game.tags.get('Round')}): move {number + 1} {text} "
                                f"is not legal in {board.fen} (legal: {sorted(legal)})")
                break
            board.push(move)
        result = game.tags.get("Result")
        first_is_full = game.tags.get("Black" if args.variant == "english" else "White") == "full"
        if result in ("1/2-1/2", "1-1"):
            points["draw"] += 1
        elif (result in ("1-0", "2-0")) == first_is_full:
            points["win"] += 1
        else:
            points["loss"] += 1
    if totals and (int(totals[1]), int(totals[2]), int(totals[3])) != (points["win"], points["draw"], points["loss"]):
        failures.append(f"the report's +{totals[1]} ={totals[2]} -{totals[3]} differ from the Result tags {points}")
    if not totals:
        failures.append("no 'full vs level16' line in the report")
    print(f"pydraughts read {len(games)} games from {pdn_path} and replayed every move; "
          f"results of 'full' from the tags: +{points['win']} ={points['draw']} -{points['loss']}"
          + (f"; dropped the repeated first move of {repeated_first} games (FEN with Black to move)"
             if repeated_first else "")
          + (f"; {without_moves} games without moves" if without_moves else ""))
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
