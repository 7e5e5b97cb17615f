"""``brandubh opentafl``: the engine inside OpenTafl, over OpenTafl's engine
protocol on standard input and output::

    brandubh opentafl [--level 1-6] [--budget NODES] [--margin MS] [--seed N] [--variant BASE] [--threads N]
    brandubh opentafl --write-ini DIR

It says ``hello`` at once, reads the ``rules`` record into a variant (a
record this package does not play is refused with ``error -1`` and a
sentence naming the field: :class:`brandubh.opentafl.notation.RulesRecord`), and answers
each ``play`` with ``move d1-b1``. It keeps its own game record, so that
repetition is judged as the host judges it, and compares the host's
position after every move (``opponent-move``, and the ``move``
confirmation of its own) with that record: when they differ it says so in
a ``status`` line and plays on from the host's board. An ``error`` for its
move takes the move back and the replay that follows gets another. A line
it does not understand gets a line on standard error, never a crash.

**Time.** Under a ``clock`` the engine spends a share of the time it has
left (:meth:`Clock.share_ms`: a twentieth of the main time, or half of an
overtime period, less ``--margin``), and at most the level's budget; with
no clock, the level's budget. ``--budget N`` searches N positions a move and
reads no clock: the same game, budget and seed give the same moves on
every machine.

**Analysis.** ``analyze COUNT SECONDS`` on the position set up by
``position`` and ``side`` (or the game's) is answered with ``analysis``:
up to COUNT lines, each the moves of the line and its score for the side
to move.

**Stopping.** A move's search and an analysis run beside the input:
``goodbye`` or the end of the input stops either within a fraction of a
second, and the engine leaves without answering.

The engine's side of the protocol is :class:`OpenTaflEngine`, which reads
lines and gives lines and does no input or output, so that a test (or
another host) can drive it directly:

>>> engine = OpenTaflEngine(budget=300)
>>> engine.feed('rules ' + OPENTAFL_BRANDUB), engine.feed('play attackers')
([], [])
>>> engine.answer()[0].startswith('move ')
True
>>> engine.feed('rules dim:9 start:/9/9/9/9/4K4/9/9/9/9/')
['error -1 dim:9: this package plays only the 7x7 board']
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, TextIO, Union

from .. import notation
from ..bot import MAX_LEVEL
from ..core.clock import MOVES_TO_GO, OVERTIME_SHARE, share_ms
from ..core.search import MAX_BUDGET
from ..files import write_whole
from ..errors import BrandubhError, quote
from .notation import OPENTAFL_BRANDUB, OpenTaflError, RulesRecord, read_move, read_position_record, simple_move
from ..variant import VariantLike, as_variant

__all__ = [
    "MARGIN_MS",
    "MOVES_TO_GO",
    "OVERTIME_SHARE",
    "CLOCK_WAIT",
    "Clock",
    "OpenTaflEngine",
    "serve",
    "write_ini",
]

MARGIN_MS = 50.0
"""What the engine keeps back from each share of its clock, in
milliseconds: the time to read the request, write the answer and for the
host to read it."""
CLOCK_WAIT = 0.1
"""Seconds the engine waits after a ``play`` for the ``clock`` line that
follows it in a game with a clock (OpenTafl writes the two together)."""

_SIDES = notation.SIDES
_ERRORS = {1: "it is not my side's turn", 2: "an illegal move", 3: "a berserk fault", 4: "a berserk fault"}
_FINISH = {0: "ended before a result", 1: "drawn", 2: "won by the attackers", 3: "won by the defenders"}


def _board(position: str) -> str:
    return position.partition(" ")[0]


def _other(side: str) -> str:
    return "defenders" if side == "attackers" else "attackers"


@dataclass(frozen=True)
class Clock:
    """A ``clock`` line: the time each side has left (milliseconds),
    whether it is in overtime (then the figure is what is left of the
    current period), the length of an overtime period (seconds) and how
    many periods each side has.

    >>> c = Clock.parse('60000 59000* 10 3 2')
    >>> c.left('defenders'), c.share_ms('attackers'), c.share_ms('defenders')
    ((59000.0, True, 2), 4950.0, 29450.0)
    >>> Clock.parse('30 30 0 0 0').share_ms('attackers')
    1.0
    """

    attackers_ms: float
    defenders_ms: float
    attackers_overtime: bool
    defenders_overtime: bool
    overtime_s: float
    attackers_overtimes: int
    defenders_overtimes: int

    @classmethod
    def parse(cls, text: str) -> "Clock":
        """The clock from the words after ``clock``; OpenTaflError when
        they are not five figures (the first two may end in ``*``)."""
        words = text.split()
        if len(words) != 5:
            raise OpenTaflError(f"a clock line has five figures, not {quote(text)}")
        try:
            figures = [float(w.rstrip("*")) for w in words[:2]]
            overtime = float(words[2])
            counts = [int(w) for w in words[3:]]
        except ValueError:
            raise OpenTaflError(f"a clock line has five figures, not {quote(text)}") from None
        if any(not 0 <= f < 1e12 for f in (*figures, overtime)) or any(c < 0 for c in counts):
            raise OpenTaflError(f"the figures of a clock line are not negative, not {quote(text)}")
        return cls(figures[0], figures[1], words[0].endswith("*"), words[1].endswith("*"),
                   overtime, counts[0], counts[1])

    def left(self, side: str) -> tuple[float, bool, int]:
        """(milliseconds left, in overtime, overtime periods) of a side."""
        if side == "attackers":
            return self.attackers_ms, self.attackers_overtime, self.attackers_overtimes
        return self.defenders_ms, self.defenders_overtime, self.defenders_overtimes

    def share_ms(self, side: str, margin_ms: float = MARGIN_MS) -> float:
        """How long ``side``'s next move may think, in milliseconds: in
        overtime, :data:`OVERTIME_SHARE` of what is left of the period; in
        the main time, one :data:`MOVES_TO_GO`-th of it, or half a period
        when that is more and periods are left; never more than half of
        what the side can spend before it loses (or loses a period); less
        ``margin_ms``, and at least 1."""
        left, overtime, periods = self.left(side)
        period = self.overtime_s * 1000.0 if periods > 0 else 0.0
        return share_ms(left, overtime=overtime, period_ms=period, margin_ms=margin_ms)


Line = tuple[tuple[int, ...], int]
"""One line of an analysis: its moves (move numbers) and its score for the
side to move."""


class OpenTaflEngine:
    """The engine's side of OpenTafl's engine protocol, without input or
    output: :meth:`feed` takes each line the host writes and returns the
    lines to write back; after a ``play``, :attr:`asked` names the side to
    move and :meth:`answer` searches and returns the move. Never raises for
    what the host writes.

    ``level`` (1-6) is :class:`brandubh.Bot`'s; ``budget`` a fixed number of
    positions a move instead (no clock read); ``seed`` the bot's;
    ``margin_ms`` what is kept back from each share of the clock;
    ``base`` the variant whose fields a rules record cannot carry (the
    ending of a side with no move, the caps, whether the start counts
    towards a repetition): the ``opentafl`` preset by default. ``log`` is
    given every line meant for standard error (with ``verbose``, a line
    for every move too). ``threads``: each move's search on that many
    threads (:class:`brandubh.Bot`'s; more than one is not deterministic).
    ``clock_only``: under a clock, the clock alone decides how long a move
    thinks (the level's budget is no cap then).
    """

    def __init__(self, level: int = MAX_LEVEL, budget: Optional[int] = None, seed: int = 1,
                 margin_ms: float = MARGIN_MS, base: VariantLike = "opentafl",
                 log: Optional[Callable[[str], None]] = None, verbose: bool = False,
                 clock_only: bool = False, threads: Optional[int] = None) -> None:
        from ..bot import Bot
        from ..core.stopping import Stop

        self.bot = Bot(level, seed=seed, budget=budget, threads=threads)
        self.fixed = budget is not None
        # Under a clock, let the clock alone decide (no cap from the level).
        self.clock_only = clock_only
        # Raised to end a search, a move's or an analysis's (goodbye, or the
        # end of the input: serve).
        self.stop = Stop()
        self.bot.stop = self.stop
        self.seed = seed
        if not margin_ms >= 0:
            raise BrandubhError(f"the margin is at least 0 milliseconds, not {quote(margin_ms)}")
        self.margin_ms = float(margin_ms)
        self.base = as_variant(base)
        self.log = log
        self.verbose = verbose
        self.rules: Optional[RulesRecord] = None
        self.refusal: Optional[str] = None  # why the last rules record was refused
        self.game: Any = None  # a brandubh.Rules: the engine's own record
        self.asked: Optional[str] = None  # the side a play asks for, until answered
        self.asked_at = 0.0
        self.clock: Optional[Clock] = None
        self.clock_fresh = False  # a clock line came for the play asked now
        self.clock_new = False  # a clock line came since the last answer (OpenTafl sends it before play)
        self.clocked = False  # this game has a clock
        self.plays = 0
        self.side: Optional[str] = None  # the side the engine plays
        self.sent: Optional[int] = None  # its last move, until confirmed or refused
        self.refused: dict[str, set[int]] = {}  # moves the host refused, by position
        self.setup_board: Optional[str] = None  # analysis: position and side
        self.setup_side: Optional[str] = None
        self.done = False  # goodbye came
        self.think_ms: Optional[float] = None  # the time the last move was given (None: no clock)
        self.resyncs = 0

    # -- reading -------------------------------------------------------------------

    def feed(self, line: str) -> list[str]:
        """Read one line from the host; the lines to write back."""
        words = line.split()
        if not words:
            return []
        command, rest = words[0], line.strip()[len(words[0]):].strip()
        handler = self._HANDLERS.get(command)
        if handler is None:
            self._log(f"a line I do not understand, read past: {quote(line.strip(), 80)}")
            return []
        try:
            return handler(self, rest)
        except Exception as exc:  # never crash on what the host writes
            self._log(f"{command}: {type(exc).__name__}: {exc}")
            return [f"status brandubh could not act on {command}: {exc}"]

    def _rules(self, rest: str) -> list[str]:
        from ..core.rules import Rules

        self._new_game()
        self.rules = self.game = None
        try:
            record = RulesRecord.read(rest, self.base)
            game = Rules(record.start, record.variant)
        except BrandubhError as exc:
            self.refusal = str(exc)
            self._log(f"refused the rules: {exc}")
            return [f"error -1 {exc}"]
        self.rules, self.game, self.refusal = record, game, None
        self._log(f"rules: {record.variant.as_string()}, start {record.start}", verbose=True)
        return []

    def _play(self, rest: str) -> list[str]:
        side = rest.split()[0] if rest else ""
        if side not in _SIDES:
            self._log(f"play {quote(rest)} names no side")
            return [f"status brandubh cannot tell which side 'play {rest}' asks for"]
        # The order in the protocol's description is play, then clock; OpenTafl
        # itself sends the clock first. Either way a clock that came since
        # the last answer is this move's.
        self.asked, self.asked_at, self.clock_fresh = side, time.monotonic(), self.clock_new
        self.plays += 1
        return []

    def _clock(self, rest: str) -> list[str]:
        try:
            self.clock = Clock.parse(rest)
        except OpenTaflError as exc:
            self._log(str(exc))
            return []
        self.clock_fresh = self.clocked = self.clock_new = True
        return []

    def _opponent_move(self, rest: str) -> list[str]:
        parts = rest.split()
        if len(parts) < 2:
            self._log(f"opponent-move {quote(rest)} is not a move and a position")
            return []
        out: list[str] = []
        game = self._ensure_game(out)
        if game is None:
            return out
        self.sent = None  # the host moved on: my move stood
        moves = [read_move(m) for m in parts[0].split("|")]
        to_move = self._side_after(moves, parts[1])
        try:
            given = read_position_record(parts[1], to_move)
        except OpenTaflError as exc:
            self._log(f"opponent-move: {exc}; keeping my record")
            return out
        trial = game.clone()
        if all(m is not None and trial.play(m) == 0 for m in moves) and \
                _board(trial.position) == _board(given) and trial.side == to_move:
            self.game = trial
            return out
        if _board(game.position) == _board(given) and game.side == to_move:
            return out  # the same move again, after an error: already on my record
        return out + self._resync(given, f"my record after {parts[0]} is not OpenTafl's position")

    def _side_after(self, moves: list[Optional[str]], record: str) -> str:
        """The side to move after the opponent's moves: the other side than
        the piece that stands where the last one ended."""
        last = moves[-1] if moves else None
        if last is not None:
            try:
                position = read_position_record(record, "attackers")
            except OpenTaflError:
                position = None
            if position is not None:
                from ..notation import position_cells

                cells = position_cells(position)
                if cells:
                    rows, _ = cells
                    file, rank = "abcdefg".index(last[2]), int(last[3]) - 1
                    piece = rows[6 - rank][file]
                    if piece:
                        return "defenders" if piece == "a" else "attackers"
        return self.side or "attackers"

    def _confirm(self, rest: str) -> list[str]:
        self.sent = None
        if self.game is None or not rest:
            return []
        try:
            given = read_position_record(rest.split()[0], self.game.side)
        except OpenTaflError as exc:
            self._log(f"move: {exc}; keeping my record")
            return []
        if _board(given) == _board(self.game.position):
            return []
        return self._resync(given, "OpenTafl's position after my move is not mine")

    def _error(self, rest: str) -> list[str]:
        words = rest.split(maxsplit=1)
        try:
            code: Optional[int] = int(words[0]) if words else None
        except ValueError:
            code = None
        game, sent = self.game, self.sent
        if code in _ERRORS and sent is not None and game is not None and game.ply > 0 \
                and game.move_at(game.ply) == sent:
            from ..core.position import move_text

            game.undo()
            self.refused.setdefault(game.position, set()).add(sent)
            self.sent = None
            return [f"status brandubh: OpenTafl refused my move {simple_move(move_text(sent))} "
                    f"(error {code}: {_ERRORS[code]}); I will choose another"]
        self._log(f"OpenTafl reports error {rest}")
        return []

    def _finish(self, rest: str) -> list[str]:
        try:
            how = _FINISH.get(int(rest.split()[0]), f"finish {rest}")
        except (ValueError, IndexError):
            how = f"finish {rest}"
        self._log(f"the game is over: {how}", verbose=True)
        self._new_game()
        self.game = None
        return []

    def _goodbye(self, rest: str) -> list[str]:
        self.done = True
        return []

    def _position(self, rest: str) -> list[str]:
        self.setup_board = rest.split()[0] if rest else None
        return []

    def _set_side(self, rest: str) -> list[str]:
        side = rest.split()[0] if rest else ""
        if side not in _SIDES:
            self._log(f"side {quote(rest)} names no side")
            return []
        self.setup_side = side
        return []

    def _analyze(self, rest: str) -> list[str]:
        from ..core.position import move_text
        from ..core.rules import Rules

        words = rest.split()
        try:
            count, seconds = int(words[0]), float(words[1])
        except (ValueError, IndexError):
            self._log(f"analyze {quote(rest)} is not a count and a number of seconds")
            return []
        if self.refusal is not None:
            return [f"error 0 {self.refusal}"]
        out: list[str] = []
        game = self._ensure_game(out)
        if self.setup_board is not None:
            side = self.setup_side or (game.side if game is not None else "attackers")
            variant = self.rules.variant if self.rules is not None else self.base
            try:
                game = Rules(read_position_record(self.setup_board, side), variant)
            except BrandubhError as exc:
                return out + [f"error 0 cannot analyse this position: {exc}"]
        elif game is not None and self.setup_side is not None and self.setup_side != game.side:
            game = Rules(_board(game.position) + " " + self.setup_side[0], game.variant)
        if game is None:
            return out
        lines = self.analyse(game, max(1, min(count, 40)), max(0.0, min(seconds, 86_400.0)))
        words = [f"{'|'.join(simple_move(move_text(m)) for m in moves)} {shown_score(score, game)}"
                 for moves, score in lines]
        return out + [" ".join(["analysis", str(len(lines)), *words])]

    _HANDLERS: dict[str, Callable[["OpenTaflEngine", str], list[str]]] = {
        "rules": _rules, "play": _play, "clock": _clock, "opponent-move": _opponent_move,
        "move": _confirm, "error": _error, "finish": _finish, "goodbye": _goodbye,
        "position": _position, "side": _set_side, "analyze": _analyze,
    }

    # -- the record ----------------------------------------------------------------

    def _new_game(self) -> None:
        self.asked = self.clock = self.sent = self.side = None
        self.clock_fresh = self.clocked = False
        self.plays = 0
        self.refused = {}
        self.setup_board = self.setup_side = None

    def _ensure_game(self, out: list[str]) -> Any:
        """The record, made from OpenTafl's Brandub rules (with a status
        line) when no rules came; None when the rules were refused."""
        if self.game is not None:
            return self.game
        if self.refusal is not None:
            return None
        from ..core.rules import Rules

        if self.rules is None:
            self.rules = RulesRecord.read(OPENTAFL_BRANDUB, self.base)
            out.append("status brandubh: no rules were given; playing OpenTafl's Brandub")
        self.game = Rules(self.rules.start, self.rules.variant)
        return self.game

    def _resync(self, position: str, why: str) -> list[str]:
        """Start the record again from the host's position."""
        from ..core.rules import Rules

        variant = self.rules.variant if self.rules is not None else self.base
        self.resyncs += 1
        self._log(f"{why}: {position}")
        try:
            self.game = Rules(position, variant)
        except BrandubhError as exc:
            return [f"status brandubh: {why}, and cannot play from it: {exc}"]
        return [f"status brandubh: {why}; playing on from OpenTafl's position, without the history before it"]

    # -- answering -------------------------------------------------------------------

    def clock_wait(self) -> float:
        """Seconds to wait, after a ``play``, for a ``clock`` line: none
        once it came or when the game has shown it has no clock."""
        if self.asked is None or self.clock_fresh:
            return 0.0
        return CLOCK_WAIT if self.clocked or self.plays <= 1 else 0.0

    def answer(self) -> list[str]:
        """The move for the side :attr:`asked` for (played on the record),
        with any ``status`` line before it; ``error -1`` when there is none
        to play."""
        from ..core.position import move_text

        side, self.asked = self.asked, None
        if side is None:
            return []
        self.clock_new = False
        self.side = side
        if self.refusal is not None:
            return [f"error -1 {self.refusal}"]
        out: list[str] = []
        game = self._ensure_game(out)
        if game.side != side or game.is_over():
            why = (f"my record has the {game.side} to move, OpenTafl asks for the {side}"
                   if game.side != side else f"my record says the game is over ({game.outcome.name.lower()})")
            out += self._resync(_board(game.position) + " " + side[0], why)
            game = self.game
        legal = game.moves()
        if not legal:
            return out + [f"error -1 the {side} have no legal move in this position"]
        self.think_ms = None
        if not self.fixed and self.clock is not None:
            share = self.clock.share_ms(side, self.margin_ms)
            self.think_ms = max(1.0, share - (time.monotonic() - self.asked_at) * 1000.0)
        move = self._choose(game, legal, out)
        game.play(move)
        self.sent = move
        return out + [f"move {simple_move(move_text(move))}"]

    def _choose(self, game: Any, legal: list[int], out: list[str]) -> int:
        refused = self.refused.get(game.position, set())
        candidates = [m for m in legal if m not in refused] or legal
        self.bot.time_ms = self.think_ms
        capped = self.bot.budget
        if self.clock_only and self.think_ms is not None:
            self.bot.budget = MAX_BUDGET
        t0 = time.monotonic()
        try:
            move: Optional[int] = self.bot.choose(game)
        except Exception as exc:  # never lose a game to an exception
            self._log(f"the search failed ({type(exc).__name__}: {exc}); choosing by a quick look")
            move = None
        finally:
            self.bot.budget = capped
        if move not in candidates:
            move = max(candidates, key=lambda m: self._quick_score(game, m))
        self._log(f"ply {game.ply}: {move} in {(time.monotonic() - t0) * 1000:.0f} ms "
                  f"(budget {self.bot.budget}, clock "
                  + ("none" if self.think_ms is None else f"{self.think_ms:.0f} ms") + ")", verbose=True)
        return int(move)  # type: ignore[arg-type]

    def _quick_score(self, game: Any, move: int, budget: int = 300) -> int:
        """A move's score for the side to move, by a small search after it."""
        from ..core.search import MATE

        child = game.clone()
        child.play(move)
        if child.is_over():
            return 0 if child.winner is None else MATE - 1 if child.winner == game.side else 1 - MATE
        return -child.search(budget=budget, seed=self.seed).score

    def analyse(self, game: Any, count: int, seconds: float) -> list[Line]:
        """Up to ``count`` lines from ``game`` (a :class:`brandubh.Rules`),
        best first, in about ``seconds``: the search's own line, then the
        best of the other moves (ordered by a quick look), each searched
        in turn. Scores are for the side to move. :attr:`stop`, set from
        another thread, ends it early with what it has."""
        from ..core.search import MATE

        if game.is_over():
            return []
        total = max(1.0, seconds * 1000.0 - self.margin_ms)
        main = game.search(time_ms=total if count == 1 else total / 2, seed=self.seed, stop=self.stop)
        lines: list[Line] = [(tuple(main.pv) or (main.move,), main.score)]
        others = [m for m in game.moves() if m != main.move]
        if count > 1 and others:
            others.sort(key=lambda m: -self._quick_score(game, m))
            chosen = others[:count - 1]
            each = max(1.0, total / 2 / len(chosen))
            for m in chosen:
                child = game.clone()
                child.play(m)
                if child.is_over():
                    won = child.winner
                    lines.append(((m,), 0 if won is None else MATE - 1 if won == game.side else 1 - MATE))
                    continue
                if self.stop.is_set():
                    break
                found = child.search(time_ms=each, seed=self.seed, stop=self.stop)
                lines.append(((m, *found.pv), -found.score))
            lines[1:] = sorted(lines[1:], key=lambda line: -line[1])
        return lines

    def _log(self, text: str, verbose: bool = False) -> None:
        if self.log is not None and (not verbose or self.verbose):
            self.log(text)


def shown_score(raw: int, game: Any) -> int:
    """An analysis line's evaluation as OpenTafl shows it: the centred
    score of :mod:`brandubh.chances` in hundredths (130 for +1.3, about a
    59% chance at 100), for the side to move; a found result keeps the
    engine's score (29,000 and over a win, minus that a loss), so that the
    order of the lines is the search's.

    >>> from brandubh import Rules
    >>> shown_score(30_000 - 3, Rules()), shown_score(-91, Rules())   # the set-up's score, searched: -4.4
    (29997, -442)
    """
    from ..chances import Outlook
    from ..core.search import WIN

    if abs(raw) > WIN:
        return raw
    outlook = Outlook.of(raw, None, side_to_move=game.side, viewer=game.side, variant=game.variant)
    return int(round((outlook.score or 0.0) * 100))


# -- the process -----------------------------------------------------------------------

_EOF = None
_WAITED = object()
_SEARCHED = object()   # put among the lines when a search beside the input ends


#: The longest line of the host read whole; a longer one is read past.
MAX_LINE = 1 << 16


class _Lines:
    """The host's lines, read by a thread of their own so that the engine
    can wait for one with a timeout (the ``clock`` after a ``play``)."""

    def __init__(self, stream: Any) -> None:
        # Lines; _EOF at the end of the input; _SEARCHED when a search beside it ends.
        self.queue: "queue.Queue[object]" = queue.Queue()
        self.stream = stream
        try:
            self.fd: Optional[int] = stream.fileno()
        except (AttributeError, OSError, ValueError):  # a stream in memory
            self.fd = None
        threading.Thread(target=self._read, name="opentafl-input", daemon=True).start()

    def _read(self) -> None:
        try:
            if self.fd is None:
                for line in iter(self.stream.readline, ""):
                    self.queue.put(line)
            else:
                # The file descriptor itself, not sys.stdin: a thread blocked
                # in a buffered reader would hold its lock when the engine
                # leaves on goodbye, and the interpreter would abort.
                # A line longer than MAX_LINE is no line of the protocol:
                # it is read past (not kept, not split again and again) and
                # stands as an empty line.
                pending, skipping = b"", False
                while True:
                    data = os.read(self.fd, 65536)
                    if not data:
                        break
                    *lines, rest = data.split(b"\n")
                    for line in lines:
                        whole = b"" if skipping else pending + line
                        pending, skipping = b"", False
                        self.queue.put(whole.decode("ascii", "replace") + "\n")
                    if not skipping:
                        pending += rest
                        if len(pending) > MAX_LINE:
                            pending, skipping = b"", True
                if pending:
                    self.queue.put(pending.decode("ascii", "replace"))
        except (OSError, ValueError):
            pass
        self.queue.put(_EOF)

    def get(self, timeout: Optional[float]) -> Union[str, None, object]:
        """The next line, None at the end of the input, or ``_WAITED`` when
        ``timeout`` seconds pass first (None: wait as long as it takes, in
        short steps so that Ctrl-C is seen)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            step = 0.5 if end is None else max(0.0, min(0.5, end - time.monotonic()))
            try:
                return self.queue.get(timeout=step) if step > 0 else self.queue.get_nowait()
            except queue.Empty:
                if end is not None and time.monotonic() >= end:
                    return _WAITED


def serve(stdin: Any, stdout: TextIO, engine: OpenTaflEngine) -> int:
    """Speak the protocol: ``hello``, then every line read given to the
    engine and its answers written, until ``goodbye`` or the end of the
    input. A search (a move's, an analysis's) runs beside the input, so
    that either ends it too (:func:`_beside_input`). Returns the exit
    status (0)."""

    def write(lines: Sequence[str]) -> bool:
        try:
            for line in lines:
                stdout.write(line.replace("\n", " ").encode("ascii", "replace").decode("ascii") + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError, OSError):
            return False
        return True

    if not write(["hello"]):
        return 0
    lines = _Lines(stdin)
    held: list[Any] = []   # lines read while a search ran, for after it
    while not engine.done:
        if held:
            line = held.pop(0)
        elif engine.asked is not None:
            line = lines.get(engine.clock_wait())
            if line is _WAITED:
                answer = _beside_input(engine.answer, engine, lines, held)
                if answer is None or not write(answer):
                    return 0
                continue
        else:
            line = lines.get(None)
        if line is _EOF:
            return 0
        if str(line).split()[:1] == ["analyze"]:
            answer = _beside_input(lambda: engine.feed(str(line)), engine, lines, held)
            if answer is None or not write(answer):
                return 0
            continue
        if not write(engine.feed(str(line))):
            return 0
    return 0


def _beside_input(search: Callable[[], list[str]], engine: OpenTaflEngine, lines: _Lines,
                  held: list[Any]) -> Optional[list[str]]:
    """The lines ``search()`` answers (a move, or an analysis, which may be
    asked to think for a day), run in a thread of its own while the input
    is read on: goodbye or the end of the input sets :attr:`engine.stop
    <OpenTaflEngine.stop>`, waits for the search to end (within a fraction
    of a second) and gives None, for the engine to leave; any other line
    read meanwhile goes to ``held``, for after the answer."""
    result: list[list[str]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(search())
        except BaseException as exc:  # raised here, as if the search had run in this thread
            failed.append(exc)
        finally:
            lines.queue.put(_SEARCHED)  # wakes the wait below at once, not at its next look

    engine.stop.clear()   # before the search starts: a goodbye may come at once
    worker = threading.Thread(target=run, name="opentafl-search", daemon=True)
    worker.start()
    searched = False
    try:
        while True:
            line = lines.get(None)
            if line is _SEARCHED:
                searched = True
                break
            if line is _EOF or str(line).split()[:1] == ["goodbye"]:
                return None
            held.append(line)
    finally:
        if not searched:  # goodbye, the end of the input, or Ctrl-C here
            engine.stop.set()
        worker.join()
    if failed:
        raise failed[0]
    return result[0]


# -- installing into OpenTafl ------------------------------------------------------------


def write_ini(directory: str, arguments: Sequence[str] = (), name: Optional[str] = None,
              python: Optional[str] = None) -> str:
    """Write ``brandubh.ini`` into ``directory`` (OpenTafl's ``engines``
    folder): the ``[engine]`` section that makes OpenTafl start this
    engine, ``python -m brandubh opentafl`` and ``arguments``, with this
    interpreter (or ``python``). Returns the file's path. BrandubhError
    when an argument holds a space (OpenTafl splits the arguments on spaces,
    with no quoting) or the file cannot be written.

    >>> import tempfile, configparser
    >>> d = tempfile.mkdtemp()
    >>> ini = configparser.ConfigParser()
    >>> _ = ini.read(write_ini(d, ['--level', '3']))
    >>> ini['engine']['arguments']
    '-m brandubh opentafl --level 3'
    """
    from .. import __version__

    exe = os.path.abspath(python or sys.executable)
    args = ["-m", "brandubh", "opentafl", *arguments]
    for arg in args:
        if not arg or any(c.isspace() for c in arg):
            raise BrandubhError(f"the argument {quote(arg)} holds a space or is empty: OpenTafl "
                                "splits an engine's arguments on spaces, with no quoting "
                                "(use a preset's name for --variant)")
    folder = os.path.dirname(exe)
    try:
        relative = os.path.relpath(folder, os.path.abspath(directory))
    except ValueError:  # another drive
        relative = folder
    if name is None:
        name = f"brandubh {__version__} " + " ".join(arguments) if arguments else f"brandubh {__version__}"
    text = ("[engine]\n"
            f"name={name.strip()}\n"
            f"directory={relative}\n"
            f"filename={os.path.basename(exe)}\n"
            f"command={exe}\n"
            f"arguments={' '.join(args)}\n")
    if not os.path.isdir(directory):
        # A typo in the folder's name must not go unnoticed: OpenTafl would
        # never see an .ini written into a folder made for it.
        raise BrandubhError(f"there is no folder {quote(directory)}: give OpenTafl's engines folder "
                            "(it is made when OpenTafl is installed)")
    path = os.path.join(directory, "brandubh.ini")
    write_whole(path, text.encode("ascii", "replace"))
    return path


# -- the command -----------------------------------------------------------------------
