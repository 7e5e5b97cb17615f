"""Squares, moves, positions and whole games of brandubh as strings.

The strings a person and a log use. Functions only: nothing here holds a
board and nothing here knows a rule. A move this module accepts is a move
that is *written* correctly, which is a different thing from one that may be
played: ``move_parse('d4d4')`` is ``'d4d4'`` although no rule set lets a
piece stay where it is.

This module uses the standard library only and imports nothing else from
the ``brandubh`` package, so it loads without the compiled engine.

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

A game
    Lines of text, each a keyword, white space, and a value::

        variant brandubh
        start 7/7/7/3k3/7/7/a6 d
        moves d4d1 a1a2 d1g1
        result resign attackers

    ``variant`` and ``moves`` are required; ``start`` is left out when the
    game began from the set-up; ``result`` is ``resign attackers``,
    ``resign defenders`` or ``agreed`` and is left out unless the players
    ended the game. A game with no moves has a bare ``moves`` line.

    This package adds one kind of result line to that format: a side that
    lost the game by a fault of its program, ``timeout``, ``crash``,
    ``garbage`` (an answer that is not a move) or ``illegal`` (a move the
    rules refuse), followed by the side at fault: ``result timeout
    defenders``. The moves line holds only the moves that were played.

    It adds annotations too, for a game someone has looked over, all
    optional (a game with none is written exactly as above): a mark after
    a move (``!!``, ``!``, ``!?``, ``?!``, ``?``, ``??``), a comment in
    braces after a move (or before the first, on the start), and ``tag``
    lines, each a name and a value::

        variant brandubh
        tag annotator brandubh level 4
        moves {the usual start} d1c1?! {d2c2 keeps the file} d3c3

>>> move_parse('Kd4-d1')
'd4d1'
>>> position_ok(SETUP)
True
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from typing import Any, Iterable, Optional

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
    "game_string",
    "game_parse",
    "annotated_game_parse",
    "comment_text",
    "MARKS",
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

_KEYWORDS = ("variant", "start", "moves", "result", "tag")

MARKS = ("!!", "!?", "?!", "??", "!", "?")
"""The marks a move may carry in an annotated game text: very good, good,
interesting, dubious, a mistake, a blunder (in the order of the usual chess
sense: ``!!``, ``!``, ``!?``, ``?!``, ``?``, ``??``)."""
_MARK_RE = re.compile(r"([a-g][1-7][a-g][1-7])(!!|!\?|\?!|\?\?|!|\?)?")
_TOKEN_RE = re.compile(r"\{([^{}\n]*)\}|([^\s{}]+)|(\S)")
_TAG_RE = re.compile(r"([a-z][a-z0-9_-]*)(?:\s+(.*))?", re.DOTALL)
_SIDES = SIDES

FAULTS = ("timeout", "crash", "garbage", "illegal")
"""The ways a program loses a game by itself: it answers too late, it ends
(or cannot start), it answers something that is not a move, or it plays a
move the rules refuse. Each is an ending of its own in a game's text."""

_BY_SIDE = ("resign",) + FAULTS


def _index(value: object) -> Optional[int]:
    """An integer from an int-like value that is not a bool, else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
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
    if not isinstance(text, str):
        return None
    m = _MOVE_RE.fullmatch(text.strip())
    if m is None:
        return None
    return m.group(1).lower() + m.group(2).lower()


def answer_parse(text: object) -> Optional[str]:
    """The stored move of a bot's answer line, read as the CodinGame
    puzzle's referee reads it (:data:`LENIENT_ANSWER`), white space round it
    stripped; ``None`` for anything else.

    >>> answer_parse('D2 C2\\n'), answer_parse('d2d4'), answer_parse('Kd2-d4') is None
    ('d2c2', 'd2d4', True)
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    if not isinstance(text, str):
        return None
    m = LENIENT_ANSWER.fullmatch(text.strip())
    if m is None:
        return None
    return m.group(1).lower() + m.group(2).lower()


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
    if captures is None:
        captures = ()
    if isinstance(captures, (str, bytes, bytearray)):
        return None
    try:
        names = list(captures)
    except TypeError:
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


def _variant_ok(variant: object) -> bool:
    """A variant name fits on one line of a game record."""
    return (
        isinstance(variant, str)
        and variant != ""
        and variant == variant.strip()
        and len(variant.splitlines()) == 1
    )


def _result_words(result: object) -> Optional[str]:
    """The value of a result line for a result mapping, or None."""
    if not isinstance(result, Mapping):
        return None
    how = result.get("how")
    if how == "agreed" and set(result) == {"how"}:
        return "agreed"
    if how in _BY_SIDE and set(result) == {"how", "by"}:
        by = result.get("by")
        if isinstance(by, str) and by in _SIDES:
            return f"{how} {by}"
    return None


