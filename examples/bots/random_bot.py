#!/usr/bin/env python3
"""A qijudge bot in Python: random legal moves (qijudge-bot/1, see docs/bots.md).

Run it in a match:
    qijudge match --game luzhanqi --bot builtin:greedy --bot "python3 examples/bots/random_bot.py"

With --log FILE it appends every message it receives to FILE (the fog-of-war test reads it).
"""
import json
import random
import sys

ROWS = 12
FILES = "abcde"
CAMPS = {"b3", "d3", "c4", "b5", "d5", "b8", "d8", "c9", "b10", "d10"}
HEADQUARTERS = {"south": ["b1", "d1"], "north": ["b12", "d12"]}
PIECES = (["marshal", "general"] + ["major general"] * 2 + ["brigadier"] * 2 + ["colonel"] * 2
          + ["major"] * 2 + ["captain"] * 3 + ["lieutenant"] * 3 + ["engineer"] * 3)


def half(seat):
    """Posts and headquarters of a seat's half, with each square's row (0 = back row)."""
    ranks = range(1, 7) if seat == "south" else range(7, 13)
    out = []
    for r in ranks:
        row = r - 1 if seat == "south" else ROWS - r
        for f in FILES:
            sq = f"{f}{r}"
            if sq not in CAMPS:
                out.append((sq, row))
    return out


def setup(seat, rng):
    squares = half(seat)
    placed = {}
    flag = rng.choice(HEADQUARTERS[seat])
    placed[flag] = "flag"
    free = [(sq, row) for sq, row in squares if sq != flag]
    for _ in range(3):
        sq = rng.choice([s for s, row in free if row <= 1])
        placed[sq] = "landmine"
        free = [(s, row) for s, row in free if s != sq]
    for _ in range(2):
        sq = rng.choice([s for s, row in free if row != 5])
        placed[sq] = "bomb"
        free = [(s, row) for s, row in free if s != sq]
    rest = PIECES[:]
    rng.shuffle(rest)
    for (sq, _), piece in zip(free, rest):
        placed[sq] = piece
    return placed


def main():
    log = None
    if len(sys.argv) == 3 and sys.argv[1] == "--log":
        log = open(sys.argv[2], "a", encoding="utf-8")
    rng = random.Random(0)
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        msg = json.loads(line)
        if msg["type"] == "setup":
            rng = random.Random(msg["seed"])
            answer = {"setup": setup(msg["seat"], rng)}
        elif msg["type"] == "move":
            legal = msg["legal"]
            answer = {"move": rng.choice(legal) if legal else "resign"}
        else:
            break
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
