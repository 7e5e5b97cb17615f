"""``brandubh train``: fit the learned evaluation to self-play data
(needs numpy: the ``train`` extra; docs/learned.md).

The evaluation (:mod:`brandubh.learned`) is linear in its tables, so the fit
is a logistic regression in the manner of Texel tuning: the evaluation
``e`` of a position, through a sigmoid ``1 / (1 + exp(-e / K))``, is
fitted by cross-entropy to a target between 0 (the defenders win) and 1
(the attackers win)::

    target = blend * result + (1 - blend) * sigmoid((search score - C) / K)

where ``result`` is the game's end (1, 1/2 or 0), and ``K`` and ``C`` the
scale and centre at which the search's own score best foretells the
results, sigmoid((score - C) / K) (fitted first, on the training
positions). So the evaluation comes out in the search's units, centred: 0
where the two sides' chances are even.
Positions whose score is a win or a loss found by the search are left out
(no evaluation is asked there). Games, not positions, are split between
training and the held-out tenth (a game's positions are alike), by their
number. The fit is Adam over shuffled batches, every step from the run's
seed: the same data and seed, the same net. A run whose loss stops being a
number, or grows far above where it started, is stopped with a NetError
and writes nothing; the net file is written atomically at the end.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Optional, Sequence, Union

from ..errors import ArgumentError, NetError, quote
from .net import FORMAT, INPUTS, KING_CAPTURES, PAIR, PAIRS, VERSION, save_net
from .selfplay import FLAGS, HEADER, RECORD, TAGS, read_header_of

__all__ = ["load_arrays", "features", "fit_scale", "fit", "train"]


def _np() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise ArgumentError("brandubh train needs numpy: pip install 'brandubh[train]'") from None
    return numpy


def dtype() -> Any:
    """The records as a numpy structured type (little-endian, 24 bytes)."""
    np = _np()
    return np.dtype([("att", "<u8"), ("dfn", "<u8"), ("score", "<i2"), ("ply", "<u2"), ("king", "i1"),
                     ("side", "u1"), ("result", "i1"), ("flags", "u1")])


def load_arrays(path: Union[str, "os.PathLike[str]"]) -> Any:
    """A data file's records as a numpy array, the file checked first
    (DataError for one truncated, damaged, or of another kind)."""
    np = _np()
    info, _ = read_header_of(path)
    rec = np.fromfile(os.fspath(path), dtype=dtype(), offset=HEADER.size, count=info.count)
    assert rec.dtype.itemsize == RECORD.size
    return rec


def _bits(words: Any) -> Any:
    np = _np()
    return np.unpackbits(words.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :49]


def _sets(rec: Any, sets: str, variant: Any) -> tuple[Any, list[int], list[Any]]:
    """Each record's set of tables, the net's set_of, and each record's
    variant (by its tag)."""
    np = _np()
    from ..variant import as_variant

    tags = rec["flags"] >> 4
    variants = {int(t): as_variant(TAGS[t] if t < len(TAGS) else variant) for t in np.unique(tags)}
    if sets == "one":
        set_of = [0] * len(KING_CAPTURES)
    elif sets == "capture":
        present = sorted({KING_CAPTURES.index(v.king_capture) for v in variants.values()})
        set_of = [present.index(m) if m in present else 0 for m in range(len(KING_CAPTURES))]
    else:
        raise ArgumentError(f"sets must be one or capture, not {quote(sets)}")
    of_tag = np.zeros(16, dtype=np.int64)
    for t, v in variants.items():
        of_tag[t] = set_of[KING_CAPTURES.index(v.king_capture)]
    return of_tag[tags], set_of, [variants[int(t)] for t in range(16) if t in variants]


def inputs(rec: Any, variant: Any = "brandubh") -> Any:
    """The four counts of :data:`brandubh.learned.INPUTS` for every record,
    from the engine (bd_learned_inputs), under each record's rule set."""
    np = _np()
    from .._engine import ffi, lib
    from ..core.position import c_variant
    from ..variant import as_variant

    assert lib.BD_LEARNED_INPUTS == len(INPUTS)  # the engine's counts are the ones named here
    out = np.zeros((len(rec), len(INPUTS)), dtype=np.int16)
    tags = rec["flags"] >> 4
    for t in np.unique(tags):
        rows = np.flatnonzero(tags == t)
        part = np.ascontiguousarray(rec[rows])
        got = np.zeros((len(rows), len(INPUTS)), dtype=np.int16)
        v = as_variant(TAGS[t] if t < len(TAGS) else variant)
        lib.bd_learned_inputs(c_variant(v), ffi.cast("bd_sample *", ffi.from_buffer(part)), len(rows),
                              ffi.cast("int16_t *", ffi.from_buffer(got)))
        out[rows] = got
    return out


