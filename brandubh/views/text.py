"""The board as text: a diagram with coordinates, for a terminal or a log.

:func:`diagram` draws a position string, a :class:`~brandubh.Position`, a
:class:`~brandubh.Rules` or a :class:`~brandubh.Game` as seven rows of seven
squares, rank 7 at the top, with the files and ranks written round it, the
throne and the corners marked, and a line below saying whose move it is and
what the last move was.

Two forms, the same layout:

=========================  =========  ===========
what                       ASCII      Unicode
=========================  =========  ===========
attacker                   ``A``      ``●``
defender                   ``D``      ``○``
king                       ``K``      ``♔``
empty square               ``.``      ``·``
empty corner               ``#``      ``⊠``
empty throne               ``+``      ``⊡``
emptied by the last move   ``x``      ``✕``
the last move's squares    ``[A]``    ``[●]``
=========================  =========  ===========

``str()`` of a game, a rule set's game or an engine is the ASCII form (it
goes into logs and e-mails unharmed); ``diagram(..., unicode=True)`` or
``game.diagram(unicode=True)`` gives the Unicode one, and ``colour=True``
adds ANSI colours for a terminal (``brandubh play`` uses both when the
terminal can show them). ``repr()`` is unchanged everywhere.

Every view draws a :class:`~brandubh.snapshot.Snapshot`, which the thing
drawn hands over (``thing.snapshot()``): this module imports nothing of the
engine, and works on position strings without it.

>>> print(diagram('7/7/7/3k3/7/7/a6 d'))
    a  b  c  d  e  f  g
  +---------------------+
7 | #  .  .  .  .  .  # | 7
6 | .  .  .  .  .  .  . | 6
5 | .  .  .  .  .  .  . | 5
4 | .  .  .  K  .  .  . | 4
3 | .  .  .  .  .  .  . | 3
2 | .  .  .  .  .  .  . | 2
1 | A  .  .  .  .  .  # | 1
  +---------------------+
    a  b  c  d  e  f  g
defenders to move
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import notation
from ..snapshot import LastMove, Snapshot, of

__all__ = ["diagram", "Facts", "facts", "GLYPHS", "ASCII", "UNICODE"]

THRONE = notation.THRONE
CORNERS = notation.CORNERS
_INDEX = notation.SQUARE_INDEX

#: What a view shows of a board: :class:`brandubh.snapshot.Snapshot` (the
#: name this module gave it first).
Facts = Snapshot
#: The snapshot of anything a diagram is drawn of: :func:`brandubh.snapshot.of`.
facts = of


class Glyphs(NamedTuple):
    """The characters one form of the diagram is drawn with."""

    attacker: str
    defender: str
    king: str
    empty: str
    corner: str
    throne: str
    captured: str
    top: str
    bottom: str
    side: str


ASCII = Glyphs("A", "D", "K", ".", "#", "+", "x", "+---------------------+", "+---------------------+", "|")
"""The plain form: ASCII only, what ``str()`` draws."""

UNICODE = Glyphs("●", "○", "♔", "·", "⊠", "⊡", "✕", "┌─────────────────────┐", "└─────────────────────┘", "│")
"""The Unicode form: discs for the soldiers (the attackers dark, the
defenders light), the chess king for the king, box-drawing lines round the
board. Every character is one column wide in a Western terminal."""

GLYPHS = {"ascii": ASCII, "unicode": UNICODE}

# ANSI colours for a terminal (colour=True): SGR codes, reset after each.
_COLOURS = {
    "attacker": "1;31",   # bold red
    "defender": "1;36",   # bold cyan
    "king": "1;33",       # bold yellow
    "mark": "2",          # dim: the empty corners and throne
    "captured": "1;31",   # bold red
    "last": "1;33",       # the brackets round the last move's squares
    "frame": "2",         # dim: the coordinates and the border
}


def _paint(text: str, role: str, colour: bool) -> str:
    if not colour or not text.strip():
        return text
    return f"\x1b[{_COLOURS[role]}m{text}\x1b[0m"


def diagram(thing: Any, *, unicode: bool = False, lastmove: LastMove = None,
            flipped: bool = False, colour: bool = False) -> str:
    """The board as text: the files above and below, the ranks on both
    sides, the squares, and a line saying how the game stands (whose move,
    the ply, the last move as shown; or how it ended).

    ``thing``: a position string, a :class:`~brandubh.Position`, a
    :class:`~brandubh.Rules` or a :class:`~brandubh.Game`.
    ``unicode``: draw with the Unicode glyphs (see the module's table)
    instead of ASCII.
    ``lastmove``: None for the game's own last move (none for a position
    string or an engine), False for none, or a move to mark (either
    written form). The last move's two squares are bracketed, and the
    squares a game's own last move emptied are marked ``x``.
    ``flipped``: seen from the other side of the table, g7 at the bottom
    left.
    ``colour``: ANSI colours for a terminal.

    The text has no trailing spaces and no final newline. Raises a
    :class:`~brandubh.errors.BrandubhError` (a ``ValueError``) for what is
    not a position or not a move.

    >>> from brandubh import Game
    >>> game = Game(position='7/7/7/3k3/2ad3/7/4a2 a')
    >>> print(diagram(game.play_or_raise('e1e3'), unicode=True))
        a  b  c  d  e  f  g
      ┌─────────────────────┐
    7 │ ⊠  ·  ·  ·  ·  ·  ⊠ │ 7
    6 │ ·  ·  ·  ·  ·  ·  · │ 6
    5 │ ·  ·  ·  ·  ·  ·  · │ 5
    4 │ ·  ·  ·  ♔  ·  ·  · │ 4
    3 │ ·  ·  ●  ✕ [●] ·  · │ 3
    2 │ ·  ·  ·  ·  ·  ·  · │ 2
    1 │ ⊠  ·  ·  · [·] ·  ⊠ │ 1
      └─────────────────────┘
        a  b  c  d  e  f  g
    defenders (p2) to move; ply 1; last move e1-e3xd3
    >>> print(diagram('7/7/7/3k3/7/7/a6 d', lastmove='a2a1', flipped=True).splitlines()[2])
    1 | #  .  .  .  .  . [A]| 1
    """
    glyphs = UNICODE if unicode else ASCII
    f = facts(thing, lastmove)
    marked = set()
    if f.last is not None:
        marked = {_INDEX[f.last[:2]], _INDEX[f.last[2:]]}
    emptied = {_INDEX[name] for name in f.captured}
    files = "abcdefg"[::-1] if flipped else "abcdefg"
    ranks = range(7) if flipped else range(6, -1, -1)
    head = "    " + "  ".join(files)
    lines = [_paint(head, "frame", colour), "  " + _paint(glyphs.top, "frame", colour)]
    bar = _paint(glyphs.side, "frame", colour)
    for r in ranks:
        row = []
        for col in range(7):
            sq = r * 7 + (6 - col if flipped else col)
            glyph = _glyph(sq, f.cells[sq], sq in emptied, glyphs, colour)
            if sq in marked:
                row.append(_paint("[", "last", colour) + glyph + _paint("]", "last", colour))
            else:
                row.append(" " + glyph + " ")
        text = "".join(row)
        lines.append(f"{_paint(str(r + 1), 'frame', colour)} {bar}{text}{bar} {_paint(str(r + 1), 'frame', colour)}")
    lines.append("  " + _paint(glyphs.bottom, "frame", colour))
    lines.append(_paint(head, "frame", colour))
    lines.append(f.status)
    return "\n".join(lines)


def _glyph(sq: int, piece: str, emptied: bool, glyphs: Glyphs, colour: bool) -> str:
    """The character of one square, painted when ``colour``."""
    if piece:
        role = notation.PIECES[piece]
        return _paint(getattr(glyphs, role), role, colour)
    if emptied:
        return _paint(glyphs.captured, "captured", colour)
    if sq in CORNERS:
        return _paint(glyphs.corner, "mark", colour)
    if sq == THRONE:
        return _paint(glyphs.throne, "mark", colour)
    return glyphs.empty
