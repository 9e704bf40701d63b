#!/usr/bin/env python3
"""A small UCI Xiangqi engine for the tests: it plays a scripted game, one ICCS move per line of
SCRIPT, and checks that what it is told is that game so far.

    python3 uci_engine.py zero|one|slow SCRIPT [clock] [expect-go=WORDS] [expect-option=NAME,VALUE]
        [starts=PATH] [exit-after-last] [score=CP]

zero: squares as Pikafish names them (ranks 0-9, like ICCS). one: as Fairy-Stockfish does with
UCI_Variant xiangqi (ranks 1-10); it offers the option and plays nothing until it is set.
slow: like zero, but thinks for 1.5 s on every move. With `clock`, a `go` without wtime, btime,
winc and binc is answered with resignation (bestmove (none)). A position that is not the
scripted game so far is answered with a move off the board. With expect-go=nodes,500 every `go`
must hold `nodes 500`, and with expect-option=Hash,64 the engine must have been told
`setoption name Hash value 64`; otherwise it resigns. With score=CP it reports that score for
every move it plays (else 0), as a search's last `info` line."""
import sys
import time

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
mode, script_path = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
want_clock = "clock" in extra
expect_go = [a[len("expect-go="):].replace(",", " ") for a in extra if a.startswith("expect-go=")]
expect_options = [
    tuple(a[len("expect-option="):].split(",", 1)) for a in extra if a.startswith("expect-option=")
]
options = set()
exit_after_last = "exit-after-last" in extra
score = next((a[len("score="):] for a in extra if a.startswith("score=")), "0")  # exits once it has played the script's last move
# starts=PATH: one line appended per engine process started (the test counts them).
for a in extra:
    if a.startswith("starts="):
        with open(a[len("starts="):], "a", encoding="utf-8") as f:
            f.write("start\n")
script = [line.strip() for line in open(script_path, encoding="utf-8") if line.strip()]
shift = 1 if mode == "one" else 0
variant_set = mode != "one"
told = None  # the scripted moves so far, or None when the position was not the game


def to_iccs(move):
    """'h3e3' or 'a10a9' with ranks from `shift` as ICCS."""
    squares, i = [], 0
    while i < len(move):
        file, i = move[i], i + 1
        digits = ""
        while i < len(move) and move[i].isdigit():
            digits, i = digits + move[i], i + 1
        squares.append(f"{file}{int(digits) - shift}")
    return "".join(squares)


def from_iccs(move):
    return f"{move[0]}{int(move[1]) + shift}{move[2]}{int(move[3]) + shift}"


def say(line):
    print(line, flush=True)


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name qijudge-test-engine")
        if mode == "one":
            say("option name UCI_Variant type combo default chess var chess var xiangqi")
        say("uciok")
    elif words[:4] == ["setoption", "name", "UCI_Variant", "value"]:
        variant_set = words[4] == "xiangqi"
    elif words[:2] == ["setoption", "name"] and "value" in words:
        at = words.index("value")
        options.add((" ".join(words[2:at]), " ".join(words[at + 1:])))
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        fen = " ".join(words[2:8]) if words[1] == "fen" else None
        moves = [to_iccs(m) for m in words[9:]] if "moves" in words else []
        told = len(moves) if fen == START and moves == script[: len(moves)] else None
    elif words[0] == "go":
        if mode == "slow":
            time.sleep(1.5)
        clocked = all(w in words for w in ["wtime", "btime", "winc", "binc"])
        met = all(f" {e} " in f" {' '.join(words)} " for e in expect_go) and all(
            o in options for o in expect_options
        )
        if not variant_set or (want_clock and not clocked) or not met:
            say("bestmove (none)")
        elif told is None or told >= len(script):
            say("bestmove z0z0")
        else:
            say(f"info depth 1 score cp {int(score) // 2} lowerbound")
            say(f"info depth 2 score cp {score} pv {from_iccs(script[told])}")
            say(f"bestmove {from_iccs(script[told])}")
            if exit_after_last and told + 1 == len(script):
                break
    elif words[0] == "quit":
        break