class Layout:
    """Where each parameter sits in the one vector the fit works on: for
    each set, the attackers' table, the defenders', the king's, the input
    weights and the constant; then one padding slot, always 0."""

    def __init__(self, sets: int) -> None:
        self.sets = sets
        self.per = 3 * PAIRS + len(INPUTS) + 1
        self.size = sets * self.per + 1
        self.pad = self.size - 1

    def att(self, s: int) -> int:
        return s * self.per

    def dfn(self, s: int) -> int:
        return s * self.per + PAIRS

    def king(self, s: int) -> int:
        return s * self.per + 2 * PAIRS

    def inputs(self, s: int) -> int:
        return s * self.per + 3 * PAIRS

    def bias(self, s: int) -> int:
        return s * self.per + 3 * PAIRS + len(INPUTS)


def features(rec: Any, set_idx: Any, layout: Layout, counts: Any) -> tuple[Any, Any, Any]:
    """The sparse design of the records: (indices of the one-valued
    entries, padded with the padding slot; indices of the counted entries;
    their counts)."""
    np = _np()
    pair = np.asarray(PAIR, dtype=np.int64)
    king = rec["king"].astype(np.int64)
    base = set_idx.astype(np.int64) * layout.per
    cols = []
    for words, off in ((rec["att"], 0), (rec["dfn"], PAIRS)):
        bits = _bits(words).astype(bool)
        width = int(bits.sum(axis=1).max()) if len(rec) else 0
        idx = np.full((len(rec), width), layout.pad, dtype=np.int64)
        order = np.argsort(~bits, axis=1, kind="stable")[:, :width]  # the squares held, first
        held = np.take_along_axis(bits, order, axis=1)
        num = pair[king[:, None], order] + off + base[:, None]
        idx[held] = num[held]
        cols.append(idx)
    kings = (pair[king, king] + 2 * PAIRS + base)[:, None]
    bias = (base + 3 * PAIRS + len(INPUTS))[:, None]
    ones = np.concatenate(cols + [kings, bias], axis=1)
    dense_idx = base[:, None] + 3 * PAIRS + np.arange(len(INPUTS))[None, :]
    return ones, dense_idx, counts.astype(np.float64)


def _sigmoid(x: Any) -> Any:
    np = _np()
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def _xent(p: Any, t: Any) -> float:
    np = _np()
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))


def fit_scale(score: Any, result01: Any) -> tuple[float, float]:
    """The scale K and centre C at which sigmoid((score - C) / K) best
    foretells the results (least cross-entropy): a logistic regression of
    the result on the score, by Newton's method. (The classical evaluation
    is not centred: its soldiers' weights give the attackers about 1,000 at
    the set-up, where the defenders win most games.)"""
    np = _np()
    x = score / 1000.0
    a, b = 1.0, 0.0
    for _ in range(50):
        p = _sigmoid(a * x + b)
        w = np.maximum(p * (1 - p), 1e-9)
        ga, gb = float(np.mean((p - result01) * x)), float(np.mean(p - result01))
        haa, hab, hbb = float(np.mean(w * x * x)), float(np.mean(w * x)), float(np.mean(w))
        det = haa * hbb - hab * hab
        if det <= 1e-15:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-10:
            break
    if not a > 1e-4:
        raise NetError("the search's scores do not foretell the results (no positive scale fits): "
                       "more games, or a larger budget, are needed")
    k = 1000.0 / a
    return k, -b * k


def _evaluate(theta: Any, design: tuple[Any, Any, Any]) -> Any:
    ones, didx, x = design
    return theta[ones].sum(axis=1) + (theta[didx] * x).sum(axis=1)


