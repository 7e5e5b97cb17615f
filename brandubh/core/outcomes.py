"""How a game ends: the engine's endings (:class:`Outcome`), their names,
and the side each is a win for.

>>> outcome_name(BY_CORNER), outcome_name(99), fixed_winner(BY_CAPTURE)
('corner', None, 'attackers')
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Optional

from .._engine import lib
from .position import ATTACKERS, DEFENDERS, SIDES, c_constants

__all__ = [
    "Outcome", "OUTCOME_NAMES", "ONGOING", "BY_CORNER", "BY_CAPTURE", "BY_NO_PIECES", "DRAW_REPETITION",
    "BY_ENCIRCLED", "DRAW_NO_MOVE", "DRAW_PLY_CAP", "DRAW_QUIET_CAP", "WINNERS", "outcome_name", "fixed_winner",
]

if TYPE_CHECKING:
    from .position import _FromEngine

    class Outcome(IntEnum, metaclass=_FromEngine):
        """How a game ended, in the order the endings are asked."""
else:
    Outcome = IntEnum("Outcome", c_constants("bd_outcome", "BY_"), module=__name__, qualname="Outcome")
    Outcome.__doc__ = """How a game ended, in the order the endings are asked: ``enum
    bd_outcome`` of csrc/brandubh.h (``BD_ONGOING``, ``BD_BY_CORNER``, ...),
    read from the engine. ``ONGOING`` is 0, so an outcome is true exactly
    when the game is over.

    >>> Outcome.ONGOING, Outcome(lib.BD_BY_CAPTURE).name
    (<Outcome.ONGOING: 0>, 'CAPTURE')
    """


OUTCOME_NAMES = tuple(o.name.lower() for o in Outcome)

# Game::Brandubh::Rules's names for the outcomes, and the two endings it does
# not have.
ONGOING = Outcome.ONGOING
BY_CORNER = Outcome.CORNER
BY_CAPTURE = Outcome.CAPTURE
BY_NO_PIECES = Outcome.NO_PIECES
DRAW_REPETITION = Outcome.REPETITION
BY_ENCIRCLED = Outcome.ENCIRCLED
DRAW_NO_MOVE = Outcome.NO_MOVE
DRAW_PLY_CAP = Outcome.PLY_CAP
DRAW_QUIET_CAP = Outcome.QUIET_CAP

#: A winner's name by the engine's number: a side, or None for BD_NOBODY.
WINNERS: dict[int, Optional[str]] = {**dict(enumerate(SIDES)), lib.BD_NOBODY: None}

# The endings that are always a win for the same side, by name.
_FIXED_WINNERS = {
    "corner": DEFENDERS,
    "capture": ATTACKERS,
    "no_pieces": DEFENDERS,
    "encircled": ATTACKERS,
}


def outcome_name(outcome: object) -> Optional[str]:
    """``'ongoing'``, ``'corner'``, ``'capture'``, ``'no_pieces'``,
    ``'repetition'``, ``'encircled'``, ``'no_move'``, ``'ply_cap'`` or
    ``'quiet_cap'``; None for anything that is not an outcome.

    >>> outcome_name(BY_CORNER), outcome_name(99)
    ('corner', None)
    """
    if isinstance(outcome, int) and not isinstance(outcome, bool) and 0 <= outcome < len(OUTCOME_NAMES):
        return OUTCOME_NAMES[outcome]
    return None


def fixed_winner(outcome: object) -> Optional[str]:
    """The side an outcome is always a win for, or None: for a draw, for
    anything that is not an outcome, and for ``repetition`` and
    ``no_move``, whose winner depends on the rule set and on who moved.

    >>> fixed_winner(BY_NO_PIECES), fixed_winner(DRAW_REPETITION)
    ('defenders', None)
    """
    name = outcome_name(outcome)
    return _FIXED_WINNERS.get(name) if name else None
