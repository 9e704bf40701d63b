#!/usr/bin/env python3
"""A qijudge-bot/1 bot for the tests that plays its first legal move and offers a draw with
every one; it accepts an offer of the opponent's that stands when its view shows one and it
was started with `accept`."""
import json
import sys

accept = "accept" in sys.argv[1:]
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "end":
        break
    if request["type"] != "move":
        print(json.dumps({}), flush=True)
        continue
    view = request.get("view") or {}
    offer = view.get("draw_offer")
    if accept and offer and offer != view.get("to_move") and offer != view.get("audience"):
        print(json.dumps({"move": "accept-draw"}), flush=True)
    elif request["legal"]:
        print(json.dumps({"move": request["legal"][0], "offer_draw": True}), flush=True)
    else:
        print(json.dumps({"move": "resign"}), flush=True)
