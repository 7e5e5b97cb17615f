"""Stopping the engine's long calls: Ctrl-C, another thread, a clock.

Each long C call (perft, divide, the playouts, the search) is handed a flag
owned by its caller, an ``int`` it looks at every few thousand positions
(every game for the playouts); raised, the call ends within a fraction of
a millisecond. Nothing in C is shared between calls, and C reads no clock.

* **Ctrl-C and other signals.** Python runs signal handlers in the main
  thread only, and only between bytecodes, so a long call made from the main
  thread runs in a worker thread (the GIL is released in C; one long-lived
  worker, so that a call costs about 20 microseconds more, not the 0.1 ms
  of a new thread) while the main thread waits, in slices a signal cuts
  short. When a handler raises (KeyboardInterrupt for Ctrl-C, or whatever
  a SIGALRM handler raises) the flag is raised, the worker is joined, and
  the exception goes on; a handler that returns lets the call go on. The worker works on copies
  (the game is cloned for it), so the game is left as it was whatever
  happens. Short calls, which end in a few milliseconds anyway, run in the
  calling thread.
* **Another thread.** ``stop=`` takes a :class:`Stop` (the engine reads its
  flag directly) or any ``threading.Event`` (looked at every 10 ms). What a
  stopped call returns is the caller's: the search returns the best it has
  found, flagged ``stopped``; the playouts the games finished, flagged
  ``stopped``; perft and divide raise :class:`~brandubh.errors.Stopped`.
* **A clock.** ``time_ms=`` (the search only): the calling thread waits that
  long, then raises the flag. Not deterministic: where the search is when
  the time runs out depends on the machine and on its load.

>>> stop = Stop()
>>> stop.set()
>>> from brandubh import Rules
>>> found = Rules().search(budget=10**9, stop=stop)
>>> found.stopped, found.depth, found.nodes
(True, 0, 0)
"""

from __future__ import annotations

import math
import os
import queue
import threading
import time
from typing import Any, Callable, Optional, TypeVar

from .._engine import ffi, lib
from ..errors import ArgumentError, EngineError, quote

T = TypeVar("T")

#: How long the waiting thread sleeps between looks at a stop event.
POLL_SECONDS = 0.01
#: And otherwise: on POSIX a signal cuts the wait short anyway.
SLICE_SECONDS = 0.05
#: The longest ``time_ms`` taken: about 11.6 days.
MAX_TIME_MS = 10**9


class Stop(threading.Event):
    """A stop handle: a ``threading.Event`` whose flag the engine reads
    directly. Pass it as ``stop=`` to :meth:`Rules.search
    <brandubh.Rules.search>`, :meth:`Rules.playouts
    <brandubh.Rules.playouts>`, :func:`~brandubh.perft`,
    :func:`~brandubh.perft_stats` or :func:`~brandubh.divide`, and call
    :meth:`set` from any thread to stop every call it was given to. It stays
    set (later calls stop at once) until :meth:`clear`.

    >>> stop = Stop()
    >>> stop.is_set(), stop.set(), stop.is_set(), stop.clear(), stop.is_set()
    (False, None, True, None, False)
    """

    def __init__(self) -> None:
        super().__init__()
        self._c_flag = ffi.new("int *")

    def set(self) -> None:
        self._c_flag[0] = 1
        super().set()

    def clear(self) -> None:
        super().clear()
        self._c_flag[0] = 0


def check_stop(stop: object) -> None:
    """``stop=`` must be None, a :class:`Stop` or a ``threading.Event``."""
    if stop is not None and not isinstance(stop, threading.Event):
        raise ArgumentError(f"stop must be a brandubh.Stop or a threading.Event, not {quote(stop)}")


def check_time_ms(time_ms: object) -> Optional[float]:
    """``time_ms=`` must be None or a number of milliseconds above 0."""
    if time_ms is None:
        return None
    if not isinstance(time_ms, (int, float)) or isinstance(time_ms, bool):
        raise ArgumentError(f"time_ms must be a number of milliseconds, not {quote(time_ms)}")
    if not (0 < time_ms <= MAX_TIME_MS and math.isfinite(time_ms)):
        shown = f"{time_ms!r}" if isinstance(time_ms, float) or abs(time_ms) < 10**30 else "a larger number"
        raise ArgumentError(f"time_ms must be above 0 and at most {MAX_TIME_MS} milliseconds, not {shown}")
    return float(time_ms)


def clone_game(game_ptr: Any) -> Any:
    """A private copy of a C game for a worker, freed when dropped."""
    copy = lib.bd_game_clone(game_ptr)
    if copy == ffi.NULL:
        raise EngineError("out of memory for a copy of the game")
    return ffi.gc(copy, lib.bd_game_free)


