#!/usr/bin/env python3
"""Acceptance test: pydraughts' HubEngine plays complete games against `damas hub`.

Purpose
    Check that damas works as a Hub engine for the real client most bots use,
    pydraughts 0.6.7 (lidraughts-bot drives engines through the same code).
    For every variant pydraughts knows, one `damas hub` process is started
    through `HubEngine`, the variant is selected with `set-param`, and the
    engine plays whole games against a seeded random mover and against a
    scripted mover (most captures first, then the first move in hub notation
    order), with each colour.  Every move damas returns must be legal: pydraughts
    looks it up among its own legal moves (a `KeyError` there means an illegal
    move, wrong captured squares or an unparsable `done` line) and the test
    converts and pushes it again itself.

    What is exercised, beside legality:
      * the handshake (`hub` ... `wait`, the `variant` enum must name the
        variant, `init` ... `ready`) and `quit` (the process must exit);
      * every `level` form pydraughts sends: `move-time=0.05`, `time=T inc=I`
        from a clock the test keeps itself (T shrinks by the engine's think
        time and grows by I each move; pydraughts sends T-I, often a long
        decimal; every 8th clock search pretends the clock is almost out,
        T = 0.03 s, so the engine gets a negative `time=-0.02 inc=0.05`),
        `depth=4` and `nodes=20000`;
        "mixed" games cycle move-time/depth/nodes move by move, "clock" games
        use the clock on every move;
      * pondering (one game in two): after each engine move the engine
        ponders on its own predicted reply (`go ponder`); the opponent plays
        that reply half of the time (a seeded coin, so that both paths run),
        then `ponder-hit` is sent and the ponder search's `done` is the
        engine's move; otherwise `stop` is sent, the ponder answer (still
        checked for legality) is discarded and a normal search follows; a
        ponder search that ended on its own before ponder-hit/stop (allowed)
        is counted as "early" and followed by a `ping` that must get nothing
        but `pong`;
      * a stray `stop` while idle at the start of every game and every 10th
        engine move, followed by `ping`: damas must stay silent until `pong`
        (a spurious `done` would be taken by the next search as its answer);
      * any line pydraughts does not expect during a game (an `error`, a
        `done` outside a search ...) is a failure.
    pydraughts has no timeouts, so every call runs in a worker thread: a
    search gets its limit + 2 s (move-time, clock) or 20 s (depth, nodes); on
    a timeout the engine's process group is killed and a fresh engine is
    started for the next game.  In clock games, thinking longer than the
    clock holds (+ --time-margin) is a failure too.

Usage
    python tests/pydraughts/hub_games.py [--damas target/release/damas]
        [--games 2] [--max-plies 120] [--seed 1] [--variants standard,english]
        [--time-margin 0.5] [--verbose]

    Variant names are pydraughts names (standard english russian brazilian
    turkish italian frisian frysk! antidraughts breakthrough); damas's names
    (normal, frysk, ...) are accepted too.  --damas defaults to
    target/release/damas under the repository root; a relative path given on
    the command line is taken relative to the current directory.  Needs
    pydraughts 0.6.7 (`pip install pydraughts==0.6.7`).  The test's own choices
    (colours, opponents, limits, random moves, ponder coin) depend only on
    --seed and the variant (not on which other variants run); the engine's
    moves under time limits may differ from run to run.  Default settings
    take about 40 s on two cores (20 games).

Output
    One line per game: variant, engine colour, opponent, limit scheme and
    pondering, plies, result (1-0 / 0-1 / draw / unfinished at --max-plies,
    and the engine's view of it), longest engine think time (and its limit
    kind), ponder hits, misses and early ends, OK or FAIL.  A failure adds
    its reason, the FEN at that moment and the last protocol lines (GUI: /
    ENG:); a game whose engine could not be started (no `wait`, variant not
    declared, no `ready`) fails the same way.  Then `N games, M failed` (+
    engine-session errors: an engine that does not exit on `quit`).  Exit
    status 1 on any failure, 2 on bad arguments.
"""

