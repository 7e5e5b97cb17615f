"""The CodinGame puzzle's protocol, as the arena speaks it to a program:
the arena's driver of a program that speaks it.

Each turn the program is sent nine lines (:func:`brandubh.codingame.turns.turn_input`:
its role, the last move or ``NONE``, and the board) and answers one line: a
move, the square left and the square reached, ``d2c2``. As the puzzle's
own referee does, an answer in upper case (``D2C2``) or with a space
between the squares (``d2 c2``) is taken; the record keeps the stored form.

A protocol is a package of this one with a ``driver`` module, and the
module a ``Driver`` class (one a program and a game): :meth:`Driver.start`
is sent when the game starts, :meth:`Driver.turn` when it is the
program's move, :meth:`Driver.read` reads each line it writes, and
:meth:`Driver.end` is sent when the game is over
(:mod:`brandubh.arena.protocols` finds it by the protocol's name).

>>> d = Driver('codingame', 'p1')
>>> d.read('D2 C2'), d.read('d2d9')[0]
(('d2c2', None), None)
"""

from __future__ import annotations

from typing import Any, Optional

from .. import notation
from ..errors import quote
from .turns import turn_input

__all__ = ["Driver", "RULES", "JUDGED_BY_THE_ARENA"]

TITLE = "CodinGame"
"""The protocol's name in sentences."""

RULES = "codingame"
"""The rules a program speaking this protocol plays: the protocol tells it a
board and a move, never the rules, so it plays the puzzle's (a protocol that
tells them, as OpenTafl's does, has no ``RULES``)."""

JUDGED_BY_THE_ARENA = ("repetition", "repeat", "repeat_counts_start", "ply_cap", "quiet_cap")
"""The rule fields a program of this protocol never needs to know: they
count the game's history, which it is never shown, and the arena alone
judges them. A rule set that differs from :data:`RULES` only in these is
still the one it plays."""


class Driver:
    """The protocol for one program in one game."""

    def __init__(self, variant: Any, seat: str) -> None:
        self.variant = variant
        self.seat = seat

    def start(self, game: Any) -> str:
        """Nothing: the puzzle's programs learn everything from each turn."""
        return ""

    def turn(self, game: Any, last: Optional[str]) -> str:
        """The nine lines of a turn."""
        return turn_input(game.side_to_move, last, game.position)

    def read(self, line: str) -> tuple[Optional[str], Optional[str]]:
        """``(move, None)`` for a move (stored form), ``(None, sentence)``
        for a line that is not one. (A protocol with lines that are not
        answers, such as status lines, gives ``(None, None)`` for those.)"""
        stored = notation.answer_parse(line)
        if stored is None:
            answer = line.strip()
            shown = answer if len(answer) <= 60 else answer[:60] + "..."
            return None, f"answered {quote(shown)}, which is not a move like d2d4"
        return stored, None

    def end(self, game: Any) -> str:
        """Nothing: the program's input is closed."""
        return ""
