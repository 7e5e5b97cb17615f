"""``brandubh train``: the learned evaluation fitted to self-play data
(:mod:`brandubh.learn.train`, docs/learned.md; numpy, the train extra)."""

from __future__ import annotations

import sys
import time
from typing import Any, Optional

from ..files import check_writable
from ..learn.train import train

__all__ = ["register", "run"]


def run(args: Any) -> int:
    def progress(epoch: int, loss: float, held: Optional[float]) -> None:
        extra = "" if held is None else f", held out {held:.5f}"
        sys.stderr.write(f"epoch {epoch}/{args.epochs}: loss {loss:.5f}{extra}\n")

    # Refused now, not after the whole fit: a net file that could not be written.
    check_writable(args.out)
    t0 = time.perf_counter()
    command = "brandubh train " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["train"] else None
    data = args.data if len(args.data) > 1 else args.data[0]
    net = train(data, args.out, epochs=args.epochs, blend=args.blend, lr=args.lr, sets=args.sets, seed=args.seed,
                held_out=args.held_out, quiet_only=args.quiet_only, batch=args.batch, command=command,
                progress=progress)
    fitted = net["notes"]["fit"]
    line = f"train loss {fitted['train']['loss']}"
    if "held_out" in fitted:
        line += f", held out {fitted['held_out']['loss']} (the search's own score: " \
                f"{fitted['held_out']['loss_of_search_score']})"
    print(f"{line}; scale {net['scale']}; {args.out} ({time.perf_counter() - t0:.1f} s)")
    return 0


def register(sub: Any) -> None:
    """``brandubh train``, on the command's subparsers."""
    p = sub.add_parser("train", help="fit the learned evaluation to self-play data (numpy)",
                       description="Fit the learned evaluation's tables to a self-play data file "
                       "(brandubh selfplay) and write a net file (docs/learned.md).")
    p.add_argument("data", nargs="+", help="the data file(s)")
    p.add_argument("--out", required=True, help="the net file to write (JSON)")
    p.add_argument("--epochs", type=int, default=12, help="passes over the data (default 12)")
    p.add_argument("--blend", type=float, default=0.5,
                   help="the result's share of the target, the rest the search's score (default 0.5)")
    p.add_argument("--lr", type=float, default=4.0, help="Adam's step, in the evaluation's units (default 4)")
    p.add_argument("--sets", default="one", choices=("one", "capture"),
                   help="one set of tables, or one for each king capture rule in the data (default one)")
    p.add_argument("--seed", type=int, default=1, help="the shuffling's seed (default 1)")
    p.add_argument("--batch", type=int, default=16384, help="positions a step (default 16384)")
    p.add_argument("--held-out", type=int, default=10, help="keep every N-th game out of the fit (default 10)")
    p.add_argument("--quiet-only", action="store_true",
                   help="learn only from positions with no capture and no open line home")
    p.set_defaults(run=run)
