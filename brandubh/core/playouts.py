"""Playouts: many games of uniformly random moves from one position, all in
C, counted by how they end (:meth:`brandubh.Rules.playouts`).

>>> from brandubh import Rules
>>> s = run_playouts(Rules().c_game(), 50, seed=3)
>>> s.games, s.attackers + s.defenders + s.draws == 50
(50, True)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Optional

from . import kernels, stopping
from .._engine import ffi
from ..errors import EngineError, check_whole
from .outcomes import OUTCOME_NAMES
from .stopping import check_stop

__all__ = ["PlayoutStats", "INLINE_GAMES", "run_playouts"]

#: Playouts of up to this many games run in the calling thread (they take
#: milliseconds); from the main thread more run in a worker, so that Ctrl-C
#: stops them (brandubh/stopping.py).
INLINE_GAMES = 1000


@dataclass(frozen=True)
class PlayoutStats:
    """What :meth:`Rules.playouts` counted. ``stopped``: ``stop=`` ended the
    playouts early; the counts are of the ``games`` games finished (the
    first of that many the same call would play)."""

    games: int
    plies: int
    outcomes: dict[str, int]
    attackers: int
    defenders: int
    draws: int
    stopped: bool = False


def run_playouts(game: Any, games: int, seed: int = 1, stop: Optional[threading.Event] = None) -> PlayoutStats:
    """``games`` playouts from the engine's game ``game`` (a ``bd_game *``,
    left as it is; the caller holds its lock), the arguments checked here:
    the body of :meth:`brandubh.Rules.playouts`."""
    check_whole("games", games, 0, 1 << 40)
    check_whole("seed", seed, 0, (1 << 64) - 1)
    check_stop(stop)
    out = ffi.new("bd_playout_stats *")
    long = games > INLINE_GAMES
    g = stopping.clone_game(game) if stopping.must_wait(stop, None, long) else game
    code = stopping.run(lambda flag: kernels.ACTIVE.playouts(g, games, seed, out, flag), stop, None, long)
    if code < 0:
        raise EngineError("out of memory for the playouts")
    return PlayoutStats(
        games=out.games,
        plies=out.plies,
        outcomes={OUTCOME_NAMES[i]: out.outcomes[i] for i in range(1, len(OUTCOME_NAMES))},
        attackers=out.wins[0],
        defenders=out.wins[1],
        draws=out.draws,
        stopped=code == 1,
    )
