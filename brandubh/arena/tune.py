"""``brandubh tune``: the evaluation's weights tuned by SPSA through self-play.

SPSA (simultaneous perturbation stochastic approximation) as Fishtest runs
it for chess engines: at step ``k`` every weight is pushed up or down by
``c_k`` at once (the signs at random), the two sets of weights so made
play ``pairs`` pairs of games against each other (each pair one opening,
colours swapped, at a fixed node budget), and every weight moves towards
the side that scored better, by ``R_k * c_k * result`` (``result``: the
games the plus side won less those the minus side won). Over the run
``c_k = c / k**gamma`` falls to ``c_end`` and ``a_k = a / (A + k)**alpha``
to ``r_end * c_end**2`` (``R_k = a_k / c_k**2``), with ``A`` a tenth of the
steps: the Fishtest schedule, ``alpha = 0.602``, ``gamma = 0.101``.

Every game is played by the arena's one game function
(:func:`~brandubh.arena.loop.play_game`) through :func:`~brandubh.arena.event.run_event`,
in worker processes started once for the run
(:class:`~brandubh.arena.workers.ProcessExecutor`; one job: this process),
or on a Ray cluster (:class:`~brandubh.arena.cluster.RayExecutor`). Everything a step does
follows from the configuration and the step's number (the signs, the
openings, the engines' seeds), so a run, its log and its weights are the
same on every machine, however many workers play, and however often it
was stopped and resumed: the state (the weights as real numbers, the step,
the log) is saved to a JSON file as the run goes, and a run started again
with the same state file carries on from the last saved step.

>>> import os, tempfile
>>> state = os.path.join(tempfile.mkdtemp(), 'state.json')
>>> config = TuneConfig(steps=2, budget=100, pairs=1, params=('ring', 'freedom'))
>>> tuner = SpsaTuner(config, state)
>>> tuner.run() == 2, tuner.step, sorted(tuner.weights())
(True, 2, ['freedom', 'ring'])
>>> SpsaTuner(config, state).step    # resumed from the file
2
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..errors import BrandubhError, quote

__all__ = ["TuneConfig", "SpsaTuner", "TuneError", "DEFAULT_C_END"]


class TuneError(BrandubhError):
    """A tuning run cannot start or go on: a bad setting, or a state file
    that belongs to another run."""


#: How far each weight is pushed at the end of a run (``c_end``), in the
#: weight's own units: about a sixth of the shipped value, and at least
#: enough that the rounded weights differ.
DEFAULT_C_END: dict[str, float] = {
    "attacker": 15.0, "defender": 20.0, "lane_one": 40.0, "lane_two": 10.0,
    "freedom": 2.0, "corner_guard": 8.0, "ring": 8.0,
}
#: Bounds every tuned weight is kept within.
LOW, HIGH = -2000.0, 5000.0
STATE_VERSION = 1


@dataclass(frozen=True)
class TuneConfig:
    """What a tuning run does: the rules, the node budget of every move, the
    number of SPSA ``steps`` and of game ``pairs`` a step, the weights tuned
    (``params``) and where they start (``start``: the shipped defaults
    unless given), the schedule (``c_end`` per weight, ``r_end``, ``alpha``,
    ``gamma``), the openings (``random_plies`` random moves from the set-up,
    a new opening for each pair), and the ``seed`` that all of it follows.

    >>> TuneConfig(steps=10).a_offset
    1.0
    """

    variant: str = "brandubh"
    budget: int = 20_000
    steps: int = 5_000
    pairs: int = 2
    params: tuple[str, ...] = ()
    start: tuple[tuple[str, float], ...] = ()
    c_end: tuple[tuple[str, float], ...] = ()
    r_end: float = 0.004
    alpha: float = 0.602
    gamma: float = 0.101
    random_plies: int = 4
    seed: int = 1

    def __post_init__(self) -> None:
        from ..core.search import WEIGHT_NAMES, check_limits, default_weights
        from ..variant import as_variant

        as_variant(self.variant)
        check_limits(self.budget, 1, None)
        for name in ("steps", "pairs"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise TuneError(f"{name} must be a whole number of at least 1, not {quote(value)}")
        if not isinstance(self.random_plies, int) or not 0 <= self.random_plies <= 40:
            raise TuneError(f"random_plies must be a whole number from 0 to 40, not {quote(self.random_plies)}")
        params = tuple(self.params) or tuple(n for n in WEIGHT_NAMES if n != "eval")  # eval picks, not weighs
        for name in params:
            if name not in WEIGHT_NAMES:
                raise TuneError(f"no weight named {quote(name)} to tune; the weights are {', '.join(WEIGHT_NAMES)}")
        if len(set(params)) != len(params):
            raise TuneError(f"a weight is named twice in {', '.join(params)}")
        object.__setattr__(self, "params", params)
        defaults = default_weights()
        start = dict(self.start)
        c_end = dict(self.c_end)
        for name in list(start) + list(c_end):
            if name not in params:
                raise TuneError(f"{quote(name)} is given a start or a c_end but is not tuned")
        full_start = tuple((n, float(start.get(n, defaults[n]))) for n in params)
        full_c = tuple((n, float(c_end.get(n, DEFAULT_C_END[n]))) for n in params)
        for n, v in full_start:
            if not LOW <= v <= HIGH:
                raise TuneError(f"the start of {n} must be from {LOW:g} to {HIGH:g}, not {v:g}")
        for n, v in full_c:
            if not 0 < v <= 1000:
                raise TuneError(f"c_end of {n} must be above 0 and at most 1000, not {v:g}")
        object.__setattr__(self, "start", full_start)
        object.__setattr__(self, "c_end", full_c)
        for name, low, high in (("r_end", 0, 1), ("alpha", 0, 2), ("gamma", 0, 1)):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not low < value <= high:
                raise TuneError(f"{name} must be above {low} and at most {high}, not {quote(value)}")

    @property
    def a_offset(self) -> float:
        """The schedule's ``A``: a tenth of the steps."""
        return max(1.0, 0.1 * self.steps)

    def schedule(self, k: int) -> tuple[dict[str, float], dict[str, float]]:
        """``c_k`` and ``R_k * c_k`` (the step per unit of result) of each
        weight at step ``k`` (from 1)."""
        n, big_a = self.steps, self.a_offset
        c, step = {}, {}
        for name, c_end in self.c_end:
            c_k = c_end * (n / k) ** self.gamma
            a_k = self.r_end * c_end ** 2 * ((big_a + n) / (big_a + k)) ** self.alpha
            c[name], step[name] = c_k, a_k / c_k
        return c, step

    def as_dict(self) -> dict:
        out = dataclasses.asdict(self)
        out["params"] = list(self.params)
        out["start"] = dict(self.start)
        out["c_end"] = dict(self.c_end)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "TuneConfig":
        """The configuration a state file holds; TuneError with a sentence
        for one of the wrong shape."""
        def bad(why: str) -> TuneError:
            return TuneError(f"its configuration {why}")

        if not isinstance(data, dict):
            raise bad("is not a JSON object")
        kw = dict(data)
        params = kw.get("params", ())
        if not isinstance(params, (list, tuple)) or not all(isinstance(p, str) for p in params):
            raise bad("names its weights (params) other than as a list of names")
        kw["params"] = tuple(params)
        for key in ("start", "c_end"):
            value = kw.get(key, {})
            if not isinstance(value, dict) or not all(_finite(v) for v in value.values()):
                raise bad(f"gives {key} other than as names with numbers")
            kw[key] = tuple(value.items())
        try:
            return cls(**kw)
        except TypeError as exc:
            raise bad(f"is not one this version reads: {exc}") from None
        except BrandubhError as exc:
            raise bad(f"is not one this version plays: {exc}") from None


