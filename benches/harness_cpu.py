#!/usr/bin/env python3
"""The CPU time a match runner spends itself, without its engines: runs COMMAND and samples
/proc/PID/stat every 5 ms while it runs (user + system time of all its threads; the children's
time is counted apart by the kernel and left out), then prints that time and the wall time.
Divide by the plies played to compare runners per ply, e.g. qijudge against fastchess:

    python3 benches/harness_cpu.py qijudge match --game xiangqi \\
        --bot "a=uci:/usr/bin/node tests/engines/fairy-stockfish/engine.js" \\
        --bot "b=uci:/usr/bin/node tests/engines/fairy-stockfish/engine.js" \\
        --engine a:nodes=2000 --engine b:nodes=2000 \\
        --bot-read tests/engines/fairy-stockfish --games 8 --out /dev/shm/m
    python3 benches/harness_cpu.py fastchess -engine cmd=node args=engine.js name=a \\
        -engine cmd=node args=engine.js name=b -each tc=inf nodes=2000 -rounds 4 -games 2

The last sample can miss up to 5 ms of the runner's final work."""
import os
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
tick = os.sysconf("SC_CLK_TCK")
start = time.time()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
cpu = 0.0
while child.poll() is None:
    try:
        with open(f"/proc/{child.pid}/stat", encoding="ascii") as f:
            # After the command name in parentheses: state is field 3, utime 14, stime 15.
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / tick
    except (OSError, IndexError, ValueError):
        pass
    time.sleep(0.005)
print(f"runner CPU {cpu:.3f} s, wall {time.time() - start:.2f} s, exit {child.returncode}")
