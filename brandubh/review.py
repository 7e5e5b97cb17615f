"""A finished (or unfinished) game reviewed move by move: what ``brandubh
analyse`` prints, ``Game.analyse()`` returns and ``brandubh serve``'s page
draws.

Every position of the game is searched with the same node budget and salt,
so a review is the same on every machine. For each move the review keeps
the mover's :class:`~brandubh.chances.Outlook` before it and after it, the
engine's best move and line there, the win chance the move lost, a mark
and an accuracy:

- the chance lost is the mover's chance before the move less his chance
  after it (never below 0; 0 when he played the engine's own choice, so
  that the search's noise between two depths marks nothing);
- the marks, by the chance lost (on the 0-to-1 scale, a draw a half):
  ``?!`` an inaccuracy from :data:`MARKS`' 0.06, ``?`` a mistake from 0.12,
  ``??`` a blunder from 0.20. lichess marks at 0.05, 0.10 and 0.15 of
  chess's chance; the steps are a little wider here because a small search
  of a tafl position swings more between one ply and the next (docs/review.md
  gives the counts that set them);
- a move's accuracy, lichess's formula of the chance lost in percentage
  points ``103.1668 * exp(-0.04354 * lost) - 3.1669``, held to 0..100; a
  side's accuracy is the mean of its moves';
- the moves of an opening the players did not choose (a match's
  ``--openings`` and ``--random-plies``, which its game texts give as the
  tag :data:`~brandubh.records.OPENING_TAG`) are searched and drawn but not
  judged: no chance lost, no mark, not in the accuracy.

A review reads a game through :class:`Reviewable`, the few things it asks of
one (a :class:`~brandubh.Game` has them all), and imports no game: the game
imports the review (:meth:`Game.analyse <brandubh.Game.analyse>`), never the
other way round.

>>> from brandubh import Game
>>> game = Game.from_text('variant brandubh\\nstart 7/7/7/3k3/7/7/a6 d\\nmoves d4d2 a1a2 d2g2\\n').game
>>> review = analyse_game(game, budget=2_000)
>>> [(m.shown, m.best_shown, str(m.before), str(m.after), m.mark) for m in review.moves]
[('Kd4-d2', 'Kd4-d7', 'wins in 2', 'wins in 2', ''), ('a1-a2', 'a1-d1', 'loses in 2', 'loses in 2', ''), ('Kd2-g2', 'Kd2-d1', 'wins in 2', 'wins in 1', '')]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Protocol

from . import notation
from .chances import Outlook
from .errors import ArgumentError, quote
from .moves import Result

if TYPE_CHECKING:
    from .core.endgame import Probe
    from .core.search import SearchResult
    from .refusals import Refusal
    from .variant import Variant

__all__ = ["MARKS", "MoveReview", "Review", "Reviewable", "analyse_game", "review_moves", "reviewed",
           "REVIEW_BUDGET", "table_note", "table_words"]

#: The positions searched in each position of a review by default: a hint's.
REVIEW_BUDGET = 48_000


class Reviewable(Protocol):
    """What a review reads of a game (a :class:`~brandubh.Game` is one): its
    moves, stored and shown, how it ended, a search of its position, and a
    replay of its moves into a new game of the same seats, rules and start,
    where the review plays them one by one."""

    @property
    def ply(self) -> int: ...

    def search(self, budget: Optional[int] = None,
               salt: Optional[str] = None) -> "Optional[SearchResult]": ...

    @property
    def result(self) -> Optional[Result]: ...

    def play(self, move: str) -> "Optional[Refusal]": ...

    @property
    def side_to_move(self) -> Optional[str]: ...

    def replay(self, moves: Iterable[Any]) -> "_Replayed": ...

    @property
    def variant(self) -> "Variant": ...

    @property
    def log(self) -> list[str]: ...

    @property
    def shown(self) -> list[str]: ...

    def table_value(self) -> "Optional[Probe]": ...


class _Replayed(Protocol):
    """What a replay gives back, as a review reads it: the new game."""

    @property
    def game(self) -> Reviewable: ...


#: The marks by the least win chance lost (0 to 1) that earns each, worst first.
MARKS: tuple[tuple[str, float, str], ...] = (
    ("??", 0.20, "blunder"),
    ("?", 0.12, "mistake"),
    ("?!", 0.06, "inaccuracy"),
)


def mark_of(lost: float) -> str:
    """The mark a move that lost ``lost`` of its win chance earns.

    >>> mark_of(0.25), mark_of(0.13), mark_of(0.07), mark_of(0.01)
    ('??', '?', '?!', '')
    """
    for mark, least, _ in MARKS:
        if lost >= least:
            return mark
    return ""


def accuracy_of(lost: float) -> float:
    """lichess's accuracy of a move from the chance it lost (0 to 1).

    >>> round(accuracy_of(0.0), 1), round(accuracy_of(0.1), 1), accuracy_of(1.0)
    (100.0, 63.6, 0.0)
    """
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * lost * 100) - 3.1669))


@dataclass(frozen=True)
class MoveReview:
    """One move reviewed: its number (``ply``, 1 for the first move), the
    ``side`` that played it, the ``move`` as stored and as ``shown``, the
    engine's ``best`` there (stored and ``best_shown``) and the ``line`` it
    expected (shown), the mover's outlook ``before`` and ``after`` the
    move, the chance ``lost``, the ``mark`` and the move's ``accuracy``."""

    ply: int
    side: str
    move: str
    shown: str
    best: str
    best_shown: str
    line: tuple[str, ...]
    before: Outlook
    after: Outlook
    lost: float
    mark: str
    accuracy: float
    opening: bool = False
    #: What the endgame tables say of the move, when the game has them and
    #: they hold the position before it (:func:`table_note`), else "".
    table: str = ""

    @property
    def comment(self) -> str:
        """What a marked move's comment says: the mark's name, the chance
        lost and the better move, e.g. ``blunder (lost 34%): best was Kd2-d1``;
        and what the endgame tables say, when they spoke."""
        if not self.mark:
            return self.table
        name = next(name for mark, _, name in MARKS if mark == self.mark)
        said = f"{name} (lost {self.lost:.0%}): best was {self.best_shown}"
        return f"{said}; {self.table}" if self.table else said

    def as_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "side": self.side, "move": self.move, "shown": self.shown,
                "best": self.best, "best_shown": self.best_shown, "line": list(self.line),
                "before": self.before.as_dict(), "after": self.after.as_dict(),
                "lost": round(self.lost, 4), "mark": self.mark, "accuracy": round(self.accuracy, 1),
                "comment": self.comment, "opening": self.opening,
                **({"table": self.table} if self.table else {})}


