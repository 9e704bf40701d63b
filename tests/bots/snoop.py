#!/usr/bin/env python3
"""A hostile bot for the sandbox test: before playing, it tries to read what no bot may (the
judge's key and every setup in the match folder, the user's SSH keys) and to write into the
match folder, and reports each attempt to REPORT_DIR/attempts.txt. Then it plays as the random
bot.

    snoop.py REPORT_DIR MATCH_DIR RANDOM_BOT
"""
import os
import sys

report, match, random_bot = sys.argv[1], sys.argv[2], sys.argv[3]
lines = []


def attempt(what, action):
    try:
        action()
        lines.append(f"{what}: SUCCEEDED")
    except OSError as e:
        lines.append(f"{what}: denied ({e.strerror})")


def read(path):
    with open(path, "rb") as f:
        f.read()


def every_setup():
    found = 0
    for root, _dirs, files in os.walk(match, onerror=lambda e: (_ for _ in ()).throw(e)):
        for name in files:
            if "setup" in root or name == "judge":
                read(os.path.join(root, name))
                found += 1
    if found == 0:
        raise PermissionError(13, "nothing listed")


attempt("judge key", lambda: read(os.path.join(match, "keys", "judge")))
attempt("setups", every_setup)
attempt("list match", lambda: os.listdir(match))
attempt("write match", lambda: open(os.path.join(match, "planted.txt"), "w").close())
attempt("ssh keys", lambda: os.listdir(os.path.expanduser("~root/.ssh")))
attempt("own folder", lambda: open("scratch.txt", "w").close())
with open(os.path.join(report, f"attempts-{os.urandom(6).hex()}.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
os.execv(sys.executable, [sys.executable, random_bot])
