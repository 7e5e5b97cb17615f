"""The set that ships with the package: ``brandubh/puzzles/data/RULES.txt``,
one file a rule set (docs/puzzles.md)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Optional

from ..files import read_text
from ..variant import as_variant
from .puzzle import Puzzle, read_puzzles

__all__ = ["DATA", "shipped", "shipped_files"]

#: The folder of the shipped sets.
DATA = Path(__file__).resolve().parent / "data"


def shipped_files() -> list[Path]:
    """The shipped sets' files, by name."""
    return sorted(DATA.glob("*.txt"))


@lru_cache(maxsize=None)
def _read(path: Path) -> tuple[Puzzle, ...]:
    return tuple(read_puzzles(read_text(path, what="puzzle set"), path.name))


def shipped(rules: Optional[str] = None) -> list[Puzzle]:
    """Every shipped puzzle, or those under ``rules`` (a rule set's name;
    a :class:`~brandubh.errors.VariantError` for one that is not)."""
    name = None if rules is None else as_variant(rules).as_string()
    return [p for path in shipped_files() for p in _read(path) if name is None or p.rules == name]
