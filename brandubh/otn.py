"""OpenTafl's notation (OTN), as far as a 7x7 game of brandubh needs it:
position records, moves, and the rules record an OpenTafl host sends an
engine, read into a :class:`~brandubh.Variant` (and written from one).
Pure Python (the vocabulary, the variants, the errors), so that the game
itself and every reader of game texts may use it; the OpenTafl front end
(:mod:`brandubh.opentafl`) and the room of game files (:mod:`brandubh.records`,
which reads and writes OpenTafl's game records) build on it.

A *position record* lists the rows from rank 1 up, ``/`` around and between
them, a digit for a run of empty squares, ``t`` an attacker, ``T`` a
defender, ``K`` the king, and says nothing of the side to move. A position
string of this package lists rank 7 first and ends with the side to move:

>>> position_record('7/7/7/3k3/7/7/a6 d')
'/t6/7/7/3K3/7/7/7/'
>>> read_position_record('/t6/7/7/3K3/7/7/7/', 'defenders')
'7/7/7/3k3/7/7/a6 d'

A move in OpenTafl's simple notation is ``d1-b1``; the full notation adds
the piece, the captures and marks, which are read past:

>>> simple_move('d1b1'), read_move('Td1-b1xb2'), read_move('d1-b9')
('d1-b1', 'd1b1', None)

A rules record is ``key:value`` fields and the start position last.
:class:`RulesRecord` reads one into a variant, field by field, and refuses
with an :class:`OpenTaflError` naming the field what this package does not
play:

>>> RulesRecord.read(OPENTAFL_BRANDUB).variant == Variant.named('opentafl')
True
>>> RulesRecord.read('dim:9 start:/9/9/9/9/4K4/9/9/9/9/')
Traceback (most recent call last):
...
brandubh.otn.OpenTaflError: dim:9: this package plays only the 7x7 board
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from . import notation
from .errors import BrandubhError, quote
from .variant import Variant, VariantLike, as_variant

__all__ = [
    "FIELDS",
    "OPENTAFL_BRANDUB",
    "OpenTaflError",
    "RulesRecord",
    "position_record",
    "read_position_record",
    "simple_move",
    "read_move",
]

OPENTAFL_BRANDUB = ("dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: "
                    "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
"""The rules record OpenTafl sends an engine for its Brandub variant: this
package's ``opentafl`` preset."""

_SIZE = 7
_THRONE = (3, 3)  # (file, rank) of d4
_CORNERS = ((0, 0), (6, 0), (0, 6), (6, 6))

# OpenTafl's piece letters: attackers lower case, defenders upper case.
# t taflman, c commander, n knight, k king, m mercenary. This package plays
# only the first kind of each side and the defenders' king.
_ALL_PIECES = "tcnkmTCNKM"
_OUR_PIECES = {"t": "a", "T": "d", "K": "k"}
_THEIR_LETTER = {"a": "t", "d": "T", "k": "K"}
_PIECE_NAMES = {"c": "commanders", "n": "knights", "k": "an attacking king", "m": "mercenaries",
                "C": "commanders", "N": "knights", "M": "mercenaries"}

# Fields of rules OpenTafl has and this package does not play: accepted only
# when they say the rule is off.
_OFF_FIELDS = {
    "sw": "shieldwall captures", "efe": "edge forts", "linc": "Linnaean capture",
    "ber": "berserk moves", "spd": "speed limits", "kj": "the king's jumps",
    "nj": "knights' jumps", "cj": "commanders' jumps", "mj": "mercenaries' jumps",
    "gj": "jumps", "afor": "attackers' fortresses", "dfor": "defenders' fortresses",
}
_OFF_VALUES = ("", "n", "-1")

# The fields this package reads, and the default of each set of piece
# letters (a field left out of a record takes OpenTafl's default).
_SET_DEFAULTS = {
    "cenh": "tcnkm",        # the occupied throne: hostile to the attackers
    "cenhe": _ALL_PIECES,   # the empty throne: hostile to everyone
    "corh": _ALL_PIECES,    # the corners: hostile to everyone
    "cenp": _ALL_PIECES,    # anyone passes the empty throne
    "cens": "kK",           # only a king stops on the throne
    "cenre": "kK",          # ... and re-enters it
    "corp": "kK",           # only a king passes a corner
    "cors": "kK",           # ... and stops on one
    "corre": "kK",
}
_FLAGS = ("surf", "atkf")
FIELDS = frozenset({"dim", "name", "esc", "tfr", "ka", "ks", "start", "starti", *_FLAGS, *_SET_DEFAULTS,
                    *_OFF_FIELDS})
