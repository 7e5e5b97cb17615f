"""A whole game of brandubh, as a person or a program plays it.

``Game::Brandubh`` (the Perl distribution whose documentation this package
follows) in Python, over :class:`brandubh.core.rules.Rules`.
A :class:`Game` knows the two seats (``'p1'`` and ``'p2'``) and which side
each has, whose move it is, which moves are legal and what each would do,
why a move was refused, and when and how the game ended. It keeps a log the
game can be played again from, and writes itself as the game text of
Game::Brandubh's notation (docs/rules.md).

A refusal is returned, never raised: :meth:`Game.play`, :meth:`Game.resign`
and the three draw methods give ``None``, or a :class:`Refusal` saying what
was wrong, and then nothing has changed. (The values a game hands out live
beside it: the refusals in :mod:`brandubh.refusals`, the move types and the
ending in :mod:`brandubh.moves`; the game writes the refusals' sentences,
since it knows the board.) A bad *construction* raises a
:class:`~brandubh.errors.BrandubhError` (a ``ValueError``): a refused move is
an ordinary thing for a player to do, a seat called ``'p3'`` in ``Game()`` is
a mistake in the program.

>>> game = Game()
>>> game.turn, game.side_to_move
('p1', 'attackers')
>>> print(game.play('d1d4'))
d1 to d4: the attacker on d1 is blocked by the piece on d2
>>> game.play('d2c2') is None
True
>>> game.shown, game.turn
(['d2-c2'], 'p2')
"""

from __future__ import annotations

import threading
import types
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Optional, Union

from . import notation
from .core.endgame import EndgameTables, Probe, rules_key
from .core.position import Why, move_text
from .core.rules import Rules, outcome_name
from .core.search import SearchResult, salt_bytes, salt_seed
from .core.weights import WeightsLike
from .errors import ArgumentError, BrandubhError, MoveError, quote
from .moves import LegalMove, Move, Played, Result
from .records.read import GameText, read_text_game
from .records.text import game_string
from .refusals import Refusal, RefusalCode, Refused
from .review import REVIEW_BUDGET, Review, analyse_game
from .notation import FAULTS, SETUP, THRONE
from .snapshot import Snapshot, of_position
from .variant import Variant, VariantLike
from .words import plural


__all__ = [
    "Game",
    "LegalMove",
    "Played",
    "Refusal",
    "RefusalCode",
    "Refused",
    "Replay",
    "Result",
    "SEATS",
    "SIDES",
    "FAULTS",
]

SEATS = notation.SEATS
"""The two seats at the table. ``p1`` has the attackers unless told otherwise."""

SIDES = notation.SIDES
"""The two sides: ``'attackers'`` and ``'defenders'``."""
ATTACKERS, DEFENDERS = SIDES

SEED_BYTES = 32

_NAMES = notation.SQUARE_NAMES
_INDEX = notation.SQUARE_INDEX
_KINDS = {"": "", **notation.PIECES}


_PLAIN_MOVES: dict = {}


def _legal_move(m: int, piece: str, captured: int, wins: bool) -> "LegalMove":
    """The LegalMove of move number ``m`` by the piece written ``piece``
    (``a``, ``d`` or ``k``), emptying the bitboard ``captured``."""
    caps = _square_names(captured) if captured else ()
    move = Move(m)
    made = tuple.__new__(LegalMove, (str(move), move.from_square, move.to_square, _KINDS[piece], caps, wins))
    if not captured:
        _PLAIN_MOVES[(m, piece, wins)] = made
    return made


def _square_names(bb: int) -> tuple[str, ...]:
    """The names of the squares of a bitboard, in square order."""
    return tuple(_NAMES[sq] for sq in range(49) if bb >> sq & 1)


# -- what a replay gives -------------------------------------------------------


class Replay(NamedTuple):
    """What :meth:`Game.replay` and :meth:`Game.from_text` return: the
    ``game``, the ``refusal`` that stopped the replay (None when every move,
    and the result if one was given, went in), and how many moves were
    ``played``. It unpacks as a tuple.

    >>> game, refused, played = Game.replay(['d1c1', 'd1c1'])
    >>> played, refused.code.value, game.log
    (1, 'no_piece', ['d1c1'])
    >>> Game.replay(['d1c1']).ok
    True
    """

    game: "Game"
    refusal: Optional[Refusal]
    played: int

    @property
    def ok(self) -> bool:
        """True when nothing was refused.

        >>> Game.replay(['d1d4']).ok
        False
        """
        return self.refusal is None


# -- a method that is also a class method -------------------------------------


class _ClassOrInstance:
    """A method with one body for ``Class.name(...)`` and another for
    ``instance.name(...)``. It carries the docstring, so help() and doctest
    find it."""

    def __init__(self, on_class: Callable[..., Any], on_instance: Callable[..., Any]) -> None:
        self._on_class = on_class
        self._on_instance = on_instance
        self.__doc__ = on_class.__doc__
        self.__name__ = on_class.__name__
        self.__module__ = on_class.__module__
        self.__wrapped__ = on_class

    def __get__(self, obj: Any, objtype: Optional[type] = None) -> Callable[..., "Replay"]:
        if obj is None:
            return types.MethodType(self._on_class, objtype)
        return types.MethodType(self._on_instance, obj)


# -- the game ----------------------------------------------------------------


def _seat_ok(seat: object) -> bool:
    return isinstance(seat, str) and seat in SEATS


def _other_seat(seat: str) -> str:
    return "p2" if seat == "p1" else "p1"


def _other_side(side: str) -> str:
    return DEFENDERS if side == ATTACKERS else ATTACKERS


def _check_seed(seed: object) -> Optional[bytes]:
    if seed is None:
        return None
    if not isinstance(seed, (bytes, bytearray)):
        raise ArgumentError(f"seed must be {SEED_BYTES} bytes or None, not {type(seed).__name__}")
    if len(seed) != SEED_BYTES:
        raise ArgumentError(f"seed must be exactly {SEED_BYTES} bytes, not {len(seed)}")
    return bytes(seed)


def _move_of(move: object) -> Optional[Move]:
    """The Move a player's move is (a Move, a LegalMove, text in either
    written form), or None for what is not written as one."""
    if isinstance(move, Move):
        return move
    try:
        return Move.parse(move.move if isinstance(move, LegalMove) else move)  # type: ignore[arg-type]
    except MoveError:
        return None


def _check_attackers(attackers: object) -> str:
    if not _seat_ok(attackers):
        raise ArgumentError(f"attackers must be the seat 'p1' or 'p2', not {quote(attackers)}")
    return str(attackers)


MoveArg = Union[Move, str, LegalMove]


