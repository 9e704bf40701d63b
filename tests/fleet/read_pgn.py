#!/usr/bin/env python3
"""Reads one Xiangqi PGN game with cchess (PyPI, walker8088's package; scripts/test installs
the version pinned there) and prints `moves N`: the moves it read, each replayed on its own
board from the game's FEN (an illegal or unreadable move is an error)."""
import sys

import cchess

game = cchess.read_from_pgn(sys.argv[1])
moves = list(game.iter_moves())
game.verify_moves()
print(f"moves {len(moves)}")
