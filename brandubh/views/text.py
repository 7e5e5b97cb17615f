"""The board as text: a diagram with coordinates, for a terminal or a log.

:func:`diagram` draws a position string, an :class:`~brandubh.Engine`, a
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

This module imports nothing from the engine until it is handed something
that is not a position string, so it works on position strings without it.

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

from typing import Any, NamedTuple, Optional, Union

from .. import notation
from ..errors import ArgumentError, MoveError, PositionError, quote

__all__ = ["diagram", "Facts", "facts", "GLYPHS", "ASCII", "UNICODE"]

#: The squares by number (``rank * 7 + file``, a1 = 0).
_NAMES = tuple(str(notation.square_name(sq % 7, sq // 7)) for sq in range(49))
_INDEX = {name: sq for sq, name in enumerate(_NAMES)}
THRONE = 24
CORNERS = (0, 6, 42, 48)
_KIND = {"a": "attacker", "d": "defender", "k": "king", "": ""}


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


class Facts(NamedTuple):
    """What a view shows of a game, a board or a position string, read
    once: the 49 squares by number (``'a'``, ``'d'``, ``'k'`` or ``''``),
    the side to move, the last move (stored, or None), the squares it
    emptied, how it is shown (``d1-d3xc3``), and the line that says how the
    game stands.

    >>> f = facts('7/7/7/3k3/7/7/a6 d')
    >>> f.position, f.cells[0], f.cells[24], f.side, f.last, f.status
    ('7/7/7/3k3/7/7/a6 d', 'a', 'k', 'defenders', None, 'defenders to move')
    """

    position: str
    cells: tuple[str, ...]
    side: str
    last: Optional[str]
    captured: tuple[str, ...]
    shown: Optional[str]
    status: str


LastMove = Union[str, bool, None, Any]
"""What ``lastmove=`` takes: None (the game's own last move, none for a
position string or an engine), False (no last move), or a move in either
written form (``'d1d3'``, ``'d1-d3'``) or a :class:`~brandubh.LegalMove`."""


def _cells_of(position: str) -> tuple[tuple[str, ...], str]:
    got = notation.position_cells(position)
    if not got:
        raise PositionError(
            f"{quote(position)} is not a position: seven rows of a/d/k and digits from rank 7 "
            "down, separated by '/', a space, and the side to move (a or d)"
        )
    rows, side = got
    cells = tuple(rows[6 - sq // 7][sq % 7] for sq in range(49))
    return cells, "attackers" if side == "a" else "defenders"


def _own_last(rules: Any) -> tuple[Optional[str], tuple[str, ...], Optional[str]]:
    """The last move of a :class:`~brandubh.Rules`, what it emptied and how
    it is shown; Nones at the start."""
    report = rules.report()
    if report is None:
        return None, (), None
    from ..core.position import move_text

    stored = move_text(rules.move_at(rules.ply))
    names = tuple(report.capture_names)
    shown = notation.move_display(stored, king=report.king_moved, captures=names,
                                  king_home=report.king_home, king_taken=report.king_taken)
    return stored, names, shown


def _given_last(lastmove: Any) -> Optional[str]:
    move = getattr(lastmove, "move", lastmove)
    stored = notation.move_parse(move)
    if stored is None:
        raise MoveError(f"lastmove must be a move such as 'd1d3' or 'd1-d3' (or None or False), "
                        f"not {quote(lastmove)}")
    return stored


def facts(thing: Any, lastmove: LastMove = None) -> Facts:
    """The :class:`Facts` of a position string, an :class:`~brandubh.Engine`,
    a :class:`~brandubh.Rules` or a :class:`~brandubh.Game`.

    ``lastmove`` as :func:`diagram` takes it. A game's own last move comes
    with the squares it emptied; a move given here is marked on its two
    squares only (a position does not say what it took).

    >>> from brandubh import Game
    >>> game = Game().play_or_raise('d2c2')
    >>> f = facts(game)
    >>> f.last, f.shown, f.status
    ('d2c2', 'd2-c2', 'defenders (p2) to move; ply 1; last move d2-c2')
    >>> facts(game, lastmove=False).last is None
    True
    >>> facts(42)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: a diagram is drawn of a position string, an Engine, a Rules or a Game, not int
    """
    if lastmove is True:
        raise ArgumentError("lastmove takes a move, None (the game's own) or False (none), not True")
    if isinstance(thing, str):
        return _board_facts(thing, lastmove)
    from ..core.position import Engine
    from ..game import Game
    from ..core.record import Rules, outcome_name

    if isinstance(thing, Engine):
        return _board_facts(thing.to_string(), lastmove)
    if isinstance(thing, Game):
        with thing._lock:
            rules = thing._rules
            return _game_facts(thing.position, rules, lastmove, lambda: _game_status(thing))
    if isinstance(thing, Rules):
        def status() -> str:
            if thing.is_over():
                won = f"the {thing.winner} won" if thing.winner else "a draw"
                return f"game over after {_moves(thing.ply)}: {outcome_name(thing.outcome)}, {won}"
            return f"{thing.side} to move; ply {thing.ply}"

        return _game_facts(thing.position, thing, lastmove, status)
    raise ArgumentError("a diagram is drawn of a position string, an Engine, a Rules or a Game, "
                        f"not {type(thing).__name__}")


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


def _board_facts(position: str, lastmove: LastMove) -> Facts:
    """The facts of a bare board: no game, so no last move of its own."""
    cells, side = _cells_of(position)
    last = None if lastmove is None or lastmove is False else _given_last(lastmove)
    shown = None if last is None else notation.move_display(last)
    status = f"{side} to move" + ("" if shown is None else f"; last move {shown}")
    return Facts(position, cells, side, last, (), shown, status)


def _game_status(game: Any) -> str:
    if game.status == "finished":
        return f"game over after {_moves(game.ply)}: {game.result_sentence}"
    text = f"{game.side_to_move} ({game.turn}) to move; ply {game.ply}"
    if game.draw_offered_by:
        text += f"; {game.draw_offered_by} offers a draw"
    return text


def _game_facts(position: str, rules: Any, lastmove: LastMove, status: Any) -> Facts:
    cells, side = _cells_of(position)
    if lastmove is None:
        last, captured, shown = _own_last(rules)
    elif lastmove is False:
        last, captured, shown = None, (), None
    else:
        last = _given_last(lastmove)
        captured, shown = (), notation.move_display(last)
    line = status()
    if shown is not None:
        line += f"; last move {shown}"
    return Facts(position, cells, side, last, captured, shown, line)


def diagram(thing: Any, *, unicode: bool = False, lastmove: LastMove = None,
            flipped: bool = False, colour: bool = False) -> str:
    """The board as text: the files above and below, the ranks on both
    sides, the squares, and a line saying how the game stands (whose move,
    the ply, the last move as shown; or how it ended).

    ``thing``: a position string, an :class:`~brandubh.Engine`, a
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
        role = _KIND[piece]
        return _paint(getattr(glyphs, role), role, colour)
    if emptied:
        return _paint(glyphs.captured, "captured", colour)
    if sq in CORNERS:
        return _paint(glyphs.corner, "mark", colour)
    if sq == THRONE:
        return _paint(glyphs.throne, "mark", colour)
    return glyphs.empty
