"""``brandubh analyse``: a game reviewed move by move (docs/review.md).

    brandubh analyse game.txt                       # a table at the terminal
    brandubh analyse game.txt --budget 200000       # deeper, slower
    brandubh analyse game.txt --json                # the review as JSON on standard output
    brandubh analyse game.txt --json-out review.json --svg chances.svg --annotated marked.txt

Every position is searched with the same budget (``--budget``, positions a
position), so the review is the same on every machine. A progress line
runs on a terminal; Ctrl-C stops the review and keeps what is done (the
table and the files hold the moves reviewed, and say where it stopped).
The first moves of a game that a match's opening played (the game text's
tag ``opening-moves``, :data:`brandubh.records.OPENING_TAG`) are shown but
not judged.

``--json`` is a flag, as in ``brandubh match`` and ``referee``: the review
as JSON on standard output; ``--json-out FILE`` writes it to a file. The
older ``--json FILE`` still writes the file, with a warning.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Optional, TextIO

from ..errors import ArgumentError
from .perft import _progress

__all__ = ["register", "run"]

_DESCRIPTION = """\
Review a saved game: search every position with the same budget and show,
for every move, the attackers' chance after it (a draw counted as a half),
the chance the move lost, a mark (?! inaccuracy, ? mistake, ?? blunder) and
the engine's better move, then each side's accuracy. The chances come from
curves fitted to the engine's own games (docs/review.md). The moves of a
match's opening (random or from its openings file: the tag opening-moves in
the game text) are shown but not judged."""

_EPILOG = """\
examples:
  brandubh analyse game.txt
  brandubh analyse games.txt --game 3 --budget 200000
  brandubh analyse game.txt --json | python -m json.tool
  brandubh analyse game.txt --json-out review.json
  brandubh analyse game.txt --svg chances.svg --annotated marked.txt --otn marked.otg

Exit status: 0; 2 for a file that cannot be read or written; 130 when
stopped by Ctrl-C (what was reviewed is still shown and written)."""


def _budget(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of positions, not {text!r}") from None
    if not 1 <= value <= 100_000_000:
        raise argparse.ArgumentTypeError(f"from 1 to 100,000,000 positions, not {value:,}")
    return value


def register(subparsers: Any) -> None:
    """Add the ``analyse`` command to the ``brandubh`` command's subparsers."""
    from ..review import REVIEW_BUDGET

    p = subparsers.add_parser(
        "analyse", aliases=["analyze"], help="review a saved game: chances, marks, better moves, accuracy",
        description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    # Optional only so that '--json GAME_FILE' (the flag, then the file) is
    # read as the flag: run() asks for the file when none is given.
    p.add_argument("game_file", metavar="GAME_FILE", nargs="?",
                   help="a game text, a file of games (brandubh match --games-out) or an OpenTafl record; "
                        "'-' reads standard input")
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help="which game of a file of several (1 for the first; in a --games-out file, the "
                        "game labelled 'game N')")
    p.add_argument("--budget", type=_budget, default=REVIEW_BUDGET, metavar="POSITIONS",
                   help=f"positions searched in each position (default {REVIEW_BUDGET:,})")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="OUT",
                   help="print the review as JSON on standard output, instead of the table (--json OUT, "
                        "writing a file, is the old form of --json-out OUT)")
    p.add_argument("--json-out", metavar="OUT", default=None,
                   help="write the review as JSON to OUT ('-': standard output)")
    p.add_argument("--svg", metavar="OUT", default=None, help="write a graph of the chances as an SVG picture")
    p.add_argument("--annotated", metavar="OUT", default=None,
                   help="write the game text with the marks and comments in it")
    p.add_argument("--otn", metavar="OUT", default=None,
                   help="write the game as an OpenTafl record with the marks and comments in it")
    p.add_argument("--tables", metavar="DIR", default=None,
                   help="endgame tables for the game's rules (brandubh tables build): the positions they hold are "
                        "scored exactly, and a move that keeps or throws away a table win is said so")
    p.add_argument("--quiet", action="store_true", help="no progress line and no table")
    p.set_defaults(run=run)


