"""``brandubh codingame``: the CodinGame bot on standard input and output,
or written out as one C file (``--export``).

The bot itself is :mod:`brandubh.codingame.bot`; the export
:mod:`brandubh.codingame.export`. ``python -m brandubh.codingame`` is the
same command.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional

from ..argtypes import real, whole
from ..codingame.bot import (
    ASSUMED_RATE, FIRST_MS, MARGIN_MS, MAX_LEVEL, TURN_MS, _say, bot_chooser, budgets, play,
)
from ..codingame.export import MARGIN_MS as EXPORT_MARGIN_MS
from ..core.search import MAX_THREADS
from ..core.clock import move_limit_ms

__all__ = ["register", "run"]


_DESCRIPTION = """\
Play brandubh as a bot over the protocol of the CodinGame puzzle "Brandubh",
on standard input and output, until the input ends.

Each turn the bot reads its role (0 attackers, 1 defenders), the opponent's
last move (d2d4, or NONE on the first turn) and seven board lines (rank 7
first; . A D K), and answers one move, like d2d4.

It keeps its own game record from the boards, so that repetition is judged
as the referee judges it; a board that does not follow from that record, or
input it cannot read, gets a line on standard error and still a legal move.

It plays as brandubh.Bot at --level. By default it plays to the clock:
each search stops at the time limit (100 ms on the first turn, 50 ms
after) less --margin (25 ms; 20 ms for --export), or at the level's budget. For reproducible
runs, --budget (or --first-budget, or --rate) gives fixed budgets of
positions instead, and no clock is read: --rate derives them from an
assumed speed (35% of 100 ms and 50% of 50 ms at 5 M positions a second:
175,000 and 125,000 positions)."""


_EPILOG = """\
examples:
  brandubh codingame                      the strongest level, to the clock
  brandubh codingame --margin 30          keep more of each limit back
  brandubh codingame --level 5 --seed 7   a weaker sparring partner
  brandubh codingame --budget 40000       40,000 positions a turn: reproducible
  brandubh referee "brandubh codingame" "python3 my_bot.py" --games 100"""


def register(subparsers) -> None:
    """Add the ``codingame`` command to the ``brandubh`` command's
    subparsers."""
    p = subparsers.add_parser(
        "codingame", help="play as a bot over the CodinGame protocol (stdin/stdout)",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", type=whole(1, MAX_LEVEL), default=MAX_LEVEL, metavar=f"1-{MAX_LEVEL}",
                   help=f"play as brandubh.Bot at this level: 1 (a beginner who sometimes "
                        f"blunders) to {MAX_LEVEL} (the default); the level's budget is "
                        "capped by the time budget")
    p.add_argument("--budget", type=whole(1), metavar="NODES",
                   help="positions to search on each turn after the first, with no clock: "
                        "reproducible (default: play to the clock; with --rate, 50%% of "
                        "50 ms at that rate, 125000 at the assumed rate)")
    p.add_argument("--first-budget", type=whole(1), metavar="NODES",
                   help="positions to search on the first turn, with no clock (default: "
                        "1.4 times --budget, or 35%% of 100 ms at the assumed rate, 175000)")
    p.add_argument("--margin", type=real(0), metavar="MS",
                   help="playing to the clock, what to keep back from each time limit, "
                        f"in milliseconds (default {MARGIN_MS}: {FIRST_MS - MARGIN_MS} ms, then "
                        f"{TURN_MS - MARGIN_MS} ms; the exported bot, default {EXPORT_MARGIN_MS:g}, "
                        "keeps it back from its later turns and the same share from its first)")
    p.add_argument("--seed", type=whole(0, (1 << 32) - 1), default=1, metavar="N",
                   help="the bot's seed: it chooses among moves the search scores alike and, "
                        "at levels 1 and 2, when to blunder (0 to 2^32-1, default 1)")
    p.add_argument("--rate", type=real(0, open_low=True), metavar="NPS",
                   help="fixed budgets with no clock, derived from this many positions a "
                        f"second (the assumed rate is {ASSUMED_RATE})")
    p.add_argument("--threads", type=whole(1, MAX_THREADS), default=None, metavar="N",
                   help="search on N threads (default 1; more is not deterministic; the exported "
                        "bot has one)")
    p.add_argument("--variant", default="codingame", metavar="NAME",
                   help="the rule set: a preset (codingame, brandubh, modern, opentafl) or a "
                        "quoted line of field=value pairs (default: codingame)")
    p.add_argument("--weights", metavar="FILE",
                   help="the evaluation's weights from FILE (what 'brandubh tune' writes; the "
                        "weights it leaves out keep their defaults), in play and in --export")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="write each turn's move, budget and search time on standard error")
    p.add_argument("--export", metavar="FILE",
                   help="do not play: write the bot as one C source file to submit to CodinGame "
                        "(- for standard output), with --level, --budget, --first-budget, --seed, "
                        "--variant and --verbose built in; it plays to the clock")
    p.add_argument("--lang", choices=("c", "cpp"), default="c",
                   help="the exported file's language: c (the default) or cpp, the same "
                        "file, which is also C++ (for CodinGame's C++ setting)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the bot on standard input and output with the parsed arguments."""
    from ..core.rules import Rules
    from ..variant import as_variant

    from ..bot import LEVELS

    from ..core.weights import load_weights

    variant = as_variant(args.variant)
    weights = load_weights(args.weights) if args.weights else None
    if args.export is not None:
        return _export(args, variant, weights)
    fixed = args.budget is not None or args.first_budget is not None or args.rate is not None
    clock_ms: Optional[tuple[float, float]] = None
    if fixed:
        rate = ASSUMED_RATE if args.rate is None else args.rate
        first, turn = budgets(args.budget, args.first_budget, rate)
    else:
        first = turn = LEVELS[args.level][0]
        margin = MARGIN_MS if args.margin is None else args.margin
        clock_ms = (move_limit_ms(FIRST_MS, margin), move_limit_ms(TURN_MS, margin))
    choose = bot_chooser(args.level, args.seed, verbose=sys.stderr if args.verbose else None,
                         weights=weights, threads=args.threads)
    if args.verbose:
        limits = (f"budgets {first} then {turn}" if clock_ms is None else
                  f"clock {clock_ms[0]:g} ms then {clock_ms[1]:g} ms")
        _say(sys.stderr, f"{variant.as_string()}, level {args.level}, {limits}, seed {args.seed}")
    # Load the engine and warm the search before the first turn's clock starts.
    try:
        Rules(variant=variant).search(budget=min(turn, 2000), seed=args.seed, weights=weights)
    except Exception as exc:  # the first real turn will say it again, and answer
        _say(sys.stderr, f"the warm-up search failed: {type(exc).__name__}: {exc}")
    # A byte that is not UTF-8 is garbage like any other, not a crash.
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
    try:
        return play(sys.stdin, sys.stdout, sys.stderr, choose, first, turn, variant,
                    clock_ms=clock_ms)
    except KeyboardInterrupt:
        return 130


def _export(args: argparse.Namespace, variant, weights: Optional[dict]) -> int:
    from ..codingame.export import export

    size = export(args.export, level=args.level, budget=args.budget, first_budget=args.first_budget,
                  seed=args.seed, variant=variant,
                  margin_ms=EXPORT_MARGIN_MS if args.margin is None else args.margin, verbose=args.verbose,
                  lang=args.lang, weights=weights)
    if args.export != "-":
        _say(sys.stderr, f"wrote {args.export}: {size} characters of C (limit 100000); "
                         f"build it with: {'g++' if args.lang == 'cpp' else 'gcc'} {args.export} -o bot")
    return 0
