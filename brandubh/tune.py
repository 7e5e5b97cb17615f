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
in this process's threads or on a Ray cluster
(:class:`~brandubh.arena.cluster.RayExecutor`). Everything a step does
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

import argparse
import dataclasses
import json
import os
import random
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, TextIO

from .argtypes import real, whole
from .errors import ArgumentError, BrandubhError, quote

__all__ = ["TuneConfig", "SpsaTuner", "TuneError", "DEFAULT_C_END", "register", "run"]


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
        from .search import WEIGHT_NAMES, check_limits, default_weights
        from .variant import as_variant

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
    def from_dict(cls, data: dict) -> "TuneConfig":
        kw = dict(data)
        kw["params"] = tuple(kw.get("params", ()))
        kw["start"] = tuple(dict(kw.get("start", {})).items())
        kw["c_end"] = tuple(dict(kw.get("c_end", {})).items())
        try:
            return cls(**kw)
        except TypeError as exc:
            raise TuneError(f"the state file's configuration is not one this version reads: {exc}") from None


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
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as exc:
            raise TuneError(f"cannot read the state file {quote(self.path)}: {exc}") from None
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise TuneError(f"{quote(self.path)} is not a state file of brandubh tune")
        saved = TuneConfig.from_dict(data["config"])
        if saved != self.config:
            differ = [k for k, v in self.config.as_dict().items() if saved.as_dict().get(k) != v]
            raise TuneError(f"the state file {quote(self.path)} is of another run (it differs in "
                            f"{', '.join(differ)}): give another --state, or the same settings")
        self.theta = {k: float(v) for k, v in data["theta"].items()}
        self.step = int(data["step"])
        self.games = int(data["games"])
        self.log = list(data["log"])

    def save(self) -> None:
        """Write the state (atomically: a reader or a crash never leaves half a file)."""
        body = {"version": STATE_VERSION, "config": self.config.as_dict(), "step": self.step,
                "games": self.games, "theta": self.theta, "weights": self.weights(), "log": self.log}
        tmp = f"{self.path}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(body, f, separators=(",", ":"))
            f.write("\n")
        os.replace(tmp, self.path)

    @property
    def done(self) -> bool:
        return self.step >= self.config.steps

    def weights(self) -> dict[str, int]:
        """The tuned weights so far, rounded."""
        return {name: int(round(value)) for name, value in sorted(self.theta.items())}

    # -- one step ------------------------------------------------------------------

    def _event(self, k: int, plus: dict, minus: dict) -> Any:
        from .arena import EnginePlayer, Event
        from .arena.openings import random_openings

        cfg = self.config
        # The classical evaluation, whatever the default: its weights are what is tuned.
        players = [EnginePlayer({"budget": cfg.budget, "weights": {**w, "eval": 0}}, name=name,
                                text=f"budget={cfg.budget}," + ",".join(f"{n}={v}" for n, v in w.items()))
                   for name, w in (("plus", plus), ("minus", minus))]
        openings = random_openings(cfg.pairs, cfg.random_plies, cfg.seed * 1_000_003 + k, cfg.variant,
                                   distinct=True)
        return Event(players, games=2 * cfg.pairs, variant=cfg.variant, openings=openings, jobs=self.jobs)

    def play_step(self, abort: Optional[threading.Event] = None) -> Optional[dict]:
        """Play step ``self.step + 1`` and move the weights; its log entry,
        or None when the run was interrupted during it (nothing changes)."""
        from .arena import run_event

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

_DESCRIPTION = """\
Tune the evaluation's weights for a rule set by SPSA through self-play, as
Fishtest tunes chess engines: at each step every weight is pushed up or
down at once, the two sets of weights play pairs of games against each other
(colours swapped, one random opening a pair, a fixed node budget), and the
weights move towards the side that won more. The state is saved to
--state as the run goes: the same command again resumes it. At the end the
weights are written to --out, a file every player takes (match
"budget=20000,weights=FILE", codingame --weights FILE, Bot(weights=FILE))."""

_EPILOG = """\
examples:
  brandubh tune --out tuned.json --steps 5000 --budget 20000
  brandubh tune --out tuned.json --steps 5000 --ray auto --pairs 8
  brandubh tune --out ring.json --params ring,freedom --steps 500 --budget 5000
  brandubh match "budget=20000,weights=tuned.json" "budget=20000" --sprt 0,10

Exit status: 0 when the run is done (or has reached --until), 2 for bad
arguments, 130 when interrupted (the state is saved: run the same command
to go on)."""


def _named_floats(text: str) -> tuple[tuple[str, float], ...]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, raw = part.partition("=")
        try:
            out.append((name.strip(), float(raw)))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not name=number") from None
        if not eq:
            raise argparse.ArgumentTypeError(f"{part!r} is not name=number")
    return tuple(out)


