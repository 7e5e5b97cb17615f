"""``brandubh solve``: a forced win proven, or a draw, and proofs checked
(docs/proofs.md).

    brandubh solve "7/7/7/3k3/7/7/a6 d"                  # a position, brandubh rules
    brandubh solve game.txt --budget 10000000            # a saved game as it stands
    brandubh solve game.txt --proof win.proof --json -   # the proof written, JSON printed
    brandubh solve --check win.proof                     # verified, or the line that fails
    brandubh solve "7/7/7/3k3/7/7/a6 d" --side defenders --within 2   # that side's win only

The same position, rules, budget and table size give the same result on
every machine (on one thread, the default; --threads 2 looks for both
sides' wins at once, as soundly, the counts not repeatable). A progress line runs on a terminal; Ctrl-C stops it with a
sentence saying how far it got.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Optional, TextIO

from ..argtypes import whole
from ..core.search import MAX_THREADS
from ..core.solve import DEFAULT_BUDGET, MAX_BUDGET, SAVE_EVERY, Progress
from ..errors import ArgumentError
from .perft import _progress

__all__ = ["register", "run"]

_DESCRIPTION = """\
Prove what a position comes to under perfect play: "attackers win",
"defenders win" or "draw" where the rules let it be proven, else "not proven
within the budget". The solver is a proof-number search over the engine's
own rules (repetition and the move caps as the rule set has them, the game's
history counted), limited by a count of positions. A win is given with its
longest line (the plies to the end against the best defence, when it is
the shortest win) and the size of its proof; --proof writes the proof down,
and --check replays a proof file under the rules and says "verified" or the
first line that fails. --side S --within N asks one question only: does S
win within N plies? ("S win", with its proof; "S do not win within N",
proven; or not proven within the budget.)"""

_EPILOG = """\
examples:
  brandubh solve "7/7/7/3k3/7/7/a6 d"
  brandubh solve "7/7/7/3k3/7/7/a6 a" --variant codingame
  brandubh solve game.txt --budget 10000000 --proof win.proof
  brandubh solve games.txt --game 3 --json -
  brandubh solve d2b2.txt --budget 1000000000 --hash 2048 --state d2b2.state
  brandubh solve game.txt --budget 50000000 --threads 2
  brandubh solve --check win.proof
  brandubh solve "7/7/7/3k3/7/7/a6 d" --side defenders --within 2

