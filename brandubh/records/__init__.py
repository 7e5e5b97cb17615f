"""The room of game files: every form a saved game takes, read and written
here, as python-chess's ``chess.pgn`` is for chess.

The forms (docs/records.md): this package's game text, annotated or not; a
file of several, each after a ``#`` label (``match --games-out``); a
``referee --save`` record (JSON); an OpenTafl game record (``.otg``). One
reader tells them apart and reads them all (:func:`read_texts`), and one
reading of a file (:func:`read_game_file`, within one bound,
:data:`GAME_FILE_LIMIT`) serves every command that opens a game file.

Three parts, by what they need:

- :mod:`brandubh.records.text`: the game text as strings, written
  (:func:`game_string`) and read (:func:`game_parse`,
  :func:`annotated_game_parse`);
- :mod:`brandubh.records.read`: every form read into :class:`GameText`\\ s
  (strings: no move played), and the file read; pure Python, below the
  game, so that :meth:`Game.from_text <brandubh.Game.from_text>`,
  :meth:`Game.read <brandubh.Game.read>` and :meth:`Game.as_text
  <brandubh.Game.as_text>` are thin methods over it;
- :mod:`brandubh.records.record`: :class:`GameRecord` (a game with its
  label, tags, marks and comments), written as a game text or an OpenTafl
  record; a text or a file read into records (:func:`read_records`,
  :func:`load_record`) or a game (:func:`load_game`). It plays the moves,
  so it stands above the game, and loads with its first name used.

Every name is here, loaded on first use (so that the game may read texts
through the room without loading the records above it):

>>> from brandubh.records import read_record, read_texts
>>> [g.moves for g in read_texts('variant brandubh\\nmoves d2c2 d3d2\\n')]
[('d2c2', 'd3d2')]
>>> print(read_record('variant brandubh\\nmoves d2c2? {early}\\n').as_otn().splitlines()[-2])
[? early]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .. import _lazy

# name -> the part of the room that defines it
_LAZY = {
    "game_string": "text", "game_parse": "text", "annotated_game_parse": "text", "comment_text": "text",
    "MARKS": "text",
    "GameText": "read", "read_texts": "read", "read_text_game": "read",
    "read_game_file": "read", "GAME_FILE_LIMIT": "read", "otn_clock": "read", "otn_termination": "read",
    "OTN_RESULTS": "read", "OPENTAFL_RULES": "read",
    "GameRecord": "record", "read_records": "record", "read_record": "record", "read_game_texts": "record",
    "load_record": "record", "load_game": "record", "OTN_TAG_ORDER": "record", "OPENING_TAG": "record",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    # The same names for type checkers (tests/test_typing.py checks that
    # this block and _LAZY agree).
    from .read import (
        GAME_FILE_LIMIT as GAME_FILE_LIMIT, OPENTAFL_RULES as OPENTAFL_RULES, OTN_RESULTS as OTN_RESULTS,
        GameText as GameText, otn_clock as otn_clock, otn_termination as otn_termination,
        read_game_file as read_game_file, read_text_game as read_text_game, read_texts as read_texts,
    )
    from .record import (
        OPENING_TAG as OPENING_TAG, OTN_TAG_ORDER as OTN_TAG_ORDER, GameRecord as GameRecord,
        load_game as load_game, load_record as load_record, read_game_texts as read_game_texts,
        read_record as read_record, read_records as read_records,
    )
    from .text import (
        MARKS as MARKS, annotated_game_parse as annotated_game_parse, comment_text as comment_text,
        game_parse as game_parse, game_string as game_string,
    )

_load: Callable[[str], Any] = _lazy(__name__, _LAZY, globals())

if not TYPE_CHECKING:
    __getattr__ = _load


def __dir__() -> list[str]:
    return sorted(__all__)
