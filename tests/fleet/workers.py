#!/usr/bin/env python3
"""How engine-testing fleets read a match runner's standard output, written for qijudge's tests
from the two workers' code (read, not copied), to check that qijudge's output gives them the
right counts batch by batch.

    python3 workers.py < OUTPUT > COUNTS.json

OpenBench (Client/worker.py at 9906bad1, `run_and_parse_runner` and
`MatchRunner.update_results`): only lines holding `Finished game`; the game number is the third
word and the result the seventh; the reason is what follows the line's first colon, and counts
a crash when it holds `disconnect` or `stalls`, a time loss for `on time`, an illegal move for
`illegal`. Games 2i-1 and 2i make a pair, the first engine having the first seat in the odd
game; once both are in, the pair goes into the pentanomial (LL .. WW) and its two games into
the trinomial (L D W), and whatever has been counted is sent as one batch.

fishtest (worker/games.py at b8eecff2, `parse_fastchess_output`): every line of both outputs;
`disconnect` or `stall` counts a crash, `on time` or `timeout` a time loss; the results block's
`Games: N, Wins: W, Losses: L, Draws: D, Points: P (` and `Ptnml(0-2): [a, b, c, d, e]` lines,
once both are read, are the run's totals so far (one batch), and the worker checks that the
games are twice the pairs; `Finished match` ends the run and must come after every game.
"""
import json
import re
import sys

RESULT_INDEX = {"0-1": 0, "1/2-1/2": 1, "1-0": 2}


def openbench(lines):
    batches = []
    games = {}
    counts = {"trinomial": [0, 0, 0], "pentanomial": [0] * 5, "crashes": 0, "timelosses": 0, "illegals": 0}
    for line in lines:
        if "Finished game" in line:
            reason = line.split(":")[1]
            counts["crashes"] += ("disconnect" in reason) or ("stalls" in reason)
            counts["timelosses"] += "on time" in reason
            counts["illegals"] += "illegal" in reason
            words = line.split()
            number, result = int(words[2]), words[6]
            games[number] = result
            first, second = (number, number + 1) if number % 2 else (number - 1, number)
            if first in games and second in games:
                r1, r2 = RESULT_INDEX[games.pop(first)], RESULT_INDEX[games.pop(second)]
                counts["pentanomial"][r1 + 2 - r2] += 1
                counts["trinomial"][r1] += 1
                counts["trinomial"][2 - r2] += 1
        if any(counts["pentanomial"]):
            batches.append(counts)
            counts = {"trinomial": [0, 0, 0], "pentanomial": [0] * 5, "crashes": 0, "timelosses": 0, "illegals": 0}
    return batches


WLD = re.compile(r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \(")
PTNML = re.compile(r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]")


def fishtest(lines):
    blocks = []
    wld = ptnml = None
    crashes = time_losses = 0
    finished_match = False
    for line in lines:
        line = line.strip()
        if "Finished match" in line:
            finished_match = True
        if "disconnect" in line or "stall" in line:
            crashes += 1
        if "on time" in line or "timeout" in line:
            time_losses += 1
        m = WLD.search(line)
        if m:
            wld = [int(m.group(i)) for i in range(1, 5)]
        m = PTNML.search(line)
        if m:
            ptnml = [int(m.group(i)) for i in range(1, 6)]
        if wld is not None and ptnml is not None:
            if wld[0] != 2 * sum(ptnml) or wld[0] != sum(wld[1:]):
                raise SystemExit(f"fishtest would stop: games {wld} are not twice the pairs {ptnml}")
            blocks.append({"games": wld[0], "wins": wld[1], "losses": wld[2], "draws": wld[3], "ptnml": ptnml})
            wld = ptnml = None
    return {"blocks": blocks, "crashes": crashes, "time_losses": time_losses, "finished_match": finished_match}


lines = sys.stdin.read().splitlines()
json.dump({"openbench": openbench(lines), "fishtest": fishtest(lines)}, sys.stdout, indent=1)
