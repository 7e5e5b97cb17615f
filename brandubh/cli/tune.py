"""``brandubh tune``: the evaluation's weights tuned by SPSA through
self-play (:mod:`brandubh.arena.tune`), its state saved as it goes, a
weights file at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Optional, TextIO

from ..argtypes import real, whole
from ..arena.command import signals_interrupt
from ..arena.event import default_jobs
from ..arena.stats import Progress
from ..arena.tune import DEFAULT_C_END, SpsaTuner, TuneConfig
from ..core.weights import save_weights
from ..errors import ArgumentError
from ..files import check_writable

__all__ = ["register", "run"]


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
arguments, 130 when interrupted by Ctrl-C, SIGTERM or SIGHUP (the state and
the weights so far are saved: run the same command to go on)."""


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


def _say(text: str, stream: TextIO) -> None:
    """A line on ``stream``, unless the stream is gone (a closed terminal)."""
    try:
        print(text, file=stream, flush=True)
    except (OSError, ValueError):
        pass


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

    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    params = tuple(filter(None, (p.strip() for p in (args.params or "").split(","))))
    config = TuneConfig(variant=args.variant, budget=args.budget, steps=args.steps, pairs=args.pairs,
                        params=params, start=args.start, c_end=args.c_end, r_end=args.r_end,
                        random_plies=args.random_plies, seed=args.seed)
    state = args.state or args.out + ".state.json"
    for path, what in ((args.out, "--out"), (state, "--state")):
        # Now, not after the whole run: a folder, a device or a missing folder.
        try:
            check_writable(path)
        except ArgumentError as error:
            raise ArgumentError(f"{what}: {error}") from None
    jobs = args.jobs or default_jobs()
    # SIGTERM and SIGHUP end the run as Ctrl-C does, from here on: saved,
    # not lost, and the workers stopped.
    with signals_interrupt():
        return _play(args, config, state, jobs, stdout, stderr)


def _play(args: argparse.Namespace, config: TuneConfig, state: str, jobs: int, stdout: TextIO,
          stderr: TextIO) -> int:
    executor: Any
    if args.ray:
        from ..arena.cluster import RayExecutor

        executor = RayExecutor(args.ray, jobs=args.jobs)
    else:  # worker processes, started once for the run, as many as a step's games can use
        from ..arena.workers import local_executor

        executor = local_executor(min(jobs, 2 * config.pairs, default_jobs()))
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
            try:
                tuner.run(on_step, max_steps=more)
            except KeyboardInterrupt:
                progress.close()
                write_out()
                _say(f"interrupted at step {tuner.step}: state saved in {state} and the weights "
                     f"so far in {args.out}; the same command goes on from there", stderr)
                return 130
        except KeyboardInterrupt:  # a second Ctrl-C while saving: what was saved stays
            return 130
        progress.close()
        write_out()
    finally:
        if executor is not None:
            executor.close()
    print(json.dumps(tuner.weights(), sort_keys=True), file=stdout)
    print(f"wrote {args.out}: {tuner.summary()}", file=stderr)
    return 0
