#!/usr/bin/env python3
"""A small Jieqi engine for the tests, speaking UCI in the dialect of Pikafish's jieqi branch
(face-down pieces X/x; FEN fields BOARD SIDE POOL CAPTURED HALFMOVE FULLMOVE, as JieqiBox's
NOTATION_FORMAT.md describes them). It plays a scripted game, one ICCS move per line of SCRIPT:

    python3 jieqi_uci_engine.py SCRIPT [log=PATH]

The ply it is at is the FEN's move number and side plus the moves after it, which must be the
script's moves before that ply; a position that is not the script's, or a FEN without its six
fields, is answered with `bestmove (none)`. With log=PATH every line it is sent is appended."""
import re
import sys

script_path = sys.argv[1]
extra = sys.argv[2:]
log_path = next((a[len("log="):] for a in extra if a.startswith("log=")), None)
log = open(log_path, "a", encoding="utf-8") if log_path else None
script = [line.strip() for line in open(script_path, encoding="utf-8") if line.strip()]
POOL = re.compile(r"^(-|([RNBACPrnbacp]\d+)+)$")
told = None


def say(line):
    print(line, flush=True)


for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name qijudge-test-jieqi-engine")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        told = None
        fields = words[2:8] if len(words) >= 8 and words[1] == "fen" else []
        if (len(fields) == 6 and fields[1] in ("w", "b") and POOL.match(fields[2])
                and POOL.match(fields[3]) and fields[4].isdigit() and fields[5].isdigit()):
            moves = words[9:] if len(words) > 8 and words[8] == "moves" else []
            start = 2 * (int(fields[5]) - 1) + (1 if fields[1] == "b" else 0)
            if moves == script[start:start + len(moves)]:
                told = start + len(moves)
    elif words[0] == "go":
        if told is None or told >= len(script):
            say("bestmove (none)")
        else:
            say(f"bestmove {script[told]}")
    elif words[0] == "quit":
        break
