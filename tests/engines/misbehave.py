#!/usr/bin/env python3
"""A Hub engine that misbehaves on purpose, for the tests of `damas match`.

It runs a real engine (`damas hub`, given as the remaining arguments) and passes the Hub lines
through both ways, until the Nth `go`, where it does what MODE says:

  crash    exits at once with status 3 (its engine goes with it);
  illegal  answers `done move=1-5`, a well-formed move that is never legal;
  garbage  answers `done move=banana`;
  overrun  lets the engine answer, but holds its `done` back for 0.6 seconds;
  silent   never answers again, but keeps reading its input;
  mute     says nothing at all, from the start (not even to the handshake).

Usage: misbehave.py MODE N ENGINE [ARGS...]
"""
import subprocess
import sys
import threading
import time


def main() -> int:
    mode, nth, engine = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    child = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    state = {"go": 0, "silent": mode == "mute"}
    lock = threading.Lock()

    def say(line: str) -> None:
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def pump() -> None:
        for line in child.stdout:
            line = line.rstrip("\n")
            if state["silent"]:
                continue
            if line.startswith("done") and mode == "overrun" and state["go"] >= nth:
                time.sleep(0.6)
            say(line)

    threading.Thread(target=pump, daemon=True).start()
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "go":
            state["go"] += 1
            if state["go"] >= nth:
                if mode == "crash":
                    child.kill()
                    return 3
                if mode == "illegal":
                    say("done move=1-5")
                    continue
                if mode == "garbage":
                    say("done move=banana")
                    continue
                if mode == "silent":
                    state["silent"] = True
                    continue
        if words and words[0] == "quit":
            break
        child.stdin.write(line)
        child.stdin.flush()
    child.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