@dataclass(frozen=True)
class Review:
    """A game reviewed: the ``moves`` reviewed (all of them when
    ``complete``; those done before a stop otherwise), the ``budget`` each
    position was searched with, the ``variant`` line, the attackers'
    outlook at every position reviewed (``curve``, the set-up first), and
    how many of the first moves were an ``opening`` the players did not
    choose (not judged)."""

    moves: tuple[MoveReview, ...]
    curve: tuple[Outlook, ...]
    budget: int
    variant: str
    total: int
    complete: bool = True
    sides: tuple[str, ...] = field(default=notation.SIDES)
    opening: int = 0

    def accuracy(self, side: str) -> Optional[float]:
        """The mean accuracy of ``side``'s moves (those of an opening left
        out), or None when it made none."""
        mine = [m.accuracy for m in self.moves if m.side == side and not m.opening]
        return sum(mine) / len(mine) if mine else None

    def count(self, side: str, mark: str) -> int:
        """How many of ``side``'s moves carry ``mark``."""
        return sum(1 for m in self.moves if m.side == side and m.mark == mark)

    def summary(self) -> list[str]:
        """One line a side: accuracy and the marks' counts."""
        out = []
        for side in self.sides:
            acc = self.accuracy(side)
            if acc is None:
                continue
            counts = ", ".join(_counted(self.count(side, mark), name) for mark, _, name in MARKS[::-1])
            out.append(f"{side}: accuracy {acc:.0f}%, {counts}")
        return out

    def table(self) -> str:
        """The review as a table for a terminal: one row a move (the
        attackers' chance after it), then each side's summary."""
        rows = [f"{'move':>4}  {'side':9}  {'played':12} {'':2}  {'chance':>6}  {'lost':>5}  best", ""]
        for m in self.moves:
            attackers_after = m.after if m.side == "attackers" else m.after.of_other()
            best = "(opening)" if m.opening else "" if m.best == m.move else m.best_shown
            lost = f"{m.lost:.0%}" if round(m.lost, 2) else ""
            rows.append(f"{m.ply:>4}  {m.side:9}  {m.shown:12} {m.mark:2}  {attackers_after.percent:>5}%  "
                        f"{lost:>5}  {best}".rstrip() + (f"  ({m.table})" if m.table else ""))
        rows[1] = "-" * max(len(r) for r in rows)
        rows.append("")
        if not self.complete:
            rows.append(f"stopped after {len(self.moves)} of {self.total} moves")
        rows += self.summary()
        if self.opening:
            rows.append(f"(moves 1 to {self.opening}: the opening, chosen by neither side, not judged)")
        rows.append("(chance: the attackers' expected result after the move, a draw a half; lost: the "
                    f"mover's chance the move lost; each position searched to {self.budget:,} positions)")
        return "\n".join(rows) + "\n"

    def as_dict(self) -> dict[str, Any]:
        """The review as JSON-ready fields."""
        return {"variant": self.variant, "budget": self.budget, "complete": self.complete, "total": self.total,
                "opening": self.opening, "moves": [m.as_dict() for m in self.moves],
                "chances": [round(o.chance, 4) for o in self.curve],
                "curve": [o.as_dict() for o in self.curve],
                "accuracy": {side: (None if self.accuracy(side) is None else round(self.accuracy(side) or 0, 1))
                             for side in self.sides},
                "marks": {side: {name: self.count(side, mark) for mark, _, name in MARKS} for side in self.sides}}

    @property
    def chances(self) -> list[float]:
        """The attackers' chance at every position reviewed (the graph's points)."""
        return [o.chance for o in self.curve]