def comment_text(text: object) -> Optional[str]:
    """A comment as a game text holds it: one line, braces turned into
    parentheses (a brace would end it), runs of white space one space; None
    for what is not a string or holds nothing.

    >>> comment_text('d2c2 {keeps}\\n the file ')
    'd2c2 (keeps) the file'
    """
    if not isinstance(text, str):
        return None
    out = " ".join(text.replace("{", "(").replace("}", ")").split())
    return out or None


def _annotations_ok(
    count: int, marks: Optional[Mapping[int, str]], comments: Optional[Mapping[int, str]],
    tags: Optional[Mapping[str, str]],
) -> bool:
    if marks is not None:
        if not isinstance(marks, Mapping):
            return False
        for ply, mark in marks.items():
            if not isinstance(ply, int) or not 1 <= ply <= count or mark not in MARKS:
                return False
    if comments is not None:
        if not isinstance(comments, Mapping):
            return False
        for ply, text in comments.items():
            if not isinstance(ply, int) or not 0 <= ply <= count or not isinstance(text, str):
                return False
    if tags is not None:
        if not isinstance(tags, Mapping):
            return False
        for name, value in tags.items():
            if not isinstance(name, str) or _TAG_RE.fullmatch(name) is None or " " in name:
                return False
            if not isinstance(value, str):
                return False
    return True


def game_string(
    variant: Optional[str] = "brandubh",
    start: Optional[str] = None,
    moves: Iterable[str] = (),
    result: Optional[Mapping[str, str]] = None,
    *,
    marks: Optional[Mapping[int, str]] = None,
    comments: Optional[Mapping[int, str]] = None,
    tags: Optional[Mapping[str, str]] = None,
) -> Optional[str]:
    """A game as text: a ``variant`` line, a ``start`` line, a ``moves`` line
    and a ``result`` line, in that order, each ending in a newline.

    The annotations, all optional, go in as the module's docstring says:
    ``marks`` maps a move's number (1 for the first move) to one of
    :data:`MARKS`, written after the move; ``comments`` maps a move's
    number to a comment, written in braces after the move (and after its
    mark), 0 for one on the start, before the first move (each made one
    line by :func:`comment_text`; an empty one is left out); ``tags`` maps
    a name (lower case letters, digits, ``-`` and ``_``, a letter first) to
    a value, written as ``tag`` lines after the variant line, a value on
    one line.

    ``variant`` names the rule set: a word or a line, not empty, with no
    line break and no white space at either end; ``None`` means
    ``'brandubh'``. ``start`` is a position; the line is left out when it
    is ``None`` or :data:`SETUP`. ``moves`` is an iterable of stored moves
    (strict, as :func:`move_split` reads them), written separated by single
    spaces; with no moves the line is a bare ``moves``. ``result`` is
    ``None`` (no line), ``{'how': 'resign', 'by': 'attackers'}`` (or
    ``'defenders'``), ``{'how': 'agreed'}``, or a fault of :data:`FAULTS`
    with the side at fault (``{'how': 'timeout', 'by': 'defenders'}``),
    with no other keys.

    ``None`` when any part is not written correctly.

    >>> game_string(moves=['d1c1', 'd3c3'])
    'variant brandubh\\nmoves d1c1 d3c3\\n'
    >>> print(game_string(start='7/7/7/3k3/7/7/a6 d', moves=['d4d1'],
    ...                   result={'how': 'agreed'}), end='')
    variant brandubh
    start 7/7/7/3k3/7/7/a6 d
    moves d4d1
    result agreed
    >>> game_string(moves=['d1-c1']) is None
    True
    >>> print(game_string(moves=['d1c1', 'd3c3'], marks={1: '?!'},
    ...                   comments={0: 'a start', 1: 'd2c2 {better}'}, tags={'annotator': 'me'}), end='')
    variant brandubh
    tag annotator me
    moves {a start} d1c1?! {d2c2 (better)} d3c3
    """
    if variant is None:
        variant = "brandubh"
    if not _variant_ok(variant):
        return None
    lines = ["variant " + variant]
    if start is not None and start != SETUP:
        if not position_ok(start):
            return None
        lines.append("start " + start)
    if isinstance(moves, (str, bytes, bytearray)):
        return None
    try:
        listed = list(moves)
    except TypeError:
        return None
    for move in listed:
        if not move_split(move):
            return None
    if not _annotations_ok(len(listed), marks, comments, tags):
        return None
    lines[1:1] = [(f"tag {name} " + " ".join(value.split())).strip() for name, value in (tags or {}).items()]
    tokens = ["moves"]
    notes = {ply: comment_text(text) for ply, text in (comments or {}).items()}
    if notes.get(0):
        tokens.append("{" + str(notes[0]) + "}")
    for ply, move in enumerate(listed, 1):
        tokens.append(move + (marks or {}).get(ply, ""))
        if notes.get(ply):
            tokens.append("{" + str(notes[ply]) + "}")
    lines.append(" ".join(tokens))
    if result is not None:
        words = _result_words(result)
        if words is None:
            return None
        lines.append("result " + words)
    return "\n".join(lines) + "\n"


