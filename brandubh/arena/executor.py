"""Where a run's games are played: the executors of the one game function.

Every game of a run is :func:`~brandubh.arena.loop.play_game` of its
:class:`~brandubh.arena.loop.GameSpec`; an executor only decides where that
call happens. :class:`ThreadExecutor` (the default) calls it in threads of
this process; :class:`~brandubh.arena.workers.ProcessExecutor` in worker
processes (what ``--jobs N`` uses for more than one game at once);
:class:`~brandubh.arena.cluster.RayExecutor` as Ray tasks on a cluster
(``--ray ADDRESS``). :func:`~brandubh.arena.event.run_event`
hands games to an executor and takes back what it finished, in the same
loop whichever it is, so the same event gives the same games either way.

An executor may also give a game back unplayed (the machine that had it was
lost): the run then plays it again, and no game is counted twice, since a
game's record is taken once, from the one call that finished it.

>>> from brandubh.arena import BotPlayer, GameSpec
>>> spec = GameSpec(0, (BotPlayer.from_text('budget=100', name='A'),
...                     BotPlayer.from_text('budget=50', name='B')))
>>> with ThreadExecutor(2) as pool:
...     pool.submit(spec)
...     [(s.index, r.counted) for s, r in pool.finished(timeout=60)]
[(0, True)]
"""

from __future__ import annotations

import abc
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any, Iterable, Optional

from .loop import GameRecord, GameSpec, play_game
from .reaping import Registry

__all__ = ["Executor", "HandleExecutor", "ThreadExecutor"]


class Executor(abc.ABC):
    """Plays :class:`GameSpec`\\ s somewhere, ``slots`` at a time. A run
    :meth:`submit`\\ s games while fewer than :attr:`capacity` are out, and asks
    :meth:`finished` for those done: ``(spec, record)`` pairs, ``record``
    None for a game lost with its machine, to be played again.
    :meth:`interrupt` ends the games still out (Ctrl-C) and gives what they
    left; :meth:`close` lets go of everything."""

    slots: int = 1

    @property
    def capacity(self) -> int:
        """How many games a run may have out at once: ``slots`` here; more
        where games wait their turn close to where they are played."""
        return self.slots

    @abc.abstractmethod
    def submit(self, spec: GameSpec) -> None:
        """Start one game."""

    @abc.abstractmethod
    def finished(self, timeout: float) -> list[tuple[GameSpec, Optional[GameRecord]]]:
        """The games done since the last call, waiting up to ``timeout``
        seconds for the first (an empty list when none came)."""

    @property
    @abc.abstractmethod
    def running(self) -> int:
        """How many games are out."""

    def stop(self) -> None:
        """Tell the games out to stop at their next turn (the run was
        stopped); their records, ``aborted``, still come through
        :meth:`finished`. By default nothing: the games play on."""

    @abc.abstractmethod
    def interrupt(self) -> list[GameRecord]:
        """End every game out; the records of those that returned one."""

    def close(self) -> None:
        """Let go of the threads, processes or connections held."""

    def describe(self) -> str:
        """Where the games are played, for a report's note."""
        return f"{self.slots} at a time in this process"

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class HandleExecutor(Executor):
    """An executor that keeps each game out by a handle of its own (a
    future, a Ray reference): a subclass says which handles are done
    (:meth:`_done`) and what each gave (:meth:`_take`)."""

    def __init__(self) -> None:
        self._out: dict[Any, GameSpec] = {}

    @property
    def running(self) -> int:
        return len(self._out)

    def finished(self, timeout: float) -> list[tuple[GameSpec, Optional[GameRecord]]]:
        if not self._out:
            return []
        # In the order they were started, so that two done at once are
        # reported alike on every run.
        ordered = sorted(self._done(list(self._out), timeout), key=lambda handle: self._out[handle].index)
        return [(spec, self._take(handle, spec)) for handle in ordered for spec in (self._out.pop(handle),)]

    @abc.abstractmethod
    def _done(self, handles: list, timeout: float) -> Iterable:
        """The handles of games done, waiting up to ``timeout`` seconds for
        the first."""

    @abc.abstractmethod
    def _take(self, handle: Any, spec: GameSpec) -> Optional[GameRecord]:
        """The record of a game done; None for one to be played again."""


class ThreadExecutor(HandleExecutor):
    """Games in threads of this process, ``slots`` at once: an engine
    searches with the interpreter's lock released, and a program is waited
    on (but the game loop's own Python holds the lock, so fast games gain
    little from a second thread: :class:`~brandubh.arena.workers.ProcessExecutor`
    plays them in processes). ``abort`` (set by :meth:`interrupt`) tells every game to stop at its
    next turn; the programs of the run are kept in one registry so that an
    interrupt kills them all at once."""

    def __init__(self, slots: int = 1, abort: Optional[threading.Event] = None) -> None:
        self.slots = max(1, int(slots))
        self.abort = abort if abort is not None else threading.Event()
        self.registry = Registry()
        self._pool = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix="brandubh-arena")
        super().__init__()

    def submit(self, spec: GameSpec) -> None:
        self._out[self._pool.submit(play_game, spec, self.abort, self.registry)] = spec

    def _done(self, handles: list, timeout: float) -> Iterable:
        return wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)[0]

    def _take(self, handle: Any, spec: GameSpec) -> Optional[GameRecord]:
        return handle.result()

    def stop(self) -> None:
        self.abort.set()

    def interrupt(self) -> list[GameRecord]:
        self.abort.set()
        self.registry.kill_all()
        left = []
        for fut in list(self._out):
            try:
                left.append(fut.result())
            except Exception:  # pragma: no cover - play_game does not raise
                pass
        self._out.clear()
        return left

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.registry.kill_all()
