"""An event: players, a schedule of games, and a run that plays them.

Two players play ``games`` games, colours alternating, each opening twice
(once with each player attacking). With more players every pairing does
so (a round robin), or with ``gauntlet`` only the first player against
each of the others. The games are played by :func:`~brandubh.arena.loop.play_game`,
by default up to ``jobs`` at once, each in a thread of its own (an engine
searches with the interpreter's lock released, and a program is waited
on), in worker processes (what the command line's ``--jobs N`` uses), or
as Ray tasks on a cluster (:mod:`brandubh.arena.executor`), and reported
as they finish.

>>> from brandubh.arena import BotPlayer
>>> e = Event([BotPlayer.from_text('budget=200'), BotPlayer.from_text('budget=100'),
...            BotPlayer.from_text('budget=50')], games=2)
>>> [p.name for p in e.players], e.pairings(), len(e.specs())
(['A', 'B', 'C'], [(0, 1), (0, 2), (1, 2)], 6)
"""

from __future__ import annotations

import bisect
import os
import string
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..errors import BrandubhError, quote
from ..variant import Variant, VariantLike, as_variant
from .executor import ThreadExecutor
from .loop import GameRecord, GameSpec
from .openings import Opening
from .player import Limits, Player
from .report import EventResult
from .stats import SPRT_BY

if TYPE_CHECKING:
    from .executor import Executor

__all__ = ["Event", "run_event", "default_jobs", "player_names"]


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def player_names(count: int) -> list[str]:
    """``A``, ``B``, ... ``Z``, then ``P27``, ``P28``...

    >>> player_names(3)
    ['A', 'B', 'C']
    """
    letters = string.ascii_uppercase
    return [letters[i] if i < len(letters) else f"P{i + 1}" for i in range(count)]


