"""``brandubh perft``: the leaves of the move tree, the time and the rate."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..core import kernels
from ..core.record import divide, perft_stats
from ..notation import SETUP
from ..variant import as_variant

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``perft`` command to the ``brandubh`` command's subparsers."""
    p = sub.add_parser("perft", help="count the leaves of the move tree",
                       description="Count the leaves of the move tree DEPTH moves deep, "
                       "and print the count, the time and the rate.")
    p.add_argument("depth", type=int, metavar="DEPTH", help="how many moves deep (0-20)")
    p.add_argument("--variant", default="brandubh",
                   help="a preset (brandubh, codingame, modern, opentafl) or a quoted "
                        "line of field=value pairs (default: brandubh)")
    p.add_argument("--position", default=SETUP, help="a position string (default: the set-up)")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("--slides", action="store_true",
                   help="count slides only: nothing is captured and nothing ends the game")
    p.add_argument("--full", action="store_true",
                   help="play every leaf instead of counting the last ply, and count "
                        "captures and endings there")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``brandubh perft`` with parsed arguments; the exit status."""
    variant = as_variant(args.variant)
    if args.divide:
        t0 = time.perf_counter()
        counts = divide(args.depth, args.position, variant, args.slides)
        elapsed = time.perf_counter() - t0
        for mv, n in counts.items():
            print(f"{mv} {n}")
        total = sum(counts.values())
        print(f"\nmoves {len(counts)}")
    else:
        t0 = time.perf_counter()
        stats = perft_stats(args.depth, args.position, variant, args.slides, bulk=not args.full)
        elapsed = time.perf_counter() - t0
        total = stats.leaves
    rate = total / elapsed if elapsed > 0 else float("inf")
    print(f"perft {args.depth} ({variant.as_string()}{', slides' if args.slides else ''}): {total}")
    if args.full and not args.divide:
        print(f"captures {stats.captures}  endings {stats.endings}")
    print(f"time {elapsed:.3f} s  rate {rate / 1e6:.1f} M leaves/s  ({kernels.ACTIVE.name} build)")
    return 0
