#!/usr/bin/env python3
"""Acceptance test: pydraughts' DXPEngine plays complete games against `damas dxp`.

Purpose
    Check that damas works as a DamExchange (DXP) follower for pydraughts
    0.6.7, the client that the lidraughts tooling and pydraughts' own tests use
    (pydraughts is always TCP client and game initiator).  For each game the
    test starts `damas dxp --listen 127.0.0.1:PORT` itself, waits until the port
    listens (read from /proc/net/tcp, so no probe connection is made), and lets
    a `DXPEngine` with `engine-opened: True` connect, send GAMEREQ (10x10
    start position, `initial-time` / 60 minutes, `max-moves`), and play the
    engine against a seeded random mover.  damas is White in odd-numbered games
    (it moves right after GAMEACC) and Black in even ones (its first message is
    the reply to White's first MOVE).  Every MOVE damas sends must be legal:
    pydraughts matches it against its legal moves by from, to and sorted
    captured squares (an unmatched move is logged by pydraughts, which would
    then wait forever; the test turns that log line into a failure at once),
    and the test converts and pushes it again on its own board.
    A game ends when pydraughts' board says it is over or after --max-plies
    plies (fewer than 2 x --max-moves, so the engine has no reason to end it
    by the move limit); then pydraughts' quit() sends GAMEEND `E01` and closes
    the socket.  A GAMEEND from damas while pydraughts sees a game still in
    progress, a refused or missing GAMEACC, an engine that dies, or a move that
    does not come within the engine's remaining game time + 5 s (10 s when the
    request had 0 minutes) are failures; so is thinking longer in total than
    the game time (+ 5 s).  After quit the engine may exit (Scan does on stop
    code 1) or keep running; either is fine, the test terminates it.

    Why the test starts damas itself: letting DXPEngine launch it
    (`engine-opened: False`) costs a fixed `wait-to-open-time` before
    connecting and up to 17 s in kill_process() (10 s wait + SIGTERM + 7 s
    sleep); starting it here is faster and lets the test check the port and
    keep the engine's output for failure reports.
    Teardown is still slow: pydraughts' socket close() sleeps 7 s after
    shutdown (its receive thread spins meanwhile), so every game ends with
    ~7 s of waiting.

Usage
    python tests/pydraughts/dxp_games.py [--damas target/release/damas]
        [--port 27531] [--games 2] [--seed 1] [--max-plies 100]
        [--initial-time 60] [--max-moves 100] [--same-process] [--verbose]

    --damas defaults to target/release/damas under the repository root; a
    relative path is taken relative to the current directory.  The same port
    is used for every game, with one engine process per game; with
    --same-process one damas process serves every game, one TCP connection
    each (damas keeps listening after a game unless given --games; Scan would
    exit on the E01 stop code instead, so this is damas-specific).  The
    random mover depends only on --seed; the engine's moves may vary.  Needs
    pydraughts 0.6.7 (`pip install pydraughts==0.6.7`).  Default settings
    take about 70 s: damas spends ~25 s of its 60 s per game, plus the 7 s
    close per game.

Output
    One line per game: engine colour, plies, result (1-0 / 0-1 / draw /
    unfinished at --max-plies, and the engine's view of it), the engine's
    longest and total think time, whether it exited after E01, OK or FAIL.
    A failure adds its reason, the FEN at that moment, the last DXP messages
    (CLIENT: sent by pydraughts, ENGINE: sent by damas) and the tail of
    damas's own output.  Then `N games, M failed`.  Exit status 1 on any
    failure, 2 on bad arguments.
"""

import argparse
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import deque
from pathlib import Path

from draughts import BLACK, WHITE, Board, Move
from draughts.engine import DXPEngine

REPO_ROOT = Path(__file__).resolve().parents[2]

LISTEN_TIMEOUT = 10.0   # seconds for damas to start listening
ACCEPT_TIMEOUT = 10.0   # connect + GAMEREQ -> GAMEACC (+ the first move's own time)
ZERO_TIME_MOVE = 10.0   # per-move limit when the request said 0 minutes
SLACK = 5.0             # seconds beyond the engine's remaining time
QUIT_TIMEOUT = 20.0     # quit(): E01, shutdown, 7 s sleep, join
EXIT_WAIT = 3.0         # how long the engine may take to exit on its own after E01
TRANSCRIPT_LINES = 14