def fit(design: tuple[Any, Any, Any], target: Any, scale: float, layout: Layout, epochs: int = 12,
        lr: float = 4.0, batch: int = 16384, l2: float = 1e-10, seed: int = 1, held: Optional[tuple] = None,
        progress: Optional[Callable[[int, float, Optional[float]], None]] = None) -> tuple[Any, list]:
    """Adam over shuffled batches: the parameter vector that makes
    sigmoid(e / scale) fit ``target``, and the log of (epoch, training
    loss, held-out loss). NetError when the loss diverges."""
    np = _np()
    ones, didx, x = design
    n = len(target)
    theta = np.zeros(layout.size)
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    rng = np.random.default_rng(seed)
    step = 0
    b1, b2 = 0.9, 0.999
    start = _xent(_sigmoid(_evaluate(theta, design) / scale), target)
    log = []
    for epoch in range(1, epochs + 1):
        rate = lr * (0.5 * (1 + math.cos(math.pi * (epoch - 1) / epochs)))  # cosine decay
        order = rng.permutation(n)
        for s in range(0, n, batch):
            rows = order[s:s + batch]
            o, d, xx = ones[rows], didx[rows], x[rows]
            e = theta[o].sum(axis=1) + (theta[d] * xx).sum(axis=1)
            g = (_sigmoid(e / scale) - target[rows]) / scale / len(rows)
            grad = np.bincount(o.ravel(), weights=np.repeat(g, o.shape[1]), minlength=layout.size)
            grad += np.bincount(d.ravel(), weights=(xx * g[:, None]).ravel(), minlength=layout.size)
            grad += 2 * l2 * theta
            grad[layout.pad] = 0.0
            step += 1
            m = b1 * m + (1 - b1) * grad
            v = b2 * v + (1 - b2) * grad * grad
            theta -= rate * (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + 1e-9)
        loss = _xent(_sigmoid(_evaluate(theta, design) / scale), target)
        held_loss = None
        if held is not None:
            held_loss = _xent(_sigmoid(_evaluate(theta, held[0]) / scale), held[1])
        if not math.isfinite(loss) or not np.all(np.isfinite(theta)) or loss > 2 * start + 1:
            raise NetError(f"the fit diverged at epoch {epoch} (loss {loss:.4g}, from {start:.4g} at the start): "
                           f"try a smaller --lr than {lr:g}")
        log.append((epoch, loss, held_loss))
        if progress is not None:
            progress(epoch, loss, held_loss)
    return theta, log


def _game_numbers(rec: Any) -> Any:
    """Each record's game, counted from 0: a game's plies follow each other."""
    np = _np()
    ply = rec["ply"].astype(np.int64)
    new = np.ones(len(rec), dtype=bool)
    new[1:] = ply[1:] != ply[:-1] + 1
    return np.cumsum(new) - 1


