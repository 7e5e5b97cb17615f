"""The small pieces of English the package's sentences are made of, written
once: a count with its noun, a list joined with "and".

>>> plural(1, 'move'), plural(3, 'move')
('1 move', '3 moves')
>>> listed(['the attacker on c3']), listed(['a', 'b', 'c'])
('the attacker on c3', 'a, b and c')
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["plural", "listed"]


def plural(count: int, noun: str) -> str:
    """``count`` and the noun, with an ``s`` unless the count is one."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def listed(words: Sequence[str]) -> str:
    """The words joined with commas and a last "and"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
