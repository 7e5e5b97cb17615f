"""Games on a Ray cluster: the second executor of the one game function.

:class:`RayExecutor` plays each game as a Ray task calling
:func:`~brandubh.arena.loop.play_game` with its
:class:`~brandubh.arena.loop.GameSpec` (picklable: players, opening,
rules, clock), exactly as :class:`~brandubh.arena.executor.ThreadExecutor`
calls it in a thread. An engine's games depend only on the spec (its seed
is the player's name and the game's number), so the same event gives the
same games and the same result table on a cluster as at home.

A task whose worker dies (the process killed, the machine gone) is given
back to the run unplayed and played again; Ray's own retries are off, so
a game is played again only here, and its record is taken once. A game
lost :data:`MAX_LOSSES` times is recorded as an arena error (not counted).

Ray is an optional extra (``pip install brandubh[cluster]``), imported only
when a cluster is asked for: ``--ray ADDRESS`` on the command line, where
ADDRESS is ``auto`` (the cluster that ``ray start --head`` started on this
machine, or the one ``RAY_ADDRESS`` names), ``local`` (a cluster started in
this process for the run, as many workers as ``--jobs`` or the cores), or
an address (``HOST:6379``, ``ray://HOST:10001``). See docs/cluster.md.

>>> connect_args('local', 2)
{'num_cpus': 2}
>>> connect_args('auto', None)
{'address': 'auto'}
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from ..errors import ClusterError, quote
from .executor import HandleExecutor
from .loop import GameRecord, GameSpec, play_game, unplayed

__all__ = ["RayExecutor", "connect_args", "import_ray", "MAX_LOSSES"]

#: How many times one game may be lost with its worker before the run gives
#: up on it (an arena error: a game that kills every worker it meets).
MAX_LOSSES = 3


def import_ray() -> Any:
    """The ``ray`` module, or ClusterError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs Ray, which is not installed: pip install brandubh[cluster]") from None
    return ray


def connect_args(address: str, cpus: Optional[int]) -> dict:
    """``ray.init``'s arguments for an ADDRESS of ``--ray``: ``local``
    starts a cluster in this process (``cpus`` workers, or one a core),
    anything else joins the cluster there."""
    if not isinstance(address, str) or not address.strip():
        raise ClusterError(f"--ray takes auto, local or a cluster's address, not {quote(address)}")
    address = address.strip()
    if address == "local":
        return {} if cpus is None else {"num_cpus": int(cpus)}
    return {"address": address}


def _play(spec: GameSpec) -> GameRecord:
    """One game, in a Ray worker: the arena's own game function. (A run's
    abort does not reach a worker; an interrupted run cancels the task.)"""
    return play_game(spec)


class RayExecutor(HandleExecutor):
    """Games as Ray tasks, one CPU each, ``slots`` out at once (``jobs``,
    or every CPU the cluster has). Joins the cluster at ``address`` (see
    :func:`connect_args`) unless this process is connected already, and
    leaves it on :meth:`close` only if it joined.

    ``replayed`` counts the games given back after their worker was lost."""

    def __init__(self, address: str = "auto", jobs: Optional[int] = None) -> None:
        ray = import_ray()
        self._ray = ray
        self._joined = False
        if not ray.is_initialized():
            kwargs = connect_args(address, jobs)
            try:
                ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                         **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ClusterError(f"no Ray cluster could be joined at {quote(address)}: {exc}") from None
            self._joined = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.close()
            raise ClusterError(f"the Ray cluster at {quote(address)} has no CPU to play on")
        self.cpus = cpus
        self.slots = cpus if jobs is None else max(1, min(int(jobs), cpus))
        self.address = address
        self._task = ray.remote(num_cpus=1, max_retries=0)(_play)
        super().__init__()
        self._losses: dict[int, int] = {}
        self.replayed = 0

    def submit(self, spec: GameSpec) -> None:
        self._out[self._task.remote(spec)] = spec

    def _done(self, handles: list, timeout: float) -> Iterable:
        ready, _ = self._ray.wait(handles, num_returns=1, timeout=timeout)
        if ready:  # and every other done by now
            ready, _ = self._ray.wait(handles, num_returns=len(handles), timeout=0)
        return ready

    def _take(self, ref: Any, spec: GameSpec) -> Optional[GameRecord]:
        """The game's record; None when its worker was lost (to be played
        again), an error record when it was lost too often or failed."""
        exceptions = self._ray.exceptions
        try:
            return self._ray.get(ref)
        except exceptions.RayTaskError as exc:  # the game function raised: an arena error
            return unplayed(spec, "error", f"the game failed on the cluster: {exc}")
        except exceptions.RayError as exc:  # the worker, its machine or the result was lost
            lost = self._losses.get(spec.index, 0) + 1
            self._losses[spec.index] = lost
            if lost >= MAX_LOSSES:
                return unplayed(spec, "error", f"the game was lost with its worker {lost} times: "
                                               f"{type(exc).__name__}")
            self.replayed += 1
            return None

    def interrupt(self) -> list[GameRecord]:
        for ref in list(self._out):
            try:
                self._ray.cancel(ref, force=True)
            except Exception:  # pragma: no cover - a task already gone
                pass
        self._out.clear()
        return []

    def close(self) -> None:
        if self._joined:
            self._ray.shutdown()
            self._joined = False

    def describe(self) -> str:
        return f"{self.slots} at a time as Ray tasks ({self.cpus} CPUs in the cluster at {self.address})"
