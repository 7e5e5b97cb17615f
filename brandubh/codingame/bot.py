"""``brandubh codingame``: a bot that plays over the CodinGame protocol.

It reads a turn on standard input (the role, the opponent's last move, seven
board lines; see :mod:`brandubh.codingame.turns`), answers one move on standard
output, and does so until its input ends::

    brandubh codingame [--level 1-6] [--margin MS] [--budget NODES] [--first-budget NODES] [--seed N] [--threads N]

It keeps its own game record from the boards it is given
(:class:`~brandubh.codingame.turns.Tracker`), so the search sees the history and
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

import time
from typing import Callable, Optional, TextIO

from ..bot import MAX_LEVEL as _BOT_MAX_LEVEL
from ..core.clock import budget_of
from ..errors import BrandubhError, quote
from .turns import NONE, TURN_LINES, Tracker
from ..variant import VariantLike
from ..core.weights import WeightsLike

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
        turn = budget_of(TURN_MS, rate, TURN_SHARE)
        first = budget_of(FIRST_MS, rate, FIRST_SHARE)
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
    from ..core.rules import Rules

    if not hasattr(Rules, "search"):
        raise BrandubhError("this build of brandubh has no search (Rules.search); "
                            "the bot cannot play without it")
    from ..bot import Bot
    from ..core.position import parse_move

    bot = Bot(level, seed=seed, weights=weights, threads=threads)
    level_budget = bot.budget

    def choose(record, budget: int, time_ms: Optional[float] = None) -> Optional[int]:
        bot.budget = max(1, min(level_budget, budget))
        bot.time_ms = time_ms
        t0 = time.perf_counter()
        chosen = bot.choose(record)
        move = None if chosen is None else parse_move(chosen)
        if verbose is not None:
            from ..core.position import move_text

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
        line = _line(stream)
        if not line:
            return None
        if line.strip():
            break
    lines = [line]
    while len(lines) < TURN_LINES:
        line = _line(stream)
        if not line:
            break
        lines.append(line)
    return lines


#: The longest input line read whole: a turn's lines are a few characters.
MAX_LINE = 4096


def _line(stream: TextIO) -> str:
    """One line of at most :data:`MAX_LINE` characters: the rest of a longer
    one is read past a piece at a time (it is not a turn's line anyway), so
    an endless line costs neither memory nor an answer.

    >>> import io
    >>> stream = io.StringIO('x' * 10_000 + '\\nNONE\\n')
    >>> len(_line(stream)), _line(stream)
    (4096, 'NONE\\n')
    """
    line = stream.readline(MAX_LINE)
    if len(line) == MAX_LINE and not line.endswith("\n"):
        while True:
            rest = stream.readline(MAX_LINE)
            if not rest or rest.endswith("\n"):
                break
    return line


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
    from ..core.position import Position
    from ..core.rules import Rules

    if record is None:
        return None
    if record.is_over():
        _say(stderr, f"my record says the game is over ({record.outcome.name.lower()}); "
                     "playing on from the board without its history")
        record = Rules(record.position, tracker.variant)
        tracker.record = record
    if record.is_over():
        slides = Position(record.position, tracker.variant).moves()
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
    from ..core.position import move_text

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
