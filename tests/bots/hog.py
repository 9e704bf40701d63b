#!/usr/bin/env python3
"""A Xiangqi bot (qijudge-bot/1) that plays its first legal move each turn and, at its first
move, tries to take what it can of the organiser's machine, one way per run:

    hog.py fork        start processes until the kernel refuses, and keep them
    hog.py threads     start threads until the kernel refuses
    hog.py memory      fill memory, 16 MiB at a time, touching every page
    hog.py folder      fill its own folder with one file
    hog.py tmp         fill /tmp with files of 1 MiB
    hog.py shm         fill /dev/shm with files of 1 MiB
    hog.py log         write 40 MiB to its standard error

After an attempt the kernel stops, it answers on as if nothing happened: hitting a limit must
lose the game by itself. The bot-limit tests run it (tests/suite/limits.rs).
"""
import json
import os
import sys
import threading
import time

MIB = 1 << 20
kept = []


def fill(directory, one_file):
    """Writes 1 MiB at a time until a write fails (no space, or the file-size limit)."""
    try:
        if one_file:
            with open(os.path.join(directory, "fill"), "wb") as f:
                while True:
                    f.write(b"x" * MIB)
                    f.flush()
        n = 0
        while True:
            with open(os.path.join(directory, f"fill-{n}"), "wb") as f:
                f.write(b"x" * MIB)
            n += 1
    except OSError:
        pass


def attack(mode):
    if mode == "fork":
        try:
            while True:
                pid = os.fork()
                if pid == 0:
                    time.sleep(3600)
                    os._exit(0)
                kept.append(pid)
        except OSError:
            pass
    elif mode == "threads":
        try:
            while True:
                t = threading.Thread(target=time.sleep, args=(3600,), daemon=True)
                t.start()
                kept.append(t)
        except (RuntimeError, OSError):
            pass
    elif mode == "memory":
        try:
            while True:
                kept.append(bytearray(b"x" * (16 * MIB)))
        except MemoryError:
            pass
    elif mode == "folder":
        fill(".", True)
    elif mode == "tmp":
        fill("/tmp", False)
    elif mode == "shm":
        fill("/dev/shm", False)
    elif mode == "log":
        chunk = b"noise " * (MIB // 6) + b"\n"
        for _ in range(40):
            sys.stderr.buffer.write(chunk)
        sys.stderr.flush()


def main():
    mode = sys.argv[1]
    attacked = False
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] != "move":
            continue
        if not attacked:
            attacked = True
            attack(mode)
        print(json.dumps({"move": sorted(request["legal"])[0], "views": False}), flush=True)


if __name__ == "__main__":
    main()