class Game:
    """A game of brandubh between two seats.

    ``Game(attackers='p1', *, variant=None, position=None, seed=None)``:

    ``attackers``
        The seat that has the attackers, and so moves first from the set-up.
    ``variant``
        The rule set: a :class:`~brandubh.Variant`, a dict of its fields, or
        the string its ``as_string()`` writes (a preset's name is one). The
        ``brandubh`` preset when left out.
    ``position``
        Where the game starts, as a position string. The set-up when left
        out. A position that is already an ending gives a game that is over
        before any move.
    ``seed``
        Exactly 32 bytes, or None. The rules never read it; it is held for
        whoever plays this game against a program, and is handed back by
        :attr:`seed` only once the game is finished.

    Raises a :class:`~brandubh.errors.BrandubhError` (a ``ValueError``)
    when an argument is not what it should be.

    >>> game = Game(attackers='p2', variant={'repeat': 2},
    ...             position='7/7/7/3k3/7/7/a6 d', seed=bytes(32))
    >>> game.turn, game.side_of('p1'), game.seat_of('attackers')
    ('p1', 'defenders', 'p2')
    >>> game.variant.as_string()
    'brandubh repeat=2'
    >>> Game(attackers='p3')
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: attackers must be the seat 'p1' or 'p2', not 'p3'
    """

    __slots__ = ("_attackers", "_rules", "_seed", "_ending", "_offer", "_legal", "_snap", "_played", "_start", "_lock",
                 "_endgame")

    def __init__(
        self,
        attackers: str = "p1",
        *,
        variant: VariantLike = None,
        position: Optional[str] = None,
        seed: Optional[bytes] = None,
    ) -> None:
        self._attackers = _check_attackers(attackers)
        self._seed = _check_seed(seed)
        self._rules = Rules(SETUP if position is None else position, variant)
        self._start = self._rules.start   # as the engine wrote it; it never changes
        self._ending: Optional[Result] = None  # a resignation or an agreed draw
        self._offer: Optional[str] = None
        self._legal: Optional[tuple[LegalMove, ...]] = None
        # What views draw, kept until the game changes (_changed).
        self._snap: Optional[Snapshot] = None
        # Each move made, as it was played: Game.shown, Game.last_played.
        self._played: list[Played] = []
        # Every change, and every answer that reads more than one thing, is
        # one step under this lock: two threads may share a game (a bot
        # choosing while a person plays), and a move checked by one must not
        # be played over by the other before it is made.
        self._lock = threading.RLock()
        # Endgame tables the game's searches use (Game.endgame).
        self._endgame: Optional[EndgameTables] = None

    def __repr__(self) -> str:
        return (f"<Game {self.status} ply={self.ply} attackers={self._attackers} "
                f"variant={self.variant.as_string()!r} position={self.position!r}>")

    # -- pictures -----------------------------------------------------------

    def __str__(self) -> str:
        """The board as a plain ASCII diagram, with whose move it is and the
        last move (:func:`brandubh.views.text.diagram`); ``repr()`` is the one-line
        summary.

        >>> print(str(Game().play_or_raise('d2c2')).splitlines()[-5])
        2 | .  . [A][.] .  .  . | 2
        """
        from .views.text import diagram

        return diagram(self)

    def diagram(self, *, unicode: bool = False, lastmove: Any = None, flipped: bool = False,
                colour: bool = False) -> str:
        """The board as text, as :func:`brandubh.views.text.diagram` draws it:
        ``unicode=True`` for discs and box lines instead of ASCII,
        ``colour=True`` for a terminal's colours, ``flipped=True`` for the
        board seen from the other side, ``lastmove=False`` to leave the last
        move unmarked.

        >>> print(Game().diagram(unicode=True).splitlines()[5])
        4 │ ●  ●  ○  ♔  ○  ●  ● │ 4
        """
        from .views.text import diagram

        return diagram(self, unicode=unicode, lastmove=lastmove, flipped=flipped, colour=colour)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (:func:`brandubh.views.svg.board`), which a
        Jupyter notebook shows by itself for a game left at the end of a cell.

        >>> Game()._repr_svg_().startswith('<svg')
        True
        """
        from .views.svg import board

        return board(self)

    # -- seats and sides ---------------------------------------------------

    @property
    def attackers(self) -> str:
        """The seat that has the attackers.

        >>> Game('p2').attackers
        'p2'
        """
        return self._attackers

    @property
    def variant(self) -> Variant:
        """The rule set, a :class:`~brandubh.Variant`.

        >>> Game(variant='codingame').variant.ply_cap
        200
        """
        return self._rules.variant

    @property
    def start(self) -> str:
        """The position the game started from.

        >>> Game().start == SETUP
        True
        """
        return self._start

    def side_of(self, seat: object) -> Optional[str]:
        """The side a seat has, or None for something that is not a seat.

        >>> game = Game()
        >>> game.side_of('p1'), game.side_of('p2'), game.side_of('p3')
        ('attackers', 'defenders', None)
        """
        if not _seat_ok(seat):
            return None
        return ATTACKERS if seat == self._attackers else DEFENDERS

    def seat_of(self, side: object) -> Optional[str]:
        """The seat a side belongs to, or None for something that is not a side.

        >>> Game('p2').seat_of('defenders'), Game().seat_of('kings')
        ('p1', None)
        """
        if not isinstance(side, str) or side not in SIDES:
            return None
        return self._attackers if side == ATTACKERS else _other_seat(self._attackers)

    # -- how it stands -----------------------------------------------------

    @property
    def status(self) -> str:
        """``'active'``, or ``'finished'`` once the game has ended.

        >>> game = Game()
        >>> game.status
        'active'
        >>> _ = game.resign('p2'); game.status
        'finished'
        """
        return "finished" if self._over() else "active"

    def _over(self) -> bool:
        return self._ending is not None or self._rules.is_over()

    @property
    def turn(self) -> Optional[str]:
        """The seat whose move it is, or None when the game is finished.

        >>> game = Game(position='7/7/7/3k3/7/7/a6 d')
        >>> game.turn
        'p2'
        """
        side = self.side_to_move
        return None if side is None else self.seat_of(side)

    @property
    def side_to_move(self) -> Optional[str]:
        """``'attackers'`` or ``'defenders'``, or None when the game is finished.

        >>> Game().side_to_move
        'attackers'
        """
        return None if self._over() else self._rules.side

    @property
    def result(self) -> Optional[Result]:
        """How the game ended, a :class:`Result`; None while it is active.

        >>> game = Game.from_text('variant brandubh\\nstart 7/7/7/3k3/7/7/a6 d\\n'
        ...                       'moves d4d1 a1a2 d1g1\\n').game
        >>> game.result
        Result(how='corner', winner='p2', side='defenders')
        """
        if self._ending is not None:
            return self._ending
        rules = self._rules
        if not rules.is_over():
            return None
        side = rules.winner
        return Result(str(outcome_name(rules.outcome)), self.seat_of(side), side)

    @property
    def result_sentence(self) -> Optional[str]:
        """How the game ended, as a sentence a person can read; None while it
        is active. It is the sentence a move refused after the end gives.

        >>> game = Game()
        >>> game.result_sentence is None
        True
        >>> _ = game.resign('p1'); game.result_sentence
        'the attackers resigned'
        """
        return self.describe_result()

    def describe_result(self, seats: bool = True) -> Optional[str]:
        """How the game ended, as :attr:`result_sentence` says it, or with
        ``seats=False`` without the seats' names (``p1``, ``p2``: the API's,
        which a person at a page or a terminal never chose); None while the
        game is active.

        >>> game = Game(position='7/7/7/a6/7/6k/7 d')
        >>> _ = game.play('g2g1')
        >>> game.describe_result(), game.describe_result(seats=False)
        ('the king reached a corner, the defenders (p2) won', 'the king reached a corner, the defenders won')
        """
        with self._lock:
            return self._ended_how(seats) if self._over() else None

    @property
    def how_ended(self) -> Optional[str]:
        """What ended the game, without who won or the seats' names (for a
        sentence of one's own, as the page's puzzle mode writes); None while
        it is active.

        >>> game = Game(position='7/7/7/a6/7/6k/7 d')
        >>> _ = game.play('g2g1'); game.how_ended, game.result_sentence
        ('the king reached a corner', 'the king reached a corner, the defenders (p2) won')
        """
        with self._lock:
            return self._what_ended() if self._over() else None

    @property
    def winner(self) -> Optional[str]:
        """The seat that won, or None while the game is active or when it
        was drawn.

        >>> game = Game()
        >>> game.winner
        >>> _ = game.resign('p1'); game.winner
        'p2'
        """
        result = self.result
        return None if result is None else result.winner

    @property
    def position(self) -> str:
        """The position on the board, as a position string (docs/rules.md).

        >>> Game().position
        '3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a'
        """
        return self.snapshot().position

    def snapshot(self) -> Snapshot:
        """The board as every view draws it (:class:`~brandubh.snapshot.Snapshot`):
        the position, the last move with what it took, and how the game
        stands. Kept until the game changes, so drawing it again, or reading
        :attr:`position` and :attr:`pieces`, asks the engine nothing.

        >>> game = Game().play_or_raise('d2c2')
        >>> game.snapshot().status
        'defenders (p2) to move; ply 1; last move d2-c2'
        >>> game.snapshot() is game.snapshot()
        True
        """
        with self._lock:
            snap = self._snap
            if snap is None:
                over = self._over()
                if over:
                    standing = f"game over after {plural(self.ply, 'move')}: {self._ended_how()}"
                else:
                    standing = f"{self._rules.side} ({self.turn}) to move; ply {self.ply}"
                    if self._offer:
                        standing += f"; {self._offer} offers a draw"
                last = self._played[-1] if self._played else None
                if last is None:
                    snap = of_position(self._rules.position, standing, over=over)
                else:
                    snap = of_position(self._rules.position, standing, last.move,
                                       tuple(sq for sq, _ in last.took), last.shown, over)
                self._snap = snap
            return snap

    def _changed(self) -> None:
        """Forget what was worked out of the game as it stood: its legal
        moves and its snapshot. Every change calls it, under the lock."""
        self._legal = None
        self._snap = None

    @property
    def lock(self) -> "threading.RLock":
        """The game's lock: every change and every answer that reads more
        than one thing holds it. A program that shares a game between
        threads holds it to make several steps one (a bot choosing a move
        for the position it looked at).

        >>> game = Game()
        >>> with game.lock:
        ...     found = game.search(budget=100)
        """
        return self._lock

    def after(self, ply: int) -> "Game":
        """The game as it stood after its first ``ply`` moves: this game
        itself at its own ply (a resignation or agreed draw kept), a replay
        of the moves up to there otherwise (with the same seats, rule set
        and start; not the seed). An
        :class:`~brandubh.errors.ArgumentError` for a ply it never reached.

        >>> game = Game.replay(['d1c1', 'd3c3']).game
        >>> game.after(1).log, game.after(2) is game
        (['d1c1'], True)
        >>> game.after(3)
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: ply must be from 0 to 2 (the game has 2 moves), not 3
        """
        total = self.ply
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= total:
            raise ArgumentError(f"ply must be from 0 to {total} (the game has {plural(total, 'move')}), "
                                f"not {quote(ply)}")
        if ply == total:
            return self
        return self.replay(self.log[:ply]).game

    @property
    def signature(self) -> str:
        """A key for the position on the board: 16 hexadecimal characters,
        the same for the same pieces on the same squares and the same side to
        move, on every machine.

        >>> a = Game().play_or_raise('d2c2').play_or_raise('d3d2').play_or_raise('c2c3')
        >>> b = Game().play_or_raise('d2c2').play_or_raise('d3d2').play_or_raise('c2c3')
        >>> a.signature == b.signature, len(a.signature)
        (True, 16)
        """
        return self._rules.key_hex

    @property
    def repeats(self) -> int:
        """How many times the position on the board has occurred in this
        game, this time included, as the repetition rule counts them.

        >>> game = Game()
        >>> for mv in ['d1c1', 'd3c3', 'c1d1', 'c3d3']:
        ...     _ = game.play(mv)
        >>> game.repeats
        2
        """
        return self._rules.repeats

    @property
    def ply(self) -> int:
        """How many moves have been made, both sides' counted.

        >>> Game().play_or_raise('d1c1').ply
        1
        """
        return self._rules.ply

    def at(self, name: object) -> Optional[str]:
        """What stands on a square: ``'attacker'``, ``'defender'``, ``'king'``,
        or ``''`` for an empty square; None for something that is not the
        name of a square. Either case is read.

        >>> game = Game()
        >>> game.at('d4'), game.at('D1'), game.at('a1'), game.at('h9')
        ('king', 'attacker', '', None)
        """
        sq = _INDEX.get(name.lower()) if isinstance(name, str) and len(name) == 2 else None
        if sq is None:
            return None
        return _KINDS[self.snapshot().cells[sq]]

    @property
    def pieces(self) -> dict[str, str]:
        """A new dict from the name of every occupied square, in square order
        (a1, b1, ... g7), to what stands on it.

        >>> Game(position='7/7/7/3k3/7/7/a6 d').pieces
        {'a1': 'attacker', 'd4': 'king'}
        """
        return self.snapshot().pieces

    @property
    def log(self) -> list[str]:
        """A new list of the moves made, as they are stored.

        >>> Game().play_or_raise('d1c1').play_or_raise('d3c3').log
        ['d1c1', 'd3c3']
        """
        return [move_text(m) for m in self._rules.log()]

    @property
    def shown(self) -> list[str]:
        """A new list of the moves made, as Game::Brandubh's notation shows them:
        ``d1-d3xc3``, ``Ke4-e1``, ``Kg2-g1++`` for the king reaching where he
        wins, ``c5-c4xd4#`` for the move that captured him.

        >>> game = Game(position='7/7/2aa3/3ka2/3a3/7/7 a')
        >>> game.play('c5c4') is None
        True
        >>> game.shown
        ['c5-c4xd4#']
        """
        with self._lock:
            return [played.shown for played in self._played]

    @property
    def played(self) -> list[Played]:
        """A new list of the moves made, as they were played
        (:class:`Played`: stored, shown, and what each took).

        >>> [p.took for p in Game(position='7/7/2aa3/3ka2/3a3/7/7 a').play_or_raise('c5c4').played]
        [(('d4', 'king'),)]
        """
        with self._lock:
            return list(self._played)

    @property
    def last_played(self) -> Optional[Played]:
        """The last move made, as it was played (:class:`Played`: stored,
        shown, and what it took); None before the first.

        >>> Game().play_or_raise('d2c2').last_played
        Played(move='d2c2', shown='d2-c2', took=())
        """
        with self._lock:
            return self._played[-1] if self._played else None

    @property
    def seed(self) -> Optional[bytes]:
        """The seed the game was given, once the game is finished; None
        before then, so that what a program will choose cannot be read off
        a game in progress.

        >>> game = Game(seed=bytes(range(32)))
        >>> game.seed is None
        True
        >>> _ = game.resign('p1'); game.seed == bytes(range(32))
        True
        """
        return self._seed if self._over() else None

    @property
    def draw_offered_by(self) -> Optional[str]:
        """The seat whose draw offer is waiting for an answer, or None.

        >>> game = Game()
        >>> _ = game.offer_draw('p2'); game.draw_offered_by
        'p2'
        """
        return self._offer

    # -- moves ---------------------------------------------------------------

    def legal(self) -> list[LegalMove]:
        """A new list of the moves of the side to move, as :class:`LegalMove`,
        ordered by the square left and then the square reached; empty when
        the game is finished.

        >>> moves = Game().legal()
        >>> len(moves), moves[0].move, moves[0].piece
        (40, 'd1b1', 'attacker')
        """
        with self._lock:
            if self._legal is None:
                self._legal = self._list_legal()
            return list(self._legal)

    def _list_legal(self) -> tuple[LegalMove, ...]:
        if self._over():
            return ()
        moves, captured, wins = self._rules._legal_lists()
        board = [c or "." for c in self.snapshot().cells]
        plain, make = _PLAIN_MOVES, _legal_move
        # A move that captures nothing is the same value wherever it is
        # played: those are made once and kept.
        return tuple(
            (plain.get((m, board[m >> 6], w)) or make(m, board[m >> 6], 0, w)) if not c
            else make(m, board[m >> 6], c, w)
            for m, c, w in zip(moves, captured, wins)
        )

    def shown_of(self, move: MoveArg) -> Optional[str]:
        """How a legal move would be shown once played (``d1-d3xc3``,
        ``Kg2-g1++``), without playing it; None for a move that is not legal
        here.

        >>> game = Game(position='7/7/2aa3/3ka2/3a3/7/7 a')
        >>> game.shown_of('c5c4'), game.shown_of('c5c3'), game.shown_of(Move('d4d1'))
        ('c5-c4xd4#', 'c5-c3', None)
        """
        number = _move_of(getattr(move, "move", move))
        if number is None or self._over():
            return None
        report = self._rules.preview(number)
        if report is None:
            return None
        return report.shown(str(number))

    # -- a program's move ------------------------------------------------------

    def analyse(self, budget: Optional[int] = None, *,
                on_position: Optional[Callable[[int, int], None]] = None) -> Review:
        """The game reviewed move by move (docs/review.md): every position
        searched with ``budget`` positions (a hint's, 48,000, by default),
        each move's win chance before and after, the chance it lost, its
        mark (``?!``, ``?``, ``??``), the engine's better move, and each
        side's accuracy. Deterministic; Ctrl-C stops it with
        ``KeyboardInterrupt`` (:func:`brandubh.review.review_moves` yields
        move by move, to keep what is done). ``on_position(done, total)``
        is called before each position is searched.

        >>> game = Game.from_text('variant brandubh\\nmoves d2c2 d3d2 c2b2\\n').game
        >>> review = game.analyse(budget=3_000)
        >>> [m.shown for m in review.moves], len(review.chances), review.complete
        (['d2-c2', 'd3-d2', 'c2-b2'], 4, True)
        """
        return analyse_game(self, budget=REVIEW_BUDGET if budget is None else budget, on_position=on_position)

    def search(self, budget: Optional[int] = None, salt: Union[str, bytes, None] = None,
               depth: Optional[int] = None, weights: "WeightsLike" = None, *,
               time_ms: Optional[float] = None, stop: Any = None,
               hash_mb: Optional[int] = None, threads: Optional[int] = None, seed: Optional[int] = None,
               lockstep: bool = False, _off: int = 0) -> Optional[SearchResult]:
        """The move a search of ``budget`` positions (20,000 by default; no
        limit but the clock when ``time_ms`` is given) thinks best for the
        side to move, or None when the game is finished. The game is not
        changed.

        No clock is read unless ``time_ms`` is given: the same game, budget,
        salt and ``hash_mb`` give the same move on any machine. ``salt``
        (any string or bytes, with the game's own seed when it has one)
        decides among moves the search scores alike, so two programs given
        different salts do not play the same game. The result's ``move``
        and ``pv`` are :class:`~brandubh.Move` values: each prints as it is
        stored (``d1d3``), and :meth:`play` takes it as it is.

        ``time_ms``, ``stop``, ``hash_mb``, ``threads`` and ``lockstep`` are those of
        :meth:`Rules.search <brandubh.Rules.search>`: a clock limit and a
        stop handle (neither deterministic; the best move found so far comes
        back with ``stopped=True``), the table's size in MiB, and the
        threads searching (more than one is not deterministic either,
        unless they take turns: ``lockstep``).
        ``seed``, a search seed as :meth:`Rules.search <brandubh.Rules.search>`
        takes it, is used in place of :meth:`search_seed` of the salt.

        >>> game = Game()
        >>> found = game.search(budget=5_000, salt='me')
        >>> print(found.move)
        b4b3
        >>> str(found.move) in {m.move for m in game.legal()}, found.nodes <= 5_000
        (True, True)
        >>> game.play(found.move) is None
        True
        """
        if self._over():
            return None
        if seed is None:
            seed = self.search_seed(salt)
        return self._rules.search(budget=budget, seed=seed, depth=depth, weights=weights, _off=_off,
                                  time_ms=time_ms, stop=stop, hash_mb=hash_mb, threads=threads,
                                  endgame=self._endgame, lockstep=lockstep)

    @property
    def endgame(self) -> Optional[EndgameTables]:
        """Endgame tables for the game's rules (:mod:`brandubh.endgame`), or
        None: with them the game's searches (a bot's, a hint's, a review's)
        score the positions they hold exactly, :meth:`table_value` says
        what the position comes to, and a replay keeps them. Set to None
        to take them away.

        >>> from brandubh.core.endgame import EndgameTables
        >>> game = Game(position='7/7/7/3k3/7/7/1a5 d')
        >>> game.endgame = EndgameTables('brandubh')
        >>> for attackers, defenders in [(0, 0), (0, 1), (1, 0)]:
        ...     _ = game.endgame.build(attackers, defenders)
        >>> game.table_value()
        Probe(value='win', plies=3)
        """
        return self._endgame

    @endgame.setter
    def endgame(self, tables: Optional[EndgameTables]) -> None:
        if tables is not None:
            if not isinstance(tables, EndgameTables):
                raise ArgumentError(f"endgame must be EndgameTables or None, not {type(tables).__name__}")
            if rules_key(tables.variant) != rules_key(self.variant):
                raise ArgumentError(f"the endgame tables are for {tables.variant.as_string()}, whose rules are "
                                    f"not this game's ({self.variant.as_string()})")
        self._endgame = tables

    def table_value(self) -> Optional[Probe]:
        """What the endgame tables (:attr:`endgame`) say of the position for
        the side to move: a :class:`~brandubh.core.endgame.Probe` ("win",
        "draw" or "loss", and the plies to the end with best play), or None
        (no tables, a position they do not hold, or a game that is over).

        >>> Game(position='7/7/7/3k3/7/7/1a5 d').table_value() is None   # no tables given
        True
        """
        if self._endgame is None or self._over():
            return None
        return self._endgame.probe(self.position)

    def search_seed(self, salt: Union[str, bytes, None] = None) -> int:
        """The search seed :meth:`search` uses for ``salt``: the game's own
        seed (when it has one) and the salt, hashed to a number from 0 to
        2**32-1. A bot derives its choices from it without reading the
        game's seed, which stays hidden until the game is over.

        >>> Game(seed=bytes(32)).search_seed('me') == Game(seed=bytes(32)).search_seed('me')
        True
        >>> Game(seed=bytes(32)).search_seed('me') == Game().search_seed('me')
        False
        """
        return salt_seed((self._seed or b"") + salt_bytes(salt))

    @property
    def bot(self) -> type:
        """The class that plays this game: :class:`brandubh.Bot`.

        >>> Game().bot.__name__
        'Bot'
        """
        from .bot import Bot

        return Bot

    def play(self, move: MoveArg, seat: Optional[str] = None) -> Optional[Refusal]:
        """Play a move for the side to move: a :class:`~brandubh.Move` (a
        search's, a bot's: played as it is, no text read), or a move written
        as it is stored (``d1c1``) or as it is shown (``d1-c1``, ``Kd4-d1``,
        ``d1-d3xc3``: the captures and ending are commentary and are read
        past), in either case, or a :class:`LegalMove`. When ``seat`` is
        given it must be that seat's turn.

        Returns None, or a :class:`Refusal` and nothing has changed. A move
        withdraws any draw offer.

        >>> game = Game()
        >>> game.play('d1c1') is None
        True
        >>> print(game.play('d1-c1', 'p1'))
        it is p2's move (the defenders), not p1's
        """
        with self._lock:
            return self._play(move, seat)

    def _play(self, move: MoveArg, seat: Optional[str]) -> Optional[Refusal]:
        if seat is not None and not _seat_ok(seat):
            return self._not_a_seat(seat)
        if self._over():
            return self._game_over()
        side = self._rules.side
        if seat is not None and self.side_of(seat) != side:
            turn = self.seat_of(side)
            return Refusal(RefusalCode.NOT_YOUR_TURN,
                           f"it is {turn}'s move (the {side}), not {seat}'s")
        # The one reading of the text (none for a Move), and the one call
        # into the record: played, or refused with the engine's reason.
        number = _move_of(move)
        if number is None:
            return self._not_a_move(move.move if isinstance(move, LegalMove) else move)
        code, why, report, taken = self._rules.attempt(number)
        if why != Why.OK:
            return self._why_refusal(why, number.from_square, number.to_square)
        assert report is not None
        stored = str(number)
        self._played.append(Played(stored, report.shown(stored), tuple(zip(report.capture_names, taken))))
        self._offer = None
        self._changed()
        return None

    def play_or_raise(self, move: MoveArg, seat: Optional[str] = None) -> "Game":
        """:meth:`play`, for a caller who would sooner have an exception:
        raises :class:`Refused` (a ``ValueError``) carrying the refusal, and
        returns the game, for chaining.

        >>> Game().play_or_raise('d1c1').play_or_raise('d3c3').log
        ['d1c1', 'd3c3']
        """
        refused = self.play(move, seat)
        if refused is not None:
            raise Refused(refused)
        return self

    def undo(self) -> bool:
        """Take back the last thing that happened: a resignation or an agreed
        draw when that is how the game ended, and otherwise the last move.
        Any draw offer is withdrawn. True, or False when there was nothing to
        take back (the offer is withdrawn even then).

        >>> game = Game().play_or_raise('d1c1')
        >>> _ = game.resign('p2')
        >>> game.undo(), game.status, game.ply
        (True, 'active', 1)
        >>> game.undo(), game.ply, game.undo()
        (True, 0, False)
        """
        with self._lock:
            self._offer = None
            self._changed()
            if self._ending is not None:
                self._ending = None
                return True
            if self._rules.undo():
                self._played.pop()
                return True
            return False

    # -- what players do -------------------------------------------------------

    def resign(self, seat: str) -> Optional[Refusal]:
        """The seat gives the game to the other side, whoever's move it is.
        None, or a :class:`Refusal`.

        >>> game = Game()
        >>> game.resign('p2') is None, game.result.how, game.winner
        (True, 'resign', 'p1')
        >>> game.resign('p1').code.value
        'game_over'
        """
        return self._end_by(seat, "resign")

    def forfeit(self, seat: str, fault: str) -> Optional[Refusal]:
        """The seat loses the game by a fault, whoever's move it is:
        ``fault`` is one of :data:`FAULTS`: ``'timeout'``, its time ran out
        (a person's or a program's), or a fault of the program playing it,
        ``'crash'``, ``'garbage'``, ``'illegal'``. This is how a referee ends
        a game its bot cannot go on with, and how ``brandubh host``'s clock
        ends a game; the game text keeps it as an ending of its own
        (``result timeout defenders``). None, or a :class:`Refusal`.

        >>> game = Game().play_or_raise('d1c1')
        >>> game.forfeit('p2', 'timeout') is None, game.result
        (True, Result(how='timeout', winner='p1', side='attackers'))
        >>> game.result_sentence
        'the defenders ran out of time (timeout), the attackers (p1) won'
        >>> game.as_text().splitlines()[-1]
        'result timeout defenders'
        >>> game.forfeit('p1', 'bored')
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: a fault is one of timeout, crash, garbage, illegal, not 'bored'
        """
        if fault not in FAULTS:
            raise ArgumentError(f"a fault is one of {', '.join(FAULTS)}, not {quote(fault)}")
        return self._end_by(seat, fault)

    def _end_by(self, seat: str, how: str) -> Optional[Refusal]:
        """The seat loses: it resigned, or its program failed."""
        with self._lock:
            if not _seat_ok(seat):
                return self._not_a_seat(seat)
            if self._over():
                return self._game_over()
            winner = _other_seat(seat)
            self._ending = Result(how, winner, self.side_of(winner))
            self._offer = None
            self._changed()
            return None

    def offer_draw(self, seat: str) -> Optional[Refusal]:
        """The seat offers a draw. Either seat may, at any time, when no offer
        is waiting. The offer stands until it is answered or a move is made.
        None, or a :class:`Refusal`.

        >>> game = Game()
        >>> game.offer_draw('p1') is None
        True
        >>> print(game.offer_draw('p2'))
        the attackers have offered a draw already: you may accept or decline it
        """
        with self._lock:
            return self._offer_draw(seat)

    def _offer_draw(self, seat: str) -> Optional[Refusal]:
        if not _seat_ok(seat):
            return self._not_a_seat(seat)
        if self._over():
            return self._game_over()
        # Said to the seat that asked, in a player's words (as a server
        # shows it): "you", and the other seat by its side.
        if self._offer is not None:
            if self._offer == seat:
                message = "your offer of a draw is already waiting for an answer"
            else:
                message = (f"the {self.side_of(self._offer)} have offered a draw already: "
                           "you may accept or decline it")
            return Refusal(RefusalCode.OFFER_WAITING, message)
        self._offer = seat
        self._changed()
        return None

    def accept_draw(self, seat: str) -> Optional[Refusal]:
        """The other seat accepts the waiting offer, and the game ends in an
        agreed draw. None, or a :class:`Refusal`.

        >>> game = Game()
        >>> _ = game.offer_draw('p1')
        >>> print(game.accept_draw('p1'))
        you offered the draw, so you cannot answer it: it is for the defenders to accept or decline
        >>> game.accept_draw('p2') is None, game.result
        (True, Result(how='agreed', winner=None, side=None))
        """
        with self._lock:
            refused = self._answer(seat)
            if refused is not None:
                return refused
            self._offer = None
            self._ending = Result("agreed", None, None)
            self._changed()
            return None

    def decline_draw(self, seat: str) -> Optional[Refusal]:
        """The other seat declines the waiting offer; the game goes on.
        None, or a :class:`Refusal`.

        >>> game = Game()
        >>> print(game.decline_draw('p2'))
        no draw has been offered
        >>> _ = game.offer_draw('p1')
        >>> game.decline_draw('p2') is None, game.draw_offered_by
        (True, None)
        """
        with self._lock:
            refused = self._answer(seat)
            if refused is not None:
                return refused
            self._offer = None
            self._changed()
            return None

    def _answer(self, seat: str) -> Optional[Refusal]:
        if not _seat_ok(seat):
            return self._not_a_seat(seat)
        if self._over():
            return self._game_over()
        if self._offer is None:
            return Refusal(RefusalCode.NO_OFFER, "no draw has been offered")
        if self._offer == seat:
            return Refusal(RefusalCode.OWN_OFFER,
                           "you offered the draw, so you cannot answer it: "
                           f"it is for the {self.side_of(_other_seat(seat))} to accept or decline")
        return None

    # -- the record ------------------------------------------------------------

    def as_text(self) -> str:
        """The game as text (Game::Brandubh's game text): the rule set, where it
        started when that was not the set-up, its moves, and a ``result``
        line when the players ended it by a resignation or an agreed draw,
        or one of them lost by a fault of its program (:meth:`forfeit`).

        >>> game = Game(position='7/7/7/3k3/7/7/a6 d').play_or_raise('d4d1')
        >>> _ = game.resign('p1')
        >>> print(game.as_text(), end='')
        variant brandubh
        start 7/7/7/3k3/7/7/a6 d
        moves d4d1
        result resign attackers
        """
        with self._lock:
            result: Optional[dict[str, str]] = None
            if self._ending is not None:
                if self._ending.how == "agreed":
                    result = {"how": "agreed"}
                else:  # a resignation or a fault: the side that lost by it
                    result = {"how": self._ending.how, "by": _other_side(str(self._ending.side))}
            text = game_string(variant=self.variant.as_string(), start=self.start, moves=self.log, result=result)
        assert text is not None
        return text

    @classmethod
    def from_text(
        cls,
        text: str,
        attackers: str = "p1",
        *,
        seed: Optional[bytes] = None,
        number: int = 1,
    ) -> Replay:
        """A game from its text: the text :meth:`as_text` writes, or any
        other this package reads (:func:`brandubh.records.read_texts`: an
        annotated game text, a file of several games as ``brandubh match
        --games-out`` writes it, a ``referee --save`` record, an OpenTafl
        game record); ``number`` picks a game of several (from 1). The
        seats are not part of the text and may be given after it, and so
        may a seed. Returns as :meth:`replay` does: a :class:`Replay` of the
        game, the refusal that stopped it or None, and how many moves went
        in. Raises :class:`~brandubh.errors.ArgumentError` for text that is
        not a game, naming the line and what is wrong with it, and for a
        number the text does not hold.

        >>> text = 'variant brandubh\\nmoves d1c1 d3c3\\nresult agreed\\n'
        >>> game, refused, played = Game.from_text(text, attackers='p2')
        >>> game.log, refused, played, game.result.how, game.turn
        (['d1c1', 'd3c3'], None, 2, 'agreed', None)
        >>> game.as_text() == text
        True
        >>> Game.from_text('# game 1\\nvariant brandubh\\nmoves d2c2\\n\\n# game 2\\nvariant brandubh\\nmoves\\n',
        ...                number=2).game.ply
        0
        >>> Game.from_text('[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: '
        ...                'starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\\n\\n1. d1-e1 c4-c1\\n').game.log
        ['d1e1', 'c4c1']
        >>> Game.from_text('hello')
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: line 1: 'hello' is not a line of a game text (variant, start, moves, result and tag lines)
        """
        return cls.from_game_text(read_text_game(text, number), attackers, seed=seed)

    @classmethod
    def from_game_text(cls, game_text: GameText, attackers: str = "p1", *,
                       seed: Optional[bytes] = None) -> Replay:
        """A game from one game a text holds (a
        :class:`~brandubh.records.GameText`): :meth:`replay` of its moves and
        result under its rules, and what the text says beside them checked
        against the game (:meth:`GameText.check_captures
        <brandubh.records.GameText.check_captures>`) and put in
        (:meth:`GameText.ending <brandubh.records.GameText.ending>`: an
        OpenTafl record's result tag). The variant's or the position's
        error, naming the line, for rules or a start this package cannot
        play.

        >>> from brandubh.records import GameText
        >>> Game.from_game_text(GameText('brandubh', moves=('d1c1',))).game.log
        ['d1c1']
        """
        try:
            game = cls(attackers, variant=game_text.variant, position=game_text.start, seed=seed)
        except BrandubhError as error:  # the variant's or the position's error, its line named
            raise game_text.located(error) from None
        replayed = game._feed(game_text.moves, game_text.result)
        game_text.check_captures(game._played)
        said = game_text.ending(game.result) if replayed.ok else None
        if said is not None:  # put in as a result line would be
            game._feed((), said)
        return replayed

    @classmethod
    def read(cls, text: str, attackers: str = "p1", *, seed: Optional[bytes] = None, number: int = 1) -> "Game":
        """A game from its text with every move in, as a file of games is
        read: :meth:`from_text`, but a move the rules refuse (or the result
        line) raises :class:`~brandubh.errors.ArgumentError` saying which,
        on which line, and why.

        >>> Game.read('variant brandubh\\nmoves d1c1 d3c3\\n').log
        ['d1c1', 'd3c3']
        >>> Game.read('variant brandubh\\nmoves d1c1 d1c1\\n')
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: line 2: move 2 (d1c1) is refused: d1 to c1: there is no piece on d1
        """
        return cls.read_game_text(read_text_game(text, number), attackers, seed=seed)

    @classmethod
    def read_game_text(cls, game_text: GameText, attackers: str = "p1", *,
                       seed: Optional[bytes] = None) -> "Game":
        """:meth:`from_game_text` with every move in: an
        :class:`~brandubh.errors.ArgumentError` naming the line for a move
        (or the result) the rules refuse (:meth:`GameText.refused
        <brandubh.records.GameText.refused>`).

        >>> from brandubh.records import GameText
        >>> Game.read_game_text(GameText('brandubh', moves=('d1d4',)))
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: line 1: move 1 (d1d4) is refused: d1 to d4: the attacker on d1 is blocked by the piece on d2
        """
        game, refused, played = cls.from_game_text(game_text, attackers, seed=seed)
        if refused is not None:
            raise game_text.refused(refused, played)
        return game

    def _replay_class(  # type: ignore[misc]
        cls: "type[Game]",  # noqa: N805 - bound to the class by _ClassOrInstance
        moves: Iterable[MoveArg] = (),
        *,
        result: Optional[Mapping[str, str]] = None,
        attackers: str = "p1",
        variant: VariantLike = None,
        position: Optional[str] = None,
        seed: Optional[bytes] = None,
    ) -> Replay:
        """Build a game and play moves into it.

        As a class method, ``Game.replay(moves, *, result=None, attackers='p1',
        variant=None, position=None, seed=None)`` takes what :class:`Game`
        takes. As a method, ``game.replay(moves, *, result=None)`` starts a
        new game from the same seats, rule set and start position as
        ``game`` (not its seed, which a finished replay would give away).

        ``moves`` is a list of moves in either written form; ``result``, for
        an ending the players made after the moves, is ``{'how': 'resign',
        'by': 'attackers'}`` (or ``'defenders'``, the side that resigned) or
        ``{'how': 'agreed'}``.

        Returns a :class:`Replay`: the game, None or the :class:`Refusal`
        that stopped the replay, and how many moves were played. The game
        holds the moves played before the refusal. (Game::Brandubh's "scalar
        context" form is ``Game.replay(...).game``.)

        >>> game, refused, played = Game.replay(['d1c1', 'd3c3'], attackers='p2')
        >>> refused, played, game.turn
        (None, 2, 'p2')
        >>> again = game.replay(game.log, result={'how': 'resign', 'by': 'defenders'}).game
        >>> again.log == game.log, again.winner
        (True, 'p2')
        """
        game = cls(attackers, variant=variant, position=position, seed=seed)
        return game._feed(moves, result)

    def _replay_instance(
        self,
        moves: Iterable[MoveArg] = (),
        *,
        result: Optional[Mapping[str, str]] = None,
    ) -> Replay:
        game = type(self)(self._attackers, variant=self.variant, position=self.start)
        game._endgame = self._endgame
        return game._feed(moves, result)

    _replay_class.__name__ = _replay_instance.__name__ = "replay"
    _replay_class.__qualname__ = _replay_instance.__qualname__ = "Game.replay"
    replay = _ClassOrInstance(_replay_class, _replay_instance)
    del _replay_class, _replay_instance

    def _feed(self, moves: Iterable[MoveArg], result: Optional[Mapping[str, str]]) -> Replay:
        if isinstance(moves, (str, bytes, bytearray)):
            raise ArgumentError("moves must be a list of moves, not one string")
        try:
            listed = list(moves)
        except TypeError:
            raise ArgumentError(f"moves must be a list of moves, not {type(moves).__name__}") from None
        ending = _check_result(result)
        played = 0
        for mv in listed:
            refused = self.play(mv)
            if refused is not None:
                return Replay(self, refused, played)
            played += 1
        if ending is not None:
            if ending == "agreed":
                refused = self._game_over() if self._over() else None
                if refused is None:
                    self._ending = Result("agreed", None, None)
                    self._offer = None
                    self._changed()
            else:
                assert isinstance(ending, tuple)
                how, side = ending
                refused = self._end_by(self._attackers if side == ATTACKERS
                                       else _other_seat(self._attackers), how)
            if refused is not None:
                return Replay(self, refused, played)
        return Replay(self, None, played)

    # -- refusals ----------------------------------------------------------------

    @staticmethod
    def _not_a_seat(seat: object) -> Refusal:
        return Refusal(RefusalCode.NOT_A_SEAT, f"{quote(seat)} is not a seat: the seats are p1 and p2")

    def _game_over(self) -> Refusal:
        return Refusal(RefusalCode.GAME_OVER, "the game is over: " + self._ended_how())

    def _ended_how(self, seats: bool = True) -> str:
        """What ended the game and who won (:meth:`describe_result`)."""
        result = self.result
        assert result is not None
        what = self._what_ended()
        if result.how in ("resign", "agreed"):
            return what
        if not result.winner:
            return f"{what}, a draw"
        return f"{what}, the {result.side} ({result.winner}) won" if seats else f"{what}, the {result.side} won"

    def _what_ended(self) -> str:
        """What ended the game, without who won (:attr:`how_ended`)."""
        result = self.result
        assert result is not None
        how = result.how
        rules = self._rules
        if how == "resign":
            return f"the {_other_side(str(result.side))} resigned"
        if how in FAULTS:
            loser = _other_side(str(result.side))
            if how == "timeout":
                # A person's time runs out as a program's does (brandubh
                # host's clock): the sentence must fit either.
                return f"the {loser} ran out of time ({how})"
            what = {"crash": "stopped running", "garbage": "answered something that is not a move",
                    "illegal": "played a move the rules refuse"}[how]
            return f"the {loser}' program {what} ({how})"
        if how == "agreed":
            return "the players agreed a draw"
        if how == "corner":
            where = "a corner" if self.variant.escape == "corner" else "the edge"
            return f"the king stood on {where}" if rules.ply == 0 else f"the king reached {where}"
        if how == "capture":
            return "there was no king on the board" if rules.ply == 0 else "the king was captured"
        if how == "no_pieces":
            return "the attackers had no piece left"
        if how == "repetition":
            return f"a position occurred for the {_ordinal(self.variant.repeat)} time"
        if how == "encircled":
            return "the defenders were encircled"
        if how == "no_move":
            return f"the {rules.side} had no move"
        if how == "ply_cap":
            return f"the limit of {self.variant.ply_cap} moves was reached"
        return f"{self.variant.quiet_cap} moves in a row captured nothing"

    @staticmethod
    def _not_a_move(move: object) -> Refusal:
        if isinstance(move, str):
            loose = notation.MOVE_SHAPE.fullmatch(move.strip())
            if loose:
                f, t = loose.group(1).lower(), loose.group(2).lower()
                off = [s for s in (f, t) if not notation.square_parse(s)]
                if off:
                    where = " and ".join(dict.fromkeys(off))
                    verb = "is" if len(set(off)) == 1 else "are"
                    return Refusal(RefusalCode.OFF_BOARD,
                                   f"{f} to {t}: {where} {verb} not on the board (a1 to g7)")
            return Refusal(RefusalCode.NOT_A_MOVE,
                           f"{quote(move)} is not written as a move: give it as d1d3 or d1-d3")
        return Refusal(RefusalCode.NOT_A_MOVE,
                       f"a move is written as a string like 'd1d3', not {type(move).__name__}")

    def _why_refusal(self, why: Why, f: str, t: str) -> Refusal:
        rules = self._rules
        if why == Why.GAME_OVER:
            return self._game_over()
        piece = _KINDS[self.snapshot().cells[_INDEX[f]]]
        head = f"{f} to {t}: "
        if why == Why.NO_PIECE:
            return Refusal(RefusalCode.NO_PIECE, head + f"there is no piece on {f}")
        if why == Why.NOT_YOURS:
            owner = ATTACKERS if piece == "attacker" else DEFENDERS
            return Refusal(RefusalCode.NOT_YOURS, head + f"the {piece} on {f} belongs to the "
                           f"{owner}, and it is the {rules.side}' move")
        if why == Why.SAME_SQUARE:
            return Refusal(RefusalCode.SAME_SQUARE,
                           head + f"the {piece} on {f} has to move to another square")
        if why == Why.NOT_A_LINE:
            return Refusal(RefusalCode.NOT_A_LINE, head + f"the {piece} on {f} moves along a rank "
                           f"or a file, and {t} is on neither")
        if why == Why.BLOCKED:
            return Refusal(RefusalCode.BLOCKED, head + self._blocked(piece, f, t))
        if why == Why.THRONE:
            if piece == "king":
                return Refusal(RefusalCode.THRONE, head + "the king may not return to the throne")
            return Refusal(RefusalCode.THRONE, head + "the king alone may stop on the throne")
        if why == Why.CORNER:
            return Refusal(RefusalCode.CORNER, head + "the king alone may stop on a corner")
        if why == Why.OFF_BOARD:  # pragma: no cover - notation only gives squares on the board
            return Refusal(RefusalCode.OFF_BOARD, head + "that is not on the board")
        raise AssertionError(f"no refusal for {why!r}")  # pragma: no cover

    def _blocked(self, piece: str, f: str, t: str) -> str:
        """Which square stops the slide from f to t, as the engine walks it."""
        a, b = _INDEX[f], _INDEX[t]
        cells = self.snapshot().cells
        step = (1 if b > a else -1) if a // 7 == b // 7 else (7 if b > a else -7)
        sq = a + step
        while True:
            if cells[sq]:
                return f"the {piece} on {f} is blocked by the piece on {_NAMES[sq]}"
            if sq == b:
                break
            if sq == THRONE and not self.variant.throne_pass:
                return (f"the {piece} on {f} may not cross the throne on d4: "
                        "under these rules the throne blocks every piece")
            sq += step
        return f"the {piece} on {f} is blocked"  # pragma: no cover - the engine said blocked


def _ordinal(n: int) -> str:
    small = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    return small.get(n, f"{n}th")


def _check_result(result: object) -> Union[str, tuple[str, str], None]:
    """'agreed', (how, the side that lost by it) for a resignation or a
    fault, or None; ArgumentError otherwise."""
    if result is None:
        return None
    if isinstance(result, Mapping):
        how = result.get("how")
        if how == "agreed" and set(result) == {"how"}:
            return "agreed"
        if (how in ("resign",) + FAULTS and set(result) == {"how", "by"}
                and result.get("by") in SIDES):
            return str(how), str(result["by"])
    raise ArgumentError(
        "result must be {'how': 'resign', 'by': 'attackers'} (or 'defenders'; or a fault "
        f"instead of 'resign': {', '.join(FAULTS)}) or {{'how': 'agreed'}}, not {quote(result)}"
    )
