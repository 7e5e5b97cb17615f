"""Puzzles: positions with a proven forced win and one move that keeps it
at each of the winner's turns (docs/puzzles.md)."""

from .puzzle import FIELDS, THEMES, Puzzle, PuzzleError, puzzle_id, read_puzzles, write_puzzles

__all__ = ["Puzzle", "PuzzleError", "THEMES", "FIELDS", "puzzle_id", "read_puzzles", "write_puzzles"]
