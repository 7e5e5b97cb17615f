"""``brandubh bench``: a fixed set of searches whose total node count is a
signature of what the search does (as Stockfish's "Bench:" line is).

Each position is searched to a fixed depth, so any change to the search or
the evaluation that changes what it looks at changes the total; a test pins
it. The rate (nodes per second) is the speed figure.

>>> result = run_bench(depth=2)
>>> result.nodes == run_bench(depth=2).nodes
True
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from ..argtypes import whole
from ..core import kernels
from ..core.position import move_text
from ..core.rules import Rules
from ..core.search import MAX_THREADS
from ..notation import SETUP
from ..variant import PRESETS

# The set-up under each preset, and three positions from random games under
# each (chosen once, by a seeded random walk, among positions with no win in
# sight for either side).
POSITIONS: tuple[tuple[str, str], ...] = (
    ("brandubh", SETUP),
    ("codingame", SETUP),
    ("modern", SETUP),
    ("opentafl", SETUP),
    ("brandubh", "3a3/6a/2d4/aadk1aa/3d3/3ad2/3a3 d"),
    ("brandubh", "1a5/2a1a1a/1d5/a6/4dk1/3a1d1/2a2a1 a"),
    ("brandubh", "1a2d2/3a3/1d5/1adk1a1/3d2a/a3a2/3a3 d"),
    ("codingame", "3a3/a6/2d2d1/aa2d1a/3kd2/3a2a/3a3 d"),
    ("codingame", "1a3d1/1a1a3/a6/2d1ka1/d5a/2a1d2/3a3 d"),
    ("codingame", "3a3/6a/2d2a1/aa1kd2/5a1/d5d/3a3 a"),
    ("modern", "1a5/2d4/3d1aa/aa1k1a1/1d5/3ad2/1a5 d"),
    ("modern", "1a3a1/1d2d2/7/1adk1aa/3d3/a2a3/3a3 d"),
    ("modern", "3a3/3ad2/da5/1a1k2a/1a2d2/2da3/3a3 a"),
    ("opentafl", "4d2/1a1a3/3d1a1/1a4d/1a1k1d1/6a/2aa3 a"),
    ("opentafl", "3ad2/2a4/1a1k3/2d1aaa/d4d1/7/5a1 a"),
    ("opentafl", "3a3/2d1a1d/4d2/a2k2a/1a1d3/6a/4a2 d"),
)

DEFAULT_DEPTH = 9
DEFAULT_BUDGET = 2_000_000


@dataclass(frozen=True)
class BenchResult:
    nodes: int          # the signature
    seconds: float
    moves: tuple[int, ...]

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def run_bench(depth: int = DEFAULT_DEPTH, budget: int = DEFAULT_BUDGET, threads: int = 1,
              weights: Any = None, off: int = 0) -> BenchResult:
    """Search every bench position to ``depth`` (each capped at ``budget``
    positions) and add up the nodes. With ``threads`` above 1 each search
    runs on that many threads (lazy SMP): the time to depth and the rate of
    all threads together are the figures, and the node count is no
    signature (more than one thread is not deterministic). ``weights`` as
    the search takes them (``{'eval': 'classical'}``: the classical
    evaluation's signature); ``off`` the search features turned off
    (:data:`brandubh.core.search.FEATURES` bits: the signature of the
    search without them)."""
    games = [Rules(position, PRESETS[preset]) for preset, position in POSITIONS]
    nodes = 0
    moves: list[int] = []
    start = time.perf_counter()
    for game in games:
        found = game.search(budget=budget, depth=depth, seed=1, weights=weights, _off=off,
                            threads=None if threads == 1 else threads)
        assert found is not None  # no bench position is a finished game
        nodes += found.nodes
        moves.append(int(found.move))
    seconds = time.perf_counter() - start
    return BenchResult(nodes, seconds, tuple(moves))


def register(sub: Any) -> None:
    """Add the ``bench`` command to the ``brandubh`` command's subparsers."""
    p = sub.add_parser("bench", help="search a fixed set of positions: speed and signature",
                       description="Search 16 fixed positions over the four presets to a fixed "
                       "depth and print the total nodes, the rate, and the signature line "
                       "'Bench: N' (the total node count: it changes whenever what the "
                       "search does changes).")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH,
                   help=f"how many moves ahead each search looks (default {DEFAULT_DEPTH})")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                   help=f"the most positions any one search may visit (default {DEFAULT_BUDGET})")
    p.add_argument("--threads", type=whole(1, MAX_THREADS), default=1, metavar="N",
                   help="threads each search runs on (default 1; more is not deterministic, "
                        "and prints no Bench line)")
    p.add_argument("--eval", choices=("classical", "learned", "nnue"),
                   help="the evaluation to search with (default: the engine's default)")
    p.add_argument("--verbose", "-v", action="store_true", help="print each position and its move")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``brandubh bench`` with parsed arguments; the exit status."""
    result = run_bench(depth=args.depth, budget=args.budget, threads=args.threads,
                       weights=None if args.eval is None else {"eval": args.eval})
    if args.verbose:
        for (preset, position), move in zip(POSITIONS, result.moves):
            print(f"{preset:10} {position:40} {move_text(move)}")
    print(f"positions        : {len(POSITIONS)} (depth {args.depth}, at most {args.budget} nodes each)")
    print(f"total time       : {result.seconds * 1000:.0f} ms")
    print(f"nodes searched   : {result.nodes}")
    print(f"nodes per second : {result.nps:,.0f}")
    print(f"engine build     : {kernels.ACTIVE.name}")
    if args.threads == 1:
        print(f"Bench: {result.nodes}")
    else:  # not deterministic: no signature
        print(f"threads          : {args.threads} (the node count is no signature)")
    return 0
