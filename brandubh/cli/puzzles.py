"""``brandubh puzzles``: make a set of puzzles, list one (docs/puzzles.md).

    brandubh puzzles make --from selfplay --out set.txt --count 100      # self-play, every core
    brandubh puzzles make --from games.txt --out set.txt --variant codingame
    brandubh puzzles list --variant brandubh --json                     # the shipped set
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..errors import ArgumentError
from .perft import _progress

__all__ = ["register", "run"]

_DESCRIPTION = """\
make: find puzzles in self-play or in saved games: positions where the side
to move has a forced win (proven by the solver, its proof verified by the
checker) and, at each of its turns along the main line, exactly one move
keeps it (every other move proven not to win as fast). The set's file is
appended to, a line a puzzle; the games done are recorded in FILE.done, so
a run started again goes on where the last stopped. Ctrl-C keeps what is
done.

list: the puzzles of the shipped set (or of --file): id, rule set,
position, solution line and themes."""

_EPILOG = """\
examples:
  brandubh puzzles make --from selfplay --out set.txt --count 50
  brandubh puzzles make --from games.txt --out set.txt --jobs 2
  brandubh puzzles list --variant codingame --json

Exit status: 0 done; 2 for something that cannot be read or written; 130
when stopped by Ctrl-C (what was found is kept)."""


def register(subparsers: Any) -> None:
    """Add the ``puzzles`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser("puzzles", help="make a set of puzzles from games or self-play; list the set",
                              description=_DESCRIPTION, epilog=_EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    make = sub.add_parser("make", help="find puzzles and append them to a set")
    make.add_argument("--from", dest="source", required=True, metavar="GAMES_OR_SELFPLAY",
                      help="'selfplay' (the search against itself, game after game) or a file of saved games")
    make.add_argument("--out", required=True, metavar="FILE", help="the set to append to")
    make.add_argument("--variant", default=None,
                      help="the rule set (self-play: default brandubh; games: only those under it)")
    make.add_argument("--count", type=int, default=None, metavar="N",
                      help="stop after N new puzzles (default: 100 for self-play, every game of a file)")
    make.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                      help="worker processes (default: one a core)")
    make.add_argument("--quiet", action="store_true", help="no progress line")
    make.set_defaults(run=run)
    show = sub.add_parser("list", help="print the puzzles of the shipped set (or of --file)")
    show.add_argument("--variant", default=None, help="only the puzzles under this rule set")
    show.add_argument("--file", default=None, help="a set's file instead of the shipped set")
    show.add_argument("--json", action="store_true", help="JSON: a list of objects, one a puzzle")
    show.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``brandubh puzzles`` with parsed arguments; the exit status."""
    if args.action == "list":
        return _list(args)
    return _make(args)


def _make(args: argparse.Namespace) -> int:
    from ..variant import as_variant
    from ..puzzles.batch import Run, game_tasks, selfplay_tasks

    if args.jobs < 1:
        raise ArgumentError(f"--jobs must be 1 or more, not {args.jobs}")
    if args.count is not None and args.count < 1:
        raise ArgumentError(f"--count must be 1 or more, not {args.count}")
    rules = None if args.variant is None else as_variant(args.variant).as_string()
    if args.source == "selfplay":
        tasks = selfplay_tasks(rules or "brandubh")
        count = 100 if args.count is None else args.count
    else:
        tasks = game_tasks(args.source, rules)
        count = args.count
    job = Run(args.out, tasks, count, args.jobs)
    if job.note:
        print(job.note, file=sys.stderr)
    line = (lambda text: None) if args.quiet else _progress(sys.stderr)
    try:
        tally = job.go(lambda t: line(f"puzzles make: {t.sentence()}"))
    except KeyboardInterrupt:
        line("")
        print(f"stopped by Ctrl-C: {job.tally.sentence()}; kept in {args.out}", file=sys.stderr, flush=True)
        return 130
    line("")
    print(f"{tally.sentence()}: {args.out}", file=sys.stderr)
    return 0


def _list(args: argparse.Namespace) -> int:
    from ..files import read_text
    from ..puzzles import read_puzzles
    from ..puzzles.shipped import shipped
    from ..variant import as_variant

    rules = None if args.variant is None else as_variant(args.variant).as_string()
    if args.file is not None:
        puzzles = read_puzzles(read_text(args.file, what="puzzle set"), args.file, rules)
    else:
        puzzles = shipped(rules)
    if args.json:
        data = [{"id": p.id, "rules": p.rules, "position": p.position, "winner": p.winner,
                 "solution": list(p.solution), "themes": list(p.themes), "rating": round(p.rating.rating),
                 "origin": p.origin} for p in puzzles]
        sys.stdout.write(json.dumps(data, indent=1) + "\n")
        return 0
    for p in puzzles:
        sys.stdout.write(f"{p.id}  {p.rules:9}  {round(p.rating.rating):4}  {p.position}  "
                         f"{' '.join(p.solution)}  {','.join(p.themes)}\n")
    return 0