def _finite(value: Any) -> bool:
    """A number (not a truth value) that is neither NaN nor infinite."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any, low: int, high: Optional[int] = None) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= low
            and (high is None or value <= high))


def _clamp(x: float) -> float:
    return min(HIGH, max(LOW, x))


class SpsaTuner:
    """One SPSA run, kept in the JSON file ``state`` (read back when it
    exists, and refused if it was made by another configuration). ``theta``
    holds the weights as real numbers; :meth:`weights` rounds them.
    :meth:`run` plays steps until the run is done or stopped, saving the
    state at least every ``save_every`` seconds and at the end.
    ``executor`` plays the games (by default this process's threads,
    ``jobs`` at once)."""

    def __init__(self, config: TuneConfig, state: str, *, jobs: int = 1, executor: Any = None,
                 save_every: float = 10.0) -> None:
        self.config = config
        self.path = os.fspath(state)
        self.jobs = jobs
        self.executor = executor
        self.save_every = save_every
        self.theta: dict[str, float] = dict(config.start)
        self.step = 0
        self.games = 0
        self.log: list[dict] = []
        if os.path.exists(self.path):
            self._load()

    # -- the state file ------------------------------------------------------------

    def _load(self) -> None:
        """Read the state file back, checked whole before anything is taken
        from it: TuneError with a sentence for a file that is not a state
        file, is of another run, or holds what no run writes."""
        from ..files import read_text

        where = quote(self.path, 200)
        try:
            data = json.loads(read_text(self.path, what="state file"))
        except RecursionError:
            raise TuneError(f"the state file {where} is not one of brandubh tune: its JSON is nested "
                            "too deep") from None
        except ValueError as exc:  # not JSON, not UTF-8, too large, cannot be read
            raise TuneError(f"cannot read the state file {where}: {exc}") from None
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise TuneError(f"{where} is not a state file of brandubh tune")
        missing = [key for key in ("config", "step", "games", "theta", "log") if key not in data]
        if missing:
            raise TuneError(f"the state file {where} lacks {', '.join(missing)}: it is not one that "
                            "brandubh tune wrote")
        try:
            saved = TuneConfig.from_dict(data["config"])
        except TuneError as exc:
            raise TuneError(f"the state file {where}: {exc}") from None
        if saved != self.config:
            differ = [k for k, v in self.config.as_dict().items() if saved.as_dict().get(k) != v]
            raise TuneError(f"the state file {where} is of another run (it differs in "
                            f"{', '.join(differ)}): give another --state, or the same settings")
        step, games, theta, log = data["step"], data["games"], data["theta"], data["log"]
        if not _whole(step, 0, saved.steps):
            raise TuneError(f"the state file {where} is at step {quote(step)}: a run of {saved.steps} "
                            f"steps is at a step from 0 to {saved.steps}")
        if not _whole(games, 0):
            raise TuneError(f"the state file {where} counts {quote(games)} games played: a whole "
                            "number of at least 0 was expected")
        if not isinstance(theta, dict) or set(theta) != set(saved.params):
            raise TuneError(f"the state file {where} holds theta (the weights so far) for other "
                            f"weights than {', '.join(saved.params)}")
        for name in saved.params:
            value = theta[name]
            if not _finite(value) or not LOW <= value <= HIGH:
                raise TuneError(f"the state file {where} holds {quote(value)} as theta of {name}: a "
                                f"number from {LOW:g} to {HIGH:g} was expected")
        if not isinstance(log, list) or not all(isinstance(entry, dict) for entry in log):
            raise TuneError(f"the state file {where} holds a log that is not a list of steps")
        self.theta = {name: float(theta[name]) for name in saved.params}
        self.step, self.games, self.log = step, games, log

    def save(self) -> None:
        """Write the state whole or not at all (:func:`brandubh.files.write_whole`:
        a reader or a crash never sees half a file, a full disk keeps the old one)."""
        from ..files import write_whole

        body = {"version": STATE_VERSION, "config": self.config.as_dict(), "step": self.step,
                "games": self.games, "theta": self.theta, "weights": self.weights(), "log": self.log}
        write_whole(self.path, json.dumps(body, separators=(",", ":")) + "\n")

    @property
    def done(self) -> bool:
        return self.step >= self.config.steps

    def weights(self) -> dict[str, int]:
        """The tuned weights so far, rounded."""
        return {name: int(round(value)) for name, value in sorted(self.theta.items())}

    # -- one step ------------------------------------------------------------------

    def _event(self, k: int, plus: dict, minus: dict) -> Any:
        from . import BotPlayer, Event
        from .openings import random_openings

        cfg = self.config
        # The classical evaluation, whatever the default: its weights are what is tuned.
        players = [BotPlayer({"budget": cfg.budget, "weights": {**w, "eval": 0}}, name=name,
                                text=f"budget={cfg.budget}," + ",".join(f"{n}={v}" for n, v in w.items()))
                   for name, w in (("plus", plus), ("minus", minus))]
        openings = random_openings(cfg.pairs, cfg.random_plies, cfg.seed * 1_000_003 + k, cfg.variant,
                                   distinct=True)
        return Event(players, games=2 * cfg.pairs, variant=cfg.variant, openings=openings, jobs=self.jobs)

    def play_step(self, abort: Optional[threading.Event] = None) -> Optional[dict]:
        """Play step ``self.step + 1`` and move the weights; its log entry,
        or None when the run was interrupted during it (nothing changes)."""
        from . import run_event

        cfg = self.config
        k = self.step + 1
        rng = random.Random(f"brandubh tune {cfg.seed} {k}")
        flips = {name: rng.choice((-1, 1)) for name in cfg.params}
        c, step = cfg.schedule(k)
        plus = {n: int(round(_clamp(self.theta[n] + c[n] * flips[n]))) for n in cfg.params}
        minus = {n: int(round(_clamp(self.theta[n] - c[n] * flips[n]))) for n in cfg.params}
        result = run_event(self._event(k, plus, minus), abort=abort, executor=self.executor)
        if result.interrupted or len(result.counted) < 2 * cfg.pairs:
            return None
        w, d, l = result.tally.counts("plus")
        score = w - l
        for n in cfg.params:
            self.theta[n] = _clamp(self.theta[n] + step[n] * score * flips[n])
        self.step = k
        self.games += len(result.counted)
        entry = {"step": k, "flips": "".join("+" if flips[n] > 0 else "-" for n in cfg.params),
                 "plus": [w, d, l], "result": score,
                 "theta": {n: round(self.theta[n], 3) for n in cfg.params}}
        self.log.append(entry)
        return entry

    def run(self, on_step: Optional[Callable[["SpsaTuner", dict], None]] = None,
            abort: Optional[threading.Event] = None, max_steps: Optional[int] = None) -> int:
        """Play steps until the run is done (or ``max_steps`` more, or
        ``abort``); saves as it goes and at the end; the steps played.
        Ctrl-C saves what was finished and raises KeyboardInterrupt."""
        played = 0
        last_save = time.monotonic()
        try:
            while not self.done and (max_steps is None or played < max_steps):
                if abort is not None and abort.is_set():
                    break
                entry = self.play_step(abort)
                if entry is None:
                    raise KeyboardInterrupt
                played += 1
                if on_step is not None:
                    on_step(self, entry)
                if time.monotonic() - last_save >= self.save_every:
                    self.save()
                    last_save = time.monotonic()
        finally:
            self.save()
        return played

    def summary(self) -> str:
        """A line: the step, the games, the weights."""
        shown = ", ".join(f"{n} {v:.1f}" for n, v in self.theta.items())
        return f"step {self.step}/{self.config.steps}, {self.games} games: {shown}"


# -- the command --------------------------------------------------------------------
