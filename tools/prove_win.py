#!/usr/bin/env python3
"""Proves, with pydraughts' move generator, which first moves of a position force a win.

Purpose
    Some rule sets (Turkish, frysk!, antidraughts) have no tactical problems published in
    text. Their entries in tests/data/tactics.txt are small positions whose win is proved
    here by an exhaustive search over another program's rules: pydraughts 0.6.7, written
    independently of damas. damas then has to find the move in tests/tactics.rs.

Usage
    python tools/prove_win.py --variant turkish --fen 'W:Wa3,b2:Bc7' --plies 9 [--expect b2-b3]

    Variant and FEN as pydraughts takes them ('standard', 'frysk!', 'antidraughts',
    'turkish', ...). For every legal move of the side to move, it prints the fewest plies
    (up to --plies, counting the move itself) within which that move forces a win whatever
    the opponent does, or "no forced win". A win is the end of the game with the side to
    move as pydraughts' winner (antidraughts: the side that cannot move wins).

    With --expect (a move as pydraughts' hub_move or pdn_move prints it), the exit status
    is 0 only when that move is the one move that forces a win within --plies; otherwise 1.
    2 on bad arguments.

    python tools/prove_win.py --tactics tests/data/tactics.txt

    Runs again every proof cited in that file (lines whose source field is
    `tools/prove_win.py ARGS: comment`); exit status 1 if one fails.

Method
    A plain AND-OR search to a fixed number of plies, each (FEN, plies left, recent king
    moves) proved or refuted once; each child is a copy of its parent with the move played,
    so that pydraughts' move-count rules see the game as it went. pydraughts is slow
    (hundreds to thousands of positions a second), so this is for endings with few pieces.
    Turkish: pydraughts lets a king slide through its own men (its one known bug, see
    tools/differential.py); such moves are dropped here, and the tool says how many.
"""

import argparse
import shlex
import sys
import time

from draughts import Board


def turkish_square(number):
    """(row from the top, column) of a square as pydraughts' Turkish board moves number them:
    1 = a1, 2 = b1, ..., 9 = a2, ..., 64 = h8."""
    index = int(number) - 1
    return 7 - index // 8, index % 8


def child(board, move):
    """The board after `move`. (pydraughts' pop does not restore its draw counters, so
    positions are copied rather than undone.)"""
    after = board.copy()
    after.push(move)
    return after


class Prover:
    def __init__(self, variant):
        self.variant = variant
        self.memo = {}
        self.nodes = 0
        self.dropped = 0

    def key(self, board, plies):
        # Frisian kings may make only three non-capturing moves in a row: the recent
        # reversible moves are part of the state there.
        recent = ()
        if self.variant in ("frisian", "frysk!"):
            recent = tuple(m.hub_move for m in board._reversible_moves[-6:])
        return board.fen, plies, recent

    def legal(self, board):
        moves = board.legal_moves()
        if self.variant != "turkish":
            return moves
        occupied = self.occupied(board)
        kept = [m for m in moves if not self.slides_through_own(occupied, m)]
        self.dropped += len(moves) - len(kept)
        return kept

    def slides_through_own(self, occupied, move):
        """True for a Turkish king move whose path passes over a piece of the mover
        (`occupied`: the board's pieces, as `occupied` gives them)."""
        squares = [turkish_square(s) for step in move.board_move for s in step]
        mover = occupied.get(squares[0])
        if mover is None:
            return False
        for (r0, c0), (r1, c1) in zip(squares, squares[1:]):
            dr = (r1 > r0) - (r1 < r0)
            dc = (c1 > c0) - (c1 < c0)
            r, c = r0 + dr, c0 + dc
            while (r, c) != (r1, c1):
                if occupied.get((r, c)) == mover and (r, c) != squares[0]:
                    return True
                r, c = r + dr, c + dc
        return False

    def occupied(self, board):
        """(row, column) -> 'W' or 'B' from the FEN ('W:Wa1,Kb2:B...', algebraic squares)."""
        result = {}
        for part in board.fen.split(":")[1:]:
            if not part:
                continue
            colour, squares = part[0], part[1:]
            for square in filter(None, squares.split(",")):
                square = square.lstrip("K")
                column = ord(square[0]) - ord("a")
                row = 8 - int(square[1:])
                result[(row, column)] = colour
        return result

    def wins(self, board, plies, side):
        """True when `side` can force a win within `plies` plies from `board`."""
        if board.is_over():
            return board.winner() == side
        if plies == 0:
            return False
        key = self.key(board, plies)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        attacker = board.turn == side
        result = not attacker
        for move in self.legal(board):
            if self.wins(child(board, move), plies - 1, side) == attacker:
                result = attacker
                break
        self.memo[key] = result
        return result

    def fewest_plies(self, board, move, limit, side):
        """The fewest plies (counting `move`) within which `move` forces a win, or None. (Odd
        in most rule sets; in antidraughts the winning ply is the opponent's last capture.)"""
        after = child(board, move)
        for plies in range(limit):
            if self.wins(after, plies, side):
                return plies + 1
        return None


def prove(variant, fen, plies, expect):
    """Prints the verdict on every first move; True unless `expect` is given and is not the
    one winning move. Raises ValueError on a position pydraughts cannot read."""
    try:
        board = Board(variant=variant, fen=fen)
    except Exception as error:  # pydraughts raises bare exceptions on bad input
        raise ValueError(f"bad position {fen!r}: {error}") from error
    prover = Prover(variant)
    side = board.turn
    start = time.time()
    winners = []
    for move in prover.legal(board):
        found = prover.fewest_plies(board, move, plies, side)
        verdict = f"wins within {found} plies" if found else "no forced win"
        print(f"{move.pdn_move:>12} (hub {move.hub_move}): {verdict}")
        if found:
            winners.append({move.hub_move, move.pdn_move})
    seconds = time.time() - start
    print(f"{prover.nodes} positions searched in {seconds:.1f} s", end="")
    print(f", {prover.dropped} Turkish king moves through own men dropped" if prover.dropped else "")
    if expect is None:
        return True
    unique = len(winners) == 1 and expect in winners[0]
    print(f"{expect}: {'the only winning move' if unique else 'NOT the only winning move'}")
    return unique


def parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant")
    parser.add_argument("--fen")
    parser.add_argument("--plies", type=int, default=9)
    parser.add_argument("--expect")
    parser.add_argument("--tactics", help="check every line of this file that cites this tool")
    return parser


def check_tactics(path):
    """Runs the proof cited by every line of a tactics file (tests/data/tactics.txt) whose
    source is this tool: the source field is `tools/prove_win.py ARGS: comment`."""
    failed = checked = 0
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        fields = [field.strip() for field in line.split("|")]
        if line.startswith("#") or len(fields) < 5 or not fields[4].startswith("tools/prove_win.py"):
            continue
        command = fields[4].split(": ", 1)[0]
        args = parser().parse_args(shlex.split(command)[1:])
        print(f"line {number}: {command}")
        checked += 1
        if not prove(args.variant, args.fen, args.plies, args.expect):
            failed += 1
    print(f"{checked - failed} proved, {failed} failed")
    return 0 if checked and not failed else 1


def main():
    args = parser().parse_args()
    if args.tactics:
        return check_tactics(args.tactics)
    if not args.variant or not args.fen:
        print("--variant and --fen are needed (or --tactics FILE)", file=sys.stderr)
        return 2
    try:
        return 0 if prove(args.variant, args.fen, args.plies, args.expect) else 1
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
