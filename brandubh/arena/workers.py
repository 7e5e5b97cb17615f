"""Games in worker processes: what ``--jobs N`` plays them in.

A game's Python (the loop, the game record, the bot's choice of a move)
holds the interpreter's lock, so the threads of one process
(:class:`~brandubh.arena.executor.ThreadExecutor`) gain little over one
when each move's search is short. :class:`ProcessExecutor` plays each game
in a worker process of its own instead, each with its own interpreter:
``slots`` workers, started once for a run (with the ``spawn`` start
method: a fresh interpreter, no copy of this process's threads or locks)
and reused for game after game. A game travels to a worker as its pickled
:class:`~brandubh.arena.loop.GameSpec` and comes back as its
:class:`~brandubh.arena.loop.GameRecord`; the worker calls the arena's one
game function, :func:`~brandubh.arena.loop.play_game`, as a thread would,
so the same event gives the same games and the same table.

What it promises:

- **A lost worker costs only its game.** A worker that dies (killed, out
  of memory) gives its game back unplayed: the run plays it again, first,
  in a new worker, and counts it once. A game lost :data:`MAX_LOSSES`
  times is an arena error (not counted).
- **Ctrl-C reports what was finished.** Workers ignore SIGINT (a terminal
  sends it to the whole process group): the run alone decides. On an
  interrupt every game out is told to stop at its next turn and comes back
  as an ``aborted`` record, as in threads; a worker that has not answered
  within ``grace`` seconds (an engine deep in a long search) is killed, its
  game recorded as aborted at its opening.
- **No process is left behind.** Every program a worker starts carries a
  mark in its environment (:data:`WORKER_MARK`); when a worker dies or is
  killed, and when the executor closes, every process with its mark is
  killed (Linux: found through /proc). A worker whose run went away (the
  command killed) sees its pipe close, kills its programs and leaves.

A game played in a worker is the game a thread of this process plays:

>>> from brandubh.arena import BotPlayer, GameSpec, ThreadExecutor
>>> players = (BotPlayer.from_text('budget=100', name='A'), BotPlayer.from_text('budget=50', name='B'))
>>> def moves(executor):
...     with executor as pool:
...         pool.submit(GameSpec(0, players))
...         return [record.moves for _spec, record in pool.finished(timeout=60)]
>>> moves(ProcessExecutor(1)) == moves(ThreadExecutor(1)) != []
True
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
import traceback
import uuid
from multiprocessing.connection import wait as wait_any
from typing import Any, Optional

from ..errors import ArgumentError, BrandubhError, quote
from .cluster import MAX_LOSSES
from .executor import Executor
from .loop import GameRecord, GameSpec, game_text, play_game, unplayed
from .reaping import Registry, marked, own_process

__all__ = ["ProcessExecutor", "WorkerError", "local_executor", "MAX_LOSSES", "WORKER_MARK", "STOP_GRACE"]

#: The environment variable that marks every program one worker starts.
WORKER_MARK = "BRANDUBH_ARENA_WORKER"

#: Seconds the games out have, once a run is interrupted, to stop at their
#: next turn and send their records before their workers are killed.
STOP_GRACE = 10.0

#: How long a closing executor waits for its workers to leave by
#: themselves before it kills them.
_LEAVE = 2.0


class WorkerError(BrandubhError):
    """The worker processes cannot play: one could not even start."""


# -- the worker ------------------------------------------------------------------------


def _serve(tasks: Any, results: Any, mark: str) -> None:
    """A worker's life: play each game the run sends, one at a time, and
    send back its record; stop a game when told; leave (its programs
    killed) when the run's end of ``tasks`` closes.

    Messages in: ``("play", index, pickled spec)``, ``("stop", indices)``.
    Out: ``("done", index, record)``, ``("skipped", index, None)`` for a
    game stopped before its turn came, or ``("failed", index, traceback)``
    when the spec cannot be read or the record cannot be sent."""
    # Ctrl-C, and the hangup of a terminal that closes (sent to the whole
    # process group), are the run's to answer: it stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    own_process()  # nothing here starts a process but the programs
    os.environ[WORKER_MARK] = mark  # inherited by every program started here
    registry = Registry()
    games: queue.SimpleQueue = queue.SimpleQueue()
    aborts: dict = {}  # index -> the abort event of a game not yet done
    lock = threading.Lock()

    def listen() -> None:
        try:
            while True:
                message = tasks.recv()
                if message[0] == "play":
                    abort = threading.Event()
                    with lock:
                        aborts[message[1]] = abort
                    games.put((message[1], message[2], abort))
                elif message[0] == "stop":
                    # Every game named at once, the one waiting its turn too,
                    # before the programs of the one in play are ended: so
                    # the next never begins.
                    with lock:
                        stopping = [aborts[i] for i in message[1] if i in aborts]
                    for event in stopping:
                        event.set()
                    if stopping:
                        registry.kill_all()
        except BaseException:  # EOF: the run is over or gone (or its message was cut)
            pass
        # Nothing more will be asked: end the programs and leave at once,
        # whatever the game in progress is doing.
        registry.kill_all()
        os._exit(0)

    threading.Thread(target=listen, name="brandubh-worker-listen", daemon=True).start()
    while True:
        index, blob, abort = games.get()
        try:
            spec = pickle.loads(blob)
            if abort.is_set():  # stopped while it waited its turn: never begun, nothing to report
                reply: tuple = ("skipped", index, None)
            else:
                reply = ("done", index, play_game(spec, abort, registry))
        except BaseException:  # a spec this worker cannot read: an arena error
            reply = ("failed", index, traceback.format_exc())
        with lock:
            aborts.pop(index, None)
        try:
            results.send(reply)
        except (OSError, EOFError):  # the run is gone
            break
        except Exception:  # a record that does not pickle: say so
            try:
                results.send(("failed", index, traceback.format_exc()))
            except Exception:
                break
    registry.kill_all()
    os._exit(0)


# -- the run's side --------------------------------------------------------------------


class _Worker:
    """One worker process, its two pipes, and the games it has (the one
    it plays, then those waiting their turn, in order)."""

    def __init__(self, context: Any, number: int) -> None:
        self.mark = uuid.uuid4().hex
        task_end, self.tasks = context.Pipe(duplex=False)
        self.results, result_end = context.Pipe(duplex=False)
        self.process = context.Process(target=_serve, args=(task_end, result_end, self.mark),
                                       name=f"brandubh-arena-{number}", daemon=True)
        self.process.start()
        # Only the worker holds its ends: when it dies, the run reads EOF.
        task_end.close()
        result_end.close()
        self.specs: list[GameSpec] = []
        self.stopping = False
        self.broken = False  # a message to or from it was cut by an interrupt
        self.played = 0  # games it sent back

    @property
    def pid(self) -> Optional[int]:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.exitcode is None

    def kill(self) -> None:
        """SIGKILL the worker, wait for it, close the pipes."""
        if self.process.exitcode is None:
            try:
                self.process.kill()
            except OSError:  # pragma: no cover - gone already
                pass
        self.process.join(5)
        for conn in (self.tasks, self.results):
            try:
                conn.close()
            except OSError:  # pragma: no cover
                pass


# The resource tracker: multiprocessing starts one process a parent, with
# its first spawned child, and leaves it running until the parent exits.
# The executors stop it when the last of them closes, if one of them
# started it (a program's own use of multiprocessing keeps its own).
_executors_lock = threading.Lock()
_executors_open = 0
_tracker_ours = False


def _tracker() -> Any:
    try:
        from multiprocessing import resource_tracker

        return resource_tracker._resource_tracker
    except (ImportError, AttributeError):  # pragma: no cover - another Python's multiprocessing
        return None


def _opened() -> None:
    global _executors_open, _tracker_ours
    with _executors_lock:
        if _executors_open == 0:
            tracker = _tracker()
            _tracker_ours = tracker is not None and getattr(tracker, "_fd", 0) is None
        _executors_open += 1


def _closed() -> None:
    """The last executor closed: stop the resource tracker if one of them
    started it. It leaves when every holder of its pipe has closed it (the
    workers are gone by now); it is reaped if it leaves within a second."""
    global _executors_open
    with _executors_lock:
        _executors_open -= 1
        if _executors_open or not _tracker_ours:
            return
        tracker = _tracker()
        try:
            with tracker._lock:
                fd, pid = tracker._fd, tracker._pid
                if fd is None or pid is None:
                    return
                os.close(fd)
                tracker._fd = tracker._pid = None
        except Exception:  # pragma: no cover - another Python's multiprocessing
            return
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
        except ChildProcessError:  # pragma: no cover - reaped elsewhere
            return
        time.sleep(0.005)


def _kill_marked(marks: list) -> None:
    """Kill every process that carries one of the worker ``marks`` (the
    programs a worker started, and theirs), and each one's process group."""
    if not marks:
        return
    for pid in marked(*marks, name=WORKER_MARK):
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _aborted(spec: GameSpec, detail: str) -> GameRecord:
    """The record of a game cut short whose worker could not send one: the
    game at its opening, aborted."""
    record = unplayed(spec, "aborted", detail)
    try:
        from ..variant import as_variant

        record.text = game_text(spec.opening.game(as_variant(spec.variant), spec.attackers), record.opening_plies)
    except Exception:  # pragma: no cover - the opening was checked when the event was made
        pass
    return record


