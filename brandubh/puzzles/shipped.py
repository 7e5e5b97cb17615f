"""The set that ships with the package: ``brandubh/puzzles/data/RULES.txt``,
one file a rule set (docs/puzzles.md).

Every puzzle of a set is checked (:meth:`~brandubh.puzzles.Puzzle.check`:
its id, and its solution played through under its rules) when the set is
read, unless the file is, byte for byte, the one the test suite checks
whole (its SHA-256 in :data:`CHECKED`): then each line's fields are read
and the puzzles not played through again, a tenth of the time (a server's
start read both sets in 0.85 s of a core). A file changed in any way, by a
new set or by damage, is checked whole again, and a line that is not
right refuses the set with a sentence naming it, as any set's file.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Optional

from ..files import read_text
from ..variant import as_variant
from .puzzle import Puzzle, read_puzzles

__all__ = ["CHECKED", "DATA", "shipped", "shipped_files", "digest"]

#: The folder of the shipped sets.
DATA = Path(__file__).resolve().parent / "data"

#: The SHA-256 of each shipped set's file (by its name in :data:`DATA`) as
#: tests/test_puzzles.py checks it, every puzzle of it played through: a
#: file with this digest is read without checking each puzzle again. A new
#: set changes the digest and is checked whole at every read until this is
#: written again (the test says the new digest).
CHECKED = {
    "brandubh.txt": "7d5dae85c5ae17e34e52e7b33219923639d83bc8bc5c502151fec3c1a0f73274",
    "codingame.txt": "f9458a3e4d8f9b01a7644602489b32cf3ad6a8c13ec8b7a9e1b4c13c53a435b0",
}


def shipped_files() -> list[Path]:
    """The shipped sets' files, by name."""
    return sorted(DATA.glob("*.txt"))


def digest(text: str) -> str:
    """The SHA-256 of a set's text (its UTF-8 bytes), as :data:`CHECKED` holds it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=None)
def _read(path: Path) -> tuple[Puzzle, ...]:
    text = read_text(path, what="puzzle set")
    checked = CHECKED.get(path.name) == digest(text)
    return tuple(read_puzzles(text, path.name, check=not checked))


def shipped(rules: Optional[str] = None) -> list[Puzzle]:
    """Every shipped puzzle, or those under ``rules`` (a rule set's name;
    a :class:`~brandubh.errors.VariantError` for one that is not); a
    :class:`~brandubh.puzzles.PuzzleError` naming the file and the line
    for a set that is not right."""
    name = None if rules is None else as_variant(rules).as_string()
    return [p for path in shipped_files() for p in _read(path) if name is None or p.rules == name]