_LINE_RE = re.compile(r"(\S+)(?:\s+(.*))?", re.DOTALL)


def game_parse(text: object) -> Optional[dict[str, Any]]:
    """A game from its text: the reverse of :func:`game_string`.

    Gives a dict with ``variant`` (a str), ``start`` (a position;
    :data:`SETUP` when the text had no start line), ``moves`` (a tuple of
    stored moves) and ``result`` (``None`` when the text had no result
    line, else a dict as :func:`game_string` takes). The annotations
    (marks, comments, tags) are read and left out:
    :func:`annotated_game_parse` gives them.

    Lines may come in any order. Blank lines are ignored, and so is white
    space at either end of a line; the keyword and its value are separated
    by white space; the moves by white space. The keywords and the result
    words are lower case, and moves must be stored moves.

    ``None`` when the text is not a game: a line it does not know, a line
    given twice, a move, position or result that is not one, an empty
    variant, or no ``variant`` or ``moves`` line.

    >>> game = game_parse('variant brandubh\\nmoves d1c1 d3c3\\n')
    >>> game['moves'], game['start'] == SETUP, game['result']
    (('d1c1', 'd3c3'), True, None)
    >>> game_parse('variant brandubh\\nmoves\\nresult resign defenders')['result']
    {'how': 'resign', 'by': 'defenders'}
    >>> game_parse('variant brandubh\\nmoves d1c1\\nresult timeout defenders')['result']
    {'how': 'timeout', 'by': 'defenders'}
    >>> game_parse('variant brandubh\\nmoves d1c1?! {why?} d3c3')['moves']
    ('d1c1', 'd3c3')
    >>> game_parse('variant brandubh\\nmoves d1c1\\nmoves d3c3') is None
    True
    """
    game = annotated_game_parse(text)
    if game is None:
        return None
    return {key: game[key] for key in ("variant", "start", "moves", "result")}


def annotated_game_parse(text: object) -> Optional[dict[str, Any]]:
    """A game from its text with its annotations: :func:`game_parse`'s
    dict and ``marks`` (a dict from a move's number, 1 for the first, to
    its mark), ``comments`` (from a move's number to its comment, 0 for
    one on the start) and ``tags`` (from a name to a value, in the text's
    order). ``None`` when the text is not a game, as for
    :func:`game_parse`, and for a mark that is not one of :data:`MARKS`,
    a comment with no move before it but the first, two comments on one
    move, a brace left open, or a tag given twice.

    >>> game = annotated_game_parse('variant brandubh\\ntag event a test\\n'
    ...                             'moves {start} d1c1?! {d2c2 was better} d3c3??')
    >>> game['moves'], game['marks'], game['comments'], game['tags']
    (('d1c1', 'd3c3'), {1: '?!', 2: '??'}, {0: 'start', 1: 'd2c2 was better'}, {'event': 'a test'})
    >>> annotated_game_parse('variant brandubh\\nmoves d1c1 {a} {b}') is None
    True
    """
    if not isinstance(text, str):
        return None
    seen: dict[str, str] = {}
    tags: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _LINE_RE.fullmatch(line)
        if m is None:  # pragma: no cover - a stripped non-empty line matches
            return None
        key, value = m.group(1), m.group(2) or ""
        if key == "tag":
            t = _TAG_RE.fullmatch(value)
            if t is None or t.group(1) in tags:
                return None
            tags[t.group(1)] = (t.group(2) or "").strip()
            continue
        if key not in _KEYWORDS or key in seen:
            return None
        seen[key] = value
    if "variant" not in seen or "moves" not in seen:
        return None

    variant = seen["variant"]
    if not _variant_ok(variant):
        return None

    start = SETUP
    if "start" in seen:
        start = seen["start"]
        if not position_ok(start):
            return None

    moves: list[str] = []
    marks: dict[int, str] = {}
    comments: dict[int, str] = {}
    for m in _TOKEN_RE.finditer(seen["moves"]):
        note, word, stray = m.groups()
        if stray is not None:
            return None  # a brace with no partner
        if note is not None:
            if len(moves) in comments:
                return None
            if note.strip():
                comments[len(moves)] = " ".join(note.split())
            continue
        mm = _MARK_RE.fullmatch(str(word))
        if mm is None:
            return None
        moves.append(mm.group(1))
        if mm.group(2):
            marks[len(moves)] = mm.group(2)

    result: Optional[dict[str, str]] = None
    if "result" in seen:
        words = seen["result"].split()
        if words == ["agreed"]:
            result = {"how": "agreed"}
        elif len(words) == 2 and words[0] in _BY_SIDE and words[1] in _SIDES:
            result = {"how": words[0], "by": words[1]}
        else:
            return None

    return {"variant": variant, "start": start, "moves": tuple(moves), "result": result,
            "marks": marks, "comments": comments, "tags": tags}
