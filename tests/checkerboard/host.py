#!/usr/bin/env python3
"""A CheckerBoard host for damas's CheckerBoard library (libdamas_cb.so / damas_cb.dll).

It loads the library with ctypes, with the exact structure layout of CheckerBoard's
cb_interface.h, and talks to it as CheckerBoard does:

* complete games through getmove in English, Russian, Italian and Brazilian, both sides played
  by the library, with "set gamehist" before every move as CheckerBoard sends it (the position
  after the last capture or man move, then the king moves since, in CheckerBoard's numbers);
* every move checked: the board getmove returns must be the board after one of pydraughts'
  legal moves (boards converted by pydraughts' own CheckerBoard code), the move must be one of
  the library's own "get movelist" answer (damas's rules), and the CBmove record must describe
  it (from, to, the captured squares and pieces, and a path whose every leg jumps exactly one
  captured piece);
* islegal for every legal move of the non-English games;
* the time from setting *playnow to getmove's return, and the status text during a search;
* garbage: long, non-UTF-8 and unknown commands, impossible boards and colours, null pointers,
  absurd times. Each must give an error reply or CB_UNKNOWN, and the library must play on.

Usage: host.py --lib target/cb/libdamas_cb.so [--games 1] [--time 0.05] [--seed 1]
"""

import argparse
import ctypes
import os
import random
import shutil
import sys
import tempfile
import threading
import time

import draughts
from draughts.engines.checkerboard_extra.get_checker_board import get_board

CB_WHITE, CB_BLACK, CB_MAN, CB_KING = 1, 2, 4, 8
CB_DRAW, CB_WIN, CB_LOSS, CB_UNKNOWN = 0, 1, 2, 3
CB_EXACT_TIME = 2
RESULTS = {CB_DRAW: "draw", CB_WIN: "win", CB_LOSS: "loss", CB_UNKNOWN: "unknown"}

# pydraughts variant, CheckerBoard game type
GAMES = [("english", 21), ("russian", 25), ("italian", 22), ("brazilian", 26)]


class Coor(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class CBmove(ctypes.Structure):
    _fields_ = [
        ("jumps", ctypes.c_int),
        ("newpiece", ctypes.c_int),
        ("oldpiece", ctypes.c_int),
        ("frm", Coor),
        ("to", Coor),
        ("path", Coor * 12),
        ("dele", Coor * 12),
        ("delpiece", ctypes.c_int * 12),
    ]


Board = (ctypes.c_int * 8) * 8
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, flush=True)
    return condition


def load(path):
    lib = ctypes.CDLL(path)
    lib.getmove.argtypes = [
        ctypes.POINTER(Board), ctypes.c_int, ctypes.c_double, ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int, ctypes.POINTER(CBmove)]
    lib.getmove.restype = ctypes.c_int
    lib.enginecommand.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.enginecommand.restype = ctypes.c_int
    lib.islegal.argtypes = [
        ctypes.POINTER(Board), ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(CBmove)]
    lib.islegal.restype = ctypes.c_int
    return lib


def command(lib, text):
    reply = ctypes.create_string_buffer(1024)
    raw = text if isinstance(text, bytes) else text.encode()
    understood = lib.enginecommand(raw, reply)
    return understood, reply.value.decode("utf-8", "replace")


def number(gametype, x, y):
    """CheckerBoard's square number (cb_interface.h coorstonumber)."""
    if gametype == 22:
        return 1 + 4 * y + x // 2
    if gametype == 24:
        return 1 + 4 * (7 - y) + (7 - x) // 2
    if gametype == 29:
        return 32 - 4 * y - x // 2
    return 4 * (y + 1) - x // 2


def fen_of(board, color, gametype):
    """CheckerBoard's FEN of a board (its board8toFEN), in its own numbers."""
    lists = {CB_WHITE: [], CB_BLACK: []}
    for y in range(8):
        for x in range(8):
            value = board[x][y]
            if value:
                king = "K" if value & CB_KING else ""
                lists[value & 3].append((number(gametype, x, y), king))
    part = lambda side: ",".join(f"{k}{n}" for n, k in sorted(lists[side]))
    return f"{'B' if color == CB_BLACK else 'W'}:W{part(CB_WHITE)}:B{part(CB_BLACK)}"


def copy_board(board):
    new = Board()
    for x in range(8):
        for y in range(8):
            new[x][y] = board[x][y]
    return new


