#!/usr/bin/env python3
"""A small UCCI Xiangqi engine for the tests, written from the UCCI 3.0 text: it plays a scripted
game, one ICCS move per line of SCRIPT, and checks that what it is told is that game so far.

    python3 ucci_engine.py SCRIPT [millis] [log=PATH] [draw-at=PLY] [accept-draw]
        [resign-at=PLY]

It answers `ucci` with `ucciok` (offering `usemillisec` with `millis`), takes `setoption NAME
VALUE`, and reads `position fen FEN moves ...`: the ply it is at is the FEN's move number and
side plus the moves after it, which must be the script's moves before that ply. It answers `go`
with the script's next move, `bestmove z0z0` when the position is not the script's. With
draw-at=PLY its move at that ply carries `draw` (an offer); with accept-draw a `go draw` is
answered with `draw` (accepting); with resign-at=PLY it resigns at that ply (`bestmove M
resign`). Times on `go` must be whole seconds (at most an hour) unless `usemillisec true` was
set, else it answers `nobestmove`. With log=PATH every line it is sent is appended to PATH."""
import sys

script_path = sys.argv[1]
extra = sys.argv[2:]
offers_millis = "millis" in extra
accept_draw = "accept-draw" in extra


def number(name):
    for a in extra:
        if a.startswith(name + "="):
            return int(a[len(name) + 1:])
    return None


draw_at, resign_at = number("draw-at"), number("resign-at")
log_path = next((a[len("log="):] for a in extra if a.startswith("log=")), None)
log = open(log_path, "a", encoding="utf-8") if log_path else None
script = [line.strip() for line in open(script_path, encoding="utf-8") if line.strip()]
millis = False
told = None  # the ply the engine is at, or None when the position was not the script's


def say(line):
    print(line, flush=True)


for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    words = line.split()
    if not words:
        continue
    if words[0] == "ucci":
        say("id name qijudge-test-ucci-engine")
        if offers_millis:
            say("option usemillisec type check default false")
        say("option newgame type button")
        say("ucciok")
    elif words[:2] == ["setoption", "usemillisec"]:
        millis = words[2:] == ["true"]
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        fields = words[2:8] if words[1] == "fen" else []
        moves = words[9:] if "moves" in words else []
        try:
            start = 2 * (int(fields[5]) - 1) + (1 if fields[1] == "b" else 0)
        except (IndexError, ValueError):
            start = None
        told = None
        if start is not None and moves == script[start:start + len(moves)]:
            told = start + len(moves)
    elif words[0] == "go":
        draw_offered = len(words) > 1 and words[1] == "draw"
        rest = words[2:] if draw_offered else words[1:]
        times = [int(rest[i + 1]) for i, w in enumerate(rest[:-1])
                 if w in ("time", "opptime", "increment", "oppincrement")]
        seconds_ok = millis or all(t <= 3600 for t in times)
        if not seconds_ok:
            say("nobestmove")
        elif told is None or told >= len(script):
            say("bestmove z0z0")
        elif draw_offered and accept_draw:
            say(f"bestmove {script[told]} draw")
        elif told == resign_at:
            say(f"bestmove {script[told]} resign")
        elif told == draw_at:
            say(f"info depth 1 score 0 pv {script[told]}")
            ponder = f" ponder {script[told + 1]}" if told + 1 < len(script) else ""
            say(f"bestmove {script[told]}{ponder} draw")
        else:
            say(f"info depth 1 score 5 pv {script[told]}")
            say(f"bestmove {script[told]}")
    elif words[0] == "stop":
        pass
    elif words[0] == "quit":
        say("bye")
        break
