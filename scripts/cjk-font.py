#!/usr/bin/env python3
"""Writes crates/view/assets/fonts/board-cjk.otf: Noto Serif CJK SC Bold cut down to the Chinese characters
the board pictures draw (a few hundred of its 65 000 glyphs), so the pictures draw pieces and labels
from a real typeface. Noto Serif CJK is under the SIL Open Font License 1.1
(crates/view/assets/OFL-1.1.txt), copyright 2017 Adobe (http://www.adobe.com/), with Reserved Font Name
'Source'; a subset is a Modified Version, so it carries another name ("qijudge board CJK").

Needs fontTools (`pip install fonttools`) and the font (Debian package `fonts-noto-cjk`):
    python3 scripts/cjk-font.py /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc
"""
import sys
from fontTools.ttLib import TTCollection
from fontTools import subset

CHARS = ("司军师旅团营连排工兵炸雷旗" "帥仕相傌俥炮將士象馬車砲卒" "楚河漢界" "梟散"
         "一二三四五六七八九进進退平前后後中线" "１２３４５６７８９"
         "、。「」上东久于交众全出判到动北南可吃同和回困在复夺子守定将尽局已布归待意或战扛捉提攻数方无枭棋橙步死毙浅深满留的着移第等红终继续胜蓝被裁西观视角言认议负走轮输重长防阵面（），："
         "先其尚手执暗未翻色颜黑帅车马" "下为乙俘具合备字径捷掷揭权沿用甲示站行；")
OUT = "crates/view/assets/fonts/board-cjk.otf"

collection = TTCollection(sys.argv[1])
faces = [f for f in collection.fonts if "SC" in f["name"].getDebugName(1)]
if not faces:
    sys.exit("no SC face in the collection")
font = faces[0]
missing = [c for c in CHARS if ord(c) not in font.getBestCmap()]
if missing:
    sys.exit(f"not in the font: {''.join(missing)}")
options = subset.Options()
options.layout_features = []
options.name_IDs = [0, 7, 13, 14]  # copyright, trademark, licence and its address
options.hinting = False
options.desubroutinize = True
subsetter = subset.Subsetter(options)
subsetter.populate(text=CHARS)
subsetter.subset(font)
for record in font["name"].names:
    if record.nameID in (1, 3, 4, 6, 16, 17):
        record.string = "qijudge board CJK"
font["name"].names = [r for r in font["name"].names]
font["name"].setName("qijudge board CJK", 1, 3, 1, 0x409)
font["name"].setName("Regular", 2, 3, 1, 0x409)
font["name"].setName("qijudge-board-CJK", 6, 3, 1, 0x409)
font.save(OUT)
print(f"{OUT}: {len(CHARS)} characters")
