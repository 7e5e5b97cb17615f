"""The board as an SVG picture.

:func:`board` draws a position string, a :class:`~brandubh.Position`, a
:class:`~brandubh.Rules` or a :class:`~brandubh.Game` as one self-contained
SVG document: no external file, font, style sheet or script, only shapes
with their colours written on them (and the coordinates as text in the
reader's own sans-serif), so any browser and any SVG converter shows it the
same. A :class:`~brandubh.Game` left at the end of a Jupyter cell is drawn
by it (``Game._repr_svg_``).

What the picture shows:

- the board, light wood; the four corners and the throne darker, the
  corners crossed and the throne with a diamond;
- the attackers as black discs, the defenders as white discs, the king as a
  larger gold disc with a black crown;
- the last move's two squares tinted yellow (a game's own last move by
  default), and a red cross on each square that move emptied;
- ``squares`` tinted red (or a colour of your own), ``arrows`` drawn over
  everything (green, or your own colour);
- the files and ranks round the board, and in the bottom right corner of
  the frame a small disc of the side to move (none once the game is over).

Every shape that stands for something carries a ``class`` naming what it is
and where: ``square d4 throne``, ``piece king d4``, ``lastmove d2``,
``mark c3``, ``captured d3``, ``arrow d1d3``, ``coordinate``, ``turn
attackers``; a program reading the picture back can find them.

>>> picture = board('7/7/7/3k3/7/7/a6 d', size=200)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), 'width="200"' in picture
(True, True)
>>> picture.count('class="piece ')
2
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable, Mapping, Optional, Union
from xml.sax.saxutils import escape, quoteattr

from .. import notation
from ..errors import ArgumentError, MoveError, SquareError, quote
from ..snapshot import LastMove
from ..snapshot import of as facts
from .text import CORNERS, THRONE

__all__ = ["board", "SQUARE", "COLOURS"]

#: The side of a square, in the picture's own units (its viewBox).
SQUARE = 40
#: The frame round the board: wide enough for the coordinates, or a thin
#: edge without them.
MARGIN = 20
THIN_MARGIN = 6

COLOURS = {
    "frame": "#5c3d21",
    "coordinate": "#f3e3c0",
    "square": "#ecd6a7",
    "special": "#c9a067",      # the corners and the throne
    "line": "#7a5a36",         # the grid, and the marks on the corners and the throne
    "attacker": "#1f1f1f",
    "attacker_ring": "#6b6b6b",
    "defender": "#fbf8ef",
    "defender_ring": "#9a9386",
    "outline": "#1f1f1f",
    "king": "#f1bf2c",
    "crown": "#1f1f1f",
    "lastmove": "#f6d743",
    "mark": "#d63b3b",
    "captured": "#c62828",
    "arrow": "#15803d",
}
"""The colours of the picture, by what they paint."""

_COLOUR_RE = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}")
_NAMES = notation.SQUARE_NAMES
_INDEX = notation.SQUARE_INDEX

Arrow = Union[str, tuple[str, str], tuple[str, str, str]]
"""An arrow: a move in either written form (``'d1d3'``, ``'d1-d3'``), a pair
of squares ``('d1', 'd3')``, or a pair and a colour ``('d1', 'd3', 'blue')``."""


def _number(value: float) -> str:
    """A coordinate as short as it can be written: ``40``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _colour(value: object, what: str) -> str:
    if not isinstance(value, str) or not _COLOUR_RE.fullmatch(value):
        raise ArgumentError(f"{what} must be a colour such as '#d63b3b' or 'red', not {quote(value)}")
    return value


def _square(value: object, what: str) -> int:
    if not isinstance(value, str) or not notation.square_parse(value):
        raise SquareError(f"{what} must name a square, a1 to g7, not {quote(value)}")
    return _INDEX[value.lower()]


def _marks(squares: Union[Iterable[str], Mapping[str, str]]) -> list[tuple[int, str]]:
    if isinstance(squares, (str, bytes)):
        raise ArgumentError(f"squares must be a list of square names (or a dict of them to colours), "
                            f"not the one string {quote(squares)}")
    if isinstance(squares, Mapping):
        return [(_square(name, "each of squares"), _colour(colour, f"the colour of {name}"))
                for name, colour in squares.items()]
    try:
        names = list(squares)
    except TypeError:
        raise ArgumentError(f"squares must be a list of square names, not {type(squares).__name__}") from None
    return [(_square(name, "each of squares"), COLOURS["mark"]) for name in names]


