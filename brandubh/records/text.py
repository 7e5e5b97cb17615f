"""This package's game text, as strings: a game written (:func:`game_string`)
and read back (:func:`game_parse`, :func:`annotated_game_parse`). One of the
forms of the room of game files (:mod:`brandubh.records`), which reads every
form through :mod:`brandubh.records.read`.

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

Every function is total, as those of :mod:`brandubh.notation` are: what is
not a game gives ``None``; :func:`brandubh.records.read_texts` says why, with
the line.

>>> game_parse('variant brandubh\\nmoves d1c1 d3c3\\n')['moves']
('d1c1', 'd3c3')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Iterable, Optional

from ..notation import FAULTS, SETUP, SIDES, _items, move_split, position_ok

__all__ = ["game_string", "game_parse", "annotated_game_parse", "comment_text", "MARKS"]

_KEYWORDS = ("variant", "start", "moves", "result", "tag")

MARKS = ("!!", "!?", "?!", "??", "!", "?")
"""The marks a move may carry in an annotated game text: very good, good,
interesting, dubious, a mistake, a blunder (in the order of the usual chess
sense: ``!!``, ``!``, ``!?``, ``?!``, ``?``, ``??``)."""
_MARK_RE = re.compile(r"([a-g][1-7][a-g][1-7])(!!|!\?|\?!|\?\?|!|\?)?")
_TOKEN_RE = re.compile(r"\{([^{}\n]*)\}|([^\s{}]+)|(\S)")
_TAG_RE = re.compile(r"([a-z][a-z0-9_-]*)(?:\s+(.*))?", re.DOTALL)


_BY_SIDE = ("resign",) + FAULTS


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
        if isinstance(by, str) and by in SIDES:
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
    listed = _items(moves)
    if listed is None:
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
        elif len(words) == 2 and words[0] in _BY_SIDE and words[1] in SIDES:
            result = {"how": words[0], "by": words[1]}
        else:
            return None

    return {"variant": variant, "start": start, "moves": tuple(moves), "result": result,
            "marks": marks, "comments": comments, "tags": tags}
