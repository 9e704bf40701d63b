#!/usr/bin/env python3
"""Counts the code lines of the workspace (`src/`, `crates/*/src/`) that name a game outside the
game's own crates (`crates/NAME/`, `crates/NAME-rules/`; Nim's folder in the registry).

What is left out: comments, everything from a `#[cfg(test)]` line to the end of its file, test
files (`tests.rs`, `*_tests.rs`, a `*tests/` folder), the registry's list of games (`registry.rs`, the crate's `lib.rs`), and a
variant naming its base (Jieqi and Banqi name Xiangqi, Banqi names Jieqi). The games are the
rules crates (`crates/NAME-rules/`) and the toy in `crates/registry/src/nim/`. Run from the
repository's root:

    python3 scripts/game-names.py            # totals per game and per file
"""

import os
import re
import sys

# A variant's folder may name its base.
BASES = {"jieqi": {"xiangqi"}, "banqi": {"xiangqi", "jieqi"}}
SKIPPED = {"crates/registry/src/registry.rs", "crates/registry/src/lib.rs"}


def games(root):
    crates = os.listdir(os.path.join(root, "crates"))
    rules = [c[: -len("-rules")] for c in crates if c.endswith("-rules")]
    return sorted(rules + ["nim"])


def home_of(path):
    """The game whose crate or folder holds `path`, if any."""
    parts = path.split("/")
    if parts[0] == "crates":
        if parts[1] == "registry" and parts[3:4] == ["nim"]:
            return "nim"
        return parts[1][: -len("-rules")] if parts[1].endswith("-rules") else parts[1]
    return None


def sources(root):
    yield os.path.join(root, "src")
    for c in sorted(os.listdir(os.path.join(root, "crates"))):
        yield os.path.join(root, "crates", c, "src")


def count(root):
    names = games(root)
    per_game = {g: 0 for g in names}
    per_file = {}
    for top in sources(root):
        for folder, _, files in os.walk(top):
            for f in files:
                path = os.path.relpath(os.path.join(folder, f), root)
                test = f == "tests.rs" or f.endswith("_tests.rs") or "tests/" in path
                if not f.endswith(".rs") or path in SKIPPED or test:
                    continue
                home = home_of(path)
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