"""The fields of a rules record this package reads (any other is refused)."""

_FIELD_RE = re.compile(r"([a-z]+):(.*)", re.S)


class OpenTaflError(BrandubhError):
    """Text in OpenTafl's notation that is not well formed, or that describes
    a game this package does not play. ``field`` names the field of a rules
    record the sentence is about (None when it is about no one field)."""

    def __init__(self, message: str, field: Optional[str] = None) -> None:
        super().__init__(message)
        self.field = field


# -- positions ---------------------------------------------------------------------


def position_record(position: str) -> str:
    """The position record of a position string (the side to move is not
    part of it).

    >>> position_record('3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a')
    '/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/'
    """
    cells = notation.position_cells(position)
    if not cells:
        raise OpenTaflError(f"{quote(position)} is not a position string")
    rows, _side = cells
    out = [notation.row_text(_THEIR_LETTER[p] if p else "" for p in row)
           for row in reversed(rows)]  # rank 1 first
    return "/" + "/".join(out) + "/"


def _record_rows(record: str, field: str) -> list[list[str]]:
    """The rows of a position record (rank 1 first), each seven letters of
    OpenTafl's (``''`` for an empty square)."""
    if not isinstance(record, str):
        raise OpenTaflError(f"{field}: a position record is a string, not {type(record).__name__}", field)
    text = record.strip()
    if not text or any(c.isspace() for c in text):
        raise OpenTaflError(f"{field}: {quote(record)} is not a position record", field)
    rows_text = text.strip("/").split("/")
    rows: list[list[str]] = []
    for number, row_text in enumerate(rows_text, 1):
        row: list[str] = []
        for run, letter in re.findall(r"([0-9]+)|(.)", row_text):
            if run:
                if len(run) > 2:  # more empty squares than any board has
                    raise OpenTaflError(f"{field}: {quote(run)} empty squares in a row: this package "
                                        "plays only the 7x7 board", field)
                row.extend([""] * int(run))
            elif letter in _OUR_PIECES:
                row.append(letter)
            elif letter in _PIECE_NAMES:
                raise OpenTaflError(f"{field}: the position has {_PIECE_NAMES[letter]} "
                                    f"({quote(letter)}), which this package does not play", field)
            else:
                raise OpenTaflError(f"{field}: {quote(letter)} in {quote(record)} is not a piece "
                                    "of OpenTafl's (t, T, K) or a count of empty squares", field)
        rows.append(row)
    if len(rows) != _SIZE or any(len(row) != _SIZE for row in rows):
        widths = sorted({len(row) for row in rows})
        raise OpenTaflError(f"{field}: the position has {len(rows)} rows of "
                            f"{'/'.join(str(w) for w in widths)} squares; this package plays only "
                            "the 7x7 board", field)
    return rows


def read_position_record(record: str, side: str, field: str = "position") -> str:
    """The position string of a position record, with ``side``
    (``'attackers'`` or ``'defenders'``) to move; OpenTaflError when the
    record is not one of a 7x7 board with attackers, defenders and at most
    one king. ``field`` is the name the error gives the record."""
    if side not in ("attackers", "defenders"):
        raise OpenTaflError(f"the side to move is attackers or defenders, not {quote(side)}")
    rows = _record_rows(record, field)
    kings = sum(row.count("K") for row in rows)
    if kings > 1:
        raise OpenTaflError(f"{field}: the position has {kings} kings; this package plays one", field)
    lines = [notation.row_text(_OUR_PIECES[c] if c else "" for c in row)
             for row in reversed(rows)]  # rank 7 first
    return "/".join(lines) + " " + side[0]


def _soldier_on_special_square(position: str) -> Optional[str]:
    """The square of a soldier on the throne or a corner, or None."""
    cells = notation.position_cells(position)
    assert cells
    rows, _ = cells
    for file, rank in (_THRONE, *_CORNERS):
        if rows[_SIZE - 1 - rank][file] in ("a", "d"):
            return str(notation.square_name(file, rank))
    return None


def _king_on_throne(position: str) -> bool:
    cells = notation.position_cells(position)
    assert cells
    rows, _ = cells
    return rows[_SIZE - 1 - _THRONE[1]][_THRONE[0]] == "k"


