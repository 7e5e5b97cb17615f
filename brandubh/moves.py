"""The move types: :class:`Move`, the value a move is everywhere in the
package, from the text a person types to the engine's number; what a game
hands out about moves (:class:`LegalMove`, a move it allows and what it
would do; :class:`Played`, a move as it was played); and how a game ended
(:class:`Result`).

A move is read once, where it comes in (``Move('d1-d3')``, or
:meth:`Move.parse`), and carried as that value through the game, the
search and the bot: it *is* the engine's integer (``from * 64 + to``), so
every call that takes a move number takes it at full speed, and it keeps
its text at hand (``str(move)`` is the stored form, ``d1d3``).

>>> move = Move('d1-d3')
>>> move, str(move), int(move), move.from_square, move.to_square
(Move('d1d3'), 'd1d3', 209, 'd1', 'd3')
>>> print(f'the engine plays {move}')
the engine plays d1d3

Pure Python (the vocabulary and the errors): it loads without the compiled
engine, and every layer above may use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional, Union

from . import notation
from .errors import MoveError, SquareError, quote
from .words import listed

__all__ = ["Move", "LegalMove", "Played", "Result"]

_NAMES = notation.SQUARE_NAMES
_INDEX = notation.SQUARE_INDEX
_SQUARES = len(_NAMES)
# A square's bits in a move number: from * 64 + to.
_SHIFT = 6


class Move(int):
    """A move: the engine's move number (``from * 64 + to``, squares
    counted ``rank * 7 + file``, a1 = 0) with its text at hand.

    ``Move(value)`` takes a move written either way (``'d1d3'``,
    ``'d1-d3'``, ``'Kd4-d1'``, ``'d1-d3xc3'``: as :meth:`parse` reads it),
    a move number, or a Move; :meth:`between` makes one from two squares.
    A :class:`~brandubh.errors.MoveError` (a ``ValueError``) for anything
    else. There is one Move a move: ``Move('d1d3') is Move(209)``.

    Being an ``int``, a Move is what :meth:`Rules.play <brandubh.Rules.play>`
    and every function of the engine take, equal to its number and hashed
    as it; ``str()`` and ``format()`` give the stored form, so it prints as
    a person reads it; :meth:`Game.play <brandubh.Game.play>` takes it
    without reading any text. (It is not equal to its text: compare
    ``str(move)`` with a string.)

    >>> Move('D1-D3') == 209, Move(209) is Move('d1d3')
    (True, True)
    >>> Move('d1-d9')
    Traceback (most recent call last):
    ...
    brandubh.errors.MoveError: 'd1-d9' is not written as a move: give d1d3 or d1-d3
    """

    __slots__ = ()

    def __new__(cls, value: Union[str, int]) -> "Move":
        if isinstance(value, Move):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, int) and not isinstance(value, bool):
            made = _BY_NUMBER[value] if 0 <= value < len(_BY_NUMBER) else None
            if made is None:
                raise MoveError(f"{quote(value)} is not a move number: it is from * 64 + to, "
                                f"with both squares 0-{_SQUARES - 1}")
            return made
        raise MoveError(f"a move is a string like 'd1d3' or a move number, not {type(value).__name__}")

    @classmethod
    def parse(cls, text: str) -> "Move":
        """The move ``text`` writes, in either written form: stored
        (``d1d3``) or shown (``d1-d3``, ``Kd4-d1``, ``d1-d3xc3``, ``g2-g1++``:
        the captures and the ending are commentary, read past), in either
        case, white space around it stripped (:func:`brandubh.notation.move_parse`).
        Only the writing is checked: whether the move may be played is the
        game's question. A :class:`~brandubh.errors.MoveError` for text that
        is not a move.

        >>> Move.parse('Kd4-d1'), Move.parse(' c5-c4xd4# ')
        (Move('d4d1'), Move('c5c4'))
        >>> Move.parse(209)
        Traceback (most recent call last):
        ...
        brandubh.errors.MoveError: a move is written as a string like 'd1d3', not int
        """
        if not isinstance(text, str):
            raise MoveError(f"a move is written as a string like 'd1d3', not {type(text).__name__}")
        stored = notation.move_parse(text)
        if stored is None:
            raise MoveError(f"{quote(text)} is not written as a move: give d1d3 or d1-d3")
        return _BY_TEXT[stored]

    @classmethod
    def between(cls, from_square: Union[str, int], to_square: Union[str, int]) -> "Move":
        """The move from one square to another, each a name (either case)
        or a number (0 to 48). A :class:`~brandubh.errors.SquareError` for
        something that is not a square.

        >>> Move.between('d1', 'D3'), Move.between(3, 17)
        (Move('d1d3'), Move('d1d3'))
        """
        return _BY_NUMBER[_square(from_square) << _SHIFT | _square(to_square)]  # type: ignore[return-value]

    @property
    def from_square(self) -> str:
        """The name of the square the move leaves.

        >>> Move('d1d3').from_square
        'd1'
        """
        return _NAMES[self >> _SHIFT]

    @property
    def to_square(self) -> str:
        """The name of the square the move reaches.

        >>> Move('d1d3').to_square
        'd3'
        """
        return _NAMES[self & ((1 << _SHIFT) - 1)]

    def __str__(self) -> str:
        return _NAMES[self >> _SHIFT] + _NAMES[self & ((1 << _SHIFT) - 1)]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    # Until 0.2.0 a Game's search and a bot gave a move as its text. Code
    # that compares the move with a string or slices it as one keeps
    # working for this release, with a DeprecationWarning (CHANGELOG.md);
    # a Move's hash stays the engine's number's, so a set of strings does
    # not find it (compare str(move)).

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            _as_text("compared with a string", "str(move) == text")
            return str(self) == other
        return int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = int.__hash__

    def __getitem__(self, index: Union[int, slice]) -> str:
        _as_text("read as a string", "move.from_square, move.to_square or str(move)")
        return str(self)[index]


def _as_text(what: str, instead: str) -> None:
    from .deprecation import warn

    warn(f"a Move {what} (a move was a string until 0.2.0)", instead, skip_module=__name__)


def _square(value: Union[str, int]) -> int:
    """A square's number from its name (either case) or its number."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _SQUARES:
        return value
    found = _INDEX.get(value.lower()) if isinstance(value, str) and len(value) == 2 else None
    if found is None:
        raise SquareError(f"{quote(value)} is not a square: give its name, a1 to g7, or its number, 0 to {_SQUARES - 1}")
    return found


