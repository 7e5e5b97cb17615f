"""Game records: a game with what is said about it, read from any game text
this package reads (:mod:`brandubh.records.read`) and written as this
package's game text or as an OpenTafl game record (OpenTafl Notation,
``.otg``); and a game file read into a record (:func:`load_record`) or a
game (:func:`load_game`): the part of the room of game files that plays
the moves, above the game.

A :class:`GameRecord` is the game, its label (the ``#`` line a file of
games gives it), its tags (``date``, ``event``, ``annotator``, ...), and
per move a comment and a mark (``!!``, ``!``, ``!?``, ``?!``, ``?``,
``??``): what a review of the game writes out. Moves are numbered from 1,
the first move; a comment on 0 is on the start.

>>> from brandubh import Game
>>> game = Game.replay(['d1c1', 'd3c3', 'd2d1']).game
>>> record = GameRecord(game, label='a test', comments={2: 'c3 is weak'}, marks={2: '?!'})
>>> print(record.as_text(), end='')
# a test
variant brandubh
moves d1c1 d3c3?! {c3 is weak} d2d1
>>> back = read_record(record.as_text())
>>> back.game.log, back.label, back.marks, back.comments
(['d1c1', 'd3c3', 'd2d1'], 'a test', {2: '?!'}, {2: 'c3 is weak'})
>>> print(GameRecord(Game.replay(['d1c1', 'd3c3']).game, marks={2: '?!'},
...                  tags={'date': '2026.12.02'}).as_otn(), end='')
[date:2026.12.02]
[result:?]
[compiler:brandubh]
[rules:dim:7 name:Brandubh esc:c surf:n atkf:y tfr:d ka:y ks:c cenh: cenhe:tTK cenre: starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]
<BLANKLINE>
1. d1-c1 d3-c3 
[|?!]
<BLANKLINE>
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable, Optional, TypeVar

from .. import notation, otn
from ..deprecation import REMOVED_IN
from ..errors import ArgumentError, BrandubhError
from ..game import Game, Played
from ..variant import Variant
from .read import OPENTAFL_RULES, GameText, read_game_file, read_text_game, read_texts
from .text import MARKS, comment_text, game_parse, game_string

__all__ = ["GameRecord", "read_records", "read_record", "read_game_texts", "load_record", "load_game",
           "OTN_TAG_ORDER", "OPENING_TAG"]

T = TypeVar("T")

OTN_TAG_ORDER = ("date", "result", "compiler", "time-control", "time-remaining")
"""The tags an OpenTafl record starts with, in the order OpenTafl writes
them; any others follow in the record's own order, and the rules tag comes
last."""

OPENING_TAG = "opening-moves"
"""The tag that says how many of a game's first moves were the opening
its event gave it (``brandubh match --openings`` and ``--random-plies``),
played by neither player: ``tag opening-moves 4`` in a game text.
``brandubh analyse`` does not judge them (:attr:`GameRecord.opening`)."""


@dataclass
class GameRecord:
    """A game and what is said about it: ``label`` (one line), ``tags``
    (name to value, one line each), ``comments`` (a move's number to its
    comment, 0 for one on the start) and ``marks`` (a move's number to one
    of :data:`brandubh.records.MARKS`). An
    :class:`~brandubh.errors.ArgumentError` for a mark or a comment on a
    move the game does not have.

    >>> GameRecord(Game(), marks={1: '?'})
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: marks: the game has 0 moves, so there is no move 1 to mark
    """

    game: Game
    label: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    marks: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """An :class:`~brandubh.errors.ArgumentError` for what the record
        cannot hold: a mark or comment on a move the game does not have, a
        mark that is not one, a tag's name that is not one. The writers
        check again, so a record changed after it was made is still
        written whole or not at all.

        >>> record = GameRecord(Game())
        >>> record.marks[3] = '?'
        >>> record.as_text()
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: marks: the game has 0 moves, so there is no move 3 to mark
        """
        if not isinstance(self.game, Game):
            raise ArgumentError(f"game: a Game, not {type(self.game).__name__}")
        count = self.game.ply
        for ply, mark in self.marks.items():
            if not isinstance(ply, int) or not 1 <= ply <= count:
                raise ArgumentError(f"marks: the game has {count} moves, so there is no move {ply!r} to mark")
            if mark not in MARKS:
                raise ArgumentError(f"marks: {mark!r} (move {ply}) is not a mark; the marks are "
                                    + ", ".join(MARKS))
        for ply, comment in self.comments.items():
            if not isinstance(ply, int) or not 0 <= ply <= count:
                raise ArgumentError(f"comments: the game has {count} moves, so there is no move {ply!r} "
                                    "to comment on (0 is the start)")
            if not isinstance(comment, str):
                raise ArgumentError(f"comments: move {ply}'s comment is a string, not {type(comment).__name__}")
        if not isinstance(self.label, str):
            raise ArgumentError(f"label: a string, not {type(self.label).__name__}")
        for name, value in self.tags.items():
            if (not isinstance(name, str) or not isinstance(value, str)
                    or game_string(tags={name: value}) is None):
                raise ArgumentError(f"tags: {name!r} is not a tag's name (lower case letters, digits, - and _, "
                                    "a letter first) with a string for its value")

    @property
    def opening(self) -> int:
        """How many of the game's first moves :data:`OPENING_TAG` says were
        an opening the players did not choose (0 without the tag); an
        :class:`~brandubh.errors.ArgumentError` for a value that is not a
        whole number of the game's moves.

        >>> GameRecord(Game.replay(['d1c1', 'd3c3']).game, tags={OPENING_TAG: '1'}).opening
        1
        """
        value = self.tags.get(OPENING_TAG)
        if value is None:
            return 0
        count = self.game.ply
        if not value.isascii() or not value.isdigit() or int(value) > count:
            raise ArgumentError(f"the tag {OPENING_TAG} is the number of the game's first moves that were its "
                                f"opening, 0 to {count}, not {value[:40]!r}")
        return int(value)

    @property
    def result(self) -> Optional[dict[str, str]]:
        """The ending the players made (a resignation, an agreed draw, a
        fault), as a game text's result line says it; None for none.

        >>> _ = (game := Game()).resign('p2')
        >>> GameRecord(game).result
        {'how': 'resign', 'by': 'defenders'}
        """
        parsed = game_parse(self.game.as_text())
        assert parsed is not None
        return parsed["result"]

    # -- this package's game text ------------------------------------------------------

    def as_text(self) -> str:
        """The record as this package's game text: a ``#`` line with the
        label when there is one, then the game text
        (:meth:`Game.as_text <brandubh.Game.as_text>`'s lines, with ``tag``
        lines, and the marks and ``{comments}`` on the moves line:
        :mod:`brandubh.records.text`). With no tags, marks or comments it is
        exactly the game's text. :func:`read_record` reads it back.

        >>> print(GameRecord(Game.replay(['d1c1']).game, tags={'event': 'club'},
        ...                  comments={0: 'the set-up'}).as_text(), end='')
        variant brandubh
        tag event club
        moves {the set-up} d1c1
        """
        self.check()
        game = self.game
        text = game_string(
            variant=game.variant.as_string(), start=game.start, moves=game.log, result=self.result,
            marks=self.marks, comments=self.comments, tags=self.tags)
        assert text is not None
        label = " ".join(self.label.split())
        return (f"# {label}\n" if label else "") + text

    # -- OpenTafl's notation -------------------------------------------------------------

    def otn_result(self) -> str:
        """The OTN ``result`` tag's value: ``1`` when the attackers won,
        ``-1`` the defenders, ``0`` a draw; for a game not over, the
        record's own ``result`` tag (OpenTafl writes ``?`` for a game
        decided on time), else ``?``.

        >>> GameRecord(Game()).otn_result(), GameRecord(Game(), tags={'result': '1'}).otn_result()
        ('?', '1')
        """
        result = self.game.result
        if result is None:
            return self.tags.get("result", "?")
        if result.winner is None:
            return "0"
        return "1" if self.game.side_of(result.winner) == "attackers" else "-1"

    def otn_rules(self) -> str:
        """The OTN rules tag's value for the game's rules and start: the
        record OpenTafl writes for its Brandub (``starti:``, as OpenTafl
        writes it in a game record) when those are the game's, else one
        written from the rules. An :class:`~brandubh.errors.ArgumentError`
        for rules an OpenTafl record cannot describe.

        >>> GameRecord(Game(variant='opentafl')).otn_rules() == OPENTAFL_RULES
        True
        >>> GameRecord(Game(variant='codingame')).otn_rules()
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: an OpenTafl record cannot hold these rules: king_capture four_two (four on the throne, two elsewhere, the throne never helping) has no king strength in an OpenTafl rules record
        """
        game = self.game
        if game.variant == Variant.named("opentafl") and game.start == notation.SETUP:
            return OPENTAFL_RULES
        try:
            record = otn.RulesRecord.of(game.variant, game.start)
        except BrandubhError as error:
            raise ArgumentError(f"an OpenTafl record cannot hold these rules: {error}") from None
        words = record.text.split()
        last = words[-1]
        assert last.startswith("start:")
        rows = last[len("start:"):].strip("/").split("/")
        words[-1] = "starti:/" + "/".join(reversed(rows)) + "/"
        return " ".join(words)

    def as_otn(self) -> str:
        """The record as an OpenTafl game record, as OpenTafl writes one:
        the tags (those of :data:`OTN_TAG_ORDER` first, in that order, with
        ``result`` from the game and ``compiler:brandubh`` unless the tags
        say otherwise; then the rest; the rules tag last), a blank line,
        then each turn on a line of its own (``1. d1-e1 c4-c1``: the
        king's letter, captures as ``x`` and the squares, ``xK`` for the
        king; ``---`` for a resignation), and after it its comments,
        ``[first|second]``, each a move's mark and comment (``|``, ``[``
        and ``]`` in a comment become ``/``, ``(`` and ``)``). A comment
        on the start is the ``start-comment`` tag. An agreed draw is
        ``result:0``; a resignation out of turn and a fault, the other
        side's win and a ``termination`` tag in words
        :func:`brandubh.records.otn_termination` reads back. (A comment on
        a move with no mark that itself begins with a mark, ``? why``,
        reads back as that mark.) An
        :class:`~brandubh.errors.ArgumentError` for rules an OpenTafl record
        cannot describe.

        >>> game = Game(position='7/7/2aa3/3ka2/3a3/7/7 a').play_or_raise('c5c4')
        >>> print(GameRecord(game).as_otn(), end='')
        [result:1]
        [compiler:brandubh]
        [rules:dim:7 name:Brandubh esc:c surf:n atkf:y tfr:d ka:y ks:c cenh: cenhe:tTK cenre: starti:/7/7/2tt3/3Kt2/3t3/7/7/]
        <BLANKLINE>
        1. c5-c4xKd4 
        []
        <BLANKLINE>
        """
        self.check()
        game = self.game
        tags = dict(self.tags)
        tags["result"] = self.otn_result()
        tags.setdefault("compiler", "brandubh")
        result = self.result
        resigned_in_turn = (result is not None and result["how"] == "resign"
                            and result["by"] == _side_to_move(game))
        if result is not None and result["how"] == "resign" and not resigned_in_turn:
            tags["termination"] = f"the {result['by']} resigned"
        elif result is not None and result["how"] in notation.FAULTS:
            tags["termination"] = f"{result['how']}: the {result['by']}' program"
        if self.comments.get(0):
            tags["start-comment"] = _otn_comment(self.comments[0])
        for name in ("rules", "position"):
            tags.pop(name, None)
        order = [name for name in OTN_TAG_ORDER if name in tags]
        order += [name for name in tags if name not in OTN_TAG_ORDER]
        lines = [f"[{name}:{_otn_value(tags[name])}]" for name in order]
        lines.append(f"[rules:{self.otn_rules()}]")
        lines.append("")

        words = [_otn_move(played) for played in game.played]
        if resigned_in_turn:
            words.append("---")
        for turn, first in enumerate(range(0, len(words), 2), 1):
            pair = words[first:first + 2]
            lines.append(f"{turn}. " + " ".join(pair) + " ")
            notes = [self._otn_note(first + 1 + i) for i in range(len(pair))]
            lines.append("[" + "|".join(notes) + "]")
            lines.append("")
        return "\n".join(lines) + "\n"

    def _otn_note(self, ply: int) -> str:
        note = " ".join(x for x in (self.marks.get(ply, ""), self.comments.get(ply, "")) if x)
        return _otn_comment(note)


def _side_to_move(game: Game) -> str:
    """The side whose move it would be after the game's moves (the game
    itself may be over)."""
    first = "attackers" if game.start.endswith(" a") else "defenders"
    return first if game.ply % 2 == 0 else ("defenders" if first == "attackers" else "attackers")


def _otn_comment(text: str) -> str:
    """A comment that an OTN comment line holds whole."""
    return (comment_text(text) or "").replace("|", "/").replace("[", "(").replace("]", ")")


def _otn_value(text: str) -> str:
    return " ".join(text.replace("]", ")").split())


def _otn_move(played: Played) -> str:
    """A move as OTN writes it: ``Kd4-d2``, ``d5-d3xKe3``, ``e5-e8xe9/f8``."""
    move, shown, took = played
    piece = "K" if shown.startswith("K") else ""
    out = f"{piece}{move[:2]}-{move[2:]}"
    if took:
        out += "x" + "/".join(("K" if what == "king" else "") + square for square, what in took)
    return out


# -- reading -------------------------------------------------------------------------------


def _record(game_text: GameText, attackers: str) -> GameRecord:
    game = Game.read_game_text(game_text, attackers)
    tags = dict(game_text.tags)
    if game_text.form == "otn":
        tags.pop("result", None)  # the game says it; as_otn writes it again
        if game.result is None and game_text.tags.get("result", "?") != "?":
            tags["result"] = game_text.tags["result"]  # decided off the board (on time)
    return GameRecord(game, game_text.label, tags, dict(game_text.comments), dict(game_text.marks))


def read_records(text: str, attackers: str = "p1") -> list[GameRecord]:
    """Every game in ``text`` as a :class:`GameRecord`: any text
    :func:`~brandubh.records.read_texts` reads (a game text, annotated or
    not; a file of games after ``#`` labels; a ``referee --save`` record;
    an OpenTafl game record). An :class:`~brandubh.errors.ArgumentError`
    naming the line (and the game, past the first) for a text that is not
    a game or a move the rules refuse.

    >>> records = read_records('# first\\nvariant brandubh\\nmoves d2c2\\n\\nvariant brandubh\\nmoves d1d4\\n')
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: game 2, line 6: move 1 (d1d4) is refused: d1 to d4: the attacker on d1 is blocked by the piece on d2
    """
    return read_game_texts(read_texts(text), attackers)


def read_game_texts(game_texts: "list[GameText]", attackers: str = "p1") -> list[GameRecord]:
    """:func:`read_records` of games already read as text
    (:func:`~brandubh.records.read_texts`): each played through.

    >>> [r.game.log for r in read_game_texts(read_texts('variant brandubh\\nmoves d2c2\\n'))]
    [['d2c2']]
    """
    return [_record(game_text, attackers) for game_text in game_texts]


def read_record(text: str, number: int = 1, attackers: str = "p1") -> GameRecord:
    """Game ``number`` (from 1) of ``text`` as a :class:`GameRecord`
    (:func:`read_records`, one game read).

    >>> read_record('# a\\nvariant brandubh\\nmoves\\n\\n# b\\nvariant brandubh\\nmoves d2c2?\\n', 2).marks
    {1: '?'}
    """
    return _record(read_text_game(text, number), attackers)


def _from_file(path: str, read: Callable[[str], T]) -> T:
    """``read`` of the text of the game file ``path`` (:func:`read_game_file`:
    the one reading of a file, within its one bound), an
    :class:`~brandubh.errors.ArgumentError` naming the file for one that
    cannot be read or is not a game."""
    text = read_game_file(path)
    try:
        return read(text)
    except ArgumentError as error:
        raise ArgumentError(f"{path}: {error}") from None


def load_record(path: str, number: int = 1, attackers: str = "p1", limit: Optional[int] = None) -> GameRecord:
    """:func:`read_record` of a game file (``'-'``: standard input), read
    within :data:`~brandubh.records.GAME_FILE_LIMIT`; an
    :class:`~brandubh.errors.ArgumentError` naming the file for one that
    cannot be read or is not a game. (``limit`` is read past, with a
    ``DeprecationWarning``: every game file has the one bound.)"""
    if limit is not None:
        warnings.warn(f"load_record's limit= is read past (every game file is read within GAME_FILE_LIMIT) "
                      f"and goes in {REMOVED_IN}", DeprecationWarning, stacklevel=2)
    return _from_file(path, lambda text: read_record(text, number, attackers))


def load_game(path: str, attackers: str = "p1", number: Optional[int] = None) -> Game:
    """Game ``number`` (from 1; None for the first) of a game file (``'-'``
    for standard input): any text :func:`~brandubh.records.read_texts`
    reads, read within :data:`~brandubh.records.GAME_FILE_LIMIT`
    (:meth:`Game.read <brandubh.Game.read>` of it). An
    :class:`~brandubh.errors.ArgumentError` saying why, the file and the
    line named, when it cannot be read, is not a game, has no game
    ``number``, or a move in it is refused.

    >>> load_game('/nowhere/game.txt')
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: cannot read the game file '/nowhere/game.txt': No such file or directory
    """
    return _from_file(path, lambda text: Game.read(text, attackers=attackers, number=1 if number is None else number))
