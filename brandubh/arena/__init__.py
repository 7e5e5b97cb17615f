"""The arena: games between any players, one loop for all of them.

- :mod:`~brandubh.arena.player`: what a player is (:class:`Player`, the
  :class:`Seat` it takes in a game, its :class:`Answer`, the
  :class:`Limits` of the clock);
- :mod:`~brandubh.arena.bot_player`: this package's bot as a player;
- :mod:`~brandubh.arena.process_player`: a program as a player, over a
  wire protocol (:mod:`~brandubh.arena.protocols`):
  :mod:`~brandubh.codingame.driver` (the CodinGame puzzle's) or
  :mod:`~brandubh.opentafl.driver` (OpenTafl's engine protocol); its process
  and pipes (:mod:`~brandubh.arena.pipes`), and what it leaves behind found
  and ended (:mod:`~brandubh.arena.reaping`);
- :mod:`~brandubh.arena.openings`: where games start;
- :mod:`~brandubh.arena.loop`: one game (:func:`play_game`);
- :mod:`~brandubh.arena.event`: a schedule and a run (:func:`run_event`);
- :mod:`~brandubh.arena.executor`: where the games are played (threads of
  this process), :mod:`~brandubh.arena.workers`: worker processes, and
  :mod:`~brandubh.arena.cluster`: Ray tasks on a cluster;
- :mod:`~brandubh.arena.report`: what the games say (:class:`EventResult`).

``brandubh match`` and ``brandubh referee`` are two front doors to it.

>>> result = run_event(Event([BotPlayer.from_text('budget=300'),
...                           BotPlayer.from_text('budget=100')], games=2))
>>> len(result.games), result.names
(2, ['A', 'B'])
"""

from typing import TYPE_CHECKING

from .bot_player import BotPlayer, parse_setting
from .cluster import RayExecutor
from .event import Event, run_event
from .executor import Executor, ThreadExecutor
from .loop import GameRecord, GameSpec, play_game
from .openings import Opening, load_openings, parse_openings, random_openings
from .player import Answer, Limits, Player, Seat, Table
from .process_player import ProcessPlayer
from .report import EventResult
from .workers import ProcessExecutor

__all__ = [
    "Answer", "BotPlayer", "Event", "EventResult", "Executor", "GameRecord", "GameSpec", "Limits",
    "Opening", "Player", "ProcessExecutor", "ProcessPlayer", "RayExecutor", "Seat", "Table", "ThreadExecutor",
    "load_openings", "parse_openings",
    "parse_setting", "play_game", "random_openings", "run_event",
]

if TYPE_CHECKING:
    EnginePlayer = BotPlayer  # the name before 0.2.0
else:
    from ..deprecation import renamed

    __getattr__ = renamed(__name__, {"EnginePlayer": "BotPlayer"})
