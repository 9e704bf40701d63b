#!/bin/sh
# Writes docs/pictures/*.png, the boards docs/views.md shows: one picture per game kind, drawn
# by `qijudge view` from the shipped sample games. Run from the repository's top after a change
# to the pictures; the test `doc_pictures` fails while they are out of date.
#   sh scripts/doc-pictures.sh [QIJUDGE]      (default: cargo run --release --quiet --)
set -eu
qj=${1:-"cargo run --release --quiet --"}
out=docs/pictures
mkdir -p "$out"
$qj view games/luzhanqi/sample --as south --format png > "$out/luzhanqi-south.png"
$qj view games/luzhanqi/sample --as south --format png --chinese > "$out/luzhanqi-south-chinese.png"
$qj view games/luzhanqi/sample-4p --as east --format png > "$out/luzhanqi-cross-east.png"
$qj view games/xiangqi/sample --as public --format png > "$out/xiangqi-public.png"
$qj view games/jieqi/sample --as red --format png > "$out/jieqi-red.png"
$qj view games/banqi/sample --as public --format png > "$out/banqi-public.png"
$qj view games/liubo/sample --as public --format png > "$out/liubo-public.png"
echo "wrote $(ls "$out" | wc -l) pictures in $out"
