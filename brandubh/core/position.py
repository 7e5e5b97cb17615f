"""One position, in the numbers the compiled engine uses.

Squares are numbers ``rank * 7 + file`` (a1 = 0, d4 = 24, g7 = 48) and moves
are numbers ``from * 64 + to``; :func:`square`, :func:`move` and
:func:`move_text` go between them and their names. Every method checks its
arguments before the C engine sees them.

>>> p = Position()
>>> len(p.moves())
40
>>> report = p.do_move(move('d2', 'c2'))
>>> report.captures, p.side
((), 'defenders')
>>> p.at('d4'), p.count('attacker')
('king', 8)

:class:`Position` was called ``Engine`` before 0.2.0: that name still
works for one release, with a DeprecationWarning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import EnumMeta, IntEnum
from typing import TYPE_CHECKING, Any, Type, TypeVar, Union

from .. import notation
from .._engine import ffi, lib
from ..snapshot import Snapshot, of_position
from ..deprecation import renamed
from ..errors import ArgumentError, EngineError, MoveError, PositionError, SquareError, quote
from ..variant import MAX_PLY_CAP, Variant, VariantLike, as_variant

# -- the engine's constants ------------------------------------------------


def c_constants(tag: str, prefix: str = "") -> dict[str, int]:
    """The constants of the C enum ``enum <tag>`` of csrc/brandubh.h, in the
    order of their values, by their C names with ``BD_`` dropped and then
    ``prefix`` where a name has it; every value is read from the compiled
    engine. A constant added to the enum in C is here with no edit.

    >>> c_constants('bd_side')
    {'ATTACKERS': 0, 'DEFENDERS': 1}
    >>> list(c_constants('bd_outcome', 'BY_'))[:3]
    ['ONGOING', 'CORNER', 'CAPTURE']
    """
    declared = ffi.typeof(f"enum {tag}").relements
    found = {}
    for c_name in sorted(declared, key=declared.__getitem__):
        name = c_name[3:] if c_name.startswith("BD_") else c_name
        found[name[len(prefix):] if prefix and name.startswith(prefix) else name] = getattr(lib, c_name)
    return found


if TYPE_CHECKING:
    _E = TypeVar("_E")

    class _FromEngine(EnumMeta):
        """What a type checker knows of an enum made from the engine's
        constants: its members are known only once the engine is loaded, so
        any member name is taken, as a member."""

        def __getattr__(cls: Type[_E], name: str) -> _E: ...

    class Why(IntEnum, metaclass=_FromEngine):
        """Why a move is refused; ``OK`` (0) when it is not."""
else:
    Why = IntEnum("Why", c_constants("bd_why", "WHY_"), module=__name__, qualname="Why")
    Why.__doc__ = """Why a move is refused; ``OK`` (0) when it is not: ``enum bd_why`` of
    csrc/brandubh.h, read from the engine.

    >>> Why.OK, Why(lib.BD_WHY_BLOCKED).name
    (<Why.OK: 0>, 'BLOCKED')
    """

SETUP = notation.SETUP
#: The sides by number: :data:`brandubh.notation.SIDES`, which is the
#: engine's ``enum bd_side`` order (checked below).
SIDES = notation.SIDES
#: The two sides' names, as :attr:`Rules.side <brandubh.Rules.side>` and
#: :attr:`Rules.winner <brandubh.Rules.winner>` give them.
ATTACKERS, DEFENDERS = SIDES
#: What stands on a square, by number (``enum bd_piece``): ``''`` for none.
PIECES = tuple("" if name == "EMPTY" else name.lower() for name in c_constants("bd_piece"))
SQUARES = lib.BD_SQUARES
THRONE = notation.THRONE
CORNERS = notation.CORNERS

# The vocabulary is written once, in brandubh.notation and brandubh.variant
# (pure Python, loaded without the engine); the engine numbers the same
# things, and must agree with them.
if (tuple(name.lower() for name in c_constants("bd_side")) != SIDES or SQUARES != len(notation.SQUARE_NAMES)
        or THRONE != lib.BD_THRONE or sum(1 << sq for sq in CORNERS) != lib.BD_CORNERS
        or set(PIECES) - {""} != set(notation.PIECES.values()) or MAX_PLY_CAP != lib.BD_MAX_PLY_CAP):  # pragma: no cover
    raise EngineError("the compiled engine and brandubh.notation disagree on the board: rebuild the engine")
#: The length of every array of moves the engine fills.
MAX_MOVES = lib.BD_MAX_MOVES

# The numbers of the variant's choice fields, by the Python value: "four_two"
# is BD_KING_FOUR_TWO.
_CHOICE_ENUMS = {
    "escape": ("bd_escape", "ESCAPE_"),
    "king_capture": ("bd_king_capture", "KING_"),
    "no_move": ("bd_end", "END_"),
    "repetition": ("bd_end", "END_"),
}
CHOICES = {field: {name.lower(): value for name, value in c_constants(*enum).items()}
           for field, enum in _CHOICE_ENUMS.items()}

Square = Union[int, str]
MoveLike = Union[int, str]


@dataclass(frozen=True)
class MoveReport:
    """What a move did: the squares it emptied (the king's included) in
    square order, whether the king moved, reached an escape square, or was
    captured."""

    captures: tuple[int, ...]
    king_moved: bool
    king_home: bool
    king_taken: bool

    @property
    def ends(self) -> bool:
        """The move ended the game on the board (escape or capture)."""
        return self.king_home or self.king_taken

    @property
    def capture_names(self) -> tuple[str, ...]:
        return tuple(square_name(s) for s in self.captures)

    def shown(self, move: str) -> str:
        """``move`` (stored, ``c5c4``), the move this report is of, as it is
        shown with what it did: ``c5-c4xd4#``.

        >>> MoveReport((24,), False, False, True).shown('c5c4')
        'c5-c4xd4#'
        """
        return str(notation.move_display(move, king=self.king_moved, captures=self.capture_names,
                                         king_home=self.king_home, king_taken=self.king_taken))


# -- squares and moves ----------------------------------------------------

_NAMES = notation.SQUARE_NAMES
_INDEX = notation.SQUARE_INDEX


def square(value: Square) -> int:
    """A square's number from its number or its name (either case).

    >>> square('d4'), square(24)
    (24, 24)
    """
    if isinstance(value, str):
        sq = _INDEX.get(value.lower()) if len(value) == 2 else None
        if sq is None:
            raise SquareError(f"{quote(value)} is not a square: give a1 to g7")
        return sq
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < SQUARES:
            return value
        raise SquareError(f"square {value} is off the board: give 0 to 48")
    raise SquareError(f"a square is a name like 'd4' or a number 0-48, not {type(value).__name__}")


def square_name(sq: int) -> str:
    """The name of square number ``sq``.

    >>> square_name(0), square_name(48)
    ('a1', 'g7')
    """
    return _NAMES[square(sq)]


def move(from_square: Square, to_square: Square) -> int:
    """The number of the move between two squares.

    >>> move('d1', 'd3') == move(3, 17)
    True
    """
    return square(from_square) << 6 | square(to_square)


def move_number(m: object) -> int:
    """``m`` itself when it is a move number (``from * 64 + to``, both
    squares 0-48); MoveError when it is not.

    >>> move_number(move('d1', 'd3'))
    209
    """
    if isinstance(m, int) and not isinstance(m, bool):
        if 0 <= m < 4096 and (m >> 6) < SQUARES and (m & 63) < SQUARES:
            return m
        raise MoveError(f"{quote(m)} is not a move number: it is from * 64 + to, with both squares 0-48")
    raise MoveError(f"a move number is an int (from * 64 + to), not {type(m).__name__}")


def move_from(m: int) -> int:
    """The square a move leaves; MoveError if ``m`` is not a move number.

    >>> move_from(move('d1', 'd3'))
    3
    """
    return move_number(m) >> 6


def move_to(m: int) -> int:
    """The square a move reaches; MoveError if ``m`` is not a move number.

    >>> move_to(move('d1', 'd3'))
    17
    """
    return move_number(m) & 63


def move_text(m: int) -> str:
    """A move number as it is stored in a log: ``d1d3``; MoveError if ``m``
    is not a move number.

    >>> move_text(move('d1', 'd3'))
    'd1d3'
    """
    m = move_number(m)
    return _NAMES[m >> 6] + _NAMES[m & 63]


def parse_move(value: MoveLike) -> int:
    """A move number from a number or from a move written either way
    (``d1d3``, ``d1-d3xc3``, ``Kd4-d1``).

    >>> parse_move('Kd4-d1') == move('d4', 'd1')
    True
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return move_number(value)
    if isinstance(value, str):
        stored = notation.move_parse(value)
        if stored is None:
            raise MoveError(f"{quote(value)} is not written as a move: give d1d3 or d1-d3")
        return _INDEX[stored[:2]] << 6 | _INDEX[stored[2:]]
    raise MoveError(f"a move is a string like 'd1d3' or a move number, not {type(value).__name__}")


# -- the C side ----------------------------------------------------------


def c_variant(variant: Variant) -> Any:
    """The variant as the engine's struct, made once per Variant: each field
    by its name, a choice field's value by its C constant's name."""
    cached = variant._c
    if cached is None:
        fields = {name: CHOICES[name][value] if name in CHOICES else int(value)
                  for name, value in variant.fields().items()}
        cached = ffi.new("bd_variant *", fields)
        if lib.bd_variant_normalize(cached, variant.ply_cap) != 0:
            raise EngineError(f"the engine refused the variant {quote(variant.as_string())}")
        object.__setattr__(variant, "_c", cached)
    return cached


def new_position() -> Any:
    """An engine position of its own (the empty board), freed when dropped."""
    pos = lib.bd_pos_new()
    if pos == ffi.NULL:
        raise EngineError("out of memory for a position")
    return ffi.gc(pos, lib.bd_pos_free)


def copy_position(pos: Any) -> Any:
    """A copy of an engine position, of its own, freed when dropped."""
    copy = lib.bd_pos_copy(pos)
    if copy == ffi.NULL:
        raise EngineError("out of memory for a position")
    return ffi.gc(copy, lib.bd_pos_free)


def position_bytes(text: str) -> bytes:
    """A position string as the engine reads it; PositionError if it is not
    written as one."""
    if not isinstance(text, str):
        raise PositionError(f"a position is a string, not {type(text).__name__}")
    if not notation.position_ok(text):
        raise PositionError(
            f"{quote(text)} is not a position: seven rows of a/d/k and digits from rank 7 "
            "down, separated by '/', a space, and the side to move (a or d)"
        )
    return text.encode("ascii")


def c_position(text: str) -> Any:
    """A position string as an engine position (a ``bd_pos *`` of its own);
    PositionError if it is not one."""
    pos = new_position()
    code = lib.bd_pos_from_string(position_bytes(text), pos)
    if code != lib.BD_POS_OK:
        raise PositionError(f"{quote(text)} {_POS_REFUSALS.get(code, 'is not a position')}")
    return pos


# What bd_pos_from_string's refusals mean (enum bd_pos_code).
_POS_REFUSALS = {
    lib.BD_POS_BAD_TEXT: "is not a position",
    lib.BD_POS_TWO_KINGS: "has more than one king; the engine holds at most one",
}


def position_text(pos: Any) -> str:
    buf = ffi.new("char[]", lib.BD_POS_TEXT_MAX)
    lib.bd_pos_to_string(pos, buf)
    return ffi.string(buf).decode("ascii")


def squares_of(bb: int) -> tuple[int, ...]:
    """The squares of a bitboard, in square order."""
    return tuple(s for s in range(SQUARES) if bb >> s & 1) if bb else ()


# The flags of a bd_report (enum bd_did).
_KING_MOVED, _KING_HOME, _KING_TAKEN = lib.BD_DID_KING_MOVED, lib.BD_DID_KING_HOME, lib.BD_DID_KING_TAKEN


def report_of(r: Any) -> MoveReport:
    """A ``bd_report`` as a :class:`MoveReport`."""
    flags = r.flags
    return MoveReport(
        captures=squares_of(r.captured),
        king_moved=bool(flags & _KING_MOVED),
        king_home=bool(flags & _KING_HOME),
        king_taken=bool(flags & _KING_TAKEN),
    )


def why_not_at(variant: Variant, pos: Any, from_square: Square, to_square: Square) -> Why:
    """Why the slide is refused in the engine's position ``pos`` (a
    ``bd_pos *``), or ``Why.OK``; a square off the board is ``Why.OFF_BOARD``."""
    try:
        f, t = square(from_square), square(to_square)
    except SquareError:
        return Why.OFF_BOARD
    return Why(lib.bd_why_not(c_variant(variant), pos, f, t))


_PIECE_INDEX = {name: kind for kind, name in enumerate(PIECES) if name}


def piece_index(piece: str) -> int:
    kind = _PIECE_INDEX.get(piece) if isinstance(piece, str) else None
    if kind is not None:
        return kind
    raise ArgumentError(f"a piece is 'attacker', 'defender' or 'king', not {quote(piece)}")


def count_pieces(pos: Any, piece: str) -> int:
    return lib.bd_pos_count(pos, piece_index(piece))


class Position:
    """A position and the rule set it is played under. It plays any legal
    slide asked of it, even past the end of a game; :class:`~brandubh.Rules`
    is the class that knows when a game is over.

    >>> Position('7/7/7/3k3/7/7/a6 d').moves()[:2] == [move('d4', 'd1'), move('d4', 'd2')]
    True
    """

    __slots__ = ("_pos", "_variant")

    def __init__(self, position: str = SETUP, variant: VariantLike = None) -> None:
        self._variant = as_variant(variant)
        self._pos = c_position(position)

    @classmethod
    def from_string(cls, position: str, variant: VariantLike = None) -> "Position":
        """The same as ``Position(position, variant)``."""
        return cls(position, variant)

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other._variant = self._variant
        other._pos = copy_position(self._pos)
        return other

    def to_string(self) -> str:
        """The position as a string (the position string of docs/rules.md)."""
        return position_text(self._pos)

    def __str__(self) -> str:
        """The board as a plain ASCII diagram and the side to move
        (:func:`brandubh.views.text.diagram`); :meth:`to_string` is the position
        string.

        >>> print(str(Position()).splitlines()[-1])
        attackers to move
        """
        from ..views.text import diagram

        return diagram(self)

    def snapshot(self) -> Snapshot:
        """The board as a view draws it (:class:`~brandubh.snapshot.Snapshot`):
        a bare position, with no last move."""
        return of_position(self.to_string())

    def __repr__(self) -> str:
        return f"Position({self.to_string()!r}, {self._variant.as_string()!r})"

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def side(self) -> str:
        """``'attackers'`` or ``'defenders'``: whose move it is."""
        return SIDES[lib.bd_pos_side(self._pos)]

    def moves(self) -> list[int]:
        """The legal slides of the side to move, as move numbers."""
        buf = ffi.new("bd_move[]", MAX_MOVES)
        n = lib.bd_gen_moves(c_variant(self._variant), self._pos, buf)
        return ffi.unpack(buf, n)

    def do_move(self, m: MoveLike) -> MoveReport:
        """Play a legal slide; MoveError when it is not one here."""
        mv = parse_move(m)
        why = self.why_not(mv >> 6, mv & 63)
        if why != Why.OK:
            raise MoveError(f"{move_text(mv)} cannot be played here: {why.name.lower()}")
        return report_of(lib.bd_pos_move(c_variant(self._variant), self._pos, mv))

    def preview(self, m: MoveLike) -> tuple[int, ...]:
        """The squares a legal move would empty, without playing it;
        MoveError when it is not one here (as :meth:`do_move`).

        >>> p = Position('7/7/2aa3/3ka2/3a3/7/7 a')
        >>> [square_name(s) for s in p.preview('c5c4')]
        ['d4']
        >>> p.preview('d4d4')
        Traceback (most recent call last):
        ...
        brandubh.errors.MoveError: d4d4 cannot be played here: not_yours
        """
        mv = parse_move(m)
        why = self.why_not(mv >> 6, mv & 63)
        if why != Why.OK:
            raise MoveError(f"{move_text(mv)} cannot be played here: {why.name.lower()}")
        return squares_of(lib.bd_pos_captures(c_variant(self._variant), self._pos, mv))

    def why_not(self, from_square: Square, to_square: Square) -> Why:
        """Why the slide cannot be played here, or ``Why.OK``. A square that
        is not on the board gives ``Why.OFF_BOARD``."""
        return why_not_at(self._variant, self._pos, from_square, to_square)

    def at(self, sq: Square) -> str:
        """``'attacker'``, ``'defender'``, ``'king'`` or ``''``."""
        return PIECES[lib.bd_piece_at(self._pos, square(sq))]

    def count(self, piece: str) -> int:
        """How many of one piece (``'attacker'``, ``'defender'``, ``'king'``)."""
        return count_pieces(self._pos, piece)

    @property
    def key_hex(self) -> str:
        """The Zobrist key of the position: 16 hex digits, the same on
        every machine for the same pieces and side to move."""
        return f"{lib.bd_pos_key(self._pos):016x}"


if TYPE_CHECKING:
    Engine = Position  # the name before 0.2.0
else:
    __getattr__ = renamed(__name__, {"Engine": "Position"})
