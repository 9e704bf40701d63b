#!/usr/bin/env python3
"""Runs a command on a new pseudo-terminal (its controlling terminal) and types ANSWER each time
it asks for a passphrase, as a person at a terminal would.

Usage: answer.py ANSWER COMMAND [ARG...]
Prints what the command wrote to the terminal; exits with the command's status.
"""
import os
import pty
import sys
import time

answer, command = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

seen = b""
answered = 0  # how much of what was seen the answers so far went to
deadline = time.time() + 60
while time.time() < deadline:
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # the command closed the terminal
        break
    if not chunk:
        break
    seen += chunk
    if b"enter passphrase" in seen[answered:].lower():
        os.write(fd, answer.encode() + b"\n")
        answered = len(seen)
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
