"""Scratch arrays for the engine's calls that fill several arrays at once,
one set a thread, so that a call allocates nothing.

>>> captured, outcome, winner = LEGAL.get()
>>> len(captured) == len(winner) == MAX_MOVES, LEGAL.get()[0] is captured
(True, True)
"""

from __future__ import annotations

import threading
from typing import Any

from .._engine import ffi
from .position import MAX_MOVES

__all__ = ["LegalBuffers", "LEGAL"]


class LegalBuffers(threading.local):
    """The arrays ``bd_game_legal`` fills beside the moves (which go in the
    game's own array): the bitboard each move empties, the outcome it
    brings and its winner, made once a thread (a thread's arrays are read
    before its next call)."""

    def get(self) -> tuple[Any, Any, Any]:
        bufs = getattr(self, "bufs", None)
        if bufs is None:
            bufs = self.bufs = (ffi.new("bd_bb[]", MAX_MOVES), ffi.new("int[]", MAX_MOVES),
                                ffi.new("int[]", MAX_MOVES))
        return bufs


#: The one pool: :meth:`brandubh.Rules.legal` and ``Game.legal`` read it.
LEGAL = LegalBuffers()
