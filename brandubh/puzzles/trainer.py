"""Solving puzzles: the next one near a rating, an attempt judged move by
move, and the ratings (Glicko-2, :mod:`brandubh.ratings`) of the solver
and the puzzle moved by the result (docs/puzzles.md).

An attempt, from Python:

>>> from brandubh.puzzles import Puzzle
>>> puzzle = Puzzle.make('brandubh', '3aa2/7/1dd4/a4aa/a2k3/3d3/7 d', ['d3g3', 'a3a2', 'g3g1'])
>>> attempt = Attempt(puzzle)
>>> step = attempt.play('d3-g3')
>>> step.verdict, step.reply
('right', 'a3a2')
>>> attempt.play('g3g1').verdict, attempt.score
('solved', 1.0)
>>> attempt = Attempt(puzzle)
>>> attempt.hint()
'move the king on d3'
>>> step = attempt.play('d3g3')
>>> step = attempt.play('g3f3')
>>> step.verdict, step.expected, attempt.score
('wrong', 'g3g1', 0.0)
>>> attempt.solution()
('d3g3', 'a3a2', 'g3g1')

A solver's rating and the puzzle's after the attempt, each the other's
opponent (a solve is a win for the solver, a miss a win for the puzzle):

>>> me, it = rate(Rating(1500, 200, 0.06), Rating(1500, 300, 0.06), 1.0)
>>> me.rating > 1500 > it.rating
True
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence

from ..core.position import move_text
from ..core.rules import Rules
from ..errors import MoveError, quote
from ..files import read_text, write_whole
from ..notation import move_parse
from ..ratings import DEFAULT, Rating, Result, update
from .puzzle import Puzzle, PuzzleError

__all__ = ["Attempt", "Step", "pick", "rate", "Player", "default_player_file", "VERDICTS"]

#: What a move of an attempt is: the solution's move (``right``), the last
#: of it (``solved``), or another (``wrong``: the attempt is over).
VERDICTS = ("right", "wrong", "solved")


@dataclass(frozen=True)
class Step:
    """One move of an attempt judged: the ``verdict``, the defence's
    ``reply`` played after a right move (None after the last, or a wrong
    one), and the ``expected`` move after a wrong one."""

    verdict: str
    reply: Optional[str] = None
    expected: Optional[str] = None


class Attempt:
    """One try at a puzzle: :meth:`play` a move at a time (either written
    form), the engine answering each right move with the defence's best
    reply (the solution's); :meth:`hint` names the piece to move. ``game``
    is the game as it stands; ``score`` 1.0 solved without a hint, 0.0
    missed or helped, None while it goes on."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.game: Rules = puzzle.rules_at(0)
        self.ply = 0
        self.hinted = False
        self.score: Optional[float] = None

    @property
    def over(self) -> bool:
        return self.score is not None

    def play(self, text: str) -> Step:
        """Judge the solver's move: a :class:`Step`. A move that is not
        legal here is refused with a :class:`~brandubh.errors.MoveError`
        (nothing changes); so is a move after the attempt is over."""
        if self.over:
            raise MoveError("the attempt is over: the puzzle is solved or missed")
        stored = move_parse(text)
        legal = {move_text(m) for m in self.game.moves()}
        if stored is None or stored not in legal:
            raise MoveError(f"{quote(text)} is not a legal move of the {self.game.side} here")
        expected = self.puzzle.solution[self.ply]
        if stored != expected:
            self.game.play(stored)
            self.score = 0.0
            return Step("wrong", expected=expected)
        self.game.play(stored)
        self.ply += 1
        if self.ply == len(self.puzzle.solution):
            self.score = 0.0 if self.hinted else 1.0
            return Step("solved")
        reply = self.puzzle.solution[self.ply]
        self.game.play(reply)
        self.ply += 1
        return Step("right", reply=reply)

    def hint(self) -> str:
        """The piece to move, in words; a solve after a hint counts as a
        miss for the rating."""
        if self.over:
            raise MoveError("the attempt is over: the solution is shown")
        self.hinted = True
        square = self.puzzle.solution[self.ply][:2]
        return f"move the {self.game.at(square)} on {square}"

    def solution(self) -> tuple[str, ...]:
        """The whole main line (the winner's moves and the defence's
        replies)."""
        return self.puzzle.solution


def rate(player: Rating, puzzle: Rating, score: float) -> tuple[Rating, Rating]:
    """The solver's new rating and the puzzle's after one attempt: one
    rating period each, the other as the opponent (``score`` 1.0 a solve,
    0.0 a miss)."""
    return (update(player, [Result(puzzle.rating, puzzle.deviation, score)]),
            update(puzzle, [Result(player.rating, player.deviation, 1.0 - score)]))


def pick(puzzles: Sequence[Puzzle], rating: float, seen: Iterable[str] = (),
         rng: Optional[random.Random] = None, near: int = 5) -> Optional[Puzzle]:
    """The next puzzle: one of the ``near`` not yet ``seen`` whose ratings
    are nearest ``rating`` (at random among them with ``rng``, else the
    nearest); None when every one has been seen."""
    done = set(seen)
    left = sorted((p for p in puzzles if p.id not in done), key=lambda p: (abs(p.rating.rating - rating), p.id))
    if not left:
        return None
    return (rng or random.Random(0)).choice(left[:near]) if rng is not None else left[0]


def default_player_file() -> Path:
    """Where ``brandubh puzzle`` keeps a solver's rating unless told:
    ``$XDG_STATE_HOME/brandubh/puzzles.json`` (``~/.local/state`` when the
    variable is not set)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "brandubh" / "puzzles.json"


@dataclass
class Player:
    """A solver as kept in a small JSON file: the ``rating``, the puzzles
    ``seen`` (by id), and the ratings of the puzzles this solver has moved
    (``puzzles``, by id: the shipped set is not written to)."""

    rating: Rating = DEFAULT
    seen: list[str] = field(default_factory=list)
    puzzles: dict[str, Rating] = field(default_factory=dict)

    @classmethod
    def load(cls, path: os.PathLike | str) -> "Player":
        """The solver kept at ``path``; a newcomer when there is no file; a
        :class:`PuzzleError` for a file that is not one."""
        if not os.path.exists(path):
            return cls()
        text = read_text(path, limit=16 << 20, what="rating file")
        try:
            data = json.loads(text)
            return cls(Rating(*map(float, data["rating"])), [str(s) for s in data["seen"]],
                       {str(k): Rating(*map(float, v)) for k, v in data["puzzles"].items()})
        except (ValueError, KeyError, TypeError, AttributeError):
            raise PuzzleError(f"{quote(str(path), 200)} is not a rating file of brandubh puzzle") from None

    def save(self, path: os.PathLike | str) -> None:
        """Write the file whole (its folder made when missing)."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        data = {"rating": list(self.rating), "seen": self.seen,
                "puzzles": {k: list(v) for k, v in self.puzzles.items()}}
        write_whole(path, json.dumps(data, indent=1) + "\n")

    def rating_of(self, puzzle: Puzzle) -> Rating:
        """The puzzle's rating as this solver's results have moved it."""
        return self.puzzles.get(puzzle.id, puzzle.rating)

    def record(self, puzzle: Puzzle, score: float) -> tuple[Rating, Rating]:
        """Rate one attempt: both new ratings, kept here."""
        mine, its = rate(self.rating, self.rating_of(puzzle), score)
        self.rating = mine
        self.puzzles[puzzle.id] = its
        if puzzle.id not in self.seen:
            self.seen.append(puzzle.id)
        return mine, its
