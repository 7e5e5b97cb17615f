"""Draw docs/rl_planes.svg: the observation planes of brandubh.rl for one
position, as the engine writes them (brandubh.rl.observe).

    python tools/rl_planes.py            # rewrite docs/rl_planes.svg
    python tools/rl_planes.py --check    # exit 1 if the picture is stale

tests/test_rl_page.py runs the check, so the picture and the encoding
cannot drift apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

from brandubh import Rules
from brandubh.rl import PLANES, observe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_common import write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "rl_planes.svg"
#: The picture's position: after these moves the defenders are to move and
#: the position stands for the second time.
MOVES = ("d2c2", "d5e5", "d7e7", "e5d5", "e7d7")
SEEN_BY = "defenders"
CELL, GAP, TOP, PER_ROW = 16, 22, 34, 4
PANEL = 7 * CELL
WORDS = {
    "own": "the defenders' pieces",
    "enemy": "the attackers' pieces",
    "king": "the king",
    "throne": "the throne",
    "corners": "the corners",
    "to_move": "defenders to move: all 1",
    "repeats": "occurrences: all 2",
}


def picture() -> str:
    game = Rules()
    for m in MOVES:
        game.play(m)
    planes, _ = observe(game, SEEN_BY)
    rows = -(-len(PLANES) // PER_ROW)
    width = PER_ROW * PANEL + (PER_ROW + 1) * GAP
    height = rows * (PANEL + TOP + GAP) + 44
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for c, name in enumerate(PLANES):
        x0 = GAP + (c % PER_ROW) * (PANEL + GAP)
        y0 = TOP + (c // PER_ROW) * (PANEL + TOP + GAP)
        out.append(f'<text x="{x0}" y="{y0 - 18}" font-weight="bold">{c}: {name}</text>')
        out.append(f'<text x="{x0}" y="{y0 - 5}" fill="#555">{WORDS[name]}</text>')
        for rank in range(7):
            for file in range(7):
                value = int(planes[c, rank, file])
                x, y = x0 + file * CELL, y0 + (6 - rank) * CELL   # rank 7 at the top
                fill = "#1f4e8c" if value else "#f2f2f2"
                out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                           f'stroke="#999" stroke-width="0.5"/>')
                if value > 1:
                    out.append(f'<text x="{x + CELL / 2}" y="{y + 12}" fill="white" '
                               f'text-anchor="middle">{value}</text>')
    captions = (f"planes[c, rank, file] as the {SEEN_BY} see the board after {' '.join(MOVES)}:",
                "drawn with rank 7 at the top, as the board is; in the array rank index 0 is rank 1.")
    for k, caption in enumerate(captions):
        out.append(f'<text x="{GAP}" y="{height - 30 + 14 * k}" fill="#333">{caption}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    return write_or_check(OUT, picture(), argv[1:] == ["--check"], "python tools/rl_planes.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
