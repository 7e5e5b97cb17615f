"""The action numbers and the observation planes (docs/rl.md).

An action is a square left, a direction and a distance:
``action = from_square * 24 + direction * 6 + (distance - 1)``, with the
directions east, west, north, south (towards file g, file a, rank 7,
rank 1) and distances 1 to 6: 49 * 4 * 6 = 1,176 actions, the same in every
position and for both sides. Every move is one action; an action that
leaves the board is no move, and is refused.

An observation is :data:`PLANES` planes of 7 by 7 bytes, ``[plane, rank,
file]`` (rank 0 is rank 1, file 0 is file a), seen by one side: ``own``
is that side's pieces (the defenders' include the king), ``enemy`` the
other side's. With the view ``'fixed'`` every observation is the attackers'
(``own`` is then always the attackers).

The numbers are the engine's (csrc/encode.c): these functions call it.

>>> action_parts(move_action('d1d3'))
('d1', 'north', 2)
>>> move_text(action_move(action_of('d1', 'north', 2)))
'd1d3'
>>> action_move(6)
Traceback (most recent call last):
...
brandubh.errors.MoveError: action 6 leaves the board: it goes west 1 from a1
"""

from __future__ import annotations

import operator

from .._engine import lib
from ..core.position import MoveLike, c_constants, move, move_text, parse_move, square, square_name
from ..errors import ArgumentError, MoveError, quote

#: How many actions there are: 49 squares * 4 directions * 6 distances.
ACTIONS: int = lib.BD_ACTIONS
#: The planes of an observation, in order (``enum bd_plane`` of csrc/brandubh.h).
PLANES: tuple[str, ...] = tuple(name.lower() for name in c_constants("bd_plane", "PLANE_"))
#: The directions of an action, in order (the engine's own order).
DIRECTIONS = ("east", "west", "north", "south")
#: The longest slide: 6 squares.
DISTANCES = 6
#: Who an observation is seen by: the side it is for, or always the attackers.
VIEWS = ("mover", "fixed")

_PER_SQUARE = len(DIRECTIONS) * DISTANCES
if len(PLANES) != lib.BD_PLANES or ACTIONS != lib.BD_SQUARES * _PER_SQUARE:  # pragma: no cover
    raise ImportError("brandubh.rl.encoding does not match the compiled engine: rebuild it")

__all__ = ["ACTIONS", "PLANES", "DIRECTIONS", "DISTANCES", "VIEWS", "action_move", "move_action",
           "action_parts", "action_of", "move_text", "check_action", "check_view",
           "missing_extra"]


def missing_extra(module: str) -> str:
    """What an import error says when the ``rl`` extra is not installed."""
    return f"brandubh.rl needs {module}, which is not installed: pip install brandubh[rl]"


def check_action(action: object) -> int:
    """``action`` as an int when it is an action number (0 to 1175: an int,
    or a numpy integer as a learner's sampler gives it); MoveError when it
    is not.

    >>> check_action(85)
    85
    """
    try:
        number = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        number = None
    if number is None or isinstance(action, bool) or type(action).__name__ == "bool_":
        raise MoveError(f"an action is a whole number from 0 to {ACTIONS - 1}, not {quote(action)}")
    if not 0 <= number < ACTIONS:
        raise MoveError(f"action {number} is out of range: actions are 0 to {ACTIONS - 1}")
    return number


def check_view(view: object) -> str:
    """``view`` when it is ``'mover'`` or ``'fixed'``; ArgumentError when not."""
    if view not in VIEWS:
        raise ArgumentError(f"view must be 'mover' or 'fixed', not {quote(view)}")
    return view  # type: ignore[return-value]


def action_move(action: int) -> int:
    """The move number of an action; MoveError for a number that is not an
    action or that leaves the board.

    >>> move_text(action_move(3 * 24 + 2 * 6 + 1))   # from d1, north, 2
    'd1d3'
    """
    action = check_action(action)
    m = lib.bd_action_move(action)
    if m == 0:
        where, direction, distance = _parts(action)
        raise MoveError(f"action {action} leaves the board: it goes {direction} {distance} from {where}")
    return m


def move_action(m: MoveLike) -> int:
    """The action of a move (a move number, or a move as text); MoveError
    when it does not run along a rank or a file.

    >>> move_action('d1d3'), move_action(move('d4', 'd1'))
    (85, 596)
    """
    number = parse_move(m)
    action = lib.bd_move_action(number)
    if action < 0:
        raise MoveError(f"{move_text(number)} is no action: a move runs along a rank or a file")
    return action


def _parts(action: int) -> tuple[str, str, int]:
    return (square_name(action // _PER_SQUARE), DIRECTIONS[action // DISTANCES % len(DIRECTIONS)],
            action % DISTANCES + 1)


def action_parts(action: int) -> tuple[str, str, int]:
    """The square an action leaves, its direction and its distance (any
    action number, on the board or not).

    >>> action_parts(0), action_parts(ACTIONS - 1)
    (('a1', 'east', 1), ('g7', 'south', 6))
    """
    return _parts(check_action(action))


def action_of(from_square: object, direction: str, distance: int) -> int:
    """The action number of a square (name or number), a direction and a
    distance; MoveError when it would leave the board.

    >>> action_of('a1', 'east', 1), action_of(0, 'north', 6)
    (0, 17)
    """
    sq = square(from_square)  # type: ignore[arg-type]
    if direction not in DIRECTIONS:
        raise ArgumentError(f"direction must be one of {', '.join(DIRECTIONS)}, not {quote(direction)}")
    if not isinstance(distance, int) or isinstance(distance, bool) or not 1 <= distance <= DISTANCES:
        raise ArgumentError(f"distance must be a whole number from 1 to {DISTANCES}, not {quote(distance)}")
    action = sq * _PER_SQUARE + DIRECTIONS.index(direction) * DISTANCES + distance - 1
    action_move(action)  # refuses one that leaves the board
    return action