Exit status: 0 with a result (proven or not); for --check, 0 verified and
1 not; 2 for something that cannot be read or written; 130 when stopped by
Ctrl-C."""


def _budget(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of positions, not {text!r}") from None
    if not 1 <= value <= MAX_BUDGET:
        raise argparse.ArgumentTypeError(f"from 1 to 2**40 positions, not {value:,}")
    return value


def register(subparsers: Any) -> None:
    """Add the ``solve`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser("solve", help="prove a forced win or a draw; check a proof file",
                              description=_DESCRIPTION, epilog=_EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", nargs="?", metavar="POSITION_OR_GAME",
                   help="a position string (quoted: '7/7/7/3k3/7/7/a6 d') or a saved game, solved as it stands "
                        "('-' reads the game from standard input)")
    p.add_argument("--variant", default=None,
                   help="the rules of a position: a preset (brandubh, codingame, modern, opentafl) or a quoted "
                        "line of field=value pairs (default: brandubh); a game carries its own")
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help="which game of a file of several (1 for the first)")
    p.add_argument("--budget", type=_budget, default=DEFAULT_BUDGET, metavar="POSITIONS",
                   help=f"positions the solver may expand (default {DEFAULT_BUDGET:,})")
    p.add_argument("--hash", type=int, default=None, metavar="MB",
                   help="the solver's table in MiB (default: from the budget, at most 256)")
    p.add_argument("--proof", metavar="FILE", default=None, help="write the proof of a win to FILE")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="OUT",
                   help="write the result as JSON to OUT (standard output when no OUT is given, or '-')")
    p.add_argument("--check", metavar="FILE", default=None,
                   help="check a proof file instead: 'verified', or the first line that fails")
    p.add_argument("--state", metavar="FILE", default=None,
                   help="save the solver's state in FILE as it goes (whole, every --save-every positions, at the "
                        "end and on Ctrl-C), and go on from it where FILE exists; the budget counts the positions "
                        "before too")
    p.add_argument("--save-every", type=_budget, default=SAVE_EVERY, metavar="POSITIONS",
                   help=f"how often --state is saved, in positions (default {SAVE_EVERY:,})")
    p.add_argument("--side", choices=("attackers", "defenders"), default=None,
                   help="look for this side's win alone (with --within: within so many plies)")
    p.add_argument("--within", type=int, default=None, metavar="PLIES",
                   help="with --side: the plies within which that side's win is looked for (default: the plies "
                        "the rules leave)")
    p.add_argument("--threads", type=whole(1, MAX_THREADS), default=1, metavar="N",
                   help="threads (default 1: the same result everywhere, counts included); with 2 or more, while "
                        "neither side's win is settled, each side's is looked for on a thread of its own (more "
                        "than 2 add nothing yet): as sound, the counts not repeatable")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=run)


def _stage_words(p: Progress) -> str:
    if p.stage == "prove" and p.both:
        return "looking for both sides' wins at once"
    if p.stage == "prove":
        return f"looking for the {p.prover}' win within {p.bound} plies"
    if p.stage == "shorten":
        return f"the {p.prover} win; looking for a win within {p.bound} plies"
    if p.stage == "extract":
        return f"the {p.prover} win; writing the proof down"
    return "done"


def run(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """Run ``brandubh solve`` with parsed arguments; the exit status."""
    stream = sys.stdout if out is None else out
    if args.check is not None:
        if args.target is not None:
            raise ArgumentError("give either a position or game to solve, or --check FILE, not both")
        return _check(args.check, stream)
    if args.target is None:
        raise ArgumentError("give a position or a saved game to solve (or --check FILE)")
    from ..files import check_writable
    from ..solve import solve

    if args.within is not None and args.side is None:
        raise ArgumentError("--within needs --side: the side whose win is looked for")
    game = _game_of(args)
    for path in (args.proof, args.json, args.state):
        if path is not None and path != "-":
            check_writable(path)
    show = (lambda text: None) if args.quiet else _progress(sys.stderr)
    last: list[Progress] = []

    def progress(p: Progress) -> None:
        last[:] = [p]
        show(f"solving: {p.nodes:,} of {p.budget:,} positions; {_stage_words(p)}")

    t0 = time.perf_counter()
    try:
        solution = solve(game, args.variant if isinstance(game, str) else None, budget=args.budget,
                         hash_mb=args.hash, progress=progress, state=args.state, save_every=args.save_every,
                         side=args.side, within=args.within, threads=args.threads)
    except KeyboardInterrupt:
        show("")
        done = last[0] if last else None
        had = f"; the {done.prover} win had been proven" if done and done.stage in ("shorten", "extract") else ""
        kept = (f"; the solver's state is saved in {args.state}: the same command goes on from there"
                if args.state is not None else "")
        print(f"stopped by Ctrl-C after {done.nodes if done else 0:,} positions: nothing proven is written{had}{kept}",
              file=sys.stderr, flush=True)
        return 130
    seconds = time.perf_counter() - t0
    show("")
    found = solution.solved
    if args.json != "-":
        stream.write(solution.sentence() + "\n")
        if found.outcome == "win" and solution.ended is None:
            if solution.first_move:
                stream.write(f"first move: {solution.first_move}\n")
            stream.write(f"proof: {found.positions:,} positions, {len(found.proof):,} of them with the "
                         f"{found.winner} to move\n")
        elif found.outcome == "draw" and solution.ended is None:
            stream.write(f"proof: each side's win refuted, {found.positions:,} positions, {len(found.proof):,} of "
                         "them with the refuting side to move\n" if found.proof else
                         "proof: not written down (a side's refutation is too large)\n")
        # The rate of a short run is mostly the table's making: given from a second on.
        now = found.nodes - found.resumed
        rate = f" ({now / seconds:,.0f} a second)" if seconds >= 1 and now else ""
        part = f", {now:,} of them in this run," if found.resumed else ""
        stream.write(f"searched: {found.nodes:,} positions{part} in {seconds:.2f} s{rate}\n")
    if args.proof is not None:
        _write_proof(solution, args.proof)
    if args.json is not None:
        data = {**solution.as_dict(), "seconds": round(seconds, 3)}
        text = json.dumps(data, indent=1) + "\n"
        if args.json == "-":
            stream.write(text)
        else:
            from ..files import write_whole

            write_whole(args.json, text)
            print(f"wrote {args.json}", file=sys.stderr)
    return 0


def _game_of(args: argparse.Namespace) -> Any:
    """The position string, or the Game of a saved game file."""
    from ..notation import position_ok
    from ..variant import as_variant

    if position_ok(args.target):
        if args.game is not None:
            raise ArgumentError("--game picks a game of a file: a position is one already")
        as_variant(args.variant)  # a bad variant is refused before the search
        return args.target
    from ..records import load_record

    record = load_record(args.target, 1 if args.game is None else args.game)
    game = record.game
    if args.variant is not None and as_variant(args.variant) != game.variant:
        raise ArgumentError(f"{args.target} is a game under {game.variant.as_string()}: its rules are its own, "
                            "give no --variant")
    return game


def _write_proof(solution: Any, path: str) -> None:
    from ..files import write_whole

    if solution.ended is not None or not solution.solved.proof:
        why = (f"the game is over already ({solution.ended})" if solution.ended
               else f"only a win or a draw has one, when written down ({solution.result})")
        print(f"no proof written: {why}", file=sys.stderr)
        return
    if path == "-":
        sys.stdout.write(solution.proof_text())
        return
    write_whole(path, solution.proof_text())
    print(f"wrote {path}", file=sys.stderr)


def _check(path: str, stream: TextIO) -> int:
    from ..files import read_text
    from ..proof_check import check_proof

    verdict = check_proof(read_text(path, what="proof file"))
    stream.write(verdict.sentence() + "\n")
    return 0 if verdict.ok else 1
