#!/usr/bin/env python3
"""Test bots that misbehave on purpose: python3 misbehave.py crash|hang|garbage|illegal|badsetup.
They answer the setup request properly (except badsetup), then misbehave on their first move.
`slow` plays legal random moves, 20 ms each (a game long enough to interrupt). `noviews` says
it reads no views ({"views": false}) and crashes if a move request still carries one.
`crash-as-black` plays legal random moves as red and crashes at its first move as black (a
Xiangqi view's `to_move`), so a pair of games holds one crash."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bots"))
import random_bot  # noqa: E402

mode = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "setup":
        placed = random_bot.setup(msg["seat"], random_bot.random.Random(msg["seed"]))
        if mode == "badsetup":
            placed = {sq: "flag" for sq in placed}
        answer = {"setup": placed}
        if mode == "noviews":
            answer["views"] = False
        print(json.dumps(answer), flush=True)
    elif msg["type"] == "move":
        if mode == "noviews":
            if msg["view"] is not None:
                sys.exit(7)
            rng = random_bot.random.Random(len(msg["legal"]))
            print(json.dumps({"move": rng.choice(msg["legal"]) if msg["legal"] else "resign"}), flush=True)
            continue
        if mode == "slow":
            time.sleep(0.02)
            rng = random_bot.random.Random(len(msg["view"].get("history", [])))
            print(json.dumps({"move": rng.choice(msg["legal"]) if msg["legal"] else "resign"}), flush=True)
            continue
        if mode == "crash":
            sys.exit(3)
        if mode == "crash-as-black":
            if (msg.get("view") or {}).get("to_move") == "black":
                sys.exit(3)
            rng = random_bot.random.Random(len(msg["legal"]))
            print(json.dumps({"move": rng.choice(msg["legal"]) if msg["legal"] else "resign"}), flush=True)
            continue
        if mode == "hang":
            time.sleep(60)
        if mode == "garbage":
            print("this is not json", flush=True)
        if mode == "illegal":
            # Move a piece of the opponent's: never legal.
            theirs = [p["square"] for p in msg["view"]["pieces"] if p["seat"] != msg["view"]["audience"]]
            print(json.dumps({"move": f"{theirs[0]}-{theirs[-1]}"}), flush=True)
    else:
        break