class Failure(Exception):
    """The game failed; the message says why."""


# ---- DXP transcript (from pydraughts' debug log) --------------------------------

class Transcript(logging.Handler):
    """Keeps the DXP messages pydraughts logs, and its complaints.

    pydraughts logs "socket send: <msg>" and "socket receive: <msg>\\0" for
    every message, and "Error: received move is illegal [<msg>]" when a MOVE
    matches no legal move (after which DXPEngine.play() never returns).
    """

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = deque(maxlen=200)
        self.illegal = []
        self.echo = False

    def emit(self, record):
        msg = record.getMessage()
        if msg.startswith("socket send: "):
            line = "CLIENT: " + msg[len("socket send: "):]
        elif msg.startswith("socket receive: "):
            line = "ENGINE: " + msg[len("socket receive: "):].replace("\0", "\\0")
        elif msg.startswith("Error"):
            line = "pydraughts: " + msg.replace("\n", " ")
            if "illegal" in msg:
                self.illegal.append(msg.replace("\n", " "))
        else:
            return
        self.lines.append(line)
        if self.echo:
            print("    " + line, flush=True)

    def tail(self, n=TRANSCRIPT_LINES):
        return list(self.lines)[-n:]


# ---- the engine process ------------------------------------------------------------

def listening(port):
    """True if something listens on TCP port `port` (IPv4 or IPv6)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for row in f:
                    fields = row.split()
                    if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                        return True
        except OSError:
            continue
    return False


class EngineProcess:
    """`damas dxp --listen 127.0.0.1:PORT`, output kept in a temporary file."""

    def __init__(self, damas, port):
        self.out = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [str(damas), "dxp", "--listen", f"127.0.0.1:{port}"],
            stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + LISTEN_TIMEOUT
        while not listening(port):
            if self.proc.poll() is not None:
                raise Failure(f"damas exited with status {self.proc.returncode} before "
                              f"listening on port {port}")
            if time.monotonic() > deadline:
                raise Failure(f"damas does not listen on port {port} after {LISTEN_TIMEOUT:.0f} s")
            time.sleep(0.02)

    def exited_by_itself(self, wait):
        try:
            self.proc.wait(timeout=wait)
            return True
        except subprocess.TimeoutExpired:
            return False

    def stop(self):
        """SIGTERM, then SIGKILL, to the engine's process group."""
        for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
            if self.proc.poll() is not None:
                break
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                pass

    def close(self):
        self.stop()
        self.out.close()

    def output_tail(self, n=8):
        self.out.flush()
        self.out.seek(0)
        return self.out.read().splitlines()[-n:]


# ---- running pydraughts calls with a timeout ------------------------------------

class Worker:
    """Runs fn() in a daemon thread."""

    def __init__(self, fn):
        self.box = {}
        self.thread = threading.Thread(target=self._run, args=(fn,), daemon=True)
        self.thread.start()

    def _run(self, fn):
        try:
            self.box["value"] = fn()
        except BaseException as exc:
            self.box["error"] = exc

    def result(self):
        if "error" in self.box:
            raise self.box["error"]
        return self.box.get("value")


def abandon(dxp):
    """Make pydraughts' spinning loops and receive thread give up (failure path)."""
    dxp.receiver.listening = False      # DXPEngine._recv_move returns None
    if dxp.receiver.accepted is None:
        dxp.receiver.accepted = False   # DXPEngine._recv_accept returns
    sock = dxp.sender.socket.sock
    dxp.sender.socket.closed = True     # no 7 s close() later
    dxp.sender.socket.sock = None       # the receive thread's recv() raises, it ends
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        except OSError:
            pass


# ---- one game -----------------------------------------------------------------------

def result_text(board, engine_colour):
    winner = board.winner()
    if winner is None:
        return "unfinished"
    if winner == 0:
        return "draw"
    score = "1-0" if winner == WHITE else "0-1"
    return f"{score} (engine {'won' if winner == engine_colour else 'lost'})"