def _arrows(arrows: Iterable[Arrow]) -> list[tuple[int, int, str]]:
    if isinstance(arrows, (str, bytes)):
        raise ArgumentError(f"arrows must be a list of moves or pairs of squares, not the one string {quote(arrows)}")
    out = []
    try:
        items = list(arrows)
    except TypeError:
        raise ArgumentError("arrows must be a list of moves or pairs of squares, "
                            f"not {type(arrows).__name__}") from None
    for item in items:
        item = getattr(item, "move", item)  # a LegalMove
        if isinstance(item, str):
            stored = notation.move_parse(item)
            if stored is None:
                raise MoveError(f"an arrow must be a move such as 'd1d3' or a pair of squares, not {quote(item)}")
            out.append((_INDEX[stored[:2]], _INDEX[stored[2:]], COLOURS["arrow"]))
        elif isinstance(item, tuple) and len(item) in (2, 3):
            colour = _colour(item[2], "an arrow's colour") if len(item) == 3 else COLOURS["arrow"]
            out.append((_square(item[0], "an arrow's first square"), _square(item[1], "an arrow's second square"),
                        colour))
        else:
            raise ArgumentError(f"an arrow must be a move such as 'd1d3' or a pair of squares, not {quote(item)}")
    return out


def board(game_or_position: Any, *, lastmove: LastMove = None, arrows: Iterable[Arrow] = (),
          squares: Union[Iterable[str], Mapping[str, str]] = (), size: Optional[int] = 400,
          flipped: bool = False, coordinates: bool = True) -> str:
    """The board as an SVG document, a string.

    ``game_or_position``: a position string, a :class:`~brandubh.Position`,
    a :class:`~brandubh.Rules` or a :class:`~brandubh.Game`.
    ``lastmove``: None for a game's own last move (none for a position
    string or an engine), False for none, or a move in either written form
    to tint. A game's own last move also gets a red cross on each square it
    emptied.
    ``arrows``: moves (``'d1d3'``), pairs of squares, or pairs and a colour.
    ``squares``: square names to tint red, or a dict of names to colours.
    ``size``: the width and height in pixels (``width`` and ``height`` are
    left out for None, and the picture fills whatever holds it).
    ``flipped``: seen from the other side, g7 at the bottom left.
    ``coordinates``: the files and ranks round the board.

    Raises a :class:`~brandubh.errors.BrandubhError` (a ``ValueError``)
    with a sentence for anything that is not what it should be.

    >>> svg = board('3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a', arrows=['d2c2'], squares=['c3'])
    >>> svg.count('class="piece attacker'), svg.count('class="piece king d4"')
    (8, 1)
    >>> 'class="arrow d2c2"' in svg, 'class="mark c3"' in svg
    (True, True)
    >>> board('7/7/7/3k3/7/7/a6 d', squares=['h9'])
    Traceback (most recent call last):
    ...
    brandubh.errors.SquareError: each of squares must name a square, a1 to g7, not 'h9'
    """
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 100_000):
        raise ArgumentError(f"size must be a whole number of pixels from 1 to 100000, or None, not {quote(size)}")
    f = facts(game_or_position, lastmove)
    marks = _marks(squares)
    drawn_arrows = _arrows(arrows)
    margin = MARGIN if coordinates else THIN_MARGIN
    full = 7 * SQUARE + 2 * margin

    def corner_of(sq: int) -> tuple[float, float]:
        """The top left corner of a square, in the picture's units."""
        col, row = sq % 7, 6 - sq // 7
        if flipped:
            col, row = 6 - col, 6 - row
        return margin + col * SQUARE, margin + row * SQUARE

    def centre_of(sq: int) -> tuple[float, float]:
        x, y = corner_of(sq)
        return x + SQUARE / 2, y + SQUARE / 2

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {full} {full}"'
        + (f' width="{size}" height="{size}"' if size is not None else "") + ">",
        f"<title>brandubh: {escape(f.position)} ({'game over' if f.over else f.side + ' to move'})</title>",
        f'<desc>{escape(f.status)}</desc>',
        f'<rect class="frame" x="0" y="0" width="{full}" height="{full}" fill="{COLOURS["frame"]}"/>',
    ]
    c = COLOURS
    for sq in range(49):
        x, y = corner_of(sq)
        kind = " corner" if sq in CORNERS else " throne" if sq == THRONE else ""
        fill = c["special"] if kind else c["square"]
        out.append(f'<rect class="square {_NAMES[sq]}{kind}" x="{x}" y="{y}" width="{SQUARE}" '
                   f'height="{SQUARE}" fill="{fill}" stroke="{c["line"]}" stroke-width="1"/>')
    for sq in CORNERS:
        x, y = corner_of(sq)
        a, b = 8, SQUARE - 8
        out.append(f'<path class="corner-mark {_NAMES[sq]}" d="M{x + a} {y + a}L{x + b} {y + b}M{x + b} {y + a}'
                   f'L{x + a} {y + b}" stroke="{c["line"]}" stroke-width="3" stroke-linecap="round" fill="none"/>')
    x, y = centre_of(THRONE)
    r = SQUARE / 2 - 7
    out.append(f'<path class="throne-mark d4" d="M{_number(x)} {_number(y - r)}L{_number(x + r)} {_number(y)}'
               f'L{_number(x)} {_number(y + r)}L{_number(x - r)} {_number(y)}Z" stroke="{c["line"]}" '
               f'stroke-width="3" stroke-linejoin="round" fill="none"/>')
    if f.last is not None:
        for name in (f.last[:2], f.last[2:]):
            x, y = corner_of(_INDEX[name])
            out.append(f'<rect class="lastmove {name}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" '
                       f'fill="{c["lastmove"]}" fill-opacity="0.75"/>')
    for sq, colour in marks:
        x, y = corner_of(sq)
        out.append(f'<rect class="mark {_NAMES[sq]}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" '
                   f'fill={quoteattr(colour)} fill-opacity="0.55"/>')
    for name in f.captured:
        x, y = corner_of(_INDEX[name])
        a, b = 11, SQUARE - 11
        out.append(f'<path class="captured {name}" d="M{x + a} {y + a}L{x + b} {y + b}M{x + b} {y + a}'
                   f'L{x + a} {y + b}" stroke="{c["captured"]}" stroke-width="5" stroke-linecap="round" '
                   f'fill="none"/>')
    for sq, piece in enumerate(f.cells):
        if piece:
            out.append(_piece(piece, _NAMES[sq], *centre_of(sq)))
    for a, b, colour in drawn_arrows:
        out.append(_arrow(_NAMES[a] + _NAMES[b], centre_of(a), centre_of(b), colour))
    if coordinates:
        out.extend(_coordinates(full, flipped))
        if not f.over:
            out.append(_turn(f.side, full))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _piece(piece: str, name: str, x: float, y: float) -> str:
    c = COLOURS
    head = f'<g class="piece {("attacker", "defender", "king")["adk".index(piece)]} {name}" ' \
           f'transform="translate({_number(x)} {_number(y)})">'
    if piece == "a":
        body = (f'<circle r="15" fill="{c["attacker"]}" stroke="#000000" stroke-width="1.5"/>'
                f'<circle r="9" fill="none" stroke="{c["attacker_ring"]}" stroke-width="2"/>')
    elif piece == "d":
        body = (f'<circle r="15" fill="{c["defender"]}" stroke="{c["outline"]}" stroke-width="2.5"/>'
                f'<circle r="9" fill="none" stroke="{c["defender_ring"]}" stroke-width="2"/>')
    else:
        body = (f'<circle r="17" fill="{c["king"]}" stroke="{c["outline"]}" stroke-width="2.5"/>'
                f'<path d="M-10 7L-10 -5L-5 1L0 -9L5 1L10 -5L10 7Z" fill="{c["crown"]}" '
                'stroke-linejoin="round"/>')
    return head + body + "</g>"


