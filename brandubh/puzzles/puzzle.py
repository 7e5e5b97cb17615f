"""A puzzle: a position whose side to move has a forced win, the one move
that keeps it at each of the winner's turns, and the defence's best
replies (docs/puzzles.md).

A set of puzzles is text, one puzzle a line (``#`` lines are comments,
blank lines skipped), seven fields parted by ``;``::

    ID;RULES;POSITION;SOLUTION;THEMES;RATING;ORIGIN

- ``ID``: ten hexadecimal digits, the start of the SHA-256 of
  ``RULES;POSITION`` (:func:`puzzle_id`): a position is one puzzle under a
  rule set, and a line whose id does not match it was damaged;
- ``RULES``: the rule set's name (``brandubh``, ``codingame``) or its
  ``field=value`` line;
- ``POSITION``: the position, the side to move last (the winner): the
  puzzle is played from it as a game that starts there, so no history
  before it counts (repetitions, the caps: the solver proved it so);
- ``SOLUTION``: the moves of the main line as stored (``d4g4 c1c4 g4g7``):
  the winner's, the defence's best reply, the winner's, ..., ending in the
  winner's win;
- ``THEMES``: comma-separated names from :data:`THEMES` (may be empty);
- ``RATING``: the puzzle's Glicko-2 rating, deviation and volatility
  (``1400 300 0.06``);
- ``ORIGIN``: where it came from (``selfplay brandubh 17 42``: the self-play
  game's seed and the ply; ``game NAME N 42``).

A line is about 110 bytes (:data:`LINE_BYTES` is the measured mean of the
shipped set's lines, in docs/puzzles.md).

>>> p = Puzzle.from_line('2f7d3c0b1e;brandubh;7/7/7/3k3/7/7/a6 d;d4d1 a1b1 d1g1;escape;1200 300 0.06;example')
Traceback (most recent call last):
...
brandubh.puzzles.puzzle.PuzzleError: the id 2f7d3c0b1e is not this puzzle's (058b8a4254): the line is damaged
>>> p = Puzzle.make('brandubh', '7/7/7/3k3/7/7/a6 d', ['d4d1', 'a1b1', 'd1g1'], ['escape'], origin='example')
>>> p.line()
'058b8a4254;brandubh;7/7/7/3k3/7/7/a6 d;d4d1 a1b1 d1g1;escape;1500 350 0.06;example'
>>> Puzzle.from_line(p.line()) == p, p.winner, p.winner_moves
(True, 'defenders', 2)
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional, Sequence

from ..core.rules import Rules
from ..errors import BrandubhError, quote
from ..notation import move_parse, position_ok
from ..ratings import DEFAULT, Rating
from ..variant import Variant, as_variant

__all__ = ["Puzzle", "PuzzleError", "THEMES", "puzzle_id", "read_puzzles", "load_puzzles", "write_puzzles",
           "FIELDS"]

#: The fields of a line, in order.
FIELDS = ("id", "rules", "position", "solution", "themes", "rating", "origin")
#: The themes a puzzle can have, each found from its solution
#: (brandubh.puzzles.make.themes_of): how it ends (the king's escape, his
#: capture, the last defender taken, the king encircled where the rules
#: have it, a side left without a move), and what it takes (two threats at
#: once, a piece given up, a corner shut by the attackers).
THEMES = ("escape", "king-capture", "no-pieces", "encirclement", "blockade", "double-threat", "sacrifice",
          "blocked-corner")
_ID = re.compile(r"[0-9a-f]{10}")


@lru_cache(maxsize=64)
def _rule_set(rules: str) -> Variant:
    """A rule set's name read once, not once a puzzle: a set's puzzles
    share a few rule sets, and the engine's form of one is made once per
    :class:`~brandubh.variant.Variant` (a third of checking a set was
    reading the same name again)."""
    return as_variant(rules)


class PuzzleError(BrandubhError):
    """A puzzle's line, or a set of them, is not right: the sentence says
    which line and why."""


def puzzle_id(rules: str, position: str) -> str:
    """The id of the puzzle at ``position`` under ``rules`` (a rule set's
    name): ten hexadecimal digits of SHA-256.

    >>> puzzle_id('brandubh', '7/7/7/3k3/7/7/a6 d')
    '058b8a4254'
    """
    return hashlib.sha256(f"{rules};{position}".encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: see the module's text for its fields. ``solution`` is
    the main line, the winner's moves at the even places (0, 2, ...);
    :meth:`make` checks it under the rules, as :meth:`from_line` does."""

    id: str
    rules: str
    position: str
    solution: tuple[str, ...]
    themes: tuple[str, ...] = ()
    rating: Rating = DEFAULT
    origin: str = ""

    @classmethod
    def make(cls, rules: str, position: str, solution: Sequence[str], themes: Iterable[str] = (),
             rating: Rating = DEFAULT, origin: str = "") -> "Puzzle":
        """A puzzle with its id worked out, checked as :meth:`from_line`
        checks a line: a :class:`PuzzleError` for one that is not right."""
        name = as_variant(rules).as_string()
        puzzle = cls(puzzle_id(name, position), name, position, tuple(solution), tuple(themes), rating, origin)
        puzzle.check()
        return puzzle

    @property
    def winner(self) -> str:
        """The side to move, who wins: ``'attackers'`` or ``'defenders'``."""
        return "attackers" if self.position.endswith("a") else "defenders"

    @property
    def winner_moves(self) -> int:
        """How many moves the winner makes: 2 to 15 in a generated set."""
        return (len(self.solution) + 1) // 2

    def rules_at(self, ply: int = 0) -> Rules:
        """The game from the puzzle's position with the first ``ply`` moves
        of the solution played."""
        game = Rules(self.position, self.rules)
        for move in self.solution[:ply]:
            game.play(move)
        return game

    def check(self) -> None:
        """A :class:`PuzzleError` unless every field is in shape, the id is
        the puzzle's, and the solution is legal move after move and ends, at
        its last move and not before, in the winner's win."""
        for name in ("rules", "position", "origin"):
            value = getattr(self, name)
            if not isinstance(value, str) or ";" in value or "\n" in value:
                raise PuzzleError(f"the {name} must be text without ';' or a line break, not {quote(value)}")
        try:
            variant = _rule_set(self.rules)
        except BrandubhError as error:
            raise PuzzleError(f"the rules: {error}") from None
        if not position_ok(self.position):
            raise PuzzleError(f"{quote(self.position)} is not a position")
        if self.id != puzzle_id(self.rules, self.position):
            raise PuzzleError(f"the id {self.id} is not this puzzle's ({puzzle_id(self.rules, self.position)}): "
                              "the line is damaged")
        if len(self.solution) % 2 == 0:
            raise PuzzleError(f"a solution ends with the winner's move, so it has an odd number of moves, "
                              f"not {len(self.solution)}")
        unknown = [t for t in self.themes if t not in THEMES]
        if unknown:
            raise PuzzleError(f"{quote(unknown[0])} is not a theme; the themes are {', '.join(THEMES)}")
        try:
            game = Rules(self.position, variant)
        except BrandubhError as error:
            raise PuzzleError(f"the position: {error}") from None
        winner = game.side
        for number, move in enumerate(self.solution, 1):
            if game.is_over():
                raise PuzzleError(f"the game is over before move {number} of the solution")
            if move_parse(move) != move or game.play(move) != Rules.PLAY_OK:
                raise PuzzleError(f"move {number} of the solution, {quote(move)}, is not a legal move there")
        if game.winner != winner:
            raise PuzzleError(f"the solution does not end in the {winner}' win")

    def line(self) -> str:
        """The puzzle as one line of a set (no line break)."""
        r = self.rating
        rating = f"{round(r.rating)} {round(r.deviation)} {r.volatility:.6g}"
        return ";".join((self.id, self.rules, self.position, " ".join(self.solution), ",".join(self.themes),
                         rating, self.origin))

    @classmethod
    def from_line(cls, text: str, check: bool = True) -> "Puzzle":
        """A puzzle from its line (:meth:`line`), checked (:meth:`check`);
        a :class:`PuzzleError` saying what is wrong. ``check=False`` reads
        the fields only, for a line whose whole file was checked before
        (the shipped sets, known by their digest:
        :data:`brandubh.puzzles.shipped.CHECKED`)."""
        fields = text.strip().split(";")
        if len(fields) != len(FIELDS):
            raise PuzzleError(f"a puzzle's line has {len(FIELDS)} fields parted by ';' "
                              f"({';'.join(f.upper() for f in FIELDS)}), not {len(fields)}")
        ident, rules, position, solution, themes, rating, origin = fields
        if not _ID.fullmatch(ident):
            raise PuzzleError(f"the id is ten hexadecimal digits, not {quote(ident)}")
        try:
            value, deviation, volatility = (float(x) for x in rating.split())
            parsed = Rating(value, deviation, volatility)
        except ValueError:
            raise PuzzleError(f"the rating is three numbers (rating, deviation, volatility), not {quote(rating)}") \
                from None
        if not (deviation > 0 and volatility > 0 and abs(value) < 1e5):
            raise PuzzleError(f"the rating {quote(rating)} is out of range")
        puzzle = cls(ident, rules, position, tuple(solution.split()), tuple(t for t in themes.split(",") if t),
                     parsed, origin)
        if check:
            puzzle.check()
        return puzzle