# -- moves -------------------------------------------------------------------------


def simple_move(move: str) -> str:
    """A stored move (``'d1b1'``) in OpenTafl's simple notation, ``'d1-b1'``."""
    if not notation.move_split(move):
        raise OpenTaflError(f"{quote(move)} is not a stored move like d1b1")
    return f"{move[:2]}-{move[2:]}"


def read_move(text: str) -> Optional[str]:
    """The stored form of a move written in OpenTafl's simple or full
    notation (``d1-b1``, ``Td1-b1xb2``, ``Kd4-d1++``, ``d2-d3xKe3``,
    ``e4-e5-``), or None when it does not start with one. Captures and info
    marks (``+ - ++ --``) after the second square are read past: the board
    decides what a move takes.

    >>> read_move('Kd4-d1'), read_move('d4d1'), read_move('d2-d3xKe3+'), read_move('move')
    ('d4d1', 'd4d1', 'd2d3', None)
    """
    if not isinstance(text, str):
        raise OpenTaflError(f"a move is a string, not {type(text).__name__}")
    m = notation.OPENTAFL_MOVE.match(text.strip())
    if m is None:
        return None
    rest = text.strip()[m.end():]
    if rest and rest[0] not in "x+-#/":
        return None
    return m.group(1) + m.group(2)


# -- the rules record ----------------------------------------------------------------


def _fields(text: str) -> dict[str, str]:
    """``key:value`` fields; a word that is not a field continues the value
    before it (a name may hold spaces)."""
    fields: dict[str, str] = {}
    last: Optional[str] = None
    for word in text.split():
        m = _FIELD_RE.fullmatch(word)
        if m is None:
            if last is None:
                raise OpenTaflError(f"{quote(word)} is not a key:value field of a rules record")
            fields[last] += " " + word
            continue
        key, value = m.group(1), m.group(2)
        if key in fields:
            raise OpenTaflError(f"{key}: the field is given twice", key)
        fields[key] = value
        last = key
    return fields


def _flag(fields: dict[str, str], key: str, default: bool) -> bool:
    value = fields.get(key)
    if value is None:
        return default
    if value not in ("y", "n"):
        raise OpenTaflError(f"{key}:{value}: the field is y or n", key)
    return value == "y"


def _pieces(fields: dict[str, str], key: str) -> set[str]:
    value = fields.get(key, _SET_DEFAULTS[key])
    bad = [c for c in value if c not in _ALL_PIECES]
    if bad:
        raise OpenTaflError(f"{key}:{value}: {quote(bad[0])} is not a piece letter of OpenTafl's "
                            f"({_ALL_PIECES})", key)
    return set(value)


