"""Perft: the leaves of the move tree a number of moves deep, counted in C,
the engine's check of its move generation against published counts.

>>> perft_stats(2, bulk=False)
PerftStats(leaves=960, captures=16, endings=0)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Optional

from . import kernels, stopping
from .._engine import ffi
from ..errors import Stopped, check_whole
from ..notation import SETUP
from ..variant import VariantLike, as_variant
from .position import MAX_MOVES, c_position, c_variant, move_text
from .stopping import check_stop

__all__ = ["MAX_PERFT_DEPTH", "PerftStats", "perft_stats", "perft", "divide"]

MAX_PERFT_DEPTH = 20


def _perft_is_long(depth: int, bulk: bool) -> bool:
    """Whether a perft may take more than a few milliseconds (then, from the
    main thread, it runs in a worker so that Ctrl-C stops it). Depth 4 in
    bulk is under a millisecond from the set-up; every leaf played, depth 4
    is ten."""
    return depth >= (5 if bulk else 4)


def _stopped(what: str) -> Stopped:
    return Stopped(f"{what} was stopped by its stop handle before it finished")


@dataclass(frozen=True)
class PerftStats:
    """Leaves at the last ply; with ``bulk=False``, also how many moves into
    the last ply captured and how many ended the game."""

    leaves: int
    captures: int
    endings: int


def perft_stats(depth: int, position: str = SETUP, variant: VariantLike = "brandubh",
                slides: bool = False, bulk: bool = True, *,
                stop: Optional[threading.Event] = None) -> PerftStats:
    """Perft with its counts. ``bulk=False`` plays every leaf (slower; it
    counts captures and endings at the last ply).

    ``stop`` (a :class:`~brandubh.Stop` or a ``threading.Event``), set from
    another thread, ends the count early and raises
    :class:`~brandubh.Stopped`: a count of part of the tree means nothing.
    Ctrl-C raises KeyboardInterrupt within a fraction of a second."""
    check_whole("depth", depth, 0, MAX_PERFT_DEPTH)
    check_stop(stop)
    v = c_variant(as_variant(variant))
    pos = c_position(position)
    out = ffi.new("bd_perft_stats *")
    slides, bulk = bool(slides), bool(bulk)
    code = stopping.run(lambda flag: kernels.ACTIVE.perft(v, pos, depth, slides, bulk, out, flag),
                        stop, None, _perft_is_long(depth, bulk))
    if code != 0:
        raise _stopped("perft")
    return PerftStats(out.leaves, out.captures, out.endings)


def perft(depth: int, position: str = SETUP, variant: VariantLike = "brandubh",
          slides: bool = False, *, stop: Optional[threading.Event] = None) -> int:
    """The number of leaves of the move tree ``depth`` moves deep. A move
    that ends the game is a leaf at its own depth; repetition and the caps
    play no part. With ``slides``, nothing is captured and nothing ends.
    ``stop`` as for :func:`perft_stats`.

    >>> perft(3)
    39512
    >>> perft(3, slides=True)
    39568
    """
    return perft_stats(depth, position, variant, slides, stop=stop).leaves


def divide(depth: int, position: str = SETUP, variant: VariantLike = "brandubh",
           slides: bool = False, *, stop: Optional[threading.Event] = None) -> dict[str, int]:
    """Perft below each move, by the move as stored (``d1c1``). ``stop`` as
    for :func:`perft_stats` (a stopped divide raises
    :class:`~brandubh.Stopped`).

    >>> sum(divide(2).values())
    960
    """
    check_whole("depth", depth, 1, MAX_PERFT_DEPTH)
    check_stop(stop)
    v = c_variant(as_variant(variant))
    pos = c_position(position)
    moves = ffi.new("bd_move[]", MAX_MOVES)
    counts = ffi.new("uint64_t[]", MAX_MOVES)
    slides = bool(slides)
    n = stopping.run(lambda flag: kernels.ACTIVE.divide(v, pos, depth, slides, moves, counts, flag),
                     stop, None, _perft_is_long(depth, True))
    if n < 0:
        raise _stopped("divide")
    return {move_text(moves[i]): counts[i] for i in range(n)}
