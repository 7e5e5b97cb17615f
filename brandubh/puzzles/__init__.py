"""Puzzles: positions with a proven forced win and one move that keeps it
at each of the winner's turns, made from games and self-play, solved at
the terminal (``brandubh puzzle``) or from here (docs/puzzles.md).

Load a set (the shipped one, or a file: :func:`load_puzzles`), pick the
next puzzle near a rating, and judge an attempt move by move:

>>> import brandubh.puzzles as puzzles
>>> puzzle = puzzles.pick(puzzles.shipped('brandubh'), 1500)
>>> attempt = puzzles.Attempt(puzzle)
>>> attempt.game.side == puzzle.winner
True
>>> step = attempt.play(puzzle.solution[0])
>>> step.verdict in ('right', 'solved')
True
>>> step.reply == (puzzle.solution[1] if step.verdict == 'right' else None)
True
>>> player = puzzles.Player()
>>> mine, its = player.record(puzzle, 1.0)
>>> mine.rating > 1500
True
"""

from .puzzle import (FIELDS, THEMES, Puzzle, PuzzleError, load_puzzles, puzzle_id, read_puzzles,
                     write_puzzles)
from .shipped import shipped
from .trainer import VERDICTS, Attempt, Player, Step, default_player_file, pick, rate

__all__ = ["Puzzle", "PuzzleError", "THEMES", "FIELDS", "puzzle_id", "read_puzzles", "load_puzzles",
           "write_puzzles", "shipped", "Attempt", "Step", "VERDICTS", "pick", "rate", "Player",
           "default_player_file"]
