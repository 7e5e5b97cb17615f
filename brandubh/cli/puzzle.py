"""``brandubh puzzle``: puzzles at the terminal, the next one near your
rating, each attempt judged move by move (docs/puzzles.md).

    brandubh puzzle                          # the shipped set, brandubh rules
    brandubh puzzle --variant codingame
    brandubh puzzle --rating-file me.json    # another solver's rating
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, Callable, Optional, TextIO

from ..errors import ArgumentError, MoveError
from ..views.text import diagram

__all__ = ["register", "run", "PuzzleTerminal", "WORDS"]

#: What may be typed besides a move.
WORDS = ("hint", "solution", "quit")

_DESCRIPTION = """\
Solve puzzles: positions where the side to move has a forced win, and one
move keeps it at each turn. Type the winner's moves (d4d1 or d4-d1); the
engine answers each right one with the defence's best reply. A wrong move
ends the attempt and shows the solution; "hint" names the piece to move
(the attempt then counts as a miss), "solution" gives up. Your Glicko-2
rating and the puzzle's move after each attempt, kept in a small file
(--rating-file; its path is shown)."""


def register(subparsers: Any) -> None:
    """Add the ``puzzle`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser("puzzle", help="solve puzzles at the terminal, rated", description=_DESCRIPTION,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", default="brandubh", help="the rule set of the puzzles (default brandubh)")
    p.add_argument("--file", default=None, help="a set's file instead of the shipped set")
    p.add_argument("--rating-file", default=None, metavar="FILE",
                   help="where your rating is kept (default $XDG_STATE_HOME/brandubh/puzzles.json)")
    p.add_argument("--id", default=None, help="start with this puzzle")
    p.add_argument("--seed", default=None, help="pick among the nearest puzzles at random, from this seed")
    p.set_defaults(run=run)


class PuzzleTerminal:
    """The conversation: lines in through ``read`` (None at the end of the
    input), text out to ``out``."""

    def __init__(self, puzzles: list, player_path: Path, out: TextIO,
                 read: Callable[[str], Optional[str]], rng: Optional[random.Random] = None) -> None:
        from ..puzzles import Player

        self.puzzles = puzzles
        self.path = player_path
        self.player = Player.load(player_path)
        self.out = out
        self.read = read
        self.rng = rng

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self, first: Optional[str] = None) -> int:
        from ..puzzles import pick

        self.say(f"your rating: {self.player.rating} (kept in {self.path}; --rating-file keeps another)")
        while True:
            if first is not None:
                puzzle = next((p for p in self.puzzles if p.id == first), None)
                if puzzle is None:
                    raise ArgumentError(f"there is no puzzle {first!r} in the set")
                first = None
            else:
                puzzle = pick(self.puzzles, self.player.rating.rating, self.player.seen, self.rng)
            if puzzle is None:
                self.say("you have seen every puzzle of the set")
                return 0
            if not self.attempt(puzzle):
                return 0
            line = self.read("next puzzle? (Enter, or quit) ")
            if line is None or line.strip().lower() in ("quit", "q"):
                return 0

    def attempt(self, puzzle: Any) -> bool:
        """One puzzle; False when the person quits."""
        from ..puzzles import Attempt

        attempt = Attempt(puzzle)
        rating = round(self.player.rating_of(puzzle).rating)
        self.say(f"\npuzzle {puzzle.id} ({puzzle.rules}, rated {rating}): the {puzzle.winner} to move and win "
                 f"in {puzzle.winner_moves} moves")
        self.say(diagram(attempt.game, lastmove=False))
        while not attempt.over:
            line = self.read("your move (hint, solution, quit): ")
            if line is None or line.strip().lower() in ("quit", "q"):
                return False
            word = line.strip().lower()
            if not word:
                continue
            if word == "hint":
                self.say(attempt.hint() + " (this attempt no longer counts as solved)")
                continue
            if word == "solution":
                attempt.score = 0.0
                self.say("the solution: " + " ".join(attempt.solution()))
                break
            try:
                step = attempt.play(word)
            except MoveError as error:
                self.say(str(error))
                continue
            if step.verdict == "wrong":
                self.say(f"wrong: the move was {step.expected}; the solution: {' '.join(attempt.solution())}")
            elif step.verdict == "solved":
                self.say("solved!" if attempt.score else "solved, with a hint")
                self.say(diagram(attempt.game))
            else:
                self.say(f"right. The {_other(puzzle.winner)} answer {step.reply}")
                self.say(diagram(attempt.game))
        before = self.player.rating
        mine, its = self.player.record(puzzle, float(attempt.score or 0.0))
        self.player.save(self.path)
        self.say(f"your rating: {round(before.rating)} -> {mine}; the puzzle's: {round(its.rating)}")
        return True


def _other(side: str) -> str:
    return "defenders" if side == "attackers" else "attackers"


def _reader(out: TextIO) -> Callable[[str], Optional[str]]:
    def read(prompt: str) -> Optional[str]:
        out.write(prompt)
        out.flush()
        line = sys.stdin.readline()
        return None if line == "" else line

    return read


def run(args: argparse.Namespace) -> int:
    """Run ``brandubh puzzle`` with parsed arguments; the exit status."""
    from ..puzzles import default_player_file, load_puzzles, shipped
    from ..variant import as_variant

    rules = as_variant(args.variant).as_string()
    puzzles = load_puzzles(args.file, rules) if args.file is not None else shipped(rules)
    if not puzzles:
        raise ArgumentError(f"the set has no puzzle under {rules}")
    path = Path(args.rating_file) if args.rating_file is not None else default_player_file()
    rng = random.Random(args.seed) if args.seed is not None else None
    terminal = PuzzleTerminal(puzzles, path, sys.stdout, _reader(sys.stdout), rng)
    try:
        return terminal.run(args.id)
    except KeyboardInterrupt:
        print("", file=sys.stdout)
        return 130
