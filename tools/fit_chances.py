"""Fit the win-chance curves of brandubh/chances.py to self-play data and
write them into that file (between its "fitted by" markers).

    brandubh selfplay --out nnue.bin --positions 1000000 --budget 5000 --seed 13 --eval nnue
    brandubh selfplay --out learned.bin --positions 1000000 --budget 5000 --seed 11 --eval learned
    brandubh selfplay --out classical.bin --positions 400000 --budget 5000 --seed 12 --eval classical
    python tools/fit_chances.py --nnue nnue.bin --learned learned.bin --classical classical.bin
    python tools/fit_chances.py --nnue new-net-1.bin new-net-2.bin   # a new net: its curves only

For each evaluation and preset, a logistic regression of the game's result
for the attackers (1 a win, 1/2 a draw, 0 a loss) on the search's score
from the attackers' view, with one slope and one centre for each side to
move, fitted by Newton's method on the log-loss (numpy). Positions whose
score is a found win or loss are left out: they need no curve. The figures
(positions, slope, centres, log-loss against a constant) are printed and
go into docs/review.md by hand.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from brandubh.chances import EVALUATIONS  # noqa: E402
from brandubh.learn.selfplay import HEADER, RECORD, TAGS, read_header  # noqa: E402

TARGET = ROOT / "brandubh" / "chances.py"
WIN = 29000  # BD_WIN of csrc/brandubh.h: beyond it a score is a found result


def load(path: str) -> np.ndarray:
    data = Path(path).read_bytes()
    info = read_header(data, len(data), path)
    fields = np.dtype([("att", "<u8"), ("dfn", "<u8"), ("score", "<i2"), ("ply", "<u2"), ("king", "i1"),
                       ("side", "u1"), ("result", "i1"), ("flags", "u1")])
    assert fields.itemsize == RECORD.size
    return np.frombuffer(data, dtype=fields, count=info.count, offset=HEADER.size)


def fit(score: np.ndarray, defenders_to_move: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float, float]:
    """slope, centre with the attackers to move, with the defenders to move,
    the fit's log-loss and a constant's."""
    x = np.stack([score / 1000.0, 1.0 - defenders_to_move, defenders_to_move], axis=1)
    w = np.zeros(3)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y)
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-9 * np.eye(3)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-12, 1 - 1e-12)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    m = np.clip(y.mean(), 1e-12, 1 - 1e-12)
    base = float(-np.mean(y * np.log(m) + (1 - y) * np.log(1 - m)))
    slope = w[0] / 1000.0
    return slope, -w[1] / slope, -w[2] / slope, loss, base


def curves(paths: list[str], evaluation: str) -> dict[tuple[str, str], str]:
    rows = np.concatenate([load(path) for path in paths])
    path = ", ".join(paths)
    out = {}
    for tag, preset in enumerate(TAGS):
        mine = rows[((rows["flags"] >> 4) == tag) & (np.abs(rows["score"].astype(np.int32)) < WIN)]
        if len(mine) == 0:
            raise SystemExit(f"{path}: no positions under {preset}")
        y = (mine["result"].astype(float) + 1) / 2
        slope, ca, cd, loss, base = fit(mine["score"].astype(float), mine["side"].astype(float), y)
        print(f"{evaluation:9} {preset:9} {len(mine):8,d} positions  slope {slope:.6f}  centre {ca:8.1f} "
              f"(attackers to move) {cd:8.1f} (defenders)  log-loss {loss:.4f} (constant {base:.4f}); "
              f"attackers' mean result {y.mean():.3f}")
        out[evaluation, preset] = f"Curve({slope:.7f}, {ca:.1f}, {cd:.1f}, {len(mine)})"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for evaluation, searched in (("nnue", "the NNUE (the default)"), ("learned", "the learned tables"),
                                 ("classical", "the classical one")):
        parser.add_argument(f"--{evaluation}", nargs="+", metavar="DATA",
                            help=f"self-play data searched with {searched}: its curves are fitted again "
                                 "(an evaluation not given keeps its curves)")
    parser.add_argument("--check", action="store_true", help="print the fit; write nothing")
    args = parser.parse_args()
    text = TARGET.read_text(encoding="utf-8")
    block = re.compile(r"(CURVES: dict\[tuple\[str, str\], Curve\] = \{\n)(.*?)(\}\n# -- end of the fitted)", re.S)
    found = block.search(text)
    if not found:
        raise SystemExit(f"{TARGET}: the fitted block's markers are gone")
    kept = {(m[1], m[2]): m[3] for m in re.finditer(r'\("(\w+)", "(\w+)"\): (Curve\([^)]*\)),', found[2])}
    given = [e for e in EVALUATIONS if getattr(args, e)]
    if not given:
        parser.error("give the data of at least one evaluation")
    fitted = {key: kept[key] for key in kept}
    for evaluation in given:
        fitted.update(curves(getattr(args, evaluation), evaluation))
    if args.check:
        return 0
    lines = "".join(f"    ({e!r}, {p!r}): {c},\n".replace("'", '"') for (e, p), c in fitted.items())
    TARGET.write_text(text[:found.start(2)] + lines + text[found.end(2):], encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