#: The games a worker holds at once: the one it plays and the next, so that
#: it never waits for the run between two games (at 1,000 positions a move a
#: game takes about 3 ms, and the run's answer about a tenth of that).
DEPTH = 2


class ProcessExecutor(Executor):
    """Games in ``slots`` worker processes, one game a worker at a time
    and the next waiting in the worker (:data:`DEPTH`);
    the workers start when the executor is made and are reused for every
    game until :meth:`close` (keep one executor for a whole run, or many
    runs). ``start_method`` is multiprocessing's (``spawn``; ``forkserver``
    where there is one; never ``fork``, which copies this process's
    threads' locks); ``grace`` the seconds the games out have to stop
    after :meth:`interrupt`.

    ``replayed`` counts the games given back after their worker died, and
    ``started`` the workers started (``slots`` and one for each lost)."""

    def __init__(self, slots: int = 2, start_method: str = "spawn", grace: float = STOP_GRACE) -> None:
        if start_method not in ("spawn", "forkserver"):
            raise ArgumentError(f"worker processes start by spawn or forkserver, not {quote(start_method)} "
                                "(a forked worker would copy this process's threads' locks as they are)")
        if not isinstance(slots, int) or isinstance(slots, bool) or slots < 1:
            raise ArgumentError(f"a process executor needs at least one worker, not {quote(slots)}")
        self.slots = slots
        self.grace = float(grace)
        self._context = multiprocessing.get_context(start_method)
        self._workers: list = []
        self._ready: list = []  # (spec, record) known before any worker played it
        self._losses: dict = {}
        self.replayed = 0
        self.started = 0
        self._closed = False
        _opened()
        try:
            for _ in range(self.slots):
                self._workers.append(self._start())
        except BaseException:
            self.close()
            raise

    def _start(self) -> _Worker:
        self.started += 1
        return _Worker(self._context, self.started)

    @property
    def pids(self) -> list:
        """The workers' process ids."""
        return [w.pid for w in self._workers]

    @property
    def marks(self) -> list:
        """The marks (values of :data:`WORKER_MARK`) of the workers' programs."""
        return [w.mark for w in self._workers]

    # -- playing ------------------------------------------------------------------

    @property
    def capacity(self) -> int:
        return self.slots * DEPTH

    def submit(self, spec: GameSpec) -> None:
        if self._closed:
            raise RuntimeError("this executor is closed")
        try:
            blob = pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            self._ready.append((spec, unplayed(spec, "error", "the game cannot be sent to a worker "
                                                               "process:\n" + traceback.format_exc())))
            return
        # The worker with the fewest games (the first of those): the games
        # spread over the workers, and an idle one always takes the next.
        slot = min(range(len(self._workers)), key=lambda i: (len(self._workers[i].specs), i))
        worker = self._workers[slot]
        if not worker.specs and (not worker.alive() or worker.broken):  # lost: a new worker in its place
            self._retire(worker)
            worker = self._workers[slot] = self._start()
        worker.specs.append(spec)
        worker.broken = True  # until the message is all written
        try:
            worker.tasks.send(("play", spec.index, blob))
        except OSError:  # it died just now: finished() reads its EOF, and the game is played again
            pass
        worker.broken = False

    @property
    def running(self) -> int:
        return len(self._ready) + sum(len(w.specs) for w in self._workers)

    def finished(self, timeout: float) -> list[tuple[GameSpec, Optional[GameRecord]]]:
        done = self._ready
        self._ready = []
        busy = [w for w in self._workers if w.specs]
        if not busy:
            return done
        ready = set(wait_any([w.results for w in busy] + [w.process.sentinel for w in busy],
                             timeout=0 if done else timeout))
        for worker in busy:
            if worker.results in ready or worker.process.sentinel in ready:
                done.extend(self._take(worker))
        # In the order they were started, so that two done at once are
        # reported alike on every run.
        done.sort(key=lambda pair: pair[0].index)
        return done

    def _receive(self, worker: _Worker) -> Optional[tuple]:
        """The worker's answer, or None when it died without one."""
        worker.broken = True  # until the message is all read
        try:
            message = worker.results.recv()
        except Exception:  # EOF, a cut message: the worker is gone
            return None
        worker.broken = False
        return message

    def _take(self, worker: _Worker) -> list[tuple[GameSpec, Optional[GameRecord]]]:
        """The records the worker has sent (at least one is there, or its
        end); when it was lost, each of its games with None (to be played
        again), or an error record for one lost too often."""
        out: list[tuple[GameSpec, Optional[GameRecord]]] = []
        while worker.specs:
            message = self._receive(worker)
            spec = worker.specs[0]
            if message is None or message[1] != spec.index:
                break
            worker.specs.pop(0)
            worker.played += 1
            if message[0] != "skipped":  # a game stopped before it began is not reported
                out.append((spec, self._record(spec, message)))
            if not worker.results.poll():
                break
        else:
            worker.stopping = False
            return out
        if message is not None and message[1] == spec.index:  # more to come: it is still playing
            return out
        code = worker.process.exitcode
        self._retire(worker)  # a new worker takes its place at the next game
        lost_specs, worker.specs = worker.specs, []
        worker.stopping = False
        if not worker.played and code is not None and code > 0:
            raise WorkerError(f"a worker process could not start (exit code {code}; what it said is on "
                              "standard error). A script that makes a ProcessExecutor must do its work "
                              "under 'if __name__ == \"__main__\":', since each worker imports the "
                              "script's main module")
        # The game it was playing is lost with it; those waiting their turn
        # never began: a new worker in its place takes them, as they were.
        playing, waiting = lost_specs[:1], lost_specs[1:]
        if waiting:
            slot = self._workers.index(worker)
            worker = self._workers[slot] = self._start()
            for spec in waiting:
                worker.specs.append(spec)
                try:
                    worker.tasks.send(("play", spec.index, pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)))
                except OSError:  # dead at once: the next finished() sees it
                    break
        for spec in playing:
            lost = self._losses.get(spec.index, 0) + 1
            self._losses[spec.index] = lost
            if lost >= MAX_LOSSES:
                out.append((spec, unplayed(spec, "error", f"the game was lost with its worker process {lost} "
                                                          "times")))
            else:
                self.replayed += 1
                out.append((spec, None))
        return out

    @staticmethod
    def _record(spec: GameSpec, message: tuple) -> GameRecord:
        if message[0] == "done":
            return message[2]
        return unplayed(spec, "error", f"the game failed in a worker process:\n{message[2]}")

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker and whatever its programs left."""
        worker.kill()
        _kill_marked([worker.mark])

    # -- stopping -----------------------------------------------------------------

    def stop(self) -> None:
        """Tell every game out to stop at its next turn (its programs are
        killed; a game still waiting its turn stops before its first);
        their records still come through :meth:`finished`."""
        for worker in self._workers:
            if worker.specs and not worker.stopping and not worker.broken:
                worker.stopping = True
                try:
                    worker.tasks.send(("stop", tuple(spec.index for spec in worker.specs)))
                except OSError:  # it died: finished() sees it
                    pass

    def interrupt(self) -> list[GameRecord]:
        left = [record for _, record in self._ready if record is not None]
        self._ready = []
        busy = [w for w in self._workers if w.specs]
        for worker in busy:
            if worker.broken:  # a message cut half-way: nothing more can be read from it
                self._retire(worker)
        self.stop()
        deadline = time.monotonic() + self.grace
        waiting = [w for w in busy if w.alive()]
        while waiting:
            rest = deadline - time.monotonic()
            if rest <= 0:
                break
            ready = set(wait_any([w.results for w in waiting] + [w.process.sentinel for w in waiting],
                                 timeout=rest))
            for worker in list(waiting):
                if worker.results not in ready and worker.process.sentinel not in ready:
                    continue
                while worker.specs:
                    spec = worker.specs[0]
                    message = self._receive(worker)
                    if message is None or message[1] != spec.index:
                        self._retire(worker)
                        waiting.remove(worker)
                        break
                    if message[0] != "skipped":
                        left.append(self._record(spec, message))
                    worker.specs.pop(0)
                    if not worker.results.poll():
                        break
                if not worker.specs and worker in waiting:
                    waiting.remove(worker)
        for worker in busy:
            if worker.specs:  # its worker died, or did not answer in time
                self._retire(worker)
                # The game it played is aborted; those waiting their turn never began.
                left.append(_aborted(worker.specs[0], "the run was interrupted"))
                worker.specs = []
            worker.stopping = False
        left.sort(key=lambda record: record.index)
        return left

    def close(self) -> None:
        """End every worker: their task pipes close, so each kills its
        programs and leaves (at once, even mid-game); one still there after
        a moment is killed; then every process a worker marked is killed."""
        if self._closed:
            return
        self._closed = True
        for worker in self._workers:
            try:
                worker.tasks.close()
            except OSError:  # pragma: no cover
                pass
        end = time.monotonic() + _LEAVE
        for worker in self._workers:
            worker.process.join(max(0.0, end - time.monotonic()))
        for worker in self._workers:
            worker.kill()
        _kill_marked([w.mark for w in self._workers])
        _closed()

    def describe(self) -> str:
        return f"{self.slots} at a time in worker processes"


def local_executor(jobs: int, threads: bool = False) -> Optional[Executor]:
    """The executor for ``jobs`` games at once on this machine: a
    :class:`ProcessExecutor` for more than one, or None (the run's own
    thread) for one, or with ``threads`` (the run's own threads).

    >>> local_executor(1) is None, local_executor(4, threads=True) is None
    (True, True)
    """
    if threads or jobs <= 1:
        return None
    return ProcessExecutor(jobs)