def _arrow(name: str, start: tuple[float, float], end: tuple[float, float], colour: str) -> str:
    (x1, y1), (x2, y2) = start, end
    paint = f'fill={quoteattr(colour)} fill-opacity="0.8"'
    if (x1, y1) == (x2, y2):
        return (f'<g class="arrow {name}"><circle cx="{_number(x1)}" cy="{_number(y1)}" r="17" fill="none" '
                f'stroke={quoteattr(colour)} stroke-opacity="0.8" stroke-width="4"/></g>')
    length = math.hypot(x2 - x1, y2 - y1)
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    px, py = -dy, dx
    head, half, shaft = 15, 11, 4
    bx, by = x2 - dx * head, y2 - dy * head  # where the head meets the shaft
    points = [
        (x1 + px * shaft, y1 + py * shaft), (bx + px * shaft, by + py * shaft),
        (bx + px * half, by + py * half), (x2, y2), (bx - px * half, by - py * half),
        (bx - px * shaft, by - py * shaft), (x1 - px * shaft, y1 - py * shaft),
    ]
    d = " ".join(f"{_number(px_)},{_number(py_)}" for px_, py_ in points)
    return f'<g class="arrow {name}"><polygon points="{d}" {paint}/></g>'


def _coordinates(full: int, flipped: bool) -> list[str]:
    files = "abcdefg"[::-1] if flipped else "abcdefg"
    ranks = "1234567" if flipped else "7654321"
    text = (f'font-family="Helvetica, Arial, sans-serif" font-size="14" font-weight="bold" '
            f'fill="{COLOURS["coordinate"]}" text-anchor="middle"')
    out = []
    for i in range(7):
        mid = MARGIN + i * SQUARE + SQUARE / 2
        for y in (MARGIN / 2, full - MARGIN / 2):
            out.append(f'<text class="coordinate" x="{_number(mid)}" y="{_number(y + 5)}" {text}>{files[i]}</text>')
        for x in (MARGIN / 2, full - MARGIN / 2):
            out.append(f'<text class="coordinate" x="{_number(x)}" y="{_number(mid + 5)}" {text}>{ranks[i]}</text>')
    return out


def _turn(side: str, full: int) -> str:
    """A small disc of the side to move, in the frame's bottom right corner."""
    fill = COLOURS["attacker"] if side == "attackers" else COLOURS["defender"]
    at = _number(full - MARGIN / 2)
    return (f'<circle class="turn {side}" cx="{at}" cy="{at}" r="6" fill="{fill}" '
            f'stroke="{COLOURS["coordinate"]}" stroke-width="1.5"/>')