@dataclass(frozen=True)
class RulesRecord:
    """A rules record: the ``variant`` it describes, the ``start`` position
    (a position string, the side to move included), the record's ``name``
    and its ``text``.

    :meth:`read` takes a record from OpenTafl; :meth:`of` writes one for a
    variant and a start.

    >>> r = RulesRecord.of('brandubh', '7/7/7/3k3/7/7/1a5 d')
    >>> r.text
    'dim:7 name:Brandubh esc:c surf:n atkf:n tfr:d ka:y ks:c cenh: cenhe:tTK cenre: start:/1t5/7/7/3K3/7/7/7/'
    >>> back = RulesRecord.read(r.text, base='brandubh')
    >>> back.variant == Variant.named('brandubh'), back.start == r.start
    (True, True)
    """

    variant: Variant
    start: str
    name: str
    text: str

    @classmethod
    def read(cls, text: str, base: VariantLike = "opentafl") -> "RulesRecord":
        """The record ``text`` (without the ``rules`` command before it)
        read field by field; what a record cannot say (the ending of a side
        with no move, the caps, whether the start counts towards a
        repetition) comes from ``base``, the ``opentafl`` preset unless told
        otherwise. OpenTaflError, naming the field, for what this package
        does not play."""
        base_variant = as_variant(base)
        if not isinstance(text, str):
            raise OpenTaflError(f"a rules record is a string, not {type(text).__name__}")
        fields = _fields(text)
        for key in fields:
            if key not in FIELDS:
                raise OpenTaflError(f"{key}: the field is not one this engine knows, so it cannot "
                                    "tell whether it plays those rules", key)
        for key, what in _OFF_FIELDS.items():
            value = fields.get(key)
            if value is not None and value not in _OFF_VALUES:
                raise OpenTaflError(f"{key}:{value}: this package does not play {what}", key)

        dim = fields.get("dim", str(_SIZE))
        if dim != str(_SIZE):
            raise OpenTaflError(f"dim:{dim}: this package plays only the 7x7 board", "dim")

        escape = fields.get("esc", "c")
        if escape not in ("c", "e"):
            raise OpenTaflError(f"esc:{escape}: the king escapes to the corners (c) or the edge (e)", "esc")

        repetition = fields.get("tfr", "d")
        if repetition == "w":
            raise OpenTaflError("tfr:w: a repetition won by the side that makes it has no equivalent "
                                "here (a repetition is a draw or a loss for that side)", "tfr")
        if repetition == "i":
            raise OpenTaflError("tfr:i: this package always ends a game on the third occurrence of "
                                "a position, and cannot ignore repetition", "tfr")
        if repetition not in ("d", "l"):
            raise OpenTaflError(f"tfr:{repetition}: threefold repetition is d, i, w or l", "tfr")

        armed = fields.get("ka", "y")
        if armed in ("a", "h"):
            raise OpenTaflError(f"ka:{armed}: a king who only {'helps to capture' if armed == 'a' else 'captures'}"
                                " has no equivalent here (the king is armed or not)", "ka")
        if armed not in ("y", "n"):
            raise OpenTaflError(f"ka:{armed}: the king is armed (y), unarmed (n), anvil (a) or hammer (h)", "ka")
        king_armed = armed == "y"

        strength = {"y": "s", "n": "w"}.get(fields.get("ks", "s"), fields.get("ks", "s"))
        if strength == "m":
            raise OpenTaflError("ks:m: a strong king who can be taken against the edge has no "
                                "equivalent here", "ks")
        if strength not in ("s", "w", "c"):
            raise OpenTaflError(f"ks:{fields['ks']}: the king's strength is s, w, c or m", "ks")

        sets = {key: _pieces(fields, key) for key in _SET_DEFAULTS}

        # The empty throne: hostile to the soldiers of both sides, or of neither.
        soldiers = sets["cenhe"] & {"t", "T"}
        if len(soldiers) == 1:
            side = "attackers" if "t" in soldiers else "defenders"
            raise OpenTaflError(f"cenhe:{fields.get('cenhe')}: an empty throne hostile to the {side} only "
                                "has no equivalent here (it is hostile to both sides or to neither)", "cenhe")
        throne_hostile = bool(soldiers)
        king_by_throne = "K" in sets["cenhe"]
        if strength == "w":
            king_capture = "two"
            if king_by_throne != throne_hostile:
                raise OpenTaflError(f"cenhe:{fields.get('cenhe', _ALL_PIECES)}: with a weak king the empty "
                                    "throne is hostile to the king exactly when it is hostile to the "
                                    "soldiers here", "cenhe")
        else:
            king_capture = "four" if strength == "s" else "nielsen"
            if not king_by_throne:
                raise OpenTaflError(f"cenhe:{fields.get('cenhe')}: a {'strong' if strength == 's' else 'throne-strong'}"
                                    " king whom the empty throne does not help to surround has no "
                                    "equivalent here", "cenhe")

        # The corners are hostile to every soldier, and to the king where he
        # can be taken against one.
        lacking = {"t", "T"} - sets["corh"]
        if strength != "s":
            lacking |= {"K"} - sets["corh"]
        if lacking:
            raise OpenTaflError(f"corh:{fields.get('corh')}: corners not hostile to "
                                f"{', '.join(sorted(lacking))} have no equivalent here "
                                "(an empty corner is hostile to everyone)", "corh")

        # The occupied throne: only the king stands there, and he is a piece.
        if "T" in sets["cenh"]:
            raise OpenTaflError(f"cenh:{fields.get('cenh')}: a throne that the king stands on, hostile "
                                "to his own defenders, has no equivalent here", "cenh")
        if not king_armed and "t" in sets["cenh"]:
            raise OpenTaflError(f"cenh:{fields.get('cenh', _SET_DEFAULTS['cenh'])}: an unarmed king "
                                "whose throne is hostile to the attackers has no equivalent here "
                                "(an unarmed king is hostile to nobody); give cenh: with no t", "cenh")

        passing = sets["cenp"] & {"t", "T", "K"}
        if passing not in (set(), {"t", "T", "K"}):
            raise OpenTaflError(f"cenp:{fields.get('cenp')}: a throne that some pieces pass and others "
                                "do not has no equivalent here (all pass, or none)", "cenp")
        for key, where in (("cens", "the throne"), ("cors", "a corner")):
            if sets[key] & {"t", "T"}:
                raise OpenTaflError(f"{key}:{fields.get(key)}: only the king may stop on {where} here", key)
        if "K" not in sets["cors"]:
            raise OpenTaflError(f"cors:{fields.get('cors')}: a king who may not stop on a corner has "
                                "no equivalent here", "cors")

        # The start, and the side that moves first.
        if "start" in fields and "starti" in fields:
            raise OpenTaflError("starti: the record gives both start and starti", "starti")
        if "start" not in fields and "starti" not in fields:
            raise OpenTaflError("start: the record has no start position", "start")
        start_key = "start" if "start" in fields else "starti"
        record = fields[start_key]
        if start_key == "starti":
            record = "/" + "/".join(reversed(record.strip("/").split("/"))) + "/"
        side = "attackers" if _flag(fields, "atkf", True) else "defenders"
        start = read_position_record(record, side, start_key)
        square = _soldier_on_special_square(start)
        if square is not None:
            raise OpenTaflError(f"{start_key}: the position puts a soldier on {square}, where OpenTafl's "
                                "hostility rules and this package's part ways", start_key)

        # The king may stop on the throne (cens) and come back to it (cenre).
        if "K" not in sets["cens"]:
            reentry = False
        elif "K" in sets["cenre"]:
            reentry = True
        elif _king_on_throne(start):
            reentry = False  # he may only stay where he starts: he never comes back
        else:
            raise OpenTaflError(f"cenre:{fields.get('cenre')}: a king who may go to the throne once and "
                                "never come back has no equivalent here", "cenre")

        variant = base_variant.replace(
            escape="corner" if escape == "c" else "edge",
            throne_pass=bool(passing), throne_reentry=reentry, throne_hostile=throne_hostile,
            king_armed=king_armed, king_capture=king_capture,
            encirclement=_flag(fields, "surf", True),
            repetition="draw" if repetition == "d" else "loss", repeat=3)
        return cls(variant, start, fields.get("name", ""), text.strip())

    @classmethod
    def of(cls, variant: VariantLike, start: str = notation.SETUP) -> "RulesRecord":
        """The record of a variant and a start position (a position
        string). It carries what a record can say; the rest of the variant
        (the ending of a side with no move, the caps, whether the start
        counts towards a repetition) is the host's to judge. OpenTaflError
        for a variant a record cannot describe: ``king_capture = four_two``
        and a ``repeat`` other than 3."""
        v = as_variant(variant)
        if v.king_capture == "four_two":
            raise OpenTaflError("king_capture four_two (four on the throne, two elsewhere, the throne "
                                "never helping) has no king strength in an OpenTafl rules record", "ks")
        if v.repeat != 3:
            raise OpenTaflError(f"repeat {v.repeat}: an OpenTafl rules record knows only threefold "
                                "repetition", "tfr")
        if not notation.position_ok(start):
            raise OpenTaflError(f"{quote(start)} is not a position string")
        square = _soldier_on_special_square(start)
        if square is not None:
            raise OpenTaflError(f"start: the position puts a soldier on {square}, which an OpenTafl "
                                "record cannot give with this package's rules", "start")
        ks = {"two": "w", "nielsen": "c", "four": "s"}[v.king_capture]
        cenhe = ("tT" if v.throne_hostile else "") + ("K" if v.throne_hostile or ks != "w" else "")
        words = [
            f"dim:{_SIZE}", "name:Brandubh", f"esc:{v.escape[0]}", f"surf:{'y' if v.encirclement else 'n'}",
            f"atkf:{'y' if start.endswith(' a') else 'n'}", f"tfr:{'d' if v.repetition == 'draw' else 'l'}",
            f"ka:{'y' if v.king_armed else 'n'}", f"ks:{ks}", "cenh:", f"cenhe:{cenhe}",
        ]
        if not v.throne_pass:
            words.append("cenp:")
        if not v.throne_reentry:
            words += ["cenre:"] if _king_on_throne(start) else ["cens:", "cenre:"]
        words.append(f"start:{position_record(start)}")
        return cls(v, start, "Brandubh", " ".join(words))
