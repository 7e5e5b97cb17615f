"""What the game loop asks of a player, and what it gives one.

A :class:`Player` describes a player and can be pickled: an engine setting,
or a program to start. For each game the loop asks it to :meth:`sit
<Player.sit>` at a :class:`Table`, which gives a :class:`Seat`: the player
for that one game. A seat is asked for a move with :meth:`Seat.answer`,
and answers with an :class:`Answer`: a move, or the fault that ends the
game (:data:`brandubh.notation.FAULTS`). Everything a kind of player needs
(a process, pipes, a protocol) lives behind these three classes, so the
loop (:mod:`brandubh.arena.loop`) is the same for every kind.
"""

from __future__ import annotations

import abc
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..errors import BrandubhError, quote

__all__ = ["Answer", "Limits", "Player", "Seat", "Table"]


@dataclass(frozen=True)
class Limits:
    """The clock of the players that live under one (programs; an engine
    inside this process is held by its node budget instead, and is never
    timed out). Milliseconds; ``None`` for no limit on an answer.

    ``first_ms`` is the limit of a player's first answer and ``turn_ms`` of
    every later one, each timed from the moment its input is written and
    multiplied by ``time_scale``. Starting a program is not a turn: it has
    ``startup_ms`` from its start before its first turn's clock runs. With
    ``lenient`` a late answer is only counted, and a player loses by timeout
    when it has not answered after ``hang_ms``; ``hang_ms`` also bounds
    every answer when there are no limits, so a program that hangs ends.

    >>> Limits(first_ms=100, turn_ms=50, time_scale=2).limit(first=True)
    0.2
    >>> Limits().allowed(first=False)
    60.0
    """

    first_ms: Optional[float] = None
    turn_ms: Optional[float] = None
    startup_ms: float = 1000.0
    time_scale: float = 1.0
    lenient: bool = False
    hang_ms: float = 60_000.0

    def __post_init__(self) -> None:
        for name in ("first_ms", "turn_ms"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise BrandubhError(f"{name.replace('_', '-')} must be positive, not {quote(value)}")
        for name in ("time_scale", "hang_ms"):
            if not getattr(self, name) > 0:
                raise BrandubhError(f"{name.replace('_', '-')} must be positive, not {quote(getattr(self, name))}")
        if not self.startup_ms >= 0:
            raise BrandubhError(f"startup-ms must not be negative, not {quote(self.startup_ms)}")

    def limit(self, first: bool) -> Optional[float]:
        """The limit of an answer in seconds, or None."""
        ms = self.first_ms if first else self.turn_ms
        return None if ms is None else ms * self.time_scale / 1000.0

    def allowed(self, first: bool) -> float:
        """How long the loop waits for an answer before the player has hung
        or is late, in seconds."""
        limit = self.limit(first)
        hang = self.hang_ms / 1000.0
        if limit is None:
            return hang
        return max(limit, hang) if self.lenient else limit

    def as_dict(self) -> dict:
        scale = self.time_scale
        return {"first_ms": None if self.first_ms is None else self.first_ms * scale,
                "turn_ms": None if self.turn_ms is None else self.turn_ms * scale,
                "startup_ms": self.startup_ms, "lenient": self.lenient, "hang_ms": self.hang_ms}


@dataclass
class Answer:
    """A seat's answer: ``move`` in the stored form (``'d2c2'``) when it
    gave one; otherwise ``fault`` (one of :data:`~brandubh.notation.FAULTS`)
    and ``detail``, a sentence. ``seconds`` is how long it took (None when
    no answer came: the player ended, or the clock ran out); ``late``
    says it came after the limit (counted only under ``lenient``);
    ``aborted`` that the event was stopped while the seat thought."""

    move: Optional[str] = None
    fault: Optional[str] = None
    detail: str = ""
    seconds: Optional[float] = None
    late: bool = False
    aborted: bool = False


class Table:
    """What the seats of one game share: the ``abort`` event of the run, a
    ``registry`` of the run's processes (so an interrupted run ends them
    all), and anything a kind of player keeps for the whole game
    (:meth:`shared`), closed when the game ends."""

    def __init__(self, abort: Optional[threading.Event] = None, registry: Any = None) -> None:
        self.abort = abort or threading.Event()
        self.registry = registry
        self._shared: dict = {}

    def shared(self, key: str, make: Callable[[], Any]) -> Any:
        """The object kept under ``key`` for this game, made by ``make()``
        the first time."""
        if key not in self._shared:
            self._shared[key] = make()
        return self._shared[key]

    def close(self, fault: Optional[str]) -> None:
        """The game is over (``fault``: the player at fault, or None): close
        what the seats share, each object's ``close(fault)``."""
        for obj in reversed(list(self._shared.values())):
            obj.close(fault)
        self._shared.clear()


class Seat(abc.ABC):
    """One player in one game."""

    name: str = ""

    @abc.abstractmethod
    def answer(self, game: Any, last: Optional[str], limits: Limits, first: bool) -> Answer:
        """The move for the side to move in ``game`` (a
        :class:`~brandubh.Game`, not to be changed); ``last`` is the move
        just played, or None; ``first`` says this is the seat's first turn.
        Never raises for anything the player does: a fault is an answer."""

    def end(self, game: Any) -> None:
        """The game is over (``game`` as it ended); whatever the player is
        told then."""

    def report(self) -> dict:
        """What the seat kept of the game for the record: ``stderr`` (text),
        ``pid``, ``exit_code``, when they mean something."""
        return {}


class Player(abc.ABC):
    """A player of an event. ``name`` is how reports call it (``A``,
    ``B``...; the event names its players when they have no name);
    :meth:`describe` says what it is. A player is a description, and can
    be pickled: what plays a game is the :class:`Seat` it gives."""

    name: str = ""

    @abc.abstractmethod
    def describe(self) -> str:
        """What the player is, in a line: ``level=3``, ``./my_bot``."""

    @abc.abstractmethod
    def sit(self, table: Table, seat: str, game_index: int, variant: Any) -> Seat:
        """A seat for one game (``seat`` is ``'p1'`` or ``'p2'``, the game's
        number from 0 is ``game_index``). May start a process; a failure to
        start is reported by the seat's first answer, not raised."""

    @property
    def timed(self) -> bool:
        """True when the player lives under the clock of :class:`Limits`."""
        return False

    def agree(self, variant: Any) -> None:
        """BrandubhError with a sentence when the player cannot play under
        ``variant`` (a program that plays other rules and cannot be told
        these); nothing for one that can (every engine setting)."""