def same(a, b):
    return all(a[x][y] == b[x][y] for x in range(8) for y in range(8))


def color_of(board):
    return CB_WHITE if board.turn == draughts.WHITE else CB_BLACK


def parse_movelist(reply):
    """The moves of a 'movelist' reply: (from, to, frozenset of captured squares)."""
    body = reply[len("movelist "):]
    count, _, rest = body.partition(",")
    moves = []
    for record in filter(None, rest.split(";")):
        fields = [int(f) for f in record.split(",")]
        jumps, _, _, frm, to = fields[:5]
        captured = frozenset(fields[5 + 3 * i + 1] for i in range(jumps))
        moves.append((frm, to, captured))
    return int(count), moves


def check_record(mv, before, after, gametype, what):
    """The CBmove must describe the move from board `before` to board `after`."""
    frm, to = (mv.frm.x, mv.frm.y), (mv.to.x, mv.to.y)
    mover = before[frm[0]][frm[1]] & 3
    check(mover in (CB_WHITE, CB_BLACK), f"{what}: no piece on from {frm}")
    check(mv.oldpiece == before[frm[0]][frm[1]], f"{what}: oldpiece {mv.oldpiece}")
    check(mv.newpiece == after[to[0]][to[1]], f"{what}: newpiece {mv.newpiece}")
    captured = {(x, y) for x in range(8) for y in range(8)
                if before[x][y] and before[x][y] & 3 != mover and not after[x][y]}
    dels = [(mv.dele[i].x, mv.dele[i].y) for i in range(mv.jumps)]
    check(mv.jumps == len(captured), f"{what}: jumps {mv.jumps}, captured {len(captured)}")
    check(set(dels) == captured, f"{what}: del {dels} != captured {sorted(captured)}")
    for i, (x, y) in enumerate(dels):
        check(mv.delpiece[i] == before[x][y], f"{what}: delpiece {i}")
    if mv.jumps:
        legs = [frm] + [(mv.path[i].x, mv.path[i].y) for i in range(1, mv.jumps + 1)]
        check(legs[-1] == to, f"{what}: path ends at {legs[-1]}, not {to}")
        for i in range(mv.jumps):
            (x0, y0), (x1, y1) = legs[i], legs[i + 1]
            dx, dy = x1 - x0, y1 - y0
            ok = abs(dx) == abs(dy) and dx != 0
            between = [(x0 + s * (dx > 0 or -1), y0 + s * (dy > 0 or -1)) for s in range(1, abs(dx))] if ok else []
            check(ok and [c for c in between if c in captured] == [dels[i]],
                  f"{what}: leg {i} {legs[i]}->{legs[i + 1]} does not jump del[{i}] {dels[i]}")
    return frm, to, captured