# Every move, made once: a Move is looked up, never built again (a search's
# line, the legal moves, a bot's choice all hand out these).
_BY_NUMBER: tuple[Optional[Move], ...] = tuple(
    int.__new__(Move, m) if m >> _SHIFT < _SQUARES and m & ((1 << _SHIFT) - 1) < _SQUARES else None
    for m in range(_SQUARES << _SHIFT))
_BY_TEXT: dict[str, Move] = {str(m): m for m in _BY_NUMBER if m is not None}


# -- what a game hands out ---------------------------------------------------


class LegalMove(NamedTuple):
    """One move the side to move may make, and what it would do.

    ``move`` is the stored form (``'d1c1'``), ``from_square`` and
    ``to_square`` the two square names, ``piece`` what moves
    (``'attacker'``, ``'defender'`` or ``'king'``), ``captures`` the squares
    it would empty, in square order (the king's included when it takes him),
    and ``wins`` is true when the game would then be over with the mover the
    winner.

    >>> from brandubh import Game
    >>> game = Game(position='7/7/7/7/a6/6k/7 d')
    >>> [m.move for m in game.legal() if m.wins]
    ['g2g1', 'g2g7']
    >>> game.legal()[0]
    LegalMove(move='g2g1', from_square='g2', to_square='g1', piece='king', captures=(), wins=True)
    """

    # A named tuple, not a dataclass: a bot asks for the legal moves every
    # turn, and forty tuples are built in a tenth of the time forty frozen
    # dataclasses take.
    move: str
    from_square: str
    to_square: str
    piece: str
    captures: tuple[str, ...]
    wins: bool

    def __str__(self) -> str:
        return self.move


class Played(NamedTuple):
    """A move made in a game, as the game recorded it when it was played:
    the ``move`` as stored (``'c5c4'``), as ``shown`` (``'c5-c4xd4#'``), and
    what it ``took``: the pieces it captured, each ``(square, piece)``.

    >>> from brandubh import Game
    >>> game = Game(position='7/7/2aa3/3ka2/3a3/7/7 a').play_or_raise('c5c4')
    >>> game.last_played
    Played(move='c5c4', shown='c5-c4xd4#', took=(('d4', 'king'),))
    >>> game.last_played.capturing
    ', capturing the king on d4'
    """

    move: str
    shown: str
    took: tuple[tuple[str, str], ...]

    @property
    def capturing(self) -> str:
        """``, capturing the defender on c3 and the defender on e3``, or
        ``''`` for a move that captured nothing: the end of a sentence that
        says what was played.

        >>> Played('d1d3', 'd1-d3xc3,e3', (('c3', 'defender'), ('e3', 'defender'))).capturing
        ', capturing the defender on c3 and the defender on e3'
        >>> Played('d1d3', 'd1-d3', ()).capturing
        ''
        """
        if not self.took:
            return ""
        return ", capturing " + listed([f"the {piece} on {sq}" for sq, piece in self.took])


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``how`` is one of the endings of :class:`brandubh.core.outcomes.Outcome`
    (``'corner'``, ``'capture'``, ``'no_pieces'``, ``'repetition'``,
    ``'encircled'``, ``'no_move'``, ``'ply_cap'``, ``'quiet_cap'``) or one of
    the two things players do, ``'resign'`` and ``'agreed'``. ``winner`` is
    the seat that won and ``side`` its side; both are None for a draw.

    >>> from brandubh import Game
    >>> game = Game()
    >>> game.resign('p1') is None
    True
    >>> game.result
    Result(how='resign', winner='p2', side='defenders')
    >>> game.result.is_draw
    False
    """

    how: str
    winner: Optional[str]
    side: Optional[str]

    @property
    def is_draw(self) -> bool:
        """True when nobody won.

        >>> Result('agreed', None, None).is_draw
        True
        """
        return self.winner is None
