"""``brandubh codingame``: a bot that plays over the CodinGame protocol.

It reads a turn on standard input (the role, the opponent's last move, seven
board lines; see :mod:`brandubh.protocol`), answers one move on standard
output, and does so until its input ends::

    brandubh codingame [--level 1-6] [--budget NODES] [--first-budget NODES] [--seed N]

It keeps its own game record from the boards it is given
(:class:`~brandubh.protocol.Tracker`), so the search sees the history and
judges repetition as the referee does. Anything odd in the input (a board
that does not follow from its record, a line it cannot read) gets a line on
standard error and still a legal move, if there is one.

**Time.** The search has no clock: it stops after a number of positions (its
budget). The limits are 100 ms for a bot's first turn and 50 ms after it, so
the bot aims at 35% of the first limit and 50% of the others at an assumed
:data:`ASSUMED_RATE` positions a second: 175,000 positions on the first turn
and 125,000 after it. ``--budget`` sets the later turns' budget (the first
turn then gets 1.4 times as much unless ``--first-budget`` says otherwise);
``--rate`` changes the assumed speed instead.

**Strength.** The bot plays as :class:`brandubh.Bot` at ``--level`` (1, a
beginner who sometimes blunders, to 6, the default), the level's budget
capped by the time budget: at the default budgets, levels 5 and 6 play alike.
It is deterministic: the same input, level, budgets and seed give the same
answers on every machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, Optional, Sequence, TextIO

from .argtypes import real, whole
from .bot import MAX_LEVEL as _BOT_MAX_LEVEL
from .errors import BrandubhError, quote
from .protocol import NONE, TURN_LINES, Tracker
from .variant import VariantLike

__all__ = [
    "ASSUMED_RATE",
    "FIRST_MS",
    "TURN_MS",
    "FIRST_SHARE",
    "TURN_SHARE",
    "MAX_LEVEL",
    "budgets",
    "bot_chooser",
    "read_turn",
    "play",
    "register",
    "run",
    "main",
]

ASSUMED_RATE = 5_000_000
"""Positions searched per second the budgets assume: the slow end of what
the search does on one core, so that a faster machine only adds margin."""

FIRST_MS = 100
"""The protocol's limit for a bot's first answer, in milliseconds."""
TURN_MS = 50
"""The limit for every later answer, in milliseconds."""
FIRST_SHARE = 0.35
"""The share of the first limit the first search aims to use."""
TURN_SHARE = 0.50
"""The share of the later limit each later search aims to use."""
MAX_LEVEL = _BOT_MAX_LEVEL
"""The strongest level of :class:`brandubh.Bot`, and the default."""

NO_MOVE_ANSWER = NONE
"""What the bot writes when it can find no legal move at all (a side with no
move has already lost under the protocol, so this is never a good answer,
but an answer keeps the referee from waiting)."""

# (record, budget) -> a move number, or None to let the bot pick a legal one
Chooser = Callable[..., Optional[int]]


def budgets(budget: Optional[int] = None, first_budget: Optional[int] = None,
            rate: float = ASSUMED_RATE) -> tuple[int, int]:
    """The node budgets the time limits allow: (first turn, later turns).

    >>> budgets()
    (175000, 125000)
    >>> budgets(budget=10000), budgets(rate=1e6)
    ((14000, 10000), (35000, 25000))
    """
    if not rate > 0:
        raise BrandubhError(f"the rate must be positive, not {quote(rate)}")
    for name, value in (("budget", budget), ("first budget", first_budget)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise BrandubhError(f"the {name} is a positive number of positions, not {quote(value)}")
    if budget is None:
        turn = int(rate * TURN_MS / 1000 * TURN_SHARE)
        first = int(rate * FIRST_MS / 1000 * FIRST_SHARE)
    else:
        turn = budget
        first = int(budget * (FIRST_MS * FIRST_SHARE) / (TURN_MS * TURN_SHARE))
    if first_budget is not None:
        first = first_budget
    return max(1, first), max(1, turn)


def bot_chooser(level: int = MAX_LEVEL, seed: int = 1, verbose: Optional[TextIO] = None) -> Chooser:
    """A chooser that plays as ``brandubh.Bot(level, seed=seed)`` (which
    searches with ``Rules.search``), its budget capped each turn by the
    budget the time limit allows. BrandubhError when this build has no
    search."""
    from .rules import Rules

    if not hasattr(Rules, "search"):
        raise BrandubhError("this build of brandubh has no search (Rules.search); "
                            "the bot cannot play without it")
    from .bot import Bot
    from .engine import parse_move

    bot = Bot(level, seed=seed)
    level_budget = bot.budget

    def choose(record, budget: int) -> Optional[int]:
        bot.budget = max(1, min(level_budget, budget))
        t0 = time.perf_counter()
        chosen = bot.choose(record)
        move = None if chosen is None else parse_move(chosen)
        if verbose is not None:
            from .engine import move_text

            ms = (time.perf_counter() - t0) * 1000
            shown = "none" if move is None else move_text(move)
            print(f"brandubh codingame: ply {record.ply}: {shown} "
                  f"(budget {bot.budget}, {ms:.1f} ms)", file=verbose, flush=True)
        return move

    return choose


def read_turn(stream: TextIO) -> Optional[list[str]]:
    """The next turn's lines: blank lines before the role line are skipped,
    then nine lines are read. None when the input ends before a turn
    starts; fewer than nine lines when it ends during one."""
    while True:
        line = stream.readline()
        if not line:
            return None
        if line.strip():
            break
    lines = [line]
    while len(lines) < TURN_LINES:
        line = stream.readline()
        if not line:
            break
        lines.append(line)
    return lines


def _say(stream: Optional[TextIO], text: str) -> None:
    if stream is None:
        return
    try:
        print(f"brandubh codingame: {text}", file=stream, flush=True)
    except (OSError, ValueError):
        pass


def _answer(tracker: Tracker, record, choose: Chooser, budget: int,
            stderr: Optional[TextIO]) -> Optional[int]:
    """A legal move for the record, whatever happens; None when there is
    none at all."""
    from .engine import Engine
    from .rules import Rules

    if record is None:
        return None
    if record.is_over():
        _say(stderr, f"my record says the game is over ({record.outcome.name.lower()}); "
                     "playing on from the board without its history")
        record = Rules(record.position, tracker.variant)
        tracker.record = record
    if record.is_over():
        slides = Engine(record.position, tracker.variant).moves()
        return slides[0] if slides else None
    legal = record.moves()
    try:
        move = choose(record, budget)
    except Exception as exc:  # never lose a game to an exception
        _say(stderr, f"the search failed ({type(exc).__name__}: {exc}); playing a legal move")
        move = None
    if move is None or move not in legal:
        if move is not None:
            _say(stderr, f"the search answered {quote(move)}, which is not legal here")
        move = legal[0]
    return move


def play(stdin: TextIO, stdout: TextIO, stderr: Optional[TextIO], choose: Chooser,
         first_budget: int, turn_budget: int, variant: VariantLike = "codingame",
         limits_ms: tuple[float, float] = (FIRST_MS, TURN_MS)) -> int:
    """The bot's loop: read a turn, answer, until the input ends. ``choose``
    takes the record (a Rules whose side to move is the bot's) and a budget
    and returns a move number. Returns the exit code (0)."""
    from .engine import move_text

    tracker = Tracker(variant)
    turn = 0
    while True:
        lines = read_turn(stdin)
        if lines is None:
            return 0
        t0 = time.perf_counter()
        record = tracker.update(lines)
        for note in tracker.notes:
            _say(stderr, note)
        budget = first_budget if turn == 0 else turn_budget
        move = _answer(tracker, record, choose, budget, stderr)
        if move is None:
            _say(stderr, f"turn {turn + 1}: no legal move to play; answering {NO_MOVE_ANSWER}")
            text = NO_MOVE_ANSWER
        else:
            text = move_text(move)
        try:
            stdout.write(text + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):
            return 0
        if move is not None:
            seen = len(tracker.notes)
            tracker.played(move)
            for note in tracker.notes[seen:]:
                _say(stderr, note)
        ms = (time.perf_counter() - t0) * 1000
        limit = limits_ms[0] if turn == 0 else limits_ms[1]
        if ms > 0.8 * limit:
            _say(stderr, f"turn {turn + 1}: {ms:.1f} ms of the {limit:g} ms allowed; "
                         "a smaller --budget would be safer on this machine")
        turn += 1
        if len(lines) < TURN_LINES:
            return 0


# -- the command ---------------------------------------------------------------

_DESCRIPTION = """\
Play brandubh as a bot over the protocol of the CodinGame puzzle "Brandubh",
on standard input and output, until the input ends.

Each turn the bot reads its role (0 attackers, 1 defenders), the opponent's
last move (d2d4, or NONE on the first turn) and seven board lines (rank 7
first; . A D K), and answers one move, like d2d4.

It keeps its own game record from the boards, so that repetition is judged
as the referee judges it; a board that does not follow from that record, or
input it cannot read, gets a line on standard error and still a legal move.

It plays as brandubh.Bot at --level. The search has no clock: it stops
after a budget of positions, the level's budget capped by the time budget.
By default the time budgets aim at 35% of the 100 ms first-turn limit and
50% of the 50 ms later limit at an assumed 5 M positions a second (175,000
and 125,000 positions); at those budgets levels 5 and 6 play alike."""

_EPILOG = """\
examples:
  brandubh codingame                      the strongest level, default budgets
  brandubh codingame --level 5 --seed 7   a weaker sparring partner
  brandubh codingame --budget 40000       a slower machine: smaller searches
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
                   help="positions to search on each turn after the first "
                        "(default: 50%% of 50 ms at the assumed rate, 125000)")
    p.add_argument("--first-budget", type=whole(1), metavar="NODES",
                   help="positions to search on the first turn (default: 35%% of 100 ms "
                        "at the assumed rate, 175000, or 1.4 times --budget)")
    p.add_argument("--seed", type=whole(0, (1 << 32) - 1), default=1, metavar="N",
                   help="the bot's seed: it chooses among moves the search scores alike and, "
                        "at levels 1 and 2, when to blunder (0 to 2^32-1, default 1)")
    p.add_argument("--rate", type=real(0, open_low=True), default=float(ASSUMED_RATE), metavar="NPS",
                   help="positions a second to assume when deriving the budgets "
                        f"(default {ASSUMED_RATE})")
    p.add_argument("--variant", default="codingame", metavar="NAME",
                   help="the rule set: a preset (codingame, brandubh, modern, opentafl) or a "
                        "quoted line of field=value pairs (default: codingame)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="write each turn's move, budget and search time on standard error")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the bot on standard input and output with the parsed arguments."""
    from .rules import Rules
    from .variant import as_variant

    variant = as_variant(args.variant)
    first, turn = budgets(args.budget, args.first_budget, args.rate)
    choose = bot_chooser(args.level, args.seed, verbose=sys.stderr if args.verbose else None)
    if args.verbose:
        _say(sys.stderr, f"{variant.as_string()}, level {args.level}, budgets {first} then {turn}, "
                         f"seed {args.seed}")
    # Load the engine and warm the search before the first turn's clock starts.
    try:
        Rules(variant=variant).search(budget=min(turn, 2000), seed=args.seed)
    except Exception as exc:  # the first real turn will say it again, and answer
        _say(sys.stderr, f"the warm-up search failed: {type(exc).__name__}: {exc}")
    try:
        return play(sys.stdin, sys.stdout, sys.stderr, choose, first, turn, variant)
    except KeyboardInterrupt:
        return 130


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``brandubh codingame`` on its own: ``main(['--level', '5'])``."""
    from .cli import main as brandubh_main

    return brandubh_main(["codingame", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