def register(subparsers) -> None:
    """Add the ``tune`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser(
        "tune", help="tune the evaluation's weights by SPSA through self-play",
        description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the weights file written at the end (and after every save)")
    p.add_argument("--state", metavar="FILE",
                   help="the run's state, saved as it goes and resumed from (default: OUT.state.json)")
    p.add_argument("--variant", default="brandubh", metavar="RULES",
                   help="the rule set the weights are for (default: brandubh)")
    p.add_argument("--budget", type=whole(1), default=20_000, metavar="NODES",
                   help="positions searched a move in every game (default 20000)")
    p.add_argument("--steps", type=whole(1), default=5_000, metavar="N",
                   help="SPSA steps (default 5000)")
    p.add_argument("--pairs", type=whole(1), default=2, metavar="N",
                   help="pairs of games a step, colours swapped (default 2; on a cluster, about "
                        "half its CPUs keeps every worker busy)")
    p.add_argument("--params", metavar="NAMES",
                   help="the weights to tune, comma-separated (default: all seven)")
    p.add_argument("--start", type=_named_floats, default=(), metavar="NAME=X,...",
                   help="where weights start (default: the shipped defaults)")
    p.add_argument("--c-end", type=_named_floats, default=(), metavar="NAME=X,...",
                   help="how far a weight is pushed at the end of the run (defaults: "
                        + ", ".join(f"{k} {v:g}" for k, v in DEFAULT_C_END.items()) + ")")
    p.add_argument("--r-end", type=real(0, 1, open_low=True), default=0.004, metavar="R",
                   help="the learning rate at the end, a_end / c_end^2 (default 0.004)")
    p.add_argument("--random-plies", type=whole(0, 40), default=4, metavar="N",
                   help="random moves from the set-up in each pair's opening (default 4)")
    p.add_argument("--seed", type=whole(0, (1 << 31) - 1), default=1, metavar="N",
                   help="the seed the signs and openings follow (default 1)")
    p.add_argument("--jobs", "-j", type=whole(1), default=None, metavar="N",
                   help="games played at once (default: the cores; with --ray, the cluster's CPUs)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="play the games as Ray tasks: auto, local or HOST:PORT (docs/cluster.md)")
    p.add_argument("--until", type=whole(1), metavar="STEP",
                   help="stop (saved, to go on later) once the run reaches this step: a run "
                        "in parts, the same as in one go")
    p.add_argument("--every", type=whole(1), default=100, metavar="N",
                   help="print a line every N steps (default 100)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, stdout: Optional[TextIO] = None, stderr: Optional[TextIO] = None) -> int:
    """Run ``brandubh tune`` with parsed arguments; the exit status."""
    from .arena.event import default_jobs
    from .stats import Progress
    from .weights import save_weights

    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    params = tuple(filter(None, (p.strip() for p in (args.params or "").split(","))))
    config = TuneConfig(variant=args.variant, budget=args.budget, steps=args.steps, pairs=args.pairs,
                        params=params, start=args.start, c_end=args.c_end, r_end=args.r_end,
                        random_plies=args.random_plies, seed=args.seed)
    state = args.state or args.out + ".state.json"
    for path, what in ((args.out, "--out"), (state, "--state")):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise ArgumentError(f"cannot write {quote(path)} ({what}): its folder is missing or not writable")
    executor = None
    if args.ray:
        from .arena.cluster import RayExecutor

        executor = RayExecutor(args.ray, jobs=args.jobs)
    jobs = args.jobs or default_jobs()
    try:
        tuner = SpsaTuner(config, state, jobs=jobs, executor=executor)
        where = executor.describe() if executor is not None else f"{jobs} at a time in this process"
        print(f"brandubh tune: {config.variant}, {config.budget} positions a move, {config.steps} steps "
              f"of {2 * config.pairs} games, {where}; state {state}"
              + (f" (resuming at step {tuner.step})" if tuner.step else ""), file=stderr)
        progress = Progress(config.steps, stream=stderr)
        t0 = time.monotonic()
        first = tuner.step

        def on_step(t: SpsaTuner, entry: dict) -> None:
            rate = (t.step - first) / max(1e-9, time.monotonic() - t0)
            progress.update(t.step, f"{t.games} games, {rate * 2 * config.pairs:.1f} games/s")
            if t.step % args.every == 0 or t.done:
                progress.close()
                print(t.summary(), file=stderr, flush=True)

        def write_out() -> None:
            save_weights(args.out, tuner.weights(), variant=config.variant, step=tuner.step,
                         steps=config.steps, games=tuner.games, tuned_by="brandubh tune (SPSA)",
                         config=config.as_dict())

        more = None if args.until is None else max(0, args.until - tuner.step)
        try:
            tuner.run(on_step, max_steps=more)
        except KeyboardInterrupt:
            progress.close()
            write_out()
            print(f"interrupted at step {tuner.step}: state saved in {state}; the same command "
                  "goes on from there", file=stderr)
            return 130
        progress.close()
        write_out()
    finally:
        if executor is not None:
            executor.close()
    print(json.dumps(tuner.weights(), sort_keys=True), file=stdout)
    print(f"wrote {args.out}: {tuner.summary()}", file=stderr)
    return 0
