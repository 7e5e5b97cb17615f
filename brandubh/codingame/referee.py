"""``brandubh referee``: two programs play each other over the CodinGame
puzzle's protocol, under its clock, as the puzzle's referee would have
them play. A front door to :mod:`brandubh.arena`: the games are played by
its one game loop, and reported by its one report.

    brandubh referee "python3 bot_a.py" "./bot_b" --games 200 --jobs 2

Each program is a command (split as a shell would), started once a game in
a process group of its own and kept for the whole game
(:mod:`brandubh.arena.process_player`). A program that crashes, answers late,
answers something that is not a move, or plays an illegal move loses the
game at once, an ending of its own in the game's text. Colours alternate:
game 1 has the first program (``A``) attacking, game 2 the second (``B``),
both from the same opening.

Timing. A first answer is due ``--first-ms`` (100) after its input is
written, and every later one ``--turn-ms`` (50) after its input. Starting a
process is not a turn: a program has ``--startup-ms`` (1000) from its
start to get ready. ``--time-scale`` multiplies the two turn limits; with
``--lenient`` a late answer is only counted, and a program loses by
timeout only after ``--hang-ms``.

>>> Config(('./a', './b')).event().limits.first_ms
100.0
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from .. import notation
from ..arena.command import games_text
from ..arena.event import Event, run_event
from ..arena.loop import GameRecord, play_game as _play_spec
from ..arena.openings import Opening, load_openings, parse_openings, random_openings
from ..arena.player import Limits
from ..arena.process_player import DEFAULT_STDERR_LIMIT, ProcessPlayer, check_command
from ..arena.report import EventResult
from ..errors import BrandubhError
from ..variant import Variant, as_variant

__all__ = [
    "SETUP", "FAULTS", "Opening", "Config", "GameRecord", "EventResult", "parse_openings",
    "load_openings", "random_openings", "check_command", "play_game", "run_match", "games_text",
]

SETUP = notation.SETUP
FAULTS = notation.FAULTS

DEFAULT_FIRST_MS = 100.0
DEFAULT_TURN_MS = 50.0
DEFAULT_STARTUP_MS = 1000.0
DEFAULT_HANG_MS = 2000.0


@dataclass
class Config:
    """Two program commands and how they play, for a program that runs
    the referee from Python: :meth:`event` is the arena's event."""

    commands: tuple[str, str]
    games: int = 2
    jobs: int = 1
    variant: Variant = field(default_factory=lambda: as_variant("codingame"))
    first_ms: float = DEFAULT_FIRST_MS
    turn_ms: float = DEFAULT_TURN_MS
    startup_ms: float = DEFAULT_STARTUP_MS
    time_scale: float = 1.0
    lenient: bool = False
    hang_ms: float = DEFAULT_HANG_MS
    openings: Sequence[Opening] = (Opening(),)
    sprt: Optional[tuple[float, float]] = None
    alpha: float = 0.05
    beta: float = 0.05
    stderr_limit: int = DEFAULT_STDERR_LIMIT
    cwd: Optional[str] = None

    def __post_init__(self) -> None:
        if len(self.commands) != 2:
            raise BrandubhError("the referee takes two bot commands")
        self.event()  # a bad configuration is refused here, not at the first game

    def event(self) -> Event:
        # The two programs are said to play the configuration's rules (the
        # protocol cannot tell them).
        players = [ProcessPlayer(c, name=n, cwd=self.cwd, stderr_limit=self.stderr_limit, rules=self.variant)
                   for c, n in zip(self.commands, ("A", "B"))]
        limits = Limits(first_ms=self.first_ms, turn_ms=self.turn_ms, startup_ms=self.startup_ms,
                        time_scale=self.time_scale, lenient=self.lenient, hang_ms=self.hang_ms)
        return Event(players, games=self.games, variant=self.variant, openings=self.openings,
                     limits=limits, jobs=self.jobs, sprt=self.sprt, alpha=self.alpha, beta=self.beta)


def play_game(config: Config, index: int, abort: Optional[threading.Event] = None) -> GameRecord:
    """Game ``index`` (from 0) of a run: opening ``index // 2``, ``A``
    attacking in even games."""
    return _play_spec(config.event().specs()[index], abort)


def run_match(config: Config, on_game: Optional[Callable[[GameRecord, EventResult], None]] = None,
              abort: Optional[threading.Event] = None) -> EventResult:
    """Play the run (:func:`brandubh.arena.run_event`)."""
    return run_event(config.event(), on_game, abort)