def play_game(lib, variant, gametype, seed, seconds, max_plies):
    check(command(lib, f"set gametype {gametype}") == (1, str(gametype)), f"set gametype {gametype}")
    check(command(lib, "get gametype") == (1, str(gametype)), "get gametype")
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)
    # Two random opening plies, so that the games differ.
    for _ in range(2):
        board.push(rng.choice(list(board.legal_moves())))
    history_fen = fen_of(get_board(board), color_of(board), gametype)
    history = []
    plies, captures, results, worst = 0, 0, [], 0.0
    while not board.is_over() and plies < max_plies:
        cb = get_board(board)
        color = color_of(board)
        fen = fen_of(cb, color, gametype)
        what = f"{variant} ply {plies} {fen}"
        understood, reply = command(lib, f"set gamehist {history_fen} {' '.join(history)}".strip())
        check(understood == 1, f"{what}: set gamehist refused: {reply}")
        understood, listed = command(lib, f"get movelist {fen}")
        check(understood == 1 and listed.startswith("movelist "), f"{what}: movelist {listed}")
        count, damas_moves = parse_movelist(listed)
        check(count == len(damas_moves), f"{what}: movelist count")
        if gametype != 21:
            for frm, to, _ in damas_moves:
                record = CBmove()
                check(lib.islegal(ctypes.byref(cb), color, frm, to, ctypes.byref(record)) == 1,
                      f"{what}: islegal {frm}-{to}")
        before = copy_board(cb)
        status = ctypes.create_string_buffer(1024)
        playnow = ctypes.c_int(0)
        record = CBmove()
        started = time.perf_counter()
        result = lib.getmove(ctypes.byref(cb), color, seconds, status, ctypes.byref(playnow),
                             CB_EXACT_TIME, 0, ctypes.byref(record))
        worst = max(worst, time.perf_counter() - started)
        results.append(result)
        check(result in RESULTS, f"{what}: getmove returned {result}")
        # The returned board must be the board after one of pydraughts' legal moves.
        played = None
        for move in board.legal_moves():
            trial = board.copy()
            trial.push(move)
            if same(get_board(trial), cb):
                played = move
                break
        if not check(played is not None, f"{what}: the board after getmove is no legal move's "
                                         f"({status.value.decode()})"):
            return None
        frm, to, captured = check_record(record, before, cb, gametype, what)
        key = (number(gametype, *frm), number(gametype, *to),
               frozenset(number(gametype, x, y) for x, y in captured))
        check(key in damas_moves, f"{what}: {key} not in damas's movelist")
        board.push(played)
        plies += 1
        captures += bool(record.jumps)
        if record.jumps == 0 and record.oldpiece & CB_KING:
            history.append(f"{key[0]}-{key[1]}")
        else:
            history_fen, history = fen_of(cb, color_of(board), gametype), []
    winner = board.winner() if board.is_over() else None
    outcome = {None: "unfinished" if not board.is_over() else "draw", 0: "draw",
               draughts.WHITE: "white wins", draughts.BLACK: "black wins"}.get(winner, str(winner))
    last = RESULTS.get(results[-1], "?") if results else "-"
    print(f"{variant:10} seed {seed}: {plies} plies, {captures} captures, {outcome}; "
          f"last getmove said {last}; slowest move {worst * 1000:.0f} ms", flush=True)
    return plies


def databases(lib, egdb):
    """The endgame database commands are damas's egdb options: with English databases of up to
    4 pieces, getmove answers a won 2 kings against 1 king from them and says CB_WIN."""
    command(lib, "set gametype 21")
    check(command(lib, "get dbpath")[0] == 1, "get dbpath")
    check(command(lib, f"set dbpath {egdb}") == (1, egdb), f"set dbpath {egdb}")
    check(command(lib, "set dbmbytes 32") == (1, "32"), "set dbmbytes 32")
    check(command(lib, "set max_dbpieces 4") == (1, "4"), "set max_dbpieces 4")
    check(command(lib, "get max_dbpieces") == (1, "4"), "get max_dbpieces")
    understood, reply = command(lib, "set dbpath /nowhere")
    check(understood == 0 and "not a directory" in reply, f"set dbpath /nowhere: {reply!r}")
    check(command(lib, "get dbpath") == (1, egdb), "a refused dbpath keeps the old one")
    board = draughts.Board(variant="english", fen="W:WK18,K14:BK27")
    cb = get_board(board)
    status = ctypes.create_string_buffer(1024)
    playnow = ctypes.c_int(0)
    record = CBmove()
    result = lib.getmove(ctypes.byref(cb), CB_WHITE, 0.1, status, ctypes.byref(playnow),
                         CB_EXACT_TIME, 0, ctypes.byref(record))
    check(result == CB_WIN, f"getmove in a database win: {RESULTS.get(result)} "
                            f"({status.value.decode()})")
    print(f"databases: dbpath, dbmbytes and max_dbpieces set; 2 kings against 1 answered "
          f"{RESULTS.get(result)} ({status.value.decode()})", flush=True)
    check(command(lib, "set dbpath none") == (1, "none"), "set dbpath none")


