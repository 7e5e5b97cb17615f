"""``brandubh opentafl``: the engine for OpenTafl on standard input and
output (:mod:`brandubh.opentafl.bot`), and ``--write-ini`` to install it.
``python -m brandubh.opentafl`` is the same command.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..argtypes import real, whole
from ..core.search import MAX_THREADS
from ..opentafl.bot import MARGIN_MS, MAX_LEVEL, OpenTaflEngine, serve, write_ini
from ..variant import as_variant

__all__ = ["register", "run"]


_DESCRIPTION = """\
Play brandubh as an engine inside OpenTafl, over OpenTafl's engine protocol
on standard input and output: hello at once; rules read into a variant (a
record this package does not play is refused with 'error -1' and the
field's name); each 'play' answered with a move like d1-b1; its own game
record checked against OpenTafl's position after every move; 'analyze'
answered with 'analysis' lines.

Under a clock each move takes a share of the time left (a twentieth of the
main time, or half an overtime period) less --margin, and at most the
level's budget; with no clock, the level's budget. --budget gives a fixed
number of positions a move instead, and reads no clock: reproducible.

--write-ini DIR writes brandubh.ini into OpenTafl's engines folder, so
that OpenTafl can start the engine with the options given here."""


_EPILOG = """\
examples:
  brandubh opentafl --write-ini ~/OpenTafl/engines --level 5
  brandubh opentafl --budget 20000                reproducible moves
  brandubh match "protocol=opentafl,cmd=brandubh opentafl --level 3" "level=2" --games 10"""


def register(subparsers: Any) -> None:
    """Add the ``opentafl`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser(
        "opentafl", help="play as an engine inside OpenTafl (its engine protocol on stdin/stdout)",
        description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", type=whole(1, MAX_LEVEL), default=None, metavar=f"1-{MAX_LEVEL}",
                   help=f"play as brandubh.Bot at this level: 1 (a beginner who sometimes blunders) "
                        f"to {MAX_LEVEL} (the default); under a clock the level's budget is the most "
                        "a move searches")
    p.add_argument("--budget", type=whole(1), metavar="NODES",
                   help="search this many positions a move and read no clock: reproducible")
    p.add_argument("--threads", type=whole(1, MAX_THREADS), default=None, metavar="N",
                   help="search each move on N threads (default 1; more is not deterministic)")
    p.add_argument("--clock-only", action="store_true",
                   help="under a clock, let the clock alone decide how long a move thinks (the "
                        "level's budget is then no cap); without a clock the level's budget")
    p.add_argument("--margin", type=real(0), default=None, metavar="MS",
                   help=f"what to keep back from each share of the clock, in milliseconds "
                        f"(default {MARGIN_MS:g})")
    p.add_argument("--seed", type=whole(0, (1 << 32) - 1), default=None, metavar="N",
                   help="the bot's seed (0 to 2^32-1, default 1)")
    p.add_argument("--variant", default=None, metavar="BASE",
                   help="the rule set whose fields a rules record cannot carry (the ending of a "
                        "side with no move, the move caps, whether the start counts towards a "
                        "repetition): a preset or a quoted line of field=value pairs "
                        "(default: opentafl)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="write each move's search time and budget on standard error")
    p.add_argument("--write-ini", metavar="DIR",
                   help="do not play: write brandubh.ini into DIR, OpenTafl's engines folder, "
                        "to start this engine with the other options given")
    p.set_defaults(run=run)


def _say(text: str) -> None:
    try:
        print(f"brandubh opentafl: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def run(args: argparse.Namespace) -> int:
    """Run the engine on standard input and output (or write the .ini)."""
    given = [("--level", args.level), ("--budget", args.budget), ("--margin", args.margin),
             ("--seed", args.seed), ("--variant", args.variant), ("--threads", args.threads)]
    options = [word for flag, value in given if value is not None for word in (flag, f"{value:g}"
               if isinstance(value, float) else str(value))]
    as_variant(args.variant or "opentafl")  # a bad variant is refused now
    if args.write_ini is not None:
        flags = (["--verbose"] if args.verbose else []) + (["--clock-only"] if args.clock_only else [])
        path = write_ini(args.write_ini, options + flags)
        _say(f"wrote {path}")
        return 0
    engine = OpenTaflEngine(level=args.level or MAX_LEVEL, budget=args.budget,
                            seed=1 if args.seed is None else args.seed,
                            margin_ms=MARGIN_MS if args.margin is None else args.margin,
                            base=args.variant or "opentafl", log=_say, verbose=args.verbose,
                            clock_only=args.clock_only, threads=args.threads)
    try:
        return serve(sys.stdin, sys.stdout, engine)
    except KeyboardInterrupt:
        return 130
