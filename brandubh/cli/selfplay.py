"""``brandubh selfplay``: the engine's games against itself written as
training positions (:mod:`brandubh.learn.selfplay`, docs/learned.md)."""

from __future__ import annotations

import sys
import time
from typing import Any

from ..errors import ArgumentError, quote
from ..learn.selfplay import TAGS, generate, read_header_of

__all__ = ["register", "run"]

#: Seconds between two progress lines: on a terminal one line is written
#: over and over; into a file or a pipe (a log) a line is added, less often.
TERMINAL_EVERY = 2.0
LOG_EVERY = 60.0


def run(args: Any) -> int:
    from ..variant import as_variant

    variants = TAGS if args.variant == "all" else [as_variant(args.variant)]
    lo, _, hi = args.random_plies.partition(",")
    try:
        plies = (int(lo), int(hi or lo))
    except ValueError:
        raise ArgumentError(f"--random-plies takes FEWEST,MOST (like 2,10), not {quote(args.random_plies)}") from None
    on_terminal = sys.stderr.isatty()
    every = TERMINAL_EVERY if on_terminal else LOG_EVERY
    last = [0.0]

    def progress(n: int, games: int, seconds: float) -> None:
        if seconds - last[0] >= every or n >= args.positions:
            last[0] = seconds
            rate = n / seconds if seconds > 0 else 0.0
            line = f"{n:,}/{args.positions:,} positions, {games:,} games, {rate:,.0f} positions/s"
            # A terminal's line is written over; a file or a pipe gets lines.
            sys.stderr.write(f"\r{line} " if on_terminal else f"{line}\n")
            sys.stderr.flush()

    # The end of a terminal's line, which the progress leaves open.
    line_end = "\n" if on_terminal and not args.quiet else ""
    t0 = time.perf_counter()
    try:
        n = generate(args.out, args.positions, seed=args.seed, variants=variants, budget=args.budget,
                     random_plies=plies, weights=None if args.eval is None else {"eval": args.eval},
                     progress=None if args.quiet else progress)
    except KeyboardInterrupt:
        info, _ = read_header_of(args.out)
        sys.stderr.write(f"{line_end}stopped: {info.count:,} positions kept in {args.out}\n")
        return 130
    sys.stderr.write(line_end)
    print(f"{n:,} positions in {args.out} ({time.perf_counter() - t0:.1f} s)")
    return 0


def register(sub: Any) -> None:
    """``brandubh selfplay``, on the command's subparsers."""
    p = sub.add_parser("selfplay", help="write self-play positions for training",
                       description="Play the engine against itself and write every searched position with "
                       "the search's score and the game's result to a data file (docs/learned.md).")
    p.add_argument("--out", required=True, help="the data file to write")
    p.add_argument("--positions", type=int, default=100_000, help="how many positions (default 100000)")
    p.add_argument("--seed", type=int, default=1, help="the run's seed: the same seed, the same file (default 1)")
    p.add_argument("--variant", default="all",
                   help="a preset, a variant line, or all: the four presets in turn (default all)")
    p.add_argument("--budget", type=int, default=2000, help="positions each search may visit (default 2000)")
    p.add_argument("--random-plies", default="2,10",
                   help="FEWEST,MOST random moves that open each game (default 2,10)")
    p.add_argument("--eval", choices=("classical", "learned", "nnue"),
                   help="the evaluation the games are searched with (default: the engine's default)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=run)