def _outlook(game: Reviewable, budget: int, viewer: str) -> tuple[Outlook, Optional[Any]]:
    """The outlook of the game's position for ``viewer`` and the search
    that gave it (None for a finished game)."""
    result = game.result
    if result is not None:
        return Outlook.of_result(result.side, viewer=viewer), None
    found = game.search(budget=budget, salt="analysis")
    assert found is not None
    side = str(game.side_to_move)
    return Outlook.of(found.score, found.mate_in, side_to_move=side, viewer=viewer, variant=game.variant), found


def table_note(before: "Optional[Probe]", after: "Optional[Probe]", won: bool) -> str:
    """What the endgame tables say of a move: ``before`` is their value of
    the position for the mover, ``after`` for the other side once it is
    played (None when they do not hold it), ``won`` whether the move ended
    the game with the mover the winner. "a table win in 7" (plies), "this
    move threw away a table win", "this move threw away a table draw", "a
    table loss in 4", or "" when the tables did not hold the position
    before.

    >>> from brandubh.core.endgame import Probe
    >>> table_note(Probe('win', 7), Probe('loss', 6), False)
    'a table win in 7'
    >>> table_note(Probe('win', 7), Probe('draw', 0), False)
    'this move threw away a table win'
    """
    if before is None:
        return ""
    kept = won or (after is not None and after.value == "loss")
    if before.value == "win":
        return table_words(before) if kept else "this move threw away a table win"
    if before.value == "draw":
        lost = after is not None and after.value == "win"
        return "this move threw away a table draw" if lost else table_words(before)
    return table_words(before)


def table_words(value: "Probe") -> str:
    """What the endgame tables' value of a position is called, for the
    side to move: "a table win in 7" (plies), "a table draw", "a table loss
    in 4"; the review's words for a move that keeps it, and the page's for
    a position (:func:`brandubh.endgame.table_view`).

    >>> from brandubh.core.endgame import Probe
    >>> table_words(Probe('loss', 4)), table_words(Probe('draw', 0))
    ('a table loss in 4', 'a table draw')
    """
    if value.value == "draw":
        return "a table draw"
    return f"a table {value.value} in {value.plies}"