import argparse
import logging
import os
import random
import re
import sys
import threading
import time
import traceback
from collections import deque
from pathlib import Path

from draughts import BLACK, WHITE, Board, Move
from draughts.engine import HubEngine, Limit

# pydraughts variant name -> name damas declares in `param name=variant`.
VARIANTS = {
    "standard": "normal",
    "english": "english",
    "russian": "russian",
    "brazilian": "brazilian",
    "turkish": "turkish",
    "italian": "italian",
    "frisian": "frisian",
    "frysk!": "frysk",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
}

REPO_ROOT = Path(__file__).resolve().parents[2]

MOVETIME = 0.05        # level move-time
DEPTH = 4              # level depth
NODES = 20000          # level nodes
CLOCK_START = 2.0      # seconds on the engine's clock at the start of a clock game
CLOCK_INC = 0.05       # Fischer increment per move
LOW_CLOCK = 0.03       # every LOW_CLOCK_EVERY-th clock search pretends the clock is almost out
LOW_CLOCK_EVERY = 8
SLACK = 2.0            # seconds allowed beyond a time limit before the test gives up
FIXED_TIMEOUT = 20.0   # seconds allowed for a depth or nodes search
HANDSHAKE_TIMEOUT = 10.0
INIT_TIMEOUT = 30.0
QUICK_TIMEOUT = 5.0    # ping, stop -> done, ponder-hit, quit -> exit
STRAY_STOP_EVERY = 10  # engine moves between stray stop + ping checks
TRANSCRIPT_LINES = 12  # protocol lines shown with a failure


class Failure(Exception):
    """A game or engine session failed; the message says why."""


class Timeout(Failure):
    pass


# ---- protocol transcript (from pydraughts' own debug log) --------------------

class Transcript(logging.Handler):
    """Keeps the last protocol lines and every pydraughts warning.

    pydraughts logs each line it sends as "<n> %s << %s <pid> <line>" and each
    line it receives as "... >> ..." at DEBUG level, and an unexpected engine
    line as a WARNING ("Unexpected engine response to go: ...").
    """
    LINE = re.compile(r"^\S+ %s (<<|>>) %s \d+ (.*)$")

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = deque(maxlen=200)
        self.warnings = []
        self.echo = False

    def emit(self, record):
        msg = record.getMessage()
        m = self.LINE.match(msg)
        if m:
            line = ("GUI: " if m.group(1) == "<<" else "ENG: ") + m.group(2)
        elif record.levelno >= logging.WARNING:
            line = "pydraughts warning: " + msg
            self.warnings.append(msg)
        else:
            return
        self.lines.append(line)
        if self.echo:
            print("    " + line, flush=True)

    def tail(self, n=TRANSCRIPT_LINES):
        return list(self.lines)[-n:]

    def last_engine_line(self):
        for line in reversed(self.lines):
            if line.startswith("ENG: "):
                return line[5:]
        return None


# ---- running pydraughts calls with a timeout ----------------------------------

class Worker:
    """Runs fn() in a daemon thread; join() returns its value or raises."""

    def __init__(self, fn):
        self.box = {}
        self.thread = threading.Thread(target=self._run, args=(fn,), daemon=True)
        self.thread.start()

    def _run(self, fn):
        try:
            self.box["value"] = fn()
        except BaseException as exc:  # reported by join()
            self.box["error"] = exc

    def join(self, timeout, what):
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise Timeout(f"no answer within {timeout:.2f} s: {what}")
        if "error" in self.box:
            raise self.box["error"]
        return self.box.get("value")


def call(fn, timeout, what):
    return Worker(fn).join(timeout, what)


class LazyHubEngine(HubEngine):
    """HubEngine whose constructor only starts the process.

    pydraughts' constructor starts the process and then blocks in hub() until
    `wait`; doing the handshake separately (same pydraughts code) lets the
    test kill a process that never answers `hub`.
    """

    def hub(self):
        if not getattr(self, "_started", False):
            self._started = True
            return {}, set(), set()
        return HubEngine.hub(self)