def playnow_latency(lib):
    """Sets *playnow during a long search; how long until getmove returns."""
    check(command(lib, "set gametype 21")[0] == 1, "back to English")
    # The position below is in the English book, which would answer at once.
    check(command(lib, "set book 0") == (1, "0"), "set book 0")
    board = draughts.Board(variant="english")
    for move in ["11-15", "23-19", "8-11", "22-17"]:
        board.push([m for m in board.legal_moves() if m.pdn_move == move][0])
    cb = get_board(board)
    status = ctypes.create_string_buffer(1024)
    playnow = ctypes.c_int(0)
    record = CBmove()
    answer = {}

    def search():
        answer["result"] = lib.getmove(ctypes.byref(cb), color_of(board), 60.0, status,
                                       ctypes.byref(playnow), 0, 0, ctypes.byref(record))
        answer["returned"] = time.perf_counter()

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(1.0)
    during = status.value.decode()
    check(during.startswith("damas: depth"), f"status during the search: {during!r}")
    pressed = time.perf_counter()
    playnow.value = 1
    thread.join(10)
    check(not thread.is_alive(), "getmove did not return within 10 s of playnow")
    latency = (answer.get("returned", time.perf_counter()) - pressed) * 1000
    print(f"playnow: getmove returned {latency:.1f} ms after *playnow was set "
          f"(goal: under 50 ms); status during the search: {during!r}", flush=True)
    ok = False
    for move in board.legal_moves():
        trial = board.copy()
        trial.push(move)
        ok = ok or same(get_board(trial), cb)
    check(ok, "the move played on playnow is legal")
    check(command(lib, "set book 1") == (1, "1"), "set book 1")
    return latency


