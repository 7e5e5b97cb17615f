"""Squares, moves and positions of brandubh as strings: the vocabulary.

The strings a person and a log use. Functions only: nothing here holds a
board and nothing here knows a rule. A move this module accepts is a move
that is *written* correctly, which is a different thing from one that may be
played: ``move_parse('d4d4')`` is ``'d4d4'`` although no rule set lets a
piece stay where it is.

This module uses the standard library only and imports nothing else from
the ``brandubh`` package (but the forwarding of the names that moved out of
it, :mod:`brandubh.deprecation`), so it loads without the compiled engine.
A whole game as text is a game file's business: :mod:`brandubh.records`.

Every function is total: a string that is not notation, or a value that is
not a string at all, gives ``None`` (or ``()`` where the answer is a tuple
to unpack); nothing raises.

A square
    A file letter ``a``-``g`` and a rank digit ``1``-``7``; ``a1`` is the
    bottom left corner, ``d4`` the throne, ``g7`` the top right corner.
    Written in lower case and read in either.

A move
    Stored as four characters, the square left and the square reached:
    ``d1d3``. Shown with what happened::

        d1-d3          a move
        d1-d3xc3       a move that captured the piece on c3
        d1-d3xc3,e3    one that captured two
        Ke4-e1         the king's move
        Kg2-g1++       the king reaching the square where he wins
        c5-c4xd4#      the move that captured the king

    The parts always come in this order: ``K``, the first square, ``-``,
    the second square, the captures, the ending mark.

A position
    Seven rows from rank 7 down to rank 1 separated by ``/``, a digit for a
    run of empty squares, ``a`` attacker, ``d`` defender, ``k`` king, then
    one space and the side to move, ``a`` or ``d``. The set-up is
    :data:`SETUP`.

>>> move_parse('Kd4-d1')
'd4d1'
>>> position_ok(SETUP)
True
"""

from __future__ import annotations

import operator
import re
from typing import Any, Iterable, Optional

from .deprecation import renamed

__all__ = [
    "SETUP",
    "square_name",
    "square_parse",
    "move_wire",
    "move_split",
    "move_parse",
    "move_display",
    "position_ok",
    "position_cells",
    "row_text",
    "answer_parse",
    "FAULTS",
    "SQUARE_NAMES",
    "SQUARE_INDEX",
    "SIDES",
    "SEATS",
    "PIECES",
    "THRONE",
    "CORNERS",
    "STORED_MOVE",
    "WRITTEN_MOVE",
    "LENIENT_ANSWER",
    "MOVE_SHAPE",
    "OPENTAFL_MOVE",
]

# The game text moved to the room of game files, brandubh.records: kept
# here for one release.
__getattr__ = renamed(__name__, {name: f"brandubh.records:{name}" for name in (
    "game_string", "game_parse", "annotated_game_parse", "comment_text", "MARKS")})

SETUP: str = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"
"""The position every game starts from unless it is told otherwise."""

_FILES = "abcdefg"
_RANKS = "1234567"
_SIZE = 7

# -- the vocabulary: every other module takes these from here ---------------

