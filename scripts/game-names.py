#!/usr/bin/env python3
"""Counts the code lines of src/ that name a game outside the game's own folder.

What is left out: comments, everything from a `#[cfg(test)]` line to the end of its file, test
files (`tests.rs`, `games/conformance.rs`), the registry and `games/mod.rs`, and a variant naming
its base (Jieqi and Banqi name Xiangqi, Banqi names Jieqi). The games are the folders of
src/games/ that hold their rules (`rules/` or `rules.rs`). Run from the repository's root:

    python3 scripts/game-names.py            # totals per game and per file
"""

import os
import re
import sys

# A variant's folder may name its base.
BASES = {"jieqi": {"xiangqi"}, "banqi": {"xiangqi", "jieqi"}}
SKIPPED = {"src/games/registry.rs", "src/games/mod.rs", "src/games/conformance.rs"}


def games(root):
    folder = os.path.join(root, "src", "games")
    return sorted(
        name
        for name in os.listdir(folder)
        if os.path.isdir(os.path.join(folder, name, "rules"))
        or os.path.isfile(os.path.join(folder, name, "rules.rs"))
    )


def count(root):
    names = games(root)
    per_game = {g: 0 for g in names}
    per_file = {}
    for folder, _, files in os.walk(os.path.join(root, "src")):
        for f in files:
            path = os.path.relpath(os.path.join(folder, f), root)
            if not f.endswith(".rs") or path in SKIPPED or f == "tests.rs":
                continue
            home = path.split("/")[2] if path.startswith("src/games/") else None
            with open(os.path.join(root, path), encoding="utf-8") as text:
                lines = text.read().split("\n")
            for line in lines:
                stripped = line.strip()
                if stripped.startswith("#[cfg(test)]"):
                    break
                if stripped.startswith("//"):
                    continue
                code = re.sub(r"//.*", "", line)
                for g in names:
                    if g == home or g in BASES.get(home, set()):
                        continue
                    if re.search(g, code, re.IGNORECASE):
                        per_game[g] += 1
                        per_file[path] = per_file.get(path, 0) + 1
                        break
    return per_game, per_file


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    per_game, per_file = count(root)
    total = sum(per_game.values())
    print(f"{total} code lines name a game outside its folder: " + ", ".join(
        f"{g} {n}" for g, n in sorted(per_game.items(), key=lambda x: -x[1])))
    for path, n in sorted(per_file.items(), key=lambda x: (-x[1], x[0])):
        print(f"{n:4} {path}")


if __name__ == "__main__":
    main()