def kill(engine):
    """Kill the engine's process group (pydraughts' kill_process), quietly."""
    if engine is None:
        return
    engine._last_sent = "go ponder"  # releases a thread spinning in ponderhit()

    def do_kill():
        try:
            engine.kill_process()
        except (ProcessLookupError, OSError, ValueError):
            pass
    try:
        call(do_kill, QUICK_TIMEOUT, "kill_process()")
    except Failure:
        pass
    for pipe in (engine.p.stdin, engine.p.stdout):
        try:
            pipe.close()
        except (OSError, ValueError):
            pass


def start_engine(damas, name, log):
    """`damas hub` with the given variant selected, after init/ready."""
    engine = LazyHubEngine([str(damas), "hub"])
    try:
        call(engine.hub, HANDSHAKE_TIMEOUT, "hub -> id/param/wait")
        if name not in engine.variants:
            raise Failure(f"engine does not declare variant {name!r}: the variant param's "
                          f"values are {sorted(engine.variants) or 'missing'}")
        engine.setoption("variant", name)
        call(engine.init, INIT_TIMEOUT, "init -> ready")
    except Failure:
        kill(engine)
        raise
    except EOFError:
        kill(engine)
        raise Failure(f"engine closed its output during the handshake "
                      f"(exit status {engine.p.poll()})")
    except Exception as exc:
        kill(engine)
        raise Failure(f"pydraughts could not read the handshake ({exc!r}); last engine line "
                      f"`{log.last_engine_line()}`")
    return engine


def stop_engine(engine):
    """quit, then the process must exit; kill_process in any case."""
    problem = None
    try:
        engine.quit()
        engine.p.wait(timeout=QUICK_TIMEOUT)
    except OSError:
        pass  # already gone
    except Exception:  # subprocess.TimeoutExpired
        problem = f"engine still running {QUICK_TIMEOUT:.0f} s after `quit`"
    kill(engine)
    return problem


# ---- opponents ----------------------------------------------------------------

def hub_key(move):
    """Sort key for a hub move: its numbers, in order."""
    return [int(x) for x in re.split(r"[-x]", move.hub_move)]


def random_mover(board, rng):
    return rng.choice(board.legal_moves())


def scripted_mover(board, rng):
    """Most captured pieces, then the first move in hub notation order."""
    moves = board.legal_moves()
    return min(moves, key=lambda m: (-len(m.captures or []), hub_key(m)))


OPPONENTS = {"random": random_mover, "scripted": scripted_mover}


# ---- one game -------------------------------------------------------------------

def colour_name(colour):
    return "white" if colour == WHITE else "black"


def result_text(board, engine_colour):
    winner = board.winner()
    if winner is None:
        return "unfinished"
    if winner == 0:
        return "draw"
    score = "1-0" if winner == WHITE else "0-1"
    return f"{score} (engine {'won' if winner == engine_colour else 'lost'})"


