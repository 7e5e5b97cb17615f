"""Every game file this package reads, as strings: one reader for them all,
and the one reading of a file (:func:`read_game_file`, within one bound,
:data:`GAME_FILE_LIMIT`).

The forms it takes, told apart by how the text begins:

- a game text (``variant``, ``start``, ``moves``, ``result`` and ``tag``
  lines, annotated or not: :mod:`brandubh.records.text`), as
  :meth:`Game.as_text <brandubh.Game.as_text>`, ``brandubh play``'s
  ``save`` and :class:`~brandubh.records.GameRecord` write it;
- several of them, each after a ``#`` line that labels it, a blank line
  (or a second ``variant`` line) between them: ``brandubh match
  --games-out`` writes these (a blank line ends a game once its variant
  and moves lines are in: before that, it is read past; a text that is one
  game, as :func:`~brandubh.records.text.game_parse` reads it, is that game);
- a game record of ``brandubh referee --save`` (JSON: an object whose
  ``text`` is the game text; its ``attackers`` and ``defenders`` names
  become tags);
- an OpenTafl game record (OpenTafl Notation, OTN, files ``.otg``):
  ``[name:value]`` tag lines, the rules tag among them, then one turn a
  line, ``1. d1-e1 c4-c1``, each followed by an optional ``[a|b]`` line of
  comments. docs/opentafl.md ("Game records") says what of it is read.

Each game comes out as a :class:`GameText`: its rules (a variant string),
start, stored moves and result, its label and tags, the marks and comments
on its moves, and the line of the text each move came from. Nothing here
plays a move: :meth:`Game.from_game_text <brandubh.Game.from_game_text>`
plays one into a game (and :mod:`brandubh.records.record` every one into a
record), and asks the :class:`GameText` what its text says beside the moves
(:meth:`GameText.check_captures`, :meth:`GameText.ending`) and the sentence
for a refused move (:meth:`GameText.refused`), which names the line: this
module, below the game, is handed what it checks, and imports no game. A
text that is not a game raises an
:class:`~brandubh.errors.ArgumentError`: one sentence naming the line and
what is wrong with it.

>>> games = read_texts('# game 1: A attackers, B defenders\\nvariant brandubh\\nmoves d2c2\\n\\n'
...                    '# game 2\\nvariant brandubh\\nmoves d1c1 d3c3\\n')
>>> [(g.number, g.label, g.moves) for g in games]
[(1, 'game 1: A attackers, B defenders', ('d2c2',)), (2, 'game 2', ('d1c1', 'd3c3'))]
>>> read_text_game('[rules:dim:9 start:/9/9/9/9/4K4/9/9/9/9/]\\n\\n1. a1-a2\\n').variant
Traceback (most recent call last):
...
brandubh.errors.ArgumentError: line 1 (the rules tag): dim:9: this package plays only the 7x7 board
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Union

from .. import notation, otn
from ..errors import ArgumentError, BrandubhError, quote
from ..files import read_text
from ..moves import Played, Result
from ..refusals import Refusal
from ..words import plural
from .text import MARKS, annotated_game_parse, comment_text, game_parse

__all__ = ["GameText", "read_texts", "read_text_game", "read_game_file", "GAME_FILE_LIMIT",
           "otn_clock", "otn_termination", "OTN_RESULTS", "OPENTAFL_RULES"]

GAME_FILE_LIMIT = 4 << 20
"""The most bytes of a game file read (4 MiB), by every command that reads
one (``show``, ``analyse``, ``play --load``, ``--openings``): some 14,000
games of a ``match --games-out`` file, read in a few seconds; a larger file
(``/dev/zero``, or a file that is no game file) is refused unread, before it
costs minutes and memory."""

OPENTAFL_RULES = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
"""The rules tag OpenTafl writes in a game record of its Brandub (``starti:``,
the rows from rank 7 down): what a record without a rules tag plays, and
what :meth:`GameRecord.as_otn <brandubh.records.GameRecord.as_otn>` writes
for the ``opentafl`` preset from the set-up."""

_WORDS = ("variant", "start", "moves", "result")
_WORDS_SAID = "variant, start, moves, result and tag lines"

OTN_RESULTS = {"1": "attackers", "-1": "defenders", "0": None}
"""An OTN ``result`` tag's values that name an ending: the winning side,
None for a draw (``?`` is anything else: a game not over, or decided off
the board)."""


@dataclass(frozen=True)
class GameText:
    """One game as a text holds it. ``variant`` is the rules (a preset's
    name or a variant string; None for a block of an openings file that
    gave none), ``start`` a position string, ``moves`` the stored moves,
    ``result`` an ending the players made (as
    :func:`~brandubh.records.text.game_parse` gives it) or None. ``label`` is
    the ``#`` line before it ('' for none), ``tags`` its tags (OTN's,
    the game text's ``tag`` lines, or a JSON record's names), ``marks`` and
    ``comments`` those on its moves (by the move's number, 1 for the first;
    a comment on 0 is on the start). ``number`` is its place in the text
    (from 1), ``line`` the line it starts on, ``move_lines`` the line of
    each move, and ``form`` what the text was: ``'text'``, ``'otn'`` or
    ``'json'``. ``captures`` holds, for an OpenTafl record, the squares
    each move says it captured, the king's led by ``K`` (by the move's
    number; the game checks them against what the moves take under the
    rules read).

    >>> game = read_text_game('variant brandubh\\nmoves d1c1?! {too slow} d3c3\\n')
    >>> game.moves, game.marks, game.comments, game.move_lines
    (('d1c1', 'd3c3'), {1: '?!'}, {1: 'too slow'}, (2, 2))
    """

    variant: Optional[str]
    start: str = notation.SETUP
    moves: tuple[str, ...] = ()
    result: Optional[dict[str, str]] = None
    label: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    marks: dict[int, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    number: int = 1
    line: int = 1
    move_lines: tuple[int, ...] = ()
    form: str = "text"
    captures: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def where(self, ply: Optional[int] = None) -> str:
        """Where the game, or its move ``ply`` (from 1), stands in the text:
        ``'line 4'``, and ``'game 2, line 9'`` past the first game.

        >>> read_text_game('variant brandubh\\ntag a b\\nmoves d1c1\\n').where(1)
        'line 3'
        """
        game = f"game {self.number}, " if self.number > 1 else ""
        if ply is not None and 1 <= ply <= len(self.move_lines):
            return f"{game}line {self.move_lines[ply - 1]}"
        return f"{game}line {self.line}"

    def located(self, error: BrandubhError) -> BrandubhError:
        """The same error, of the same class, its sentence led by where the
        game stands (a variant or a start the game could not be made of).

        >>> from brandubh.errors import VariantError
        >>> GameText('x', number=2, line=9).located(VariantError('no rules called x'))
        VariantError('game 2, line 9: no rules called x')
        """
        try:
            return type(error)(f"{self.where()}: {error}")
        except TypeError:  # pragma: no cover - an error class with other arguments
            return ArgumentError(f"{self.where()}: {error}")

    def refused(self, refusal: Refusal, played: int) -> ArgumentError:
        """The sentence for the first thing of the game the rules refused,
        once ``played`` moves went in: that move, or the result; its line
        named.

        >>> from brandubh.refusals import Refusal, RefusalCode
        >>> GameText('brandubh', moves=('d1d4',)).refused(Refusal(RefusalCode.BLOCKED, 'blocked'), 0)
        ArgumentError('line 1: move 1 (d1d4) is refused: blocked')
        """
        if played < len(self.moves):
            what = f"{self.where(played + 1)}: move {played + 1} ({self.moves[played]})"
        else:
            what = f"{self.where()}: the result" + (" line" if self.form == "text" else "")
        return ArgumentError(f"{what} is refused: {refusal}")

    def check_captures(self, played: Sequence[Played]) -> None:
        """The captures an OpenTafl record writes with its moves, checked
        against those the moves ``played`` made under its rules (the board
        decides what a move takes: a record whose captures differ was
        played under other rules): an
        :class:`~brandubh.errors.ArgumentError`, naming the line, where they
        differ.

        >>> text = GameText('brandubh', moves=('d2c2',), captures={1: ('c3',)}, form='otn')
        >>> text.check_captures([Played('d2c2', 'd2-c2', ())])
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: line 1: move 1 (d2-c2) takes nothing under these rules, but the record says it took c3: the record and its rules disagree
        """
        for ply, move in enumerate(played, 1):
            written = self.captures.get(ply)
            took = tuple(sorted(("K" if piece == "king" else "") + square for square, piece in move.took))
            if written is not None and written != took:
                raise ArgumentError(
                    f"{self.where(ply)}: move {ply} ({move.shown}) takes "
                    f"{', '.join(took) or 'nothing'} under these rules, but the record says it took "
                    f"{', '.join(written) or 'nothing'}: the record and its rules disagree")

    def ending(self, result: Optional[Result]) -> Optional[dict[str, str]]:
        """The ending an OpenTafl record's result tag says that its moves do
        not make, as a result line says it (``{'how': 'agreed'}``, ``{'how':
        'resign', 'by': 'attackers'}``), for the game its moves made, which
        ended in ``result`` (None: it goes on). On a game that goes on,
        ``result:0`` is an agreed draw, and a win with a ``termination`` tag
        in the words this package writes (:func:`otn_termination`) is that
        resignation or fault; on a game the moves ended, the tag must agree
        (an :class:`~brandubh.errors.ArgumentError` naming the line if not).
        None for anything else, and for a text that is no OpenTafl record.

        >>> GameText('opentafl', moves=('d1e1',), tags={'result': '0'}, form='otn').ending(None)
        {'how': 'agreed'}
        """
        said = self.tags.get("result")
        if self.form != "otn" or said not in OTN_RESULTS:
            return None
        if result is None:
            if said == "0" and self.result is None:
                return {"how": "agreed"}
            ending = otn_termination(self.tags.get("termination", ""))
            if ending is not None and said == {"attackers": "-1", "defenders": "1"}[ending[1]]:
                return {"how": ending[0], "by": ending[1]}
            return None
        if result.side != OTN_RESULTS[said]:
            tag = "a draw" if said == "0" else f"the {OTN_RESULTS[said]}' win"
            ended = "a draw" if result.side is None else f"the {result.side}' win"
            raise ArgumentError(f"{self.where()}: the result tag (result:{said}) says {tag}, but the "
                                f"moves end in {ended}")
        return None


def read_game_file(path: Union[str, Path], what: str = "game file") -> str:
    """The text of a game file (``'-'``: standard input): the one reading of
    a file for every reader of saved games, within :data:`GAME_FILE_LIMIT`,
    only once it is known to be a regular file (:func:`brandubh.files.read_text`:
    a FIFO, a device or a folder is refused, not waited on). ``what`` names
    the file in the sentence of an :class:`~brandubh.errors.ArgumentError`
    for one that cannot be read.

    >>> read_game_file('/dev/zero')
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: cannot read the game file '/dev/zero': it is not a regular file (a pipe, a device or a folder); give the name of a file, or '-' for standard input
    """
    return read_text(path, GAME_FILE_LIMIT, what)


def read_texts(text: str, *, openings: bool = False) -> list[GameText]:
    """Every game in ``text``, in the forms the module's docstring lists.
    ``openings`` reads an openings file (``--openings``): a position string
    on a line of its own is a game of no moves from there, and a game text
    may leave out its variant line (its ``variant`` is then None).

    An :class:`~brandubh.errors.ArgumentError` naming the line for a text
    that is not a game, or that holds none.

    >>> [g.start for g in read_texts('7/7/7/3k3/7/7/a6 d\\nmoves d2c2\\n', openings=True)]
    ['7/7/7/3k3/7/7/a6 d', '3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a']
    >>> read_texts('hello\\n')
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: line 1: 'hello' is not a line of a game text (variant, start, moves, result and tag lines)
    """
    if not isinstance(text, str):
        raise ArgumentError(f"a game text is a string, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")  # a byte order mark some editors write first
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return _json(text, openings)
    if stripped.startswith("["):
        return [_otn(text)]
    games = _blocks(text, openings)
    if not games:
        raise ArgumentError("there is no game in the text: a game text has a variant line and a moves line, "
                            "as 'variant brandubh' and 'moves d2c2 d3c3'")
    return games


def read_text_game(text: str, number: int = 1) -> GameText:
    """Game ``number`` (from 1) of ``text``: :func:`read_texts`, then one
    game; an :class:`~brandubh.errors.ArgumentError` for a number the text
    does not hold.

    >>> read_text_game('variant brandubh\\nmoves\\n', 2)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: the text holds 1 game, so there is no game 2
    """
    games = read_texts(text)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(games):
        raise ArgumentError(f"the text holds {plural(len(games), 'game')}, so there is no game {quote(number)}")
    return games[number - 1]


# -- JSON: a referee's game record -----------------------------------------------------


def _json(text: str, openings: bool) -> list[GameText]:
    try:
        record = json.loads(text)
    except RecursionError:
        raise ArgumentError("the text starts like JSON but is nested too deeply to read: give a game "
                            "text, or a game record as brandubh referee --save writes it") from None
    except ValueError as error:
        raise ArgumentError(f"the text starts like JSON but is not JSON (line {getattr(error, 'lineno', 1)}): "
                            "give a game text, or a game record as brandubh referee --save writes it") from None
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise ArgumentError("a JSON game record needs a \"text\" field holding the game text")
    tags = {side: record[side] for side in ("attackers", "defenders")
            if isinstance(record.get(side), str) and record[side].strip()}
    try:
        inner = _blocks(record["text"], openings)
    except ArgumentError as error:
        raise ArgumentError(f"the record's text, {error}") from None
    if len(inner) != 1:
        raise ArgumentError(f"the record's text holds {len(inner)} games, not one")
    game = inner[0]
    label = f"game {record['game']}" if isinstance(record.get("game"), int) else ""
    return [GameText(game.variant, game.start, game.moves, game.result, label, {**tags, **game.tags},
                     game.marks, game.comments, 1, game.line, game.move_lines, "json")]


# -- game texts, one or several ----------------------------------------------------------


def _blocks(text: str, openings: bool) -> list[GameText]:
    """The game texts in ``text``, split at ``#`` lines, blank lines and a
    keyword given a second time, each checked line by line."""
    numbered = [(number, raw.strip()) for number, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    if (not openings and numbered and not any(line.startswith("#") for _, line in numbered)
            and annotated_game_parse(text) is not None):
        return [_block(1, "", numbered, openings)]  # one game, as game_parse reads it: blank lines anywhere
    blocks: list[tuple[str, list[tuple[int, str]]]] = []
    lines: list[tuple[int, str]] = []
    label = ""

    def close() -> None:
        nonlocal label, lines
        if lines:
            blocks.append((label, lines))
        label, lines = "", []

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            close()
            label = line.lstrip("#").strip()
        elif not line:
            words = {seen.split()[0] for _, seen in lines}
            if "moves" in words and ("variant" in words or openings):
                close()  # a blank line ends a whole game; inside one it is read past
        elif openings and notation.position_ok(line):
            close()
            blocks.append(("", [(number, line)]))
        else:
            word = line.split()[0]
            if word not in _WORDS and word != "tag":
                what = "is neither a position nor a line" if openings else "is not a line"
                raise ArgumentError(f"line {number}: {quote(line, 40)} {what} of a game text ({_WORDS_SAID})")
            if word != "tag" and any(seen.split()[0] == word for _, seen in lines):
                close()  # a second variant (or moves) line: the next game, with no blank line between
            lines.append((number, line))
    close()
    return [_block(index, label, body, openings) for index, (label, body) in enumerate(blocks, 1)]


def _block(index: int, label: str, body: list[tuple[int, str]], openings: bool) -> GameText:
    first = body[0][0]
    if openings and len(body) == 1 and notation.position_ok(body[0][1]):
        return GameText(None, body[0][1], label=label, number=index, line=first)
    found: dict[str, int] = {}
    for number, line in body:
        word, value = (line.split(None, 1) + [""])[:2]
        value = value.strip()
        if word == "variant" and not value:
            raise ArgumentError(f"line {number}: the variant line names no rules")
        if word == "start" and not notation.position_ok(value):
            raise ArgumentError(f"line {number}: {quote(value, 60)} is not a position (seven rows of a, d, k "
                                "and digits from rank 7 down, then a or d: the side to move)")
        if word == "result" and game_parse(f"variant x\nmoves\nresult {value}") is None:
            raise ArgumentError(f"line {number}: {quote(value, 40)} is not a result (agreed, or resign, "
                                f"{', '.join(notation.FAULTS)} and a side: 'resign attackers')")
        if word == "moves":
            _check_moves(number, value)
        if word == "tag" and annotated_game_parse(f"variant x\nmoves\n{line}") is None:
            raise ArgumentError(f"line {number}: a tag line is 'tag', a name of lower case letters, digits, "
                                "- and _, and a value")
        if word == "tag":
            name = value.split()[0]
            if f"tag {name}" in found:
                raise ArgumentError(f"line {number}: the tag {name} is given twice")
            found[f"tag {name}"] = number
        found.setdefault(word, number)
    lines = [line for _, line in body]
    if "moves" not in found:
        raise ArgumentError(f"line {first}: the game that starts here has no moves line")
    if "variant" not in found:
        if not openings:
            raise ArgumentError(f"line {first}: the game that starts here has no variant line "
                                "(as 'variant brandubh')")
        lines.insert(0, "variant -")
    parsed = annotated_game_parse("\n".join(lines))
    if parsed is None:  # pragma: no cover - every line was checked above
        raise ArgumentError(f"line {first}: not a game text ({_WORDS_SAID})")
    variant = parsed["variant"] if "variant" in found else None
    count = len(parsed["moves"])
    return GameText(variant, parsed["start"], parsed["moves"], parsed["result"], label, parsed["tags"],
                    parsed["marks"], parsed["comments"], index, first, (found["moves"],) * count, "text")


def _check_moves(number: int, value: str) -> None:
    """A sentence for the first thing on a moves line that is not a move,
    a mark or a comment."""
    if annotated_game_parse(f"variant x\nmoves {value}") is not None:
        return
    depth, seen_note = 0, False
    for char in value:
        if char == "{":
            if depth:
                raise ArgumentError(f"line {number}: a comment (in braces) holds no brace")
            depth = 1
        elif char == "}":
            if not depth:
                raise ArgumentError(f"line {number}: a closing brace with no opening one")
            depth = 0
            seen_note = True
    if depth:
        raise ArgumentError(f"line {number}: a comment's brace is never closed")
    plain = re.sub(r"\{[^{}]*\}", " ", value)
    for word in plain.split():
        if not re.fullmatch(r"[a-g][1-7][a-g][1-7](!!|!\?|\?!|\?\?|!|\?)?", word):
            raise ArgumentError(f"line {number}: {quote(word, 30)} is not a move as a game text stores it "
                                "(d1c1), with or without a mark (" + ", ".join(MARKS) + ")")
    if seen_note:
        raise ArgumentError(f"line {number}: two comments on one move (or on the start): one each")
    raise ArgumentError(f"line {number}: not a moves line")  # pragma: no cover


# -- OpenTafl game records ---------------------------------------------------------------

_TAG_LINE = re.compile(r"\[([a-z][a-z0-9-]*):(.*)\]")
_TURN_LINE = re.compile(r"((?:[0-9]+[a-z]*\.)+)(?:\s+(.*))?")
_NOTE_LINE = re.compile(r"\[(.*)\]")
_CLOCK = re.compile(r"\s*[0-9]+(?: [0-9]+/[0-9]+)?(?: [0-9]+i)?(?=\s|$)")
_MARK = re.compile(r"(!!|!\?|\?!|\?\?|!|\?)(?:\s+|$)")


def otn_clock(comment: str) -> tuple[str, str]:
    """A comment of an OTN record split into the clock reading it starts
    with ('' for none) and the comment itself. A clock is written as a
    ``time-control`` tag writes it: seconds, then optionally periods and
    their length (``2/3``) and the increment (``0i``); a comment is read as
    a clock reading only when it is one whole, or it has the periods or
    the increment (so ``15 pieces left`` stays a comment).

    >>> otn_clock('15 2/3 0i '), otn_clock('3'), otn_clock('15 pieces left'), otn_clock('12 0/0 0i good')
    (('15 2/3 0i', ''), ('3', ''), ('', '15 pieces left'), ('12 0/0 0i', 'good'))
    """
    m = _CLOCK.match(comment)
    if m is not None:
        clock = m.group(0).strip()
        rest = comment[m.end():].strip()
        if not rest or " " in clock:
            return clock, rest
    return "", comment.strip()


def otn_termination(text: str) -> Optional[tuple[str, str]]:
    """An ending a ``termination`` tag of an OTN record says in the words
    this package writes it in, as ``(how, side)``: ``the attackers
    resigned`` (a resignation out of turn, which ``---`` cannot say) or
    ``timeout: the defenders' program`` (a fault of :data:`FAULTS
    <brandubh.notation.FAULTS>`); None for any other text.

    >>> otn_termination('the attackers resigned'), otn_termination("crash: the defenders' program")
    (('resign', 'attackers'), ('crash', 'defenders'))
    >>> otn_termination('time ran out') is None
    True
    """
    m = re.fullmatch(r"the (attackers|defenders) resigned", text.strip())
    if m is not None:
        return "resign", m.group(1)
    m = re.fullmatch(r"([a-z]+): the (attackers|defenders)' program", text.strip())
    if m is not None and m.group(1) in notation.FAULTS:
        return m.group(1), m.group(2)
    return None


def _note(text: str) -> tuple[str, str]:
    """A comment of an OTN record as (mark, comment): a mark this package
    writes first in a comment is read back as the move's mark."""
    _clock, rest = otn_clock(text)
    m = _MARK.match(rest)
    if m is not None:
        return m.group(1), rest[m.end():].strip()
    return "", rest


def _otn(text: str) -> GameText:
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    moves: list[str] = []
    move_lines: list[int] = []
    marks: dict[int, str] = {}
    comments: dict[int, str] = {}
    captures: dict[int, tuple[str, ...]] = {}
    result: Optional[dict[str, str]] = None
    turn = 0
    short_turn: Optional[int] = None  # the line of a turn of one move, which must be the last
    last_turn_plies: list[int] = []   # the plies of the last main-line turn, for its comment line
    in_variation = False
    after_turn = False
    side = "a"
    first_line = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        first_line = first_line or number
        if not turn and not in_variation:
            m = _TAG_LINE.fullmatch(line)
            if m is not None:
                name, value = m.group(1), m.group(2).strip()
                if name in tags:
                    raise ArgumentError(f"line {number}: the {name} tag is given twice")
                tags[name], tag_lines[name] = value, number
                continue
        m = _TURN_LINE.fullmatch(line)
        if m is not None:
            address = m.group(1)
            after_turn = True
            if not re.fullmatch(r"[0-9]+\.", address):
                in_variation = True  # a variation: read past, the main line kept
                continue
            in_variation = False
            if not turn:
                side = _otn_start(tags, tag_lines, number)[1][-1]
            if int(address[:-1]) != turn + 1:
                raise ArgumentError(f"line {number}: turn {address[:-1]} of the main line follows "
                                    f"{'turn ' + str(turn) if turn else 'the tags'}; turns go 1, 2, 3, ...")
            if short_turn is not None:
                raise ArgumentError(f"line {short_turn}: a turn of one move that is not the last turn")
            if result is not None:
                raise ArgumentError(f"line {number}: a turn after a resignation (---)")
            turn += 1
            words = (m.group(2) or "").split()
            if not 1 <= len(words) <= 2:
                raise ArgumentError(f"line {number}: a turn holds one move or two, not {len(words)}")
            last_turn_plies = []
            for word in words:
                if result is not None:
                    raise ArgumentError(f"line {number}: a move after a resignation (---)")
                mover = "attackers" if (side == "a") == (len(moves) % 2 == 0) else "defenders"
                if word == "---":
                    result = {"how": "resign", "by": mover}
                    last_turn_plies.append(0)
                    continue
                move = otn.read_move(word)
                if move is None or not re.fullmatch(r"[KT]?[a-g][1-7]-[a-g][1-7](x[KT]?[a-g][1-7]"
                                                    r"(/[KT]?[a-g][1-7])*)?(\+\+|--|\+|-)?", word):
                    raise ArgumentError(f"line {number}: {quote(word, 30)} is not a move in OpenTafl's "
                                        "notation (d1-e1, Kd4-d2, d5-d3xKe3, with + - ++ -- after it)")
                moves.append(move)
                move_lines.append(number)
                last_turn_plies.append(len(moves))
                taken = word.partition("x")[2].rstrip("+-")
                captures[len(moves)] = tuple(sorted(square.lstrip("T") for square in taken.split("/") if square))
            if len(words) == 1:
                short_turn = number
            continue
        m = _NOTE_LINE.fullmatch(line)
        if m is not None and after_turn:
            after_turn = False
            if in_variation:
                continue
            for ply, part in zip(last_turn_plies, m.group(1).split("|", 1)):
                mark, note = _note(part)
                if ply and mark:
                    marks[ply] = mark
                if ply and note:
                    comments[ply] = comment_text(note) or ""
            continue
        if in_variation:
            continue
        if turn:
            raise ArgumentError(f"line {number}: {quote(line, 40)} is neither a turn (1. d1-e1 c4-c1) nor the "
                                "comments on one ([first|second])")
        raise ArgumentError(f"line {number}: {quote(line, 40)} is not a tag of an OpenTafl record "
                            "([name:value])")
    variant, start = _otn_start(tags, tag_lines, first_line)
    if "start-comment" in tags and tags["start-comment"].strip():
        comments[0] = comment_text(tags["start-comment"]) or ""
    kept = {k: v for k, v in tags.items() if k not in ("rules", "position", "start-comment")}
    return GameText(variant, start, tuple(moves), result, "", kept, marks, comments, 1,
                    first_line or 1, tuple(move_lines), "otn", captures)


def _otn_start(tags: dict[str, str], tag_lines: dict[str, int], fallback: int) -> tuple[str, str]:
    """The rules (a variant string) and the start (a position string) of
    an OTN record's tags; the rules tag left out is OpenTafl's Brandub."""
    rules = tags.get("rules", OPENTAFL_RULES)
    try:
        record = otn.RulesRecord.read(rules)
    except BrandubhError as error:
        raise ArgumentError(f"line {tag_lines.get('rules', fallback)} (the rules tag): {error}") from None
    start = record.start
    if "position" in tags:
        side = "attackers" if start.endswith(" a") else "defenders"
        try:
            start = otn.read_position_record(tags["position"], side)
        except BrandubhError as error:
            raise ArgumentError(f"line {tag_lines['position']} (the position tag): {error}") from None
    return record.variant.as_string(), start