def garbage(lib, expect_panic):
    """Bad input of every kind: errors, never a crash, and the library plays on."""
    cases = [
        (b"x" * 255, "long unknown word"),
        (b"y " * 5000, "10 KB of words"),
        (b"\xff\xfe\xe9 set hashsize 1", "not UTF-8"),
        (b"frobnicate the engine", "unknown words"),
        (b"set hashsize 99999999999", "hash out of range"),
        (b"set searchthreads -3", "threads out of range"),
        (b"set gametype 23", "a game type damas does not play"),
        (b"get movelist W:Wnonsense", "bad FEN"),
        (b"get movelist B:W99:B3", "square out of range"),
        (b"set gamehist B:W21:B1 1-2 3-4 " + b"5-6 " * 60, "impossible history"),
        (b"set dbpath /nowhere", "a database directory that is not there"),
        (b"set dbmbytes 0", "no memory for the databases"),
        (b"set max_dbpieces 99", "more database pieces than any slice"),
        (b"set bookfile /nowhere", "a book file that is not there"),
        (b"", "empty command"),
    ]
    for raw, what in cases:
        understood, reply = command(lib, raw)
        check(understood == 0 and reply, f"garbage ({what}): {understood} {reply!r}")
    check(lib.enginecommand(None, ctypes.create_string_buffer(1024)) == 0, "null command")
    check(lib.enginecommand(b"name", None) == 1, "null reply buffer")
    # A debug build panics on request, with the engine locked: the panic must come back as an
    # error reply, and the engine must go on with its settings (a release build does not know
    # the command).
    command(lib, "set gametype 25")
    command(lib, "set hashsize 8")
    understood, reply = command(lib, "debug panic")
    wanted = "damas: internal error; the engine restarts" if expect_panic else "?"
    check((understood, reply) == (0, wanted), f"debug panic: {understood} {reply!r}")
    check(command(lib, "get gametype") == (1, "25"), "the game type survives a panic")
    check(command(lib, "get hashsize") == (1, "8"), "the hash size survives a panic")
    if expect_panic:
        print(f"panic at the boundary: answered {reply!r}; game type and hash size kept",
              flush=True)
    print(f"garbage: {len(cases) + 2} bad commands answered with 0 and a reason "
          f"(e.g. {command(lib, b'frobnicate')[1]!r})", flush=True)

    command(lib, "set gametype 21")
    start = get_board(draughts.Board(variant="english"))
    status = ctypes.create_string_buffer(1024)
    playnow = ctypes.c_int(0)
    record = CBmove()
    bad_boards = []
    for value in [3, 7, 13, 16, -1, 2 ** 31 - 1]:
        b = copy_board(start)
        b[0][4] = value
        bad_boards.append((b, CB_BLACK, f"value {value}"))
    light = copy_board(start)
    light[1][0] = CB_BLACK | CB_MAN
    bad_boards.append((light, CB_BLACK, "a piece on a light square"))
    crowded = copy_board(start)
    crowded[0][4] = CB_WHITE | CB_MAN
    bad_boards.append((crowded, CB_BLACK, "thirteen white men"))
    promoted = copy_board(start)
    promoted[1][7] = CB_BLACK | CB_MAN
    promoted[0][4] = CB_WHITE | CB_MAN
    bad_boards.append((promoted, CB_BLACK, "a man on its crowning row"))
    for color in [0, 3, -1, 99]:
        bad_boards.append((copy_board(start), color, f"colour {color}"))
    for b, color, what in bad_boards:
        kept = copy_board(b)
        status.value = b""
        result = lib.getmove(ctypes.byref(b), color, 0.05, status, ctypes.byref(playnow), 0, 0,
                             ctypes.byref(record))
        check(result == CB_UNKNOWN and same(b, kept) and status.value.startswith(b"damas:"),
              f"getmove with {what}: {result} {status.value!r}")
        check(lib.islegal(ctypes.byref(b), color, 9, 13, ctypes.byref(record)) == 0,
              f"islegal with {what}")
    check(lib.getmove(None, CB_BLACK, 0.05, status, ctypes.byref(playnow), 0, 0,
                      ctypes.byref(record)) == CB_UNKNOWN, "getmove with no board")
    b = copy_board(start)
    for frm, to in [(0, 5), (33, 9), (-5, 13), (9, 9), (2 ** 31 - 1, 1)]:
        check(lib.islegal(ctypes.byref(b), CB_BLACK, frm, to, ctypes.byref(record)) == 0,
              f"islegal {frm}-{to}")
    # Absurd times still give a move: NaN and negative times a quick one; a huge one until
    # playnow.
    for maxtime in [float("nan"), -1.0, 0.0]:
        b = copy_board(start)
        result = lib.getmove(ctypes.byref(b), CB_BLACK, maxtime, status, ctypes.byref(playnow),
                             0, 0, ctypes.byref(record))
        check(result in RESULTS and not same(b, start), f"getmove with maxtime {maxtime}")
    b = copy_board(start)
    timer = threading.Timer(0.3, lambda: setattr(playnow, "value", 1))
    timer.start()
    result = lib.getmove(ctypes.byref(b), CB_BLACK, 1e300, status, ctypes.byref(playnow), 0, 0,
                         None)
    timer.join()
    check(result in RESULTS and not same(b, start), "getmove with maxtime 1e300 and no CBmove")
    print(f"garbage: {len(bad_boards) + 1} impossible boards and colours answered CB_UNKNOWN "
          f"(e.g. {status.value.decode()!r}); absurd times and null pointers survived", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", required=True, help="the built libdamas_cb.so or damas_cb.dll")
    parser.add_argument("--games", type=int, default=1, help="games per game type")
    parser.add_argument("--time", type=float, default=0.05, help="seconds a move (exact)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--expect-panic", action="store_true",
                        help="the library is a debug build, which panics on 'debug panic'")
    parser.add_argument("--egdb", help="a directory of English endgame databases (up to 4 "
                        "pieces) to check the database commands with")
    args = parser.parse_args()
    lib = load(args.lib)

    understood, name = command(lib, "name")
    check(understood == 1 and name.startswith("damas"), f"name: {name!r}")
    check(command(lib, "get protocolversion") == (1, "2"), "protocol version 2")
    check(command(lib, "get movelist B:W1:B") == (1, "movelist 0"), "CheckerBoard's movelist probe")
    check(command(lib, "help")[1].endswith(".htm"), "help names a file")
    check(command(lib, "set hashsize 16") == (1, "16"), "set hashsize")
    check(command(lib, "set searchthreads 1") == (1, "1"), "set searchthreads")
    print(f"loaded {args.lib}: {name}, protocol version 2", flush=True)

    # A copy named for a rule set plays it from the start: CheckerBoard asks the game type once.
    with tempfile.TemporaryDirectory() as folder:
        for word, gametype in [("russian", 25), ("italian", 22)]:
            copy = os.path.join(folder, f"libdamas_cb_{word}{os.path.splitext(args.lib)[1]}")
            shutil.copy(args.lib, copy)
            check(command(load(copy), "get gametype") == (1, str(gametype)),
                  f"a copy named {os.path.basename(copy)} plays game type {gametype}")
    print("a copy of the library named damas_cb_russian plays Russian, _italian Italian", flush=True)

    garbage(lib, args.expect_panic)
    for variant, gametype in GAMES:
        for game in range(args.games):
            play_game(lib, variant, gametype, args.seed + game, args.time, args.max_plies)
    if args.egdb:
        databases(lib, os.path.abspath(args.egdb))
    playnow_latency(lib)
    garbage(lib, args.expect_panic)  # and once more after the games: nothing was lost
    if failures:
        print(f"{len(failures)} failures", flush=True)
        sys.exit(1)
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()
