#!/usr/bin/env python3
"""Checks what tests/windows/cb_host.exe saw when it loaded damas_cb.dll under Wine (or Windows).

The host writes one record per line (see cb_host.c); this script fails unless:

* the library loaded and its three exports were found under their plain names;
* `name`, `about`, `help`, `get protocolversion`, `get gametype` answered as CheckerBoard expects
  (`name` starts with "damas", `help` names damas_cb.htm, protocol version 2, game type 21 for
  English), `set hashsize 16` was understood and an unknown command was not;
* `islegal` said yes to 9-13 and no to 1-5 from the start position;
* the game: every board before a getmove is the board of the game so far (pydraughts' English
  checkers from its start), every board after it is the board after one of pydraughts' legal
  moves, the move record's from and to squares and pieces fit the two boards, and every getmove
  returned a CheckerBoard result (0-3); the first move, from the book, says "book move" in the
  status text, not a search's depth and nodes.

With --mutations it also checks itself: the log as given must pass, and each of a few damaged
copies (an export gone, an illegal move, a piece that vanished, a status without "book") must
fail, so that a broken library cannot pass by a check that does not look.

Usage: check_cb_host.py LOG [--min-plies N] [--mutations]
"""

import argparse
import sys
from pathlib import Path

import draughts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "checkerboard"))
from host import color_of, get_board  # noqa: E402  (the ctypes host's board conversions)


def parse_board(fields):
    values = [int(v) for v in fields]
    if len(values) != 64:
        raise ValueError(f"a board of {len(values)} squares")
    return [values[8 * x:8 * x + 8] for x in range(8)]


def as_lists(board):
    return [[board[x][y] for y in range(8)] for x in range(8)]


def check(lines, min_plies):
    """The failures found in the host's output (an empty list when it is all right)."""
    failures = []
    fail = failures.append
    if "load ok" not in lines:
        fail("the library did not load: " + next((l for l in lines if l.startswith("load")), "no load line"))
        return failures
    for name in ("getmove", "enginecommand", "islegal"):
        if f"export {name} ok" not in lines:
            fail(f"export {name} missing")
    replies = {}
    for line in lines:
        if line.startswith("command "):
            command, understood, reply = line[len("command "):].split("|", 2)
            replies[command] = (int(understood), reply)
    expect = {
        "name": lambda u, r: u == 1 and r.startswith("damas"),
        "about": lambda u, r: u == 1 and "damas" in r,
        "help": lambda u, r: u == 1 and r == "damas_cb.htm",
        "get protocolversion": lambda u, r: u == 1 and r == "2",
        "get gametype": lambda u, r: u == 1 and r == "21",
        "set hashsize 16": lambda u, r: u == 1,
        "no such command": lambda u, r: u == 0,
    }
    for command, good in expect.items():
        if command not in replies:
            fail(f"no reply to {command!r}")
        elif not good(*replies[command]):
            fail(f"{command!r} answered {replies[command]}")
    if "islegal 9-13 1" not in lines:
        fail("islegal did not accept 9-13 from the start")
    if "islegal 1-5 0" not in lines:
        fail("islegal did not refuse 1-5 from the start")

    board = draughts.Board(variant="english")
    plies = 0
    i = 0
    while i < len(lines):
        if not lines[i].startswith("ply "):
            i += 1
            continue
        block = lines[i:i + 5]
        i += 5
        try:
            _, ply, _, color = block[0].split()
            before = parse_board(block[1].split()[1:])
            result, status = block[2][len("getmove "):].split("|", 1)
            record = [int(v) for v in block[3].split()[1:]]
            after = parse_board(block[4].split()[1:])
        except (ValueError, IndexError) as error:
            fail(f"an unreadable record at ply {plies}: {error}: {block}")
            break
        what = f"ply {ply}"
        if int(color) != color_of(board):
            fail(f"{what}: colour {color}, the game has {color_of(board)} to move")
        if before != as_lists(get_board(board)):
            fail(f"{what}: the board before getmove is not the game's")
        if int(result) not in (0, 1, 2, 3):
            fail(f"{what}: getmove returned {result}")
        if plies == 0 and ("book move" not in status or "nodes" in status):
            fail(f"{what}: the first move (from the book) shows {status!r}")
        played = None
        for move in board.legal_moves():
            trial = board.copy()
            trial.push(move)
            if as_lists(get_board(trial)) == after:
                played = move
                break
        if played is None:
            fail(f"{what}: the board after getmove is no legal move's ({status})")
            break
        jumps, oldpiece, newpiece, fx, fy, tx, ty = record
        if before[fx][fy] != oldpiece or after[tx][ty] != newpiece or after[fx][fy] != 0:
            fail(f"{what}: the move record {record} does not fit the boards")
        board.push(played)
        plies += 1
    if plies < min_plies and not board.is_over():
        fail(f"only {plies} plies played (at least {min_plies} asked)")
    if "end" not in lines:
        fail("the host did not reach its end")
    return failures


def mutations(lines):
    """Damaged copies of a good log, each of which must fail."""
    def replace(predicate, change, nth=0):
        copy, seen = list(lines), 0
        for k, line in enumerate(copy):
            if predicate(line):
                if seen == nth:
                    copy[k] = change(line)
                    return copy
                seen += 1
        raise SystemExit("the log is too short to damage")

    def moved(line):  # a man of the after-board one row further than it went
        fields = line.split()
        board = parse_board(fields[1:])
        for x in range(8):
            for y in range(8):
                if board[x][y] and y + 2 < 8 and board[x][y + 2] == 0 and (x + y) % 2 == 0:
                    board[x][y + 2], board[x][y] = board[x][y], 0
                    return "after " + " ".join(str(board[a][b]) for a in range(8) for b in range(8))
        raise SystemExit("no man to move")

    def vanished(line):
        fields = line.split()
        k = next(k for k in range(1, 65) if fields[k] != "0")
        fields[k] = "0"
        return " ".join(fields)

    yield "a missing export", replace(lambda l: l == "export islegal ok", lambda l: "export islegal missing")
    yield "an illegal move", replace(lambda l: l.startswith("after "), moved, nth=2)
    yield "a vanished piece", replace(lambda l: l.startswith("after "), vanished, nth=3)
    yield "a book move shown as a search", replace(
        lambda l: l.startswith("getmove "), lambda l: l.replace("book move", "depth 1  0 nodes"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--min-plies", type=int, default=10)
    parser.add_argument("--mutations", action="store_true", help="also check that damaged logs fail")
    args = parser.parse_args()
    lines = args.log.read_text(errors="replace").splitlines()
    failures = check(lines, args.min_plies)
    for failure in failures:
        print("FAIL:", failure)
    plies = sum(1 for line in lines if line.startswith("ply "))
    if failures:
        return 1
    print(f"cb_host: the DLL loaded, its 3 exports found, 7 commands answered, islegal right, "
          f"{plies} plies of English played by getmove, every move legal (pydraughts)")
    if args.mutations:
        for what, damaged in mutations(lines):
            found = check(damaged, args.min_plies)
            if not found:
                print(f"FAIL: the check passed a log with {what}")
                return 1
            print(f"  a log with {what} fails: {found[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