SQUARE_NAMES: tuple[str, ...] = tuple(_FILES[sq % 7] + _RANKS[sq // 7] for sq in range(49))
"""The squares' names by number, ``rank * 7 + file``: a1 is 0, d4 24, g7 48
(the engine numbers them so)."""

SQUARE_INDEX: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
"""A square's number by its (lower-case) name."""

SIDES: tuple[str, str] = ("attackers", "defenders")
"""The two sides, in the engine's order: the attackers are side 0."""

SEATS: tuple[str, str] = ("p1", "p2")
"""The two seats at a table (Game::Brandubh's names): ``p1`` has the
attackers unless a game says otherwise."""

PIECES: dict[str, str] = {"a": "attacker", "d": "defender", "k": "king"}
"""The pieces by the letter a position string writes them with."""

THRONE: int = SQUARE_INDEX["d4"]
"""The centre square, where the king starts."""

CORNERS: tuple[int, ...] = tuple(SQUARE_INDEX[name] for name in ("a1", "g1", "a7", "g7"))
"""The four corner squares, in square order."""

# -- the move grammars -------------------------------------------------------
#
# Every way this package reads a move off a line of text. Explicit ASCII
# classes rather than re.IGNORECASE: with IGNORECASE a Unicode pattern lets
# [k] match the Kelvin sign U+212A, which is not notation.

_SQ = r"[a-gA-G][1-7]"

STORED_MOVE = re.compile(r"[a-g][1-7][a-g][1-7]")
"""The strict form: a move as a log stores it and as the CodinGame puzzle
writes it, four lower-case characters (``d1d3``)."""

WRITTEN_MOVE = re.compile(
    r"(?:[kK])?"
    r"(" + _SQ + r")"
    r"-?"
    r"(" + _SQ + r")"
    r"(?:[xX]" + _SQ + r"(?:," + _SQ + r")*)?"
    r"(?:\+\+|#)?"
)
"""A move as a person types it or as it is shown (:func:`move_parse`):
either form, either case, the ``K``, the hyphen, the captures and the
ending mark each optional."""

LENIENT_ANSWER = re.compile(r"(" + _SQ + r") ?(" + _SQ + r")")
"""A bot's answer as the CodinGame puzzle's referee takes it
(:func:`answer_parse`): the stored form, in either case, with at most one
space between the squares (``D2C2``, ``d2 c2``)."""

MOVE_SHAPE = re.compile(r"[kK]?([a-zA-Z][0-9]{1,2})-?([a-zA-Z][0-9]{1,2})(?:[xX#+].*)?")
"""Text shaped like a move whose squares need not be on the board
(``d1d9``): what tells "not on the board" from "not a move at all" in a
refusal's sentence."""

OPENTAFL_MOVE = re.compile(r"[tcnkmTCNKM]?([a-g][1-7])(?![0-9])-?([a-g][1-7])(?![0-9])")
"""A move in OpenTafl's notation: an optional piece letter, then the two
squares (``t/d1-d3``'s move part, ``Kd4-d1``); what follows (its captures)
is OpenTafl's commentary."""

_MOVE_RE = WRITTEN_MOVE
_STORED_RE = STORED_MOVE

FAULTS = ("timeout", "crash", "garbage", "illegal")
"""The ways a program loses a game by itself: it answers too late, it ends
(or cannot start), it answers something that is not a move, or it plays a
move the rules refuse. Each is an ending of its own in a game's text."""


def _index(value: object) -> Optional[int]:
    """An integer from an int-like value that is not a bool, else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _items(values: object) -> Optional[list[Any]]:
    """The items of an iterable that is not one string (a list of names,
    of moves), else None: a string is one value, not a list of letters."""
    if isinstance(values, (str, bytes, bytearray)):
        return None
    try:
        return list(values)  # type: ignore[call-overload]
    except TypeError:
        return None


def square_name(file: int, rank: int) -> Optional[str]:
    """The name of a square from its file and rank, both counted from 0.

    ``None`` when either is off the board or is not an integer (a ``bool``
    is not taken for one).

    >>> square_name(3, 3)
    'd4'
    >>> square_name(0, 0), square_name(6, 6)
    ('a1', 'g7')
    >>> square_name(7, 0) is None
    True
    """
    f = _index(file)
    r = _index(rank)
    if f is None or r is None:
        return None
    if not (0 <= f < _SIZE and 0 <= r < _SIZE):
        return None
    return _FILES[f] + _RANKS[r]


def square_parse(name: object) -> tuple[int, int] | tuple[()]:
    """The file and rank of a named square, both counted from 0.

    Either case is read. ``()`` for anything that is not exactly the name
    of a square (surrounding white space included).

    >>> square_parse('d4')
    (3, 3)
    >>> square_parse('G7')
    (6, 6)
    >>> square_parse('h1')
    ()
    """
    if not isinstance(name, str) or len(name) != 2:
        return ()
    f = _FILES.find(name[0].lower()) if name[0].isascii() else -1
    r = _RANKS.find(name[1])
    if f < 0 or r < 0:
        return ()
    return (f, r)


def move_wire(from_name: object, to_name: object) -> Optional[str]:
    """A stored move from two square names.

    The names are read in either case; the move is written in lower case.
    ``None`` unless both are squares. The two may be the same square: this
    checks the writing, not whether the move may be played.

    >>> move_wire('d1', 'd3')
    'd1d3'
    >>> move_wire('D1', 'D3')
    'd1d3'
    >>> move_wire('d1', 'd8') is None
    True
    """
    a = square_parse(from_name)
    b = square_parse(to_name)
    if not a or not b:
        return None
    return square_name(*a) + square_name(*b)  # type: ignore[operator]


def move_split(move: object) -> tuple[str, str] | tuple[()]:
    """The two square names of a stored move.

    Strict: exactly four characters, lower case, nothing more. ``()`` for
    anything else.

    >>> move_split('d1d3')
    ('d1', 'd3')
    >>> move_split('D1D3')
    ()
    >>> move_split('d1-d3')
    ()
    """
    if not isinstance(move, str) or not _STORED_RE.fullmatch(move):
        return ()
    return (move[:2], move[2:])


def move_parse(text: object) -> Optional[str]:
    """A stored move from a string a person might type or a log might show.

    Either form (``d1d3`` or ``d1-d3``), in either case, with or without the
    ``K``, the hyphen, the captures (``xc3`` or ``xc3,e3``) and the ending
    (``++`` or ``#``), in that order. White space around the move is
    stripped; anything else (white space inside, text after) gives ``None``.

    The captures are commentary and are read past: the position decides
    what a move captures. Only the writing is checked, so a move from a
    square to itself is accepted.

    >>> move_parse('Kd4-d1')
    'd4d1'
    >>> move_parse('D1-D3XC3')
    'd1d3'
    >>> move_parse('c5-c4xd4#')
    'c5c4'
    >>> move_parse('d1 d3') is None
    True
    """
    return _read_move(_MOVE_RE, text)


def answer_parse(text: object) -> Optional[str]:
    """The stored move of a bot's answer line, read as the CodinGame
    puzzle's referee reads it (:data:`LENIENT_ANSWER`), white space round it
    stripped; ``None`` for anything else.

    >>> answer_parse('D2 C2\\n'), answer_parse('d2d4'), answer_parse('Kd2-d4') is None
    ('d2c2', 'd2d4', True)
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    return _read_move(LENIENT_ANSWER, text)


def _read_move(grammar: "re.Pattern[str]", text: object) -> Optional[str]:
    """The stored move ``grammar`` (whose two groups are the squares) reads
    in ``text``, white space round it stripped; None for anything else."""
    if not isinstance(text, str):
        return None
    m = grammar.fullmatch(text.strip())
    return None if m is None else m.group(1).lower() + m.group(2).lower()


def move_display(
    move: object,
    *,
    king: object = False,
    captures: Optional[Iterable[str]] = (),
    king_home: object = False,
    king_taken: object = False,
) -> Optional[str]:
    """A stored move as it is shown, with what happened.

    ``king``: the piece that moved is the king (``K`` in front).
    ``captures``: the names of the squares captured, in order (``x`` then
    the names joined by ``,``; read in either case, written in lower case;
    ``None`` or empty for none).
    ``king_home``: the king's move ended where he wins (``++`` at the end).
    ``king_taken``: the move captured the king (``#`` at the end).

    The parts come in a fixed order: ``K``, the move, the captures, the
    ending mark, so a king that captures as he escapes is ``Kb1-a1xb2++``.

    ``None`` when ``move`` is not a stored move (see :func:`move_split`),
    when ``captures`` is a string or not an iterable of square names, or
    when both ``king_home`` and ``king_taken`` are true (a move has one
    ending mark at most). What is shown is always read back by
    :func:`move_parse`.

    >>> move_display('d1d3')
    'd1-d3'
    >>> move_display('d1d3', captures=['c3', 'e3'])
    'd1-d3xc3,e3'
    >>> move_display('g2g1', king=True, king_home=True)
    'Kg2-g1++'
    >>> move_display('c5c4', captures=('d4',), king_taken=True)
    'c5-c4xd4#'
    """
    squares = move_split(move)
    if not squares:
        return None
    if king_home and king_taken:
        return None
    names = _items(() if captures is None else captures)
    if names is None:
        return None
    taken = []
    for name in names:
        sq = square_parse(name)
        if not sq:
            return None
        taken.append(square_name(*sq))
    text = ("K" if king else "") + squares[0] + "-" + squares[1]
    if taken:
        text += "x" + ",".join(taken)  # type: ignore[arg-type]
    if king_home:
        text += "++"
    elif king_taken:
        text += "#"
    return text


def _cells(s: object) -> Optional[tuple[tuple[tuple[str, ...], ...], str]]:
    """The rows and side of a position string, or None."""
    if not isinstance(s, str):
        return None
    board, sep, side = s.partition(" ")
    if not sep or side not in ("a", "d"):
        return None
    texts = board.split("/")
    if len(texts) != _SIZE:
        return None
    rows = []
    for text in texts:
        row: list[str] = []
        for ch in text:
            if ch in "adk":
                row.append(ch)
            elif ch in _RANKS:
                row.extend([""] * int(ch))
            else:
                return None
            if len(row) > _SIZE:
                return None
        if len(row) != _SIZE:
            return None
        rows.append(tuple(row))
    return (tuple(rows), side)


def position_ok(s: object) -> bool:
    """True when the string is written as a position.

    Seven rows separated by ``/``, each seven squares wide, written with the
    letters ``a``, ``d``, ``k`` and the digits ``1``-``7`` (two digits in a
    row are two runs and are added: ``16`` is seven squares); then exactly
    one space and the side, ``a`` or ``d``; nothing before or after. It
    judges the writing and never the sense: two kings, or none, pass.

    >>> position_ok(SETUP)
    True
    >>> position_ok('7/7/7/3k3/7/7/a6 d')
    True
    >>> position_ok('7/7/7/3k3/7/7/a7 d')
    False
    """
    return _cells(s) is not None


def position_cells(
    s: object,
) -> tuple[tuple[tuple[str, ...], ...], str] | tuple[()]:
    """The position as seven rows of seven cells, and the side to move.

    Rank 7 first and file a first; each cell is ``''``, ``'a'``, ``'d'`` or
    ``'k'``; the side is ``'a'`` or ``'d'``. ``()`` when the string is not
    a position (see :func:`position_ok`).

    >>> rows, side = position_cells('7/7/7/3k3/7/7/a6 d')
    >>> rows[6][0], rows[3][3], rows[0][0], side
    ('a', 'k', '', 'd')
    >>> position_cells('7/7/7 a')
    ()
    """
    got = _cells(s)
    return () if got is None else got


def row_text(cells: Iterable[str]) -> str:
    """One row of a position string from its cells, each a piece's letter or
    ``''`` for an empty square: the empty squares of a run as their count.
    (OpenTafl's records and the CodinGame boards are written the same way,
    with letters of their own.)

    >>> row_text(['a', '', '', 'k', '', '', ''])
    'a2k3'
    >>> row_text(['t', 't', 'T', 'K', 'T', 't', 't'])
    'ttTKTtt'
    """
    text, run = "", 0
    for cell in cells:
        if not cell:
            run += 1
            continue
        if run:
            text += str(run)
            run = 0
        text += cell
    return text + (str(run) if run else "")
