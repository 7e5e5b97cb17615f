"""Train the small NNUE (csrc/nnue.c; docs/learned.md, "A small NNUE") on
self-play data files that `brandubh selfplay` wrote, and write its net
file: the integer weights the engine compiles in (tools/gen_nnue.py) and
notes on how they were made. Needs numpy only (the ``train`` extra).

    python tools/train_nnue.py sp1.bin [sp2.bin ...] --out nets/nnue.json

The net: 155 inputs (a piece of each of the three kinds on each of the 49
squares, the learned evaluation's four counts of the king's lines, the
king-capture rule), one hidden layer of clipped ReLUs, one output in the
search's units. The target is the learned tables' (brandubh.learn.train):

    target = blend * result + (1 - blend) * sigmoid((score - C) / K)

fitted by cross-entropy of sigmoid(output / K), with K and C fitted to the
first file's scores (each file its own, the net in the first's units).
Each batch's positions are turned by a random one of the board's eight
symmetries (the rules do not change under them). Adam with a cosine decay
of the step, every step from --seed: the same data and seed, the same net.
Every tenth game is held out and its loss reported, the float net's and
the integer one's. --init NET starts from a net file's weights (its
integers read back as floats in the first file's units) instead of random
ones: the net trained further on new data.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from brandubh.files import write_whole  # noqa: E402
from brandubh.learn.net import KING_CAPTURES, SYMMETRIES  # noqa: E402
from brandubh.learn.selfplay import FLAGS, TAGS, read_header_of  # noqa: E402
from brandubh.learn.train import _bits, _game_numbers, _sigmoid, fit_scale, inputs, load_arrays  # noqa: E402
from brandubh.variant import as_variant  # noqa: E402

N, SQ = 7, 49
COUNTS, RULE, INPUTS = 147, 151, 155
ONE, OUT_SCALE = 255, 16
FORMAT, VERSION = "brandubh-nnue", 1
#: SYM[k][square]: the square's image under the k-th symmetry; SYM[k][49] = 49 (no piece).
SYM = np.array([[a * N + b for a, b in (s(*divmod(q, N)) for q in range(SQ))] + [SQ] for s in SYMMETRIES],
               dtype=np.int64)


def squares(rec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each record's piece squares (49: none), attackers then defenders
    then the king, and each column's input offset (0, 49 or 98)."""
    king = rec["king"].astype(np.int64)
    cols, offs = [], []
    for words, off in ((rec["att"], 0), (rec["dfn"], 49)):
        bits = _bits(words).astype(bool)
        bits[np.arange(len(rec)), king] = False
        width = int(bits.sum(axis=1).max())
        order = np.argsort(~bits, axis=1, kind="stable")[:, :width]
        held = np.take_along_axis(bits, order, axis=1)
        cols.append(np.where(held, order, SQ))
        offs += [off] * width
    cols.append(king[:, None])
    offs.append(98)
    return np.concatenate(cols, axis=1), np.array(offs, dtype=np.int64)


def rules(rec: np.ndarray) -> np.ndarray:
    """Each record's king_capture rule (enum bd_king_capture), by its preset's tag."""
    tags = rec["flags"] >> 4
    of_tag = np.zeros(16, dtype=np.int64)
    for t in np.unique(tags):
        of_tag[t] = KING_CAPTURES.index(as_variant(TAGS[t] if t < len(TAGS) else "brandubh").king_capture)
    return of_tag[tags]


def design(sq: np.ndarray, offs: np.ndarray, counts: np.ndarray, rule: np.ndarray, sym: np.ndarray) -> np.ndarray:
    """The dense inputs of a batch, each position turned by its symmetry."""
    n = len(sq)
    x = np.zeros((n, INPUTS + 1), dtype=np.float32)
    turned = SYM[sym[:, None], sq]
    idx = np.where(turned == SQ, INPUTS, turned + offs[None, :])
    x[np.arange(n)[:, None], idx] = 1.0
    x[:, COUNTS:RULE] = counts
    x[np.arange(n), RULE + rule] = 1.0
    return x[:, :INPUTS]


