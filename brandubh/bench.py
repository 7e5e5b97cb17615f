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

import time
from dataclasses import dataclass
from typing import Any

from .rules import Rules
from .variant import PRESETS

SETUP = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"

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

DEFAULT_DEPTH = 6
DEFAULT_BUDGET = 2_000_000


@dataclass(frozen=True)
class BenchResult:
    nodes: int          # the signature
    seconds: float
    moves: tuple[int, ...]

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def run_bench(depth: int = DEFAULT_DEPTH, budget: int = DEFAULT_BUDGET, weights: Any = None) -> BenchResult:
    """Search every bench position to ``depth`` (each capped at ``budget``
    positions) and add up the nodes; ``weights`` as the search takes them
    (``{'eval': 'classical'}``: the classical evaluation's signature)."""
    games = [Rules(position, PRESETS[preset]) for preset, position in POSITIONS]
    nodes = 0
    moves: list[int] = []
    start = time.perf_counter()
    for game in games:
        found = game.search(budget=budget, depth=depth, seed=1, weights=weights)
        assert found is not None  # no bench position is a finished game
        nodes += found.nodes
        moves.append(int(found.move))
    seconds = time.perf_counter() - start
    return BenchResult(nodes, seconds, tuple(moves))
