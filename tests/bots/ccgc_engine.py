#!/usr/bin/env python3
"""A small Luzhanqi program for the tests, speaking the 2012 CCGC protocol as its text fixes it:
INFO v -> NAME n; START F TTTT SS -> ARRAY (25 letters); GO MOVE R FF -> BESTMOVE MOVE;
RESULT R FF; END. Every message it is sent is checked against the protocol's fixed format
(field widths included); one that is not exits the program with status 3, which the match
records as a crash.

    python3 ccgc_engine.py [log=PATH] [array=LETTERS] [think=MS]

With think=MS it thinks that long before every BESTMOVE, whatever time it was announced (as
the competition programs do under load).

It plays a script in its own frame (rows A-L, its army on G-L). Moving first: G0F0 (its
front-left piece attacks the opponent's front-right piece), then H0H1 and back, for ever.
Moving second: H0H1 and back. It checks what it is told of the opponent: each GO's move must
be the opponent's script turned into its own frame (row r -> 11-r, column c -> 4-c), and the
first mover's first RESULT must be `1 00` (its major general beats the lieutenant)."""
import re
import sys
import time

extra = sys.argv[1:]
log_path = next((a[len("log="):] for a in extra if a.startswith("log=")), None)
log = open(log_path, "a", encoding="utf-8") if log_path else None
# A layout from a 2019 competition log: flag on L1, mines on K0, K3, L0, bombs on H0 and I4.
array = next((a[len("array="):] for a in extra if a.startswith("array=")), "cdhghkecebikifgjaijgjlfhd")
think = int(next((a[len("think="):] for a in extra if a.startswith("think=")), "0"))

FORMATS = {
    "INFO": re.compile(r"^INFO \S+$"),
    "START": re.compile(r"^START [01] \d{4} \d{2}$"),
    "GO": re.compile(r"^GO (0000 0 00|[A-L][0-4][A-L][0-4] [0-3] ([A-L][0-4]|00))$"),
    "RESULT": re.compile(r"^RESULT [0-3] ([A-L][0-4]|00)$"),
    "END": re.compile(r"^END$"),
}
SHUFFLE = ["H0H1", "H1H0"]


def turned(move):
    """A move of the other side's frame in this one."""
    out = ""
    for i in (0, 2):
        row, col = ord(move[i]) - ord("A"), int(move[i + 1])
        out += chr(ord("A") + 11 - row) + str(4 - col)
    return out


def script(first):
    moves = ["G0F0"] if first else []
    while len(moves) < 400:
        moves += SHUFFLE
    return moves


def fail(why):
    sys.stderr.write(f"ccgc_engine: {why}\n")
    sys.exit(3)


first = None
mine = theirs = None
played = 0  # moves made
seen = 0  # opponent moves told
results = []

for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    line = line.rstrip("\n")
    word = line.split(" ")[0]
    if word not in FORMATS or not FORMATS[word].match(line):
        fail(f"not a protocol message: {line!r}")
    if word == "INFO":
        print("NAME qijudge-test-ccgc", flush=True)
    elif word == "START":
        first = line[6] == "0"
        mine, theirs = script(first), script(not first)
        print(f"ARRAY {array}", flush=True)
    elif word == "GO":
        move = line[3:7]
        if move == "0000":
            if not first or played or seen:
                fail(f"GO 0000 only before the first mover's first move: {line!r}")
        else:
            want = turned(theirs[seen])
            if move != want:
                fail(f"GO told {move}, the opponent played {want} in this frame")
            seen += 1
        time.sleep(think / 1000)
        print(f"BESTMOVE {mine[played]}", flush=True)
        played += 1
    elif word == "RESULT":
        results.append(line)
        if first and len(results) == 1 and line != "RESULT 1 00":
            fail(f"G0F0 takes the lieutenant: expected RESULT 1 00, got {line!r}")
    elif word == "END":
        break