def _counted(count: int, name: str) -> str:
    """``1 mistake``, ``2 inaccuracies``."""
    return f"{count} {name if count == 1 else name[:-1] + 'ies' if name.endswith('y') else name + 's'}"


def _attackers(o: Outlook) -> Outlook:
    return o if o.viewer == "attackers" else o.of_other()


def review_moves(game: Reviewable, *, budget: int = REVIEW_BUDGET,
                 on_position: Optional[Callable[[int, int], None]] = None, opening: int = 0) -> Iterator[MoveReview]:
    """Review ``game``'s moves one at a time, yielding each move's review.
    ``on_position(done, total)`` is called before each position is searched
    (a progress bar's hook). The first ``opening`` moves, which the players
    did not choose, are not judged. Ctrl-C stops the search under way with
    ``KeyboardInterrupt``; what was yielded stays good."""
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        raise ArgumentError(f"budget must be a whole number of positions, 1 or more, not {quote(budget)}")
    _check_opening(opening, game.ply)
    total = game.ply
    board = game.replay([]).game  # the moves only: a resignation or an agreed draw is not a position
    if on_position:
        on_position(0, total)
    now, found = _outlook(board, budget, "attackers")
    for ply, move in enumerate(game.log, 1):
        side = str(board.side_to_move)
        before = now if side == "attackers" else now.of_other()
        if found is None:  # pragma: no cover - a game's moves stop at its end
            raise ArgumentError(f"move {ply} ({move}) comes after the game's end")
        best = str(found.move)
        line = board.replay(board.log + (list(found.pv) or [best])).game.shown[board.ply:]
        table_before = board.table_value()
        refused = board.play(move)
        if refused is not None:
            raise ArgumentError(f"move {ply} ({move}) is refused: {refused}")
        note = "" if table_before is None else \
            table_note(table_before, board.table_value(), board.result is not None and board.result.side == side)
        shown = board.shown[-1]
        if on_position:
            on_position(ply, total)
        now, found = _outlook(board, budget, "attackers")
        after = now if side == "attackers" else now.of_other()
        played_by_the_opening = ply <= opening
        lost = 0.0 if move == best or played_by_the_opening else max(0.0, before.chance - after.chance)
        yield MoveReview(ply, side, move, shown, best, line[0], tuple(line), before, after, lost,
                         mark_of(lost), accuracy_of(lost), played_by_the_opening, note)


def _check_opening(opening: int, moves: int) -> None:
    if not isinstance(opening, int) or isinstance(opening, bool) or not 0 <= opening <= moves:
        raise ArgumentError(f"the opening is a whole number of the game's moves, 0 to {moves}, not {quote(opening)}")


def reviewed(game: Reviewable, moves: list[MoveReview], budget: int, opening: int = 0) -> Review:
    """A :class:`Review` of ``game`` from the moves reviewed so far (all of
    them, or those done before a stop); its first ``opening`` moves not
    judged."""
    _check_opening(opening, game.ply)
    if moves:
        curve = [_attackers(moves[0].before)] + [_attackers(m.after) for m in moves]
    elif game.ply == 0:  # a game with no moves: its one position
        curve = [_outlook(game.replay([]).game, budget, "attackers")[0]]
    else:  # stopped before the first move was done: nothing more is searched
        curve = []
    return Review(tuple(moves), tuple(curve), budget, game.variant.as_string(), game.ply,
                  complete=len(moves) == game.ply, opening=opening)


def analyse_game(game: Reviewable, *, budget: int = REVIEW_BUDGET,
                 on_position: Optional[Callable[[int, int], None]] = None, opening: int = 0) -> Review:
    """The whole :class:`Review` of ``game`` (see :func:`review_moves`)."""
    moves = list(review_moves(game, budget=budget, on_position=on_position, opening=opening))
    return reviewed(game, moves, budget, opening)