def _outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    return [(flag, path) for flag, path in (("--json-out", args.json_out), ("--svg", args.svg),
                                            ("--annotated", args.annotated), ("--otn", args.otn)) if path]


def _json_convention(args: argparse.Namespace) -> None:
    """``--json`` is a flag: standard output. Its value, where one was
    given, is the game file when no other is (``--json game.txt``), else
    the old form of ``--json-out`` (said to be so)."""
    if args.json not in (None, "-"):
        if args.game_file is None:
            args.game_file, args.json = args.json, "-"
        else:
            if args.json_out not in (None, args.json):
                raise ArgumentError(f"--json {args.json} and --json-out {args.json_out}: give one place for "
                                    "the JSON")
            print(f"brandubh analyse: --json {args.json} is the old form: --json alone prints the review as "
                  f"JSON (as match and referee do); write it to a file with --json-out {args.json}",
                  file=sys.stderr)
            args.json_out, args.json = args.json, None
    if args.json == "-":
        if args.json_out not in (None, "-"):
            raise ArgumentError(f"--json and --json-out {args.json_out}: give one place for the JSON")
        args.json_out = "-"
    if args.game_file is None:
        raise ArgumentError("give the game file to review (GAME_FILE; '-' reads standard input)")


def run(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """Run ``brandubh analyse`` with parsed arguments; the exit status."""
    from ..files import check_writable
    from ..records import load_record
    from ..review import review_moves, reviewed

    stream = sys.stdout if out is None else out
    _json_convention(args)
    record = load_record(args.game_file, 1 if args.game is None else args.game)
    game = record.game
    if args.tables is not None:
        from ..endgame import load_tables

        game.endgame = load_tables(args.tables, game.variant)
    opening = record.opening
    outputs = _outputs(args)
    for flag, path in outputs:
        if path != "-":
            check_writable(path)
    show = _progress(sys.stderr) if not args.quiet else (lambda text: None)

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(1, total)
        show(f"[{'#' * filled}{'.' * (width - filled)}] move {done} of {total}")

    moves: list = []
    stopped = False
    try:
        for reviewed_move in review_moves(game, budget=args.budget, on_position=progress, opening=opening):
            moves.append(reviewed_move)
    except KeyboardInterrupt:
        stopped = True
    show("")
    if sys.stderr.isatty() and not args.quiet:
        sys.stderr.write("\r\x1b[K")
    review = reviewed(game, moves, args.budget, opening)
    if not args.quiet and args.json_out != "-":
        stream.write(review.table())
    _write(review, record, args, stream)
    if stopped:
        print(f"stopped by Ctrl-C after {len(moves)} of {game.ply} moves", file=sys.stderr)
        return 130
    return 0


def _write(review: Any, loaded: Any, args: argparse.Namespace, stream: TextIO) -> None:
    import dataclasses

    from ..files import write_whole
    from ..views.graph import chance_graph

    def record() -> Any:
        # The record read, its label and tags kept, with the review's marks and comments.
        comments = {**loaded.comments, **{m.ply: m.comment for m in review.moves if m.comment}}
        return dataclasses.replace(loaded, comments=comments,
                                   marks={**loaded.marks, **{m.ply: m.mark for m in review.moves if m.mark}})

    texts = {
        "--json-out": lambda: json.dumps(review.as_dict(), indent=1) + "\n",
        "--svg": lambda: chance_graph(review.chances, marks={m.ply: m.mark for m in review.moves if m.mark}),
        "--annotated": lambda: record().as_text(),
        "--otn": lambda: record().as_otn(),
    }
    for flag, path in _outputs(args):
        text = texts[flag]()
        if path == "-":
            stream.write(text)
            continue
        write_whole(path, text)
        print(f"wrote {path}", file=sys.stderr)