def read_puzzles(text: str, name: str = "the set", rules: Optional[str] = None, check: bool = True) -> list[Puzzle]:
    """Every puzzle of a set's text (``rules``: only those under that rule
    set); a :class:`PuzzleError` naming ``name`` and the line for the first
    that is not right. A line given twice (the same id) is one puzzle.
    ``check=False``: each line's fields read, not each puzzle played
    through (:meth:`Puzzle.from_line`), for a text checked whole before."""
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            puzzle = Puzzle.from_line(line, check)
        except PuzzleError as error:
            raise PuzzleError(f"{name}, line {number}: {error}") from None
        if puzzle.id in seen or (rules is not None and puzzle.rules != rules):
            continue
        seen.add(puzzle.id)
        puzzles.append(puzzle)
    return puzzles


def load_puzzles(path: str, rules: Optional[str] = None) -> list[Puzzle]:
    """:func:`read_puzzles` of a set's file (read within the package's bound
    on a file, :func:`brandubh.files.read_text`)."""
    from ..files import read_text

    return read_puzzles(read_text(path, what="puzzle set"), path, rules)


def write_puzzles(puzzles: Iterable[Puzzle], head: str = "") -> str:
    """A set's text: ``head`` as ``#`` lines, then a line a puzzle."""
    lines = [f"# {line}".rstrip() for line in head.splitlines()]
    return "\n".join(lines + [p.line() for p in puzzles]) + "\n"