class Game:
    def __init__(self, engine, log, variant, plan, rng, args):
        self.engine = engine
        self.log = log
        self.variant = variant
        self.plan = plan
        self.rng = rng
        self.args = args
        self.board = Board(variant)
        first = self.board.turn
        self.engine_colour = first if plan["engine_first"] else (BLACK if first == WHITE else WHITE)
        self.opponent = OPPONENTS[plan["opponent"]]
        self.clock = CLOCK_START
        self.engine_moves = 0   # engine moves played so far
        self.searches = 0       # limits handed out (ponder searches included)
        self.max_think = 0.0
        self.max_think_kind = "-"
        self.ponder_hits = 0
        self.ponder_misses = 0
        self.ponder_early = 0   # ponder searches that ended before ponder-hit/stop
        self.warnings_seen = len(log.warnings)

    # limits
    def next_limit(self):
        """(Limit, timeout, description) for the next search."""
        if self.plan["scheme"] == "clock":
            kind = "clock"
        else:
            kind = ("movetime", "depth", "nodes")[self.searches % 3]
        self.searches += 1
        if kind == "clock":
            t = round(self.clock, 3)
            if self.searches % LOW_CLOCK_EVERY == 0:
                t = LOW_CLOCK  # pydraughts sends time=LOW_CLOCK-CLOCK_INC < 0
            return Limit(time=t, inc=CLOCK_INC), max(t, 0) + CLOCK_INC + SLACK, f"time={t} inc={CLOCK_INC}"
        if kind == "movetime":
            return Limit(movetime=MOVETIME), MOVETIME + SLACK, f"move-time={MOVETIME}"
        if kind == "depth":
            return Limit(depth=DEPTH), FIXED_TIMEOUT, f"depth={DEPTH}"
        return Limit(nodes=NODES), FIXED_TIMEOUT, f"nodes={NODES}"

    def charge(self, limit, elapsed):
        """Book the engine's think time; a clock overstep is a failure."""
        if elapsed > self.max_think:
            self.max_think = elapsed
            self.max_think_kind = ("clock" if limit.time is not None else
                                   "move-time" if limit.movetime is not None else
                                   "depth" if limit.depth is not None else "nodes")
        if limit.time is not None:
            if elapsed > limit.time + self.args.time_margin:
                raise Failure(f"engine thought {elapsed:.3f} s with {limit.time} s on its "
                              f"clock (inc {CLOCK_INC}, so `level time={limit.time - CLOCK_INC} "
                              f"inc={CLOCK_INC}`), margin {self.args.time_margin} s")
            self.clock = max(self.clock - elapsed, 0.0) + CLOCK_INC

    # checks
    def check_quiet(self):
        new = self.log.warnings[self.warnings_seen:]
        self.warnings_seen = len(self.log.warnings)
        if new:
            raise Failure("unexpected engine output: " + " | ".join(new))

    def stray_stop(self):
        """`stop` while idle must produce nothing; `ping` must get `pong`."""
        self.engine.stop()
        self.quiet_ping("after a stray `stop` while idle")

    def quiet_ping(self, when):
        """`ping` must get `pong` with nothing before it."""
        self.check_quiet()
        call(self.engine.ping, QUICK_TIMEOUT, f"ping -> pong ({when})")
        new = self.log.warnings[self.warnings_seen:]
        self.warnings_seen = len(self.log.warnings)
        if new:
            raise Failure(f"output {when}: " + " | ".join(new))

    def push_engine_move(self, result, where):
        if result is None or result.move is None:
            raise Failure(f"{where}: play() returned no move")
        hub = result.move.hub_move
        board = self.board
        try:
            move = Move(board, hub_move=hub)
        except Exception as exc:
            raise Failure(f"{where}: engine move {hub} is not legal ({exc!r})")
        board.push(move)
        self.engine_moves += 1

    def play_engine(self, limit, timeout, desc):
        engine, board = self.engine, self.board
        t0 = time.monotonic()
        result = self.guarded(lambda: engine.play(board, limit, False), timeout, f"go think, level {desc}")
        self.charge(limit, time.monotonic() - t0)
        return result

    def guarded(self, fn, timeout, what):
        """call() with pydraughts' exceptions turned into readable failures."""
        try:
            return call(fn, timeout, what)
        except Failure:
            raise
        except EOFError:
            rc = self.engine.p.poll()
            raise Failure(f"{what}: engine closed its output (exit status {rc})")
        except (KeyError, ValueError, IndexError) as exc:
            raise Failure(f"{what}: pydraughts could not use the engine's answer "
                          f"`{self.log.last_engine_line()}` ({exc!r}); an illegal move, "
                          f"wrong captured squares or a malformed line")

    def wait_go_ponder(self):
        """pydraughts sends `go ponder` from the ponder thread; wait for it."""
        deadline = time.monotonic() + QUICK_TIMEOUT
        while self.engine._last_sent != "go ponder":
            if time.monotonic() > deadline:
                raise Timeout("the ponder thread did not send `go ponder`")
            time.sleep(0.001)

    # the game
    def run(self):
        board, args = self.board, self.args
        self.stray_stop()
        ready = None  # engine result obtained through ponder-hit
        while not board.is_over() and len(board.move_stack) < args.max_plies:
            if board.turn == self.engine_colour:
                if self.engine_moves and self.engine_moves % STRAY_STOP_EVERY == 0:
                    self.stray_stop()
                if ready is None:
                    limit, timeout, desc = self.next_limit()
                    ready = self.play_engine(limit, timeout, desc)
                result, ready = ready, None
                self.check_quiet()
                self.push_engine_move(result, "engine move")
                if (self.plan["ponder"] and result.ponder is not None and not board.is_over()
                        and len(board.move_stack) < args.max_plies):
                    ready = self.ponder_cycle(result.ponder.hub_move)
                    self.check_quiet()
            else:
                board.push(self.opponent(board, self.rng))
        return len(board.move_stack)

    def ponder_cycle(self, predicted):
        """Ponder on `predicted`, then play the opponent's move.

        Returns the engine's next result after a ponder hit, else None.
        """
        engine, board = self.engine, self.board
        pboard = board.copy()
        try:
            pboard.push(Move(pboard, hub_move=predicted))
        except Exception as exc:
            raise Failure(f"ponder move {predicted} is not legal ({exc!r})")
        if pboard.is_over():  # never `go` on a finished game (no legal move)
            return None
        limit, timeout, desc = self.next_limit()
        worker = Worker(lambda: engine.play(pboard, limit, True))
        # The opponent moves while the engine ponders.
        if self.rng.random() < 0.5:
            reply = Move(board, hub_move=predicted)
        else:
            reply = self.opponent(board, self.rng)
        self.wait_go_ponder()
        # A ponder search may end on its own (allowed by the Hub protocol);
        # then ponder-hit/stop reach an idle engine, which must stay silent.
        early = not worker.thread.is_alive()
        self.ponder_early += early
        if reply.hub_move == predicted:
            self.ponder_hits += 1
            call(engine.ponderhit, QUICK_TIMEOUT, "ponder-hit")
            t0 = time.monotonic()
            board.push(reply)
            result = self.guarded(lambda: worker.join(timeout, f"go ponder + ponder-hit, level {desc}"),
                                  timeout + 1, f"go ponder + ponder-hit, level {desc}")
            self.charge(limit, time.monotonic() - t0)
        else:
            self.ponder_misses += 1
            engine.stop()
            self.guarded(lambda: worker.join(QUICK_TIMEOUT, "go ponder + stop -> done"),
                         QUICK_TIMEOUT + 1, "go ponder + stop -> done")
            board.push(reply)
            result = None
        if early:
            self.quiet_ping("after ponder-hit/stop sent to an idle engine")
        return result


