#!/usr/bin/env python3
"""The text mode as a person meets it: damas on a pseudo-terminal (which echoes what is typed,
as a terminal does), commands typed one at a time, each answer read up to the next prompt. Checks the greeting and the start board, the board after the user's and the engine's
moves, whose turn it is, a full-move undo, level confirmed, hint, flip, save and load, a
finished game refusing moves until `continue`, illegal moves explained, and that no output is
ever glued to a prompt.

Usage: text_mode.py DAMAS-BINARY   (exit 0 when every check passes; the first failure is named)
"""
import os
import pty
import select
import subprocess
import sys
import tempfile
import time

PROMPT = "> "


class Terminal:
    def __init__(self, binary):
        master, slave = pty.openpty()
        self.process = subprocess.Popen([binary], stdin=slave, stdout=slave, stderr=subprocess.DEVNULL, close_fds=True)
        os.close(slave)
        self.master = master
        self.transcript = ""
        self.typed = set()

    def read_until_prompt(self, timeout=60.0, after="the start"):
        """Everything up to the next prompt that waits for input (the text ends with it)."""
        text = ""
        deadline = time.time() + timeout
        while time.time() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
                text += chunk.replace("\r\n", "\n")
            elif text.endswith(PROMPT):
                break
        self.transcript += text
        if not text.endswith(PROMPT):
            fail(f"no prompt within {timeout} s after {after!r}; got: {text!r}")
        return text[: -len(PROMPT)]

    def type(self, line, timeout=60.0):
        self.typed.add(line)
        os.write(self.master, (line + "\n").encode())
        text = self.read_until_prompt(timeout, line)
        # The terminal's echo of the line comes first.
        return text[len(line) + 1 :] if text.startswith(line + "\n") else text

    def close(self):
        try:
            os.write(self.master, b"quit\n")
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail("quit did not end the session")


def fail(message):
    print(f"text_mode.py: FAILED: {message}")
    sys.exit(1)


def expect(condition, message, text):
    if not condition:
        fail(f"{message}; got:\n{text}")


def board_rows(text):
    return [line for line in text.split("\n") if line[:3].strip().isdigit() and "  " in line[3:]]


def main():
    binary = sys.argv[1]
    term = Terminal(binary)
    first = term.read_until_prompt()
    expect(first.startswith("damas ") and "type help" in first, "a greeting", first)
    expect(len(board_rows(first)) == 8 and "black to move (english)" in first, "the start board", first)

    out = term.type("play 11-15")
    expect(out.startswith("played 11-15; white to move"), "the move and whose turn", out)
    expect(len(board_rows(out)) == 8 and "white to move" in out, "the board after the user's move", out)

    out = term.type("go depth 4")
    expect("best move " in out and " for white, depth 4)" in out, "the engine's move, its score's side and depth", out)
    expect("; black to move" in out and len(board_rows(out)) == 8, "the board after the engine's move", out)

    out = term.type("undo")
    expect(out.startswith("took back 11-15 ") and "; black to move" in out, "a full-move undo", out)
    expect("FEN B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in out, "back at the start", out)

    out = term.type("level 10")
    expect(out.strip() == "level is now 10", "level confirmed", out)
    out = term.type("level 20")

    out = term.type("hint depth 3")
    expect("hint " in out and "for black" in out, "a hint", out)
    expect("played" not in out, "a hint plays nothing", out)

    normal = board_rows(term.type("show"))
    flipped = board_rows(term.type("flip"))
    expect(flipped == board_rows(term.type("show")) and flipped != normal, "flip turns the board and stays", "\n".join(flipped))
    expect(flipped[0].lstrip().startswith("1") and normal[0].lstrip().startswith("8"), "flipped rows", "\n".join(flipped))
    term.type("flip")

    out = term.type("play 11-15 22-18")
    expect("illegal" in term.type("play 9-13") and "a capture is compulsory: 15x22" in term.transcript, "a compulsory capture explained", out)
    out = term.type("play 18-22")
    expect("18 holds a white piece, and black is to move" in out, "the other side's piece explained", out)

    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "game.pdn")
    out = term.type(f"save {path}")
    expect(out.strip() == f"saved 2 moves to {path}", "save", out)
    text = open(path).read()
    expect("11-15" in text and "22-18" in text and '[GameType "21"]' in text, "the saved PDN", text)
    term.type("new")
    out = term.type(f"load {path}")
    expect(out.startswith(f"loaded 2 moves from {path}; black to move"), "load", out)

    # A 10x10 game or position in the English text mode: the error says which rule set fits.
    ten = os.path.join(folder, "ten.pdn")
    with open(ten, "w") as f:
        f.write("1. 32-28 17-21 2. 37-32 *\n")
    out = term.type(f"load {ten}")
    expect("holds a game of international (no GameType tag; squares above 32" in out and "type `variant international`" in out, "load names the rule set", out)
    out = term.type("fen W:W31-50:B1-20")
    expect("this looks like international" in out and "`variant international`" in out, "fen names the rule set", out)

    # A finished game: black to move and blocked, white has won.
    out = term.type("fen B:W32:B28")
    out = term.type("moves")
    out = term.type("go depth 2")
    expect("the game is over (white wins" in out, "no move after the end", out)
    # A game to play on, whose search uses its time: a move found at once (a forced win) can
    # be answered before the line typed after it has arrived, and its answer then follows a
    # prompt, as it would on any terminal (a flaky failure under load).
    out = term.type("fen W:W22,24,25,29,30,31,32:B1,3,5,7,10,12")
    expect("error" not in out, "the position is set", out)
    # Output typed while a search runs is answered after it, never glued to the prompt.
    term.typed.add("go 0.5")
    os.write(term.master, b"go 0.5\nmoves\n")
    out = term.read_until_prompt(after="go 0.5, then moves typed during the search")
    expect("played " in out and " legal: " in out.split("played ")[-1], "the typed line answered after the search", out)
    term.close()
    for line in term.transcript.split("\n"):
        # After a prompt, only what was typed (echoed by the terminal).
        if line.startswith(PROMPT) and line[len(PROMPT):].strip() not in term.typed | {""}:
            fail(f"output glued to a prompt: {line!r}")
    print("text_mode.py: every check passed")


if __name__ == "__main__":
    main()