class Game:
    def __init__(self, engine, log, args, engine_white, rng):
        self.engine = engine
        self.log = log
        self.args = args
        self.rng = rng
        self.engine_colour = WHITE if engine_white else BLACK
        self.board = Board("standard")
        self.game_time = (args.initial_time // 60) * 60  # what GAMEREQ can say
        self.used = 0.0
        self.max_think = 0.0
        self.illegal_seen = len(log.illegal)
        self.dxp = DXPEngine(None, {
            "engine-opened": True, "ip": "127.0.0.1", "port": args.port,
            "max-moves": args.max_moves, "initial-time": args.initial_time})

    def move_timeout(self):
        if self.game_time <= 0:
            return ZERO_TIME_MOVE
        return max(self.game_time - self.used, 0.0) + SLACK

    def engine_move(self):
        """DXPEngine.play() in a worker, watched for every way it can hang."""
        dxp, board = self.dxp, self.board
        first = not dxp.game_started
        timeout = self.move_timeout() + (ACCEPT_TIMEOUT if first else 0.0)
        started = time.monotonic()
        worker = Worker(lambda: dxp.play(board))
        while worker.thread.is_alive():
            now = time.monotonic()
            problem = None
            if len(self.log.illegal) > self.illegal_seen:
                problem = "engine sent an illegal move: " + self.log.illegal[-1]
            elif dxp.receiver.accepted is False:
                problem = "engine refused the game (GAMEACC code not 0)"
            elif dxp.receiver.accepted and not dxp.sender.current.started:
                problem = (f"engine ended the game with GAMEEND (reason "
                           f"{dxp.sender.current.result}) instead of moving, at ply "
                           f"{len(board.move_stack)}; pydraughts sees the game in progress")
            elif self.engine.proc.poll() is not None:
                problem = f"damas exited with status {self.engine.proc.returncode}"
            elif first and dxp.sender.socket.sock is None and now - started > 1.0:
                problem = "pydraughts could not connect to damas"
            elif now - started > timeout:
                problem = (f"no {'GAMEACC/' if first and not dxp.receiver.accepted else ''}"
                           f"MOVE within {timeout:.1f} s")
            if problem:
                abandon(dxp)
                raise Failure(problem)
            worker.thread.join(0.01)
        elapsed = time.monotonic() - started
        result = worker.result()
        self.used += elapsed
        self.max_think = max(self.max_think, elapsed)
        if self.game_time > 0 and self.used > self.game_time + SLACK:
            raise Failure(f"engine used {self.used:.1f} s of its {self.game_time} s game time")
        if result is None or result.move is None:
            abandon(dxp)
            raise Failure("DXPEngine.play() returned no move (connection lost?)")
        hub = result.move.hub_move
        try:
            move = Move(board, hub_move=hub)
        except Exception as exc:
            raise Failure(f"engine move {hub} is not legal ({exc!r})")
        board.push(move)

    def run(self):
        board, args = self.board, self.args
        while not board.is_over() and len(board.move_stack) < args.max_plies:
            if board.turn == self.engine_colour:
                self.engine_move()
            else:
                board.push(self.rng.choice(board.legal_moves()))
        return len(board.move_stack)

    def quit(self):
        """pydraughts' quit(): E01, socket shutdown, 7 s sleep, close."""
        if not self.dxp.game_started:
            abandon(self.dxp)
            return
        worker = Worker(self.dxp.quit)
        worker.thread.join(QUIT_TIMEOUT)
        if worker.thread.is_alive():
            abandon(self.dxp)
            raise Failure(f"pydraughts' quit() did not return within {QUIT_TIMEOUT:.0f} s")


def report_failure(exc, log, fen, engine):
    print(f"    reason: {exc}")
    print(f"    FEN at the failure: {fen}")
    print("    last DXP messages:")
    for line in log.tail():
        print(f"      {line}")
    if engine is not None:
        print("    damas output (tail):")
        for line in engine.output_tail():
            print(f"      {line}")


def play_one(gi, args, log, shared):
    """Plays game gi; returns (passed, the shared engine process to use next)."""
    engine_white = gi % 2 == 0
    label = f"game {gi + 1}: engine={'white' if engine_white else 'black'}"
    rng = random.Random(f"{args.seed}:dxp:{gi}")
    if shared is not None and shared.proc.poll() is not None:
        shared.close()  # it died in an earlier game: start another one
        shared = None
    if shared is None and listening(args.port):
        print(f"{label}  FAIL")
        print(f"    reason: something already listens on port {args.port} (use --port)")
        return False, None
    engine = shared
    game = None
    log.lines.clear()
    started = time.monotonic()
    try:
        if engine is None:
            engine = EngineProcess(args.damas, args.port)
        game = Game(engine, log, args, engine_white, rng)
        try:
            plies = game.run()
        except Failure:
            raise
        except Exception as exc:  # a pydraughts or test bug: report, do not crash
            abandon(game.dxp)
            raise Failure(f"unexpected {exc!r} in the test:\n" + traceback.format_exc().rstrip())
        game.quit()
        if args.same_process:
            exited = engine.exited_by_itself(0.5)
            if exited:
                raise Failure(f"damas exited (status {engine.proc.returncode}) after E01; "
                              f"--same-process needs it to keep listening")
        else:
            exited = engine.exited_by_itself(EXIT_WAIT)
    except Failure as exc:
        print(f"{label}  ply {len(game.board.move_stack) if game else 0}  FAIL "
              f"({time.monotonic() - started:.1f} s)")
        report_failure(exc, log, game.board.fen if game else "-", engine)
        if engine is not None:
            engine.close()
        return False, None
    if args.same_process:
        after = "still listening after E01"
    else:
        engine.close()
        after = "exited after E01" if exited else "still running after E01 (terminated)"
    print(f"{label}  plies={plies:<3} {result_text(game.board, game.engine_colour):<22} "
          f"max-think={game.max_think:.2f}s total={game.used:.1f}s  {after}  "
          f"OK ({time.monotonic() - started:.1f} s)", flush=True)
    return True, (engine if args.same_process else None)


def main():
    parser = argparse.ArgumentParser(
        description="pydraughts DXPEngine plays complete games against `damas dxp`.")
    parser.add_argument("--damas", type=Path, default=REPO_ROOT / "target" / "release" / "damas",
                        help="damas binary (default: target/release/damas)")
    parser.add_argument("--port", type=int, default=27531, help="TCP port (default 27531)")
    parser.add_argument("--games", type=int, default=2, help="games (default 2; engine White in odd ones)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--max-plies", type=int, default=100, help="plies per game at most (default 100)")
    parser.add_argument("--initial-time", type=int, default=60,
                        help="pydraughts initial-time in seconds; GAMEREQ says it // 60 in minutes "
                             "(default 60)")
    parser.add_argument("--max-moves", type=int, default=100,
                        help="GAMEREQ number of moves (default 100; 0 = no limit)")
    parser.add_argument("--same-process", action="store_true",
                        help="play every game against one damas process, which must keep "
                             "listening after a game (default: a fresh process per game)")
    parser.add_argument("--verbose", action="store_true", help="print every DXP message")
    args = parser.parse_args()

    if args.games < 1 or args.max_plies < 1:
        parser.error("--games and --max-plies must be positive")
    if not 1 <= args.port <= 65535:
        parser.error("--port must be 1..65535")
    if not 0 <= args.initial_time < 60000 or not 0 <= args.max_moves <= 999:
        parser.error("--initial-time must be 0..59999 s and --max-moves 0..999")
    if args.max_moves and args.max_plies >= 2 * args.max_moves:
        parser.error("--max-plies must stay below 2 x --max-moves (the engine may end the "
                     "game at the move limit)")
    args.damas = args.damas.resolve()
    if not args.damas.is_file() or not os.access(args.damas, os.X_OK):
        parser.error(f"damas binary not found or not executable: {args.damas}")

    log = Transcript()
    log.echo = args.verbose
    pyd_logger = logging.getLogger("pydraughts")
    pyd_logger.setLevel(logging.DEBUG)
    pyd_logger.addHandler(log)
    pyd_logger.propagate = False

    started = time.monotonic()
    failed = 0
    shared = None
    for gi in range(args.games):
        passed, shared = play_one(gi, args, log, shared)
        failed += not passed
    if shared is not None:
        shared.close()
    print(f"{args.games} games, {failed} failed ({time.monotonic() - started:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    # pydraughts' DXP receive thread is not a daemon and can spin forever on a
    # closed socket (it compares bytes with ""), so do not wait for it.
    os._exit(status)