def forward(p: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = x @ p["w1"] + p["b1"]
    h = np.clip(a, 0.0, 1.0)
    return a, h, h @ p["w2"] + p["b2"]


def xent(q: np.ndarray, t: np.ndarray) -> float:
    q = np.clip(q, 1e-12, 1 - 1e-12)
    return float(-np.mean(t * np.log(q) + (1 - t) * np.log(1 - q)))


def quantise(p: dict, k: float) -> dict:
    """The float net (output in units of K) as the engine's integers."""
    w2 = p["w2"] * k
    return {"w1": np.rint(p["w1"] * ONE).astype(np.int64), "b1": np.rint(p["b1"] * ONE).astype(np.int64),
            "w2": np.rint(w2 * OUT_SCALE).astype(np.int64),
            "b2": int(np.rint(p["b2"] * k * ONE * OUT_SCALE))}


def dequantise(net: dict, k: float, hidden: int) -> dict:
    """A net file's integers as the float net whose output is in units of
    ``k`` (quantise's inverse, up to the rounding): where --init starts."""
    if net.get("format") != FORMAT or net.get("hidden") != hidden or net.get("inputs") != INPUTS:
        raise SystemExit(f"--init: not a {FORMAT} net of {INPUTS} inputs and {hidden} hidden units")
    return {"w1": (np.array(net["w1"], dtype=np.float64) / ONE).astype(np.float32),
            "b1": (np.array(net["b1"], dtype=np.float64) / ONE).astype(np.float32),
            "w2": (np.array(net["w2"], dtype=np.float64) / (OUT_SCALE * k)).astype(np.float32),
            "b2": np.float32(net["b2"] / (k * ONE * OUT_SCALE))}


def int_forward(q: dict, x: np.ndarray) -> np.ndarray:
    """The engine's integer arithmetic (csrc/nnue.c), on dense inputs."""
    acc = x.astype(np.int64) @ q["w1"] + q["b1"]
    out = np.clip(acc, 0, ONE) @ q["w2"] + q["b2"]
    d = ONE * OUT_SCALE
    return np.sign(out) * (np.abs(out) // d)  # truncation toward zero, as C's


def learned_scores(sq: np.ndarray, offs: np.ndarray, counts: np.ndarray, rule: np.ndarray) -> np.ndarray:
    """The shipped learned tables' scores (nets/learned.json) of the same
    positions, for comparison: the sums brandubh.learn.net.evaluate makes."""
    from brandubh.learn.net import PAIR, load_net

    net = load_net(ROOT / "nets" / "learned.json")
    pair = np.array(PAIR, dtype=np.int64)
    sets = np.array(net["set_of"], dtype=np.int64)[rule]
    king = sq[:, -1]
    tables = {key: np.array(net[key], dtype=np.int64) for key in ("att", "def", "king", "input_w", "bias")}
    e = tables["bias"][sets] + tables["king"][sets, pair[king, king]]
    for col, off in enumerate(offs[:-1]):
        here = sq[:, col] != SQ
        t = tables["att"] if off == 0 else tables["def"]
        e = e + np.where(here, t[sets, pair[king, np.where(here, sq[:, col], 0)]], 0)
    e = e + (tables["input_w"][sets] * counts.astype(np.int64)).sum(axis=1)
    return np.clip(e, -28_999, 28_999)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--blend", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--held-out", type=int, default=10)
    ap.add_argument("--init", metavar="NET", help="start from this net file's weights (the same --hidden) instead of "
                    "random ones: a net trained further on new data")
    args = ap.parse_args()
    if not 1 <= args.hidden <= 1024 or not 1 <= args.epochs <= 10_000 or not 0 <= args.blend <= 1 \
            or not args.lr > 0 or not 1 <= args.batch or not 1 <= args.held_out:
        ap.error("--hidden 1 to 1024, --epochs 1 to 10000, --blend 0 to 1, --lr above 0, --batch and --held-out 1 or more")
    started = time.time()
    parts, fitted, offset = [], [], 0
    for path in args.data:
        rec = load_arrays(path)
        keep = ((rec["flags"] & FLAGS["mate"]) == 0) & (rec["king"] >= 0) & (rec["king"] < SQ)
        games = _game_numbers(rec) + offset
        offset = int(games[-1]) + 1
        rec, games = rec[keep], games[keep]
        result = (rec["result"].astype(np.float64) + 1) / 2
        score = rec["score"].astype(np.float64)
        test = games % args.held_out == args.held_out - 1
        k, c = fit_scale(score[~test], result[~test])
        fitted.append((k, c))
        foretold = _sigmoid((score - c) / k)
        target = args.blend * result + (1 - args.blend) * foretold
        sq, offs = squares(rec)
        parts.append((sq, offs, inputs(rec).astype(np.float32), rules(rec), target, test, foretold))
        print(f"{path}: {len(rec)} positions, K {k:.1f}, C {c:.1f}", flush=True)
    width = max(p[0].shape[1] for p in parts)
    # Every file's columns padded alike: attackers, defenders, king.
    wa = max(int((p[1] == 0).sum()) for p in parts)
    wd = max(int((p[1] == 49).sum()) for p in parts)
    sqs = []
    for sq, offs, *_ in parts:
        na, nd = int((offs == 0).sum()), int((offs == 49).sum())
        pad = lambda a, w: np.concatenate([a, np.full((len(a), w - a.shape[1]), SQ)], axis=1)  # noqa: E731
        sqs.append(np.concatenate([pad(sq[:, :na], wa), pad(sq[:, na:na + nd], wd), sq[:, -1:]], axis=1))
    offs = np.array([0] * wa + [49] * wd + [98], dtype=np.int64)
    assert width <= len(offs)
    sq = np.concatenate(sqs)
    counts = np.concatenate([p[2] for p in parts])
    rule = np.concatenate([p[3] for p in parts])
    target = np.concatenate([p[4] for p in parts])
    test = np.concatenate([p[5] for p in parts])
    foretold = np.concatenate([p[6] for p in parts])
    k = fitted[0][0]
    tr, te = np.flatnonzero(~test), np.flatnonzero(test)
    rng = np.random.default_rng(args.seed)
    h = args.hidden
    p = {"w1": rng.normal(0, 0.1, (INPUTS, h)).astype(np.float32), "b1": np.full(h, 0.5, dtype=np.float32),
         "w2": rng.normal(0, 0.3, h).astype(np.float32), "b2": np.zeros((), dtype=np.float32)}
    if args.init:
        p = dequantise(json.loads(Path(args.init).read_text(encoding="utf-8")), k, h)
    m = {n: np.zeros_like(v) for n, v in p.items()}
    v2 = {n: np.zeros_like(v) for n, v in p.items()}
    ident = lambda idx: np.zeros(len(idx), dtype=np.int64)  # noqa: E731
    x_te = design(sq[te], offs, counts[te], rule[te], ident(te))

    def held_loss(params: dict) -> float:
        return xent(_sigmoid(forward(params, x_te)[2]), target[te])

    step, log = 0, []
    for epoch in range(1, args.epochs + 1):
        rate = args.lr * 0.5 * (1 + math.cos(math.pi * (epoch - 1) / args.epochs))
        order = tr[rng.permutation(len(tr))]
        total = 0.0
        for s in range(0, len(order), args.batch):
            rows = order[s:s + args.batch]
            x = design(sq[rows], offs, counts[rows], rule[rows], rng.integers(0, 8, len(rows)))
            a, hid, y = forward(p, x)
            q = _sigmoid(y)
            t = target[rows]
            total += xent(q, t) * len(rows)
            dy = ((q - t) / len(rows)).astype(np.float32)
            da = (dy[:, None] * p["w2"][None, :]) * ((a > 0) & (a < 1))
            g = {"w1": x.T @ da, "b1": da.sum(axis=0), "w2": hid.T @ dy, "b2": np.float32(dy.sum())}
            step += 1
            for n in p:
                m[n] = 0.9 * m[n] + 0.1 * g[n]
                v2[n] = 0.999 * v2[n] + 0.001 * g[n] * g[n]
                p[n] = (p[n] - rate * (m[n] / (1 - 0.9 ** step)) / (np.sqrt(v2[n] / (1 - 0.999 ** step)) + 1e-8)
                        ).astype(np.float32)
        hl = held_loss(p)
        log.append([epoch, round(total / len(tr), 6), round(hl, 6)])
        print(f"epoch {epoch}: train {total / len(tr):.5f} held-out {hl:.5f} ({time.time() - started:.0f} s)",
              flush=True)
    qn = quantise(p, k)
    if np.abs(qn["w1"]).max() > 32767 or np.abs(qn["w2"]).max() > 32767 or np.abs(qn["b1"]).max() > 32767:
        raise SystemExit("a weight does not fit in 16 bits")
    e_int = int_forward(qn, x_te)
    int_loss = xent(_sigmoid(e_int / k), target[te])
    learned_loss = xent(_sigmoid(learned_scores(sq[te], offs, counts[te], rule[te]) / k), target[te])
    net = {"format": FORMAT, "version": VERSION, "inputs": INPUTS, "hidden": h, "one": ONE, "out_scale": OUT_SCALE,
           "scale": round(k, 3), "w1": qn["w1"].tolist(), "b1": qn["b1"].tolist(), "w2": qn["w2"].tolist(),
           "b2": qn["b2"]}
    infos = [read_header_of(path)[0] for path in args.data]
    net["notes"] = {
        "command": "python tools/train_nnue.py " + " ".join(os.path.basename(d) for d in args.data)
                   + f" --out {os.path.basename(args.out)} --hidden {h} --epochs {args.epochs} --lr {args.lr:g}"
                     f" --batch {args.batch} --blend {args.blend:g} --seed {args.seed}"
                   + (f" --init {os.path.basename(args.init)}" if args.init else ""),
        "data": [{"file": os.path.basename(path), "positions": info.count, "seed": info.seed, "budget": info.budget,
                  "random_plies": list(info.random_plies), "scale": round(kk, 3), "centre": round(cc, 3)}
                 for path, info, (kk, cc) in zip(args.data, infos, fitted)],
        "fit": {"train_positions": int(len(tr)), "held_out_positions": int(len(te)),
                "held_out_loss": log[-1][2], "held_out_loss_integer": round(int_loss, 6),
                "held_out_loss_of_search_score": round(xent(foretold[te], target[te]), 6),
                "held_out_loss_of_learned_tables": round(learned_loss, 6), "epochs": log, "seconds": round(time.time() - started)},
    }
    write_whole(args.out, json.dumps(net, separators=(",", ":")) + "\n")
    print(f"held-out loss {log[-1][2]:.5f}, integer net {int_loss:.5f}, learned tables {learned_loss:.5f}; "
          f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ValueError as exc:  # brandubh's errors (a damaged data file) are ValueErrors
        print(f"train_nnue: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("train_nnue: stopped; nothing written", file=sys.stderr)
        sys.exit(130)