def in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def must_wait(stop: object, time_ms: Optional[float], long: bool) -> bool:
    """Whether the call runs in a worker while this thread waits: for a
    clock, for an Event the engine cannot read, and for a long call from the
    main thread (so that its signal handlers run)."""
    return (time_ms is not None or (stop is not None and not isinstance(stop, Stop))
            or (long and in_main_thread()))


def flag_of(stop: Optional[threading.Event]) -> Any:
    """The flag to hand a call made in this thread: a :class:`Stop`'s own."""
    return stop._c_flag if isinstance(stop, Stop) else ffi.NULL


def run(job: Callable[[Any], T], stop: Optional[threading.Event] = None, time_ms: Optional[float] = None,
        long: bool = False) -> T:
    """``job(flag)``, a C call given the stop flag to pass on, stopped by
    ``stop``, ``time_ms`` or an exception raised in this thread (Ctrl-C).
    ``long``: whether the call may take more than a few milliseconds, so
    that from the main thread it is run in a worker. The job must then
    touch only what it owns (copies): see :func:`wait_for`."""
    if not must_wait(stop, time_ms, long):
        return job(flag_of(stop))
    return wait_for(job, stop, time_ms)


class _Task:
    """One C call for a worker: its job, its flag, and what came of it."""

    __slots__ = ("job", "flag", "done", "ok", "value")

    def __init__(self, job: Callable[[Any], Any], flag: Any) -> None:
        self.job, self.flag = job, flag
        self.done = threading.Event()
        self.ok = False
        self.value: Any = None

    def work(self) -> None:
        try:
            self.value = self.job(self.flag)
            self.ok = True
        except BaseException as exc:  # pragma: no cover - the C calls do not raise
            self.value = exc


def _alone(task: _Task) -> None:
    task.work()
    task.done.set()


class _Runner:
    """A daemon thread that runs the main thread's long calls, kept from one
    call to the next: a new thread for each cost 0.1 ms to start and, its
    stack and its memory allocator's arena cold, up to a tenth of a 5 ms
    search."""

    def __init__(self) -> None:
        self.tasks: "queue.SimpleQueue[_Task]" = queue.SimpleQueue()
        self.busy = False
        threading.Thread(target=self._loop, name="brandubh-engine", daemon=True).start()

    def _loop(self) -> None:
        while True:
            task = self.tasks.get()
            task.work()
            self.busy = False
            task.done.set()


_runner: Optional[_Runner] = None


def _forget_runner() -> None:
    global _runner
    _runner = None   # a forked child has none of its parent's threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_runner)


def _start(task: _Task) -> None:
    """Hand the task to the main thread's runner when that is free (a
    signal handler may search while a search waits), else to a new thread."""
    global _runner
    if in_main_thread():
        if _runner is None:
            _runner = _Runner()
        if not _runner.busy:
            _runner.busy = True
            _runner.tasks.put(task)
            return
    threading.Thread(target=_alone, args=(task,), name="brandubh-engine", daemon=True).start()


def wait_for(job: Callable[[Any], T], stop: Optional[threading.Event] = None,
             time_ms: Optional[float] = None) -> T:
    """``job(flag)`` in a worker thread while this one waits, raising the
    flag when ``stop`` is set, when ``time_ms`` have passed, or when an
    exception (Ctrl-C) is raised here; then the exception goes on.

    The job must touch only what it owns (copies): when a second interrupt
    comes while the first is being handled, this returns without waiting
    for the worker."""
    start = time.monotonic()
    deadline = None if time_ms is None else start + time_ms / 1000.0
    flag = ffi.new("int *")
    task = _Task(job, flag)
    started = False
    try:
        if stop is not None and stop.is_set():
            flag[0] = 1
        _start(task)
        started = True
        while not task.done.is_set():
            now = time.monotonic()
            if not flag[0] and ((stop is not None and stop.is_set())
                                or (deadline is not None and now >= deadline)):
                flag[0] = 1
            # A signal interrupts the wait at once on POSIX; elsewhere the
            # wait still comes back now and then for the handlers to run.
            wait = SLICE_SECONDS
            if not flag[0]:
                if stop is not None:
                    wait = POLL_SECONDS
                if deadline is not None:
                    wait = min(wait, deadline - now)
            task.done.wait(max(wait, 0.0))
    except BaseException:
        # Ctrl-C, or a signal handler's exception: stop the work, wait for it
        # to end (a few milliseconds), and let the exception go on.
        flag[0] = 1
        if started:
            try:
                task.done.wait()
            except BaseException:
                pass  # a second Ctrl-C: the worker owns what it uses
        raise
    if not task.ok:  # pragma: no cover
        raise task.value
    return task.value
