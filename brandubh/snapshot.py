"""What a view shows of a board, read once: a :class:`Snapshot`.

A position string, a :class:`~brandubh.Position`, a :class:`~brandubh.Rules`
and a :class:`~brandubh.Game` each give one (``thing.snapshot()``; for a
string, :func:`of_position`), and everything that draws a board draws from
it: the text diagram (:mod:`brandubh.views.text`), the SVG picture
(:mod:`brandubh.views.svg`) and the JSON of ``brandubh serve``. A game
keeps its snapshot until it changes, so a view asks the engine nothing.

This module is pure Python: it loads without the compiled engine.

>>> s = of_position('7/7/7/3k3/7/7/a6 d')
>>> s.cells[0], s.cells[24], s.side, s.last, s.status
('a', 'k', 'defenders', None, 'defenders to move')
>>> s.pieces
{'a1': 'attacker', 'd4': 'king'}
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Union

from . import notation
from .errors import ArgumentError, MoveError, PositionError, quote

__all__ = ["Snapshot", "of_position", "of", "LastMove"]


class Snapshot(NamedTuple):
    """A board as a view shows it: the position string, its 49 squares by
    number (``'a'``, ``'d'``, ``'k'`` or ``''``), the side to move, the last
    move (stored, or None), the squares it emptied, how it is shown
    (``d1-d3xc3``), and how the game stands (``'defenders (p2) to move;
    ply 1'``, or how it ended), and whether the game is :attr:`over` (a
    bare position never is: it knows no rules). :attr:`status` is that line
    with the last move."""

    position: str
    cells: tuple[str, ...]
    side: str
    last: Optional[str]
    captured: tuple[str, ...]
    shown: Optional[str]
    standing: str
    over: bool = False

    @property
    def status(self) -> str:
        """How the game stands, and the last move as shown."""
        return self.standing + ("" if self.shown is None else f"; last move {self.shown}")

    @property
    def pieces(self) -> dict[str, str]:
        """The pieces on the board by square name, in square order."""
        names, kinds = notation.SQUARE_NAMES, notation.PIECES
        return {names[sq]: kinds[c] for sq, c in enumerate(self.cells) if c}

    def marked(self, lastmove: "LastMove") -> "Snapshot":
        """The same board with another last move: None keeps its own, False
        shows none, a move (either written form, or a
        :class:`~brandubh.LegalMove`) is marked on its two squares only (a
        position does not say what it took).

        >>> s = of_position('7/7/7/3k3/7/7/a6 d').marked('a2-a1')
        >>> s.last, s.status
        ('a2a1', 'defenders to move; last move a2-a1')
        """
        if lastmove is True:
            raise ArgumentError("lastmove takes a move, None (the game's own) or False (none), not True")
        if lastmove is None:
            return self
        if lastmove is False:
            return self._replace(last=None, captured=(), shown=None)
        move = getattr(lastmove, "move", lastmove)
        stored = notation.move_parse(move)
        if stored is None:
            raise MoveError(f"lastmove must be a move such as 'd1d3' or 'd1-d3' (or None or False), "
                            f"not {quote(lastmove)}")
        return self._replace(last=stored, captured=(), shown=notation.move_display(stored))


LastMove = Union[str, bool, None, Any]
"""What ``lastmove=`` takes: None (the thing's own last move, none for a
position string or an engine), False (no last move), or a move in either
written form (``'d1d3'``, ``'d1-d3'``) or a :class:`~brandubh.LegalMove`."""


def cells_of(position: str) -> tuple[tuple[str, ...], str]:
    """The 49 squares of a position string by number and the side to move;
    a :class:`~brandubh.errors.PositionError` for what is not a position."""
    got = notation.position_cells(position)
    if not got:
        raise PositionError(
            f"{quote(position)} is not a position: seven rows of a/d/k and digits from rank 7 "
            "down, separated by '/', a space, and the side to move (a or d)"
        )
    rows, side = got
    return tuple(rows[6 - sq // 7][sq % 7] for sq in range(49)), notation.SIDES["ad".index(side)]


def of_position(position: str, standing: Optional[str] = None, last: Optional[str] = None,
                captured: tuple[str, ...] = (), shown: Optional[str] = None, over: bool = False) -> Snapshot:
    """The snapshot of a position string: a bare board says whose move it
    is, unless ``standing`` says more; ``last``, ``captured`` and ``shown``
    are the last move's, and ``over`` whether the game has ended, for a
    caller that knows them."""
    cells, side = cells_of(position)
    return Snapshot(position, cells, side, last, captured, shown,
                    f"{side} to move" if standing is None else standing, over)


def of(thing: Any, lastmove: LastMove = None) -> Snapshot:
    """The snapshot of a position string or of anything with a
    ``snapshot()`` (a Position, a Rules, a Game), with ``lastmove`` as
    :meth:`Snapshot.marked` takes it.

    >>> of(42)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: a diagram is drawn of a position string, a Position, a Rules or a Game, not int
    """
    if lastmove is True:
        raise ArgumentError("lastmove takes a move, None (the game's own) or False (none), not True")
    if isinstance(thing, Snapshot):
        return thing.marked(lastmove)
    if isinstance(thing, str):
        return of_position(thing).marked(lastmove)
    take = getattr(thing, "snapshot", None)
    if take is None:
        raise ArgumentError("a diagram is drawn of a position string, a Position, a Rules or a Game, "
                            f"not {type(thing).__name__}")
    return take().marked(lastmove)
