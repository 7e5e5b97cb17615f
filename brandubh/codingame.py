"""``brandubh codingame``: a bot that plays over the CodinGame protocol.

It reads a turn on standard input (the role, the opponent's last move, seven
board lines; see :mod:`brandubh.protocol`), answers one move on standard
output, and does so until its input ends::

    brandubh codingame [--level 1-6] [--margin MS] [--budget NODES] [--first-budget NODES] [--seed N] [--threads N]

It keeps its own game record from the boards it is given
(:class:`~brandubh.protocol.Tracker`), so the search sees the history and
judges repetition as the referee does. Anything odd in the input (a board
that does not follow from its record, a line it cannot read) gets a line on
standard error and still a legal move, if there is one.

**Time.** The limits are 100 ms for a bot's first turn and 50 ms after it.
By default the bot plays to the clock: each search is given ``time_ms`` of
the limit less a safety margin (``--margin``, :data:`MARGIN_MS` by default:
75 ms, then 25 ms), and the level's budget. Under a clock the answers depend
on the machine's speed and load. For reproducible runs, ``--budget`` fixes
the later turns' budget in positions, and no clock is read (the first turn
then gets 1.4 times as much unless ``--first-budget`` says otherwise);
``--rate`` derives both budgets from an assumed speed instead (35% of the
first limit and 50% of the others at :data:`ASSUMED_RATE` positions a
second: 175,000 and 125,000).

**Strength.** The bot plays as :class:`brandubh.Bot` at ``--level`` (1, a
beginner who sometimes blunders, to 6, the default), the level's budget
capped by the time budget: at the default budgets, levels 5 and 6 play alike.
With a budget it is deterministic: the same input, level, budgets and seed
give the same answers on every machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, Optional, Sequence, TextIO

from .argtypes import real, whole
from .bot import MAX_LEVEL as _BOT_MAX_LEVEL
from .errors import BrandubhError, quote
from .export import MARGIN_MS as EXPORT_MARGIN_MS
from .protocol import NONE, TURN_LINES, Tracker
from .search import MAX_THREADS
from .variant import VariantLike
from .weights import WeightsLike

__all__ = [
    "ASSUMED_RATE",
    "FIRST_MS",
    "TURN_MS",
    "FIRST_SHARE",
    "TURN_SHARE",
    "MARGIN_MS",
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
MARGIN_MS = 25
"""What the bot keeps back from each time limit when it plays to the clock:
the search is given the limit less this, in milliseconds. (With 20, 2 of
200 games were lost on time at the real limits with both cores busy: the
timer that stops the search is a thread, late to run when the machine is
busy; its answers' worst was 49.8 ms.)"""

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


def bot_chooser(level: int = MAX_LEVEL, seed: int = 1, verbose: Optional[TextIO] = None,
                weights: "WeightsLike" = None, threads: Optional[int] = None) -> Chooser:
    """A chooser that plays as ``brandubh.Bot(level, seed=seed)`` (which
    searches with ``Rules.search``, on ``threads`` threads), its budget
    capped each turn by the budget the time limit allows. BrandubhError
    when this build has no search."""
    from .rules import Rules

    if not hasattr(Rules, "search"):
        raise BrandubhError("this build of brandubh has no search (Rules.search); "
                            "the bot cannot play without it")
    from .bot import Bot
    from .engine import parse_move

    bot = Bot(level, seed=seed, weights=weights, threads=threads)
    level_budget = bot.budget

    def choose(record, budget: int, time_ms: Optional[float] = None) -> Optional[int]:
        bot.budget = max(1, min(level_budget, budget))
        bot.time_ms = time_ms
        t0 = time.perf_counter()
        chosen = bot.choose(record)
        move = None if chosen is None else parse_move(chosen)
        if verbose is not None:
            from .engine import move_text

            ms = (time.perf_counter() - t0) * 1000
            shown = "none" if move is None else move_text(move)
            clock = "" if time_ms is None else f", clock {time_ms:g} ms"
            print(f"brandubh codingame: ply {record.ply}: {shown} "
                  f"(budget {bot.budget}{clock}, {ms:.1f} ms)", file=verbose, flush=True)
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
            stderr: Optional[TextIO], time_ms: Optional[float] = None) -> Optional[int]:
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
        move = choose(record, budget) if time_ms is None else choose(record, budget, time_ms=time_ms)
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
         limits_ms: tuple[float, float] = (FIRST_MS, TURN_MS),
         clock_ms: Optional[tuple[float, float]] = None) -> int:
    """The bot's loop: read a turn, answer, until the input ends. ``choose``
    takes the record (a Rules whose side to move is the bot's) and a budget
    (and, when ``clock_ms`` gives the first and later turns' time, the
    turn's ``time_ms=``) and returns a move number. Returns the exit code
    (0)."""
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
        clock = None if clock_ms is None else clock_ms[0] if turn == 0 else clock_ms[1]
        move = _answer(tracker, record, choose, budget, stderr, clock)
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
                         + ("a larger --margin would be safer on this machine" if clock_ms
                            else "a smaller --budget would be safer on this machine"))
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
    p.add_argument("--variant", default="codingame", metavar="NAME",
                   help="the rule set: a preset (codingame, brandubh, modern, opentafl) or a "
                        "quoted line of field=value pairs (default: codingame)")
    p.add_argument("--weights", metavar="FILE",
                   help="the evaluation's weights from FILE (what 'brandubh tune' writes; the "
                        "weights it leaves out keep their defaults), in play and in --export")
    p.add_argument("--threads", type=whole(1, MAX_THREADS), default=None, metavar="N",
                   help="search on N threads (default 1; more is not deterministic; the exported "
                        "bot has one)")
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
    from .rules import Rules
    from .variant import as_variant

    from .bot import LEVELS

    from .weights import load_weights

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
        clock_ms = (max(1.0, FIRST_MS - margin), max(1.0, TURN_MS - margin))
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
    try:
        return play(sys.stdin, sys.stdout, sys.stderr, choose, first, turn, variant,
                    clock_ms=clock_ms)
    except KeyboardInterrupt:
        return 130


def _export(args: argparse.Namespace, variant, weights: Optional[dict]) -> int:
    from .export import export

    size = export(args.export, level=args.level, budget=args.budget, first_budget=args.first_budget,
                  seed=args.seed, variant=variant,
                  margin_ms=EXPORT_MARGIN_MS if args.margin is None else args.margin, verbose=args.verbose,
                  lang=args.lang, weights=weights)
    if args.export != "-":
        _say(sys.stderr, f"wrote {args.export}: {size} characters of C (limit 100000); "
                         f"build it with: {'g++' if args.lang == 'cpp' else 'gcc'} {args.export} -o bot")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``brandubh codingame`` on its own: ``main(['--level', '5'])``."""
    from .cli import main as brandubh_main

    return brandubh_main(["codingame", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