# ---- driver -------------------------------------------------------------------

def plan_for(vi, gi):
    """Colour, opponent, limit scheme and pondering of game gi of variant vi.

    Each variant's games alternate every feature (with --games 2: both
    colours, both opponents, both schemes, one ponder game), and the
    variant's index shifts the pairings so that all combinations of two
    features occur across the variants (and within a variant from 4 games).
    """
    g0, g1 = gi % 2, (gi // 2) % 2
    c1, c2, c3 = vi % 2, (vi // 2) % 2, (vi // 4) % 2
    return {
        "engine_first": g0 ^ c1 == 0,
        "opponent": ("random", "scripted")[g0 ^ g1 ^ c2],
        "scheme": ("mixed", "clock")[g0 ^ c3],
        "ponder": g0 ^ g1 ^ c1 ^ c2 ^ c3 == 0,
    }


def report_failure(exc, log, fen):
    print(f"    reason: {exc}")
    print(f"    FEN at the failure: {fen}")
    print("    last protocol lines:")
    for line in log.tail():
        print(f"      {line}")


def run_variant(vi, variant, args, log):
    """Plays the variant's games; returns (games, failed games, session errors)."""
    name = VARIANTS[variant]
    failed = 0
    session_errors = []
    engine = None
    for gi in range(args.games):
        plan = plan_for(vi, gi)
        rng = random.Random(f"{args.seed}:{variant}:{gi}")
        label = (f"{variant:<12} game {gi + 1}: "
                 f"engine={'first ' if plan['engine_first'] else 'second'} "
                 f"vs {plan['opponent']:<8} {plan['scheme']:<5} "
                 f"{'ponder' if plan['ponder'] else 'no-ponder'}")
        if engine is None:
            try:
                engine = start_engine(args.damas, name, log)
            except Failure as exc:
                print(f"{label}  FAIL (engine start)")
                report_failure(exc, log, "-")
                failed += 1
                continue
        game = Game(engine, log, variant, plan, rng, args)
        started = time.monotonic()
        try:
            try:
                plies = game.run()
            except Failure:
                raise
            except Exception as exc:  # a pydraughts or test bug: report, do not crash
                raise Failure(f"unexpected {exc!r} in the test:\n"
                              + "".join(traceback.format_exc()).rstrip())
        except Failure as exc:
            print(f"{label}  ply {len(game.board.move_stack)}  FAIL  "
                  f"({time.monotonic() - started:.1f} s)")
            report_failure(exc, log, game.board.fen)
            failed += 1
            kill(engine)  # a fresh engine for the next game
            engine = None
            continue
        ponder = (f"  ponder hit/miss/early "
                  f"{game.ponder_hits}/{game.ponder_misses}/{game.ponder_early}"
                  if plan["ponder"] else "")
        print(f"{label}  colour={colour_name(game.engine_colour)}  plies={plies:<3} "
              f"{result_text(game.board, game.engine_colour):<22} "
              f"max-think={game.max_think:.3f}s ({game.max_think_kind})"
              f"{ponder}  OK ({time.monotonic() - started:.1f} s)", flush=True)
    if engine is not None:
        problem = stop_engine(engine)
        if problem:
            session_errors.append(f"{variant}: {problem}")
            print(f"{variant:<12} FAIL: {problem}")
    return args.games, failed, session_errors


def main():
    parser = argparse.ArgumentParser(
        description="pydraughts HubEngine plays complete games against `damas hub`.")
    parser.add_argument("--damas", type=Path, default=REPO_ROOT / "target" / "release" / "damas",
                        help="damas binary (default: target/release/damas)")
    parser.add_argument("--games", type=int, default=2, help="games per variant (default 2)")
    parser.add_argument("--max-plies", type=int, default=120, help="plies per game at most (default 120)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="comma-separated variant names (default: all)")
    parser.add_argument("--time-margin", type=float, default=0.5,
                        help="seconds a clock game's engine may overstep its clock (default 0.5)")
    parser.add_argument("--verbose", action="store_true", help="print every protocol line")
    args = parser.parse_args()

    engine_to_pyd = {e: p for p, e in VARIANTS.items()}
    variants = []
    for name in filter(None, args.variants.split(",")):
        name = engine_to_pyd.get(name, name)
        if name not in VARIANTS:
            parser.error(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        variants.append(name)
    if args.games < 1 or args.max_plies < 1:
        parser.error("--games and --max-plies must be positive")
    args.damas = args.damas.resolve()  # pydraughts resolves it against the cwd anyway
    if not args.damas.is_file() or not os.access(args.damas, os.X_OK):
        parser.error(f"damas binary not found or not executable: {args.damas}")

    log = Transcript()
    log.echo = args.verbose
    pyd_logger = logging.getLogger("pydraughts")
    pyd_logger.setLevel(logging.DEBUG)
    pyd_logger.addHandler(log)
    pyd_logger.propagate = False

    started = time.monotonic()
    total = failed = 0
    session_errors = []
    for variant in variants:
        vi = list(VARIANTS).index(variant)  # plans do not depend on --variants
        games, bad, errors = run_variant(vi, variant, args, log)
        total += games
        failed += bad
        session_errors += errors
    print(f"{total} games, {failed} failed"
          + (f"; {len(session_errors)} engine-session errors" if session_errors else "")
          + f" ({time.monotonic() - started:.0f} s)")
    return 1 if failed or session_errors else 0


if __name__ == "__main__":
    sys.exit(main())