def train(data: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]], out: Union[str, "os.PathLike[str]", None] = None,
          epochs: int = 12, blend: float = 0.5, lr: float = 4.0, sets: str = "one", seed: int = 1,
          held_out: int = 10, variant: Any = "brandubh", quiet_only: bool = False, batch: int = 16384,
          command: Optional[str] = None, progress: Optional[Callable[[int, float, Optional[float]], None]] = None,
          ) -> dict:
    """Fit a net to a data file (or several: each its own scale and
    centre, the net in the first's units) and write it to ``out`` (if
    given); returns the net. Every ``held_out``-th game is kept out of the fit and its loss
    reported (0: none)."""
    np = _np()
    for name, value, low, high in (("epochs", epochs, 1, 10_000), ("held_out", held_out, 0, 1000),
                                   ("batch", batch, 1, 1 << 24)):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ArgumentError(f"{name} must be a whole number from {low} to {high}, not {quote(value)}")
    if not isinstance(blend, (int, float)) or not 0 <= blend <= 1:
        raise ArgumentError(f"blend must be a number from 0 to 1, not {quote(blend)}")
    if not isinstance(lr, (int, float)) or not 0 < lr <= 1000:
        raise ArgumentError(f"lr must be a number above 0 and at most 1000, not {quote(lr)}")
    paths = [data] if isinstance(data, (str, os.PathLike)) else list(data)
    if not paths:
        raise ArgumentError("no data file to learn from")
    parts, offset, fitted = [], 0, []
    for path in paths:
        rec = load_arrays(path)
        keep = (rec["flags"] & FLAGS["mate"]) == 0  # not a win or loss the search found
        keep &= (rec["king"] >= 0) & (rec["king"] < 49)
        if quiet_only:
            keep &= (rec["flags"] & (FLAGS["lane"] | FLAGS["capture"])) == 0
        games = _game_numbers(rec) + offset
        offset = int(games[-1]) + 1 if len(games) else offset
        rec, games = rec[keep], games[keep]
        if len(rec) < 10:
            raise NetError(f"the data file {quote(os.fspath(path), 300)} has {len(rec)} positions to learn from; "
                           "at least 10 are needed")
        result01 = (rec["result"].astype(np.float64) + 1) / 2
        score = rec["score"].astype(np.float64)
        test = (games % held_out == held_out - 1) if held_out else np.zeros(len(rec), dtype=bool)
        if test.all():
            test[:] = False
        # Each file's own scale and centre: its scores may come from
        # another evaluation.
        k, c = fit_scale(score[~test], result01[~test])
        fitted.append((k, c))
        parts.append((rec, test, result01, _sigmoid((score - c) / k)))
    rec = np.concatenate([x[0] for x in parts])
    test = np.concatenate([x[1] for x in parts])
    result01 = np.concatenate([x[2] for x in parts])
    foretold = np.concatenate([x[3] for x in parts])
    tr = ~test
    scale, centre = fitted[0]
    set_idx, set_of, _ = _sets(rec, sets, variant)
    layout = Layout(max(set_of) + 1)
    counts = inputs(rec, variant)
    design = features(rec, set_idx, layout, counts)
    target = blend * result01 + (1 - blend) * foretold
    part = lambda d, rows: tuple(a[rows] for a in d)  # noqa: E731
    held = (part(design, test), target[test]) if test.any() else None
    theta, log = fit(part(design, tr), target[tr], scale, layout, epochs=epochs, lr=lr, batch=batch, seed=seed,
                     held=held, progress=progress)
    whole = np.clip(np.rint(theta), -32768, 32767).astype(np.int64)
    tables = {key: [[int(x) for x in whole[getattr(layout, fn)(s):getattr(layout, fn)(s) + PAIRS]]
                    for s in range(layout.sets)] for key, fn in (("att", "att"), ("def", "dfn"), ("king", "king"))}
    # Entries no position used stay 0; the king's table is read only on
    # the pair of his square with itself.
    net = {"format": FORMAT, "version": VERSION, "pairs": PAIRS, "inputs": list(INPUTS), "set_of": set_of,
           "scale": round(scale, 3), "centre": round(centre, 3), **tables,
           "input_w": [[int(x) for x in whole[layout.inputs(s):layout.inputs(s) + len(INPUTS)]]
                       for s in range(layout.sets)],
           "bias": [int(whole[layout.bias(s)]) for s in range(layout.sets)]}

    def losses(rows: Any) -> dict:
        e_int = _evaluate(whole.astype(np.float64), part(design, rows))
        return {"positions": int(rows.sum()), "loss": round(_xent(_sigmoid(e_int / scale), target[rows]), 6),
                "loss_of_search_score": round(_xent(foretold[rows], target[rows]), 6)}

    infos = [read_header_of(path)[0] for path in paths]
    net["notes"] = {
        "command": command or f"brandubh train {' '.join(str(os.fspath(path)) for path in paths)} --epochs {epochs} --blend {blend} --lr {lr} "
                              f"--sets {sets} --seed {seed} --batch {batch}{' --quiet-only' if quiet_only else ''}",
        "data": [{"file": os.path.basename(os.fspath(path)), "positions": info.count, "seed": info.seed,
                  "budget": info.budget, "random_plies": list(info.random_plies), "scale": round(k, 3),
                  "centre": round(c, 3)} for path, info, (k, c) in zip(paths, infos, fitted)],
        "fit": {"train": losses(tr), **({"held_out": losses(test)} if test.any() else {}),
                "epochs": [[e, round(a, 6), None if b is None else round(b, 6)] for e, a, b in log]},
    }
    if out is not None:
        save_net(out, net)
    return net