@dataclass
class Event:
    """What an event plays. ``games`` is the number of games of each
    pairing; ``jobs`` how many are played at once (at most the games and
    the cores). Players without a name are named ``A``, ``B``... in order."""

    players: Sequence[Player]
    games: int = 2
    variant: VariantLike = "codingame"
    openings: Sequence[Opening] = (Opening(),)
    limits: Limits = field(default_factory=Limits)
    jobs: int = 1
    gauntlet: bool = False
    sprt: Optional[tuple[float, float]] = None
    alpha: float = 0.05
    beta: float = 0.05
    #: What the SPRT counts: ``'pairs'`` (the default) or ``'games'``
    #: (:data:`~brandubh.arena.stats.SPRT_BY`).
    sprt_by: str = SPRT_BY[0]

    def __post_init__(self) -> None:
        self.players = list(self.players)
        if len(self.players) < 2:
            raise BrandubhError("an event needs at least two players")
        for player, name in zip(self.players, player_names(len(self.players))):
            if not player.name:
                player.name = name
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            raise BrandubhError(f"two players have the same name: {', '.join(names)}")
        self.variant = as_variant(self.variant)
        for player in self.players:  # no program plays other rules than the event's unseen
            player.agree(self.variant)
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 1:
            raise BrandubhError(f"--games must be at least 1, not {quote(self.games)}")
        if not isinstance(self.jobs, int) or isinstance(self.jobs, bool) or self.jobs < 1:
            raise BrandubhError(f"--jobs must be at least 1, not {quote(self.jobs)}")
        if not self.openings:
            raise BrandubhError("no openings to play")
        self.openings = tuple(self.openings)
        if self.sprt_by not in SPRT_BY:
            raise BrandubhError(f"the SPRT counts {' or '.join(SPRT_BY)}, not {quote(self.sprt_by)}")
        if self.sprt is not None and len(self.players) != 2:
            raise BrandubhError("a sequential test (--sprt) compares two players, not "
                                f"{len(self.players)}")

    def jobs_used(self, games: Optional[int] = None) -> int:
        """How many games are played at once: ``jobs``, at most the games
        (``games``, or every game of the event) and the cores."""
        total = len(self.specs()) if games is None else games
        return max(1, min(self.jobs, total, default_jobs()))

    @property
    def rules(self) -> Variant:
        return as_variant(self.variant)

    def pairings(self) -> list[tuple[int, int]]:
        """The pairs of players (by position) that meet."""
        n = len(self.players)
        if self.gauntlet:
            return [(0, j) for j in range(1, n)]
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    def specs(self) -> list[GameSpec]:
        """Every game, in the order they are started: game ``k`` of every
        pairing before game ``k + 1`` of any, so that a run stopped early
        has played every pairing alike. Game ``k`` of a pairing starts from
        opening ``k // 2``, the pairing's first player attacking when ``k``
        is even."""
        out: list[GameSpec] = []
        pairs = self.pairings()
        for k in range(self.games):
            o = (k // 2) % len(self.openings)
            for p, (i, j) in enumerate(pairs):
                out.append(GameSpec(len(out), (self.players[i], self.players[j]),
                                    "p1" if k % 2 == 0 else "p2", self.openings[o], o,
                                    self.rules, self.limits, p))
        return out

    def settings(self) -> dict:
        """What the event was asked, for its report."""
        timed = any(p.timed for p in self.players)
        out = {"variant": self.rules.as_string(), "openings": len(self.openings),
               "schedule": "pair" if len(self.players) == 2 else
                           ("gauntlet" if self.gauntlet else "round robin"),
               "games_per_pairing": self.games}
        if timed:
            lim = self.limits
            first, turn = lim.limit(True), lim.limit(False)
            if first is None and turn is None:
                clock = f"programs answer within {lim.hang_ms:g} ms"
            else:
                clock = (f"{first * 1000:g} ms first turn, {turn * 1000:g} ms after"
                         if first is not None and turn is not None else "")
                if lim.lenient:
                    clock += f" (lenient: late answers counted, a program hangs after {lim.hang_ms:g} ms)"
            out["clock"] = clock
            out["limits"] = lim.as_dict()
        return out


def run_event(event: Event, on_game: Optional[Callable[[GameRecord, EventResult], None]] = None,
              abort: Optional[threading.Event] = None,
              executor: Optional["Executor"] = None) -> EventResult:
    """Play the event until every game is played, the SPRT decides, or
    ``abort`` is set (a KeyboardInterrupt sets it too, and ends every
    program at once). ``on_game(record, result_so_far)`` is called in this
    thread as each game finishes.

    The games are played by ``executor`` (:mod:`brandubh.arena.executor`):
    by default threads of this process, ``event.jobs_used()`` at once; a
    :class:`~brandubh.arena.workers.ProcessExecutor` plays them in worker
    processes, a :class:`~brandubh.arena.cluster.RayExecutor` on a Ray
    cluster. A game the executor gives back unplayed (its machine was
    lost) is played again before any game not yet started; each game is
    counted once. The caller keeps an executor it passes (and closes it)."""
    abort = abort or threading.Event()
    specs = event.specs()
    own = executor is None
    pool = ThreadExecutor(event.jobs_used(len(specs)), abort) if executor is None else executor
    named = [(p.name, p.describe()) for p in event.players]
    settings = event.settings()

    def result(games: list, **kw) -> EventResult:
        return EventResult(named, games, settings, event.sprt, event.alpha, event.beta,
                           len(specs), sprt_by=event.sprt_by, **kw)

    # The games in the event's order as they come (and their numbers, to
    # place each): the result so far is made once a game without a sort.
    games: list = []
    order: list = []
    replayed = 0
    stopped = interrupted = told = False
    t0 = time.monotonic()
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(min(old_interval, 0.001))  # less waiting for the GIL, truer times
    queue = deque(specs)
    taken: deque = deque()  # records taken from the executor, not yet reported

    def refill() -> None:
        while queue and pool.running < pool.capacity and not stopped and not abort.is_set():
            pool.submit(queue.popleft())

    try:
        while pool.running or (queue and not stopped and not abort.is_set()):
            if abort.is_set() and not told:  # the games out stop at their next turn
                pool.stop()
                told = True
            refill()
            done = pool.finished(timeout=0.2)
            lost = [spec for spec, record in done if record is None]
            for spec in reversed(lost):  # lost with its machine: played again, first
                replayed += 1
                queue.appendleft(spec)
            taken.extend(record for _, record in done if record is not None)
            if event.sprt is None:
                # The next games start before these are reported, so that
                # no worker waits while this process writes and counts.
                # (An SPRT decides first whether there are next games.)
                refill()
            while taken:
                record = taken[0]
                at = bisect.bisect(order, record.index)
                order.insert(at, record.index)
                games.insert(at, record)
                taken.popleft()
                if event.sprt is None and on_game is None:
                    continue  # nobody asks for the result so far (a tuning step)
                so_far = result(games, replayed=replayed, in_order=True)
                test = so_far.sprt()
                if test is not None and not stopped:
                    stopped = test.decision is not None
                if on_game is not None:
                    on_game(record, so_far)
    except KeyboardInterrupt:
        interrupted = True
        abort.set()
        games.extend(taken)
        games.extend(pool.interrupt())
    finally:
        if own:
            pool.close()
        sys.setswitchinterval(old_interval)
        # What programs of this process's games left behind, once none plays.
        from .reaping import sweep_orphans

        sweep_orphans()
    if abort.is_set():
        interrupted = True
    return result(games, stopped_early=stopped, interrupted=interrupted, seconds=time.monotonic() - t0,
                  replayed=replayed)
