"""A game under a rule set: the moves made from a start, and how it ends.

``Game::Brandubh::Rules``, as its documentation describes it, in Python.
Squares and moves are the numbers :mod:`brandubh.core.position` hands out; a move
may also be given as text. How a game ends is :mod:`brandubh.core.outcomes`;
the bodies of :meth:`Rules.search` and :meth:`Rules.playouts` are
:mod:`brandubh.core.search` and :mod:`brandubh.core.playouts`.

>>> r = Rules()
>>> while not r.is_over():
...     _ = r.play(r.moves()[0])
>>> outcome_name(r.outcome), r.winner
('corner', 'defenders')
>>> r.undo()
True
>>> r.is_over()
False
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Optional

from ..snapshot import Snapshot, of_position
from ..words import plural
from .._engine import ffi, lib
from .buffers import LEGAL
from .outcomes import (
    BY_CAPTURE,
    BY_CORNER,
    BY_ENCIRCLED,
    BY_NO_PIECES,
    DRAW_NO_MOVE,
    DRAW_PLY_CAP,
    DRAW_QUIET_CAP,
    DRAW_REPETITION,
    ONGOING,
    WINNERS,
    Outcome,
    fixed_winner,
    outcome_name,
)
from .playouts import PlayoutStats, run_playouts
from .position import (
    MAX_MOVES,
    SETUP,
    SIDES,
    Position,
    MoveLike,
    MoveReport,
    Square,
    Why,
    c_position,
    c_variant,
    count_pieces,
    move,
    move_text,
    parse_move,
    PIECES,
    position_bytes,
    position_text,
    report_of,
    square,
    squares_of,
    why_not_at,
)
from ..errors import ArgumentError, EngineError, quote
from .endgame import EndgameTables, rules_key
from .search import SearchResult, c_weights, default_weights, search_game

from ..variant import Variant, VariantLike, as_variant


if TYPE_CHECKING:
    from .weights import WeightsLike

__all__ = ["Rules", "PLAY_OK", "PLAY_OVER", "PLAY_ILLEGAL", "Outcome", "outcome_name", "PlayoutStats"]

# What Rules.play says (enum bd_play).
PLAY_OK: int = lib.BD_PLAY_OK
PLAY_OVER: int = lib.BD_PLAY_OVER
PLAY_ILLEGAL: int = lib.BD_PLAY_ILLEGAL

_ONGOING: int = lib.BD_ONGOING
_NOBODY: int = lib.BD_NOBODY

_live = 0
_live_lock = threading.Lock()


def _release(game) -> None:
    global _live
    lib.bd_game_free(game)
    with _live_lock:
        _live -= 1


def _own(game):
    """Tie a C game's life to a Python object."""
    global _live
    if game == ffi.NULL:
        raise EngineError("out of memory for a new game")
    with _live_lock:
        _live += 1
    return ffi.gc(game, _release)


class Rules:
    """A game: a start position, a rule set, and the moves made.

    ``Rules(position=SETUP, variant=None)``: variant as a
    :class:`~brandubh.Variant`, a dict of fields, or a preset's name or
    ``as_string()`` line.

    >>> r = Rules(position='7/7/7/3k3/7/7/a6 d', variant={'repeat': 2})
    >>> r.play('d4d1'), r.side
    (0, 'attackers')
    """

    ONGOING = ONGOING
    BY_CORNER = BY_CORNER
    BY_CAPTURE = BY_CAPTURE
    BY_NO_PIECES = BY_NO_PIECES
    DRAW_REPETITION = DRAW_REPETITION
    BY_ENCIRCLED = BY_ENCIRCLED
    DRAW_NO_MOVE = DRAW_NO_MOVE
    DRAW_PLY_CAP = DRAW_PLY_CAP
    DRAW_QUIET_CAP = DRAW_QUIET_CAP
    PLAY_OK = PLAY_OK
    PLAY_OVER = PLAY_OVER
    PLAY_ILLEGAL = PLAY_ILLEGAL

    __slots__ = ("_g", "_variant", "_buf", "_report", "_lock", "__weakref__")

    def __init__(self, position: str = SETUP, variant: VariantLike = None) -> None:
        self._variant = as_variant(variant)
        game = lib.bd_game_from_string(c_variant(self._variant), position_bytes(position))
        if game == ffi.NULL:
            c_position(position)  # raises PositionError when the engine refused the text
        self._g = _own(game)
        self._buf = ffi.new("bd_move[]", MAX_MOVES)
        self._report = ffi.new("bd_report *")
        # Every method that reads or changes the record holds this lock: two
        # threads using one game take turns (the engine releases the GIL, so
        # without it one thread could read a record another is growing).
        self._lock = threading.RLock()

    @property
    def lock(self) -> "threading.RLock":
        """The record's lock: every method that reads or changes it holds
        it. Hold it to make several steps one, from threads sharing a game."""
        return self._lock

    @classmethod
    def new(cls, position: str = SETUP, variant: VariantLike = None) -> "Rules":
        """The same as ``Rules(position, variant)``."""
        return cls(position, variant)

    def clone(self) -> "Rules":
        """A copy with the whole history, sharing nothing with this game."""
        with self._lock:
            other = Rules.__new__(Rules)
            other._variant = self._variant
            other._g = _own(lib.bd_game_clone(self._g))
            other._buf = ffi.new("bd_move[]", MAX_MOVES)
            other._report = ffi.new("bd_report *")
            other._lock = threading.RLock()
            return other

    @staticmethod
    def live() -> int:
        """How many games exist in this process and have not been released."""
        return _live

    # -- playing ---------------------------------------------------------

    def play(self, m: MoveLike) -> int:
        """Play a move for the side to move: ``PLAY_OK`` (0), ``PLAY_OVER``
        when the game had already ended, ``PLAY_ILLEGAL`` when the move is
        not one of :meth:`moves`. On a refusal the game is exactly as it was.
        What the move did is :meth:`report` afterwards."""
        with self._lock:
            code = lib.bd_game_play(self._g, parse_move(m), ffi.NULL)
            if code == lib.BD_PLAY_NO_MEMORY:
                raise EngineError("out of memory while recording a move")
            return code

    def attempt(self, m: int) -> tuple[int, "Why", Optional[MoveReport], tuple[str, ...]]:
        """Play move number ``m`` if it is legal, in one call: ``(code, why,
        report, taken)``. ``code`` is :meth:`play`'s; ``why`` says why a
        refused move is refused (``Why.OK`` when played, ``Why.GAME_OVER``
        after the end); ``report`` is what a played move did, and ``taken``
        the pieces it captured (``'defender'``, ``'king'``...), one for each
        of ``report.captures``. A refusal changes nothing. The one call
        :meth:`brandubh.Game.play` makes into the record.

        >>> r = Rules('7/7/2aa3/3ka2/3a3/7/7 a')
        >>> code, why, report, taken = r.attempt(move('c5', 'c4'))
        >>> code, why.name, report.capture_names, taken
        (0, 'OK', ('d4',), ('king',))
        >>> r.attempt(move('c4', 'c5'))[:2]
        (1, <Why.GAME_OVER: 9>)
        """
        with self._lock:
            out = self._report
            code = lib.bd_game_play(self._g, m, out)
            if code == lib.BD_PLAY_OK:
                report = report_of(out[0])
                taken: tuple[str, ...] = ()
                if report.captures:
                    before = lib.bd_game_pos_at(self._g, lib.bd_game_ply(self._g) - 1)
                    taken = tuple(PIECES[lib.bd_piece_at(before, sq)] for sq in report.captures)
                return code, Why.OK, report, taken
            if code == lib.BD_PLAY_NO_MEMORY:
                raise EngineError("out of memory while recording a move")
            if code == lib.BD_PLAY_OVER:
                return code, Why.GAME_OVER, None, ()
            return code, why_not_at(self._variant, self._pos(), m >> 6, m & 63), None, ()

    def undo(self) -> bool:
        """Take the last move back, and whatever ending it brought."""
        with self._lock:
            return bool(lib.bd_game_undo(self._g))

    def moves(self) -> list[int]:
        """The moves of the side to move, as move numbers in square order;
        empty once the game is over."""
        with self._lock:
            return ffi.unpack(self._buf, lib.bd_game_moves(self._g, self._buf))

    def legal(self) -> list[tuple[int, tuple[int, ...], "Outcome", Optional[str]]]:
        """Every move of the side to move with what it would do, in one call:
        ``(move, squares it empties, the outcome it brings, the winner)``.
        Empty once the game is over.

        >>> first = Rules().legal()[0]
        >>> move_text(first[0]), first[1], outcome_name(first[2])
        ('d1b1', (), 'ongoing')
        """
        with self._lock:
            n, moves, captured, outcome, winner = self._legal_call()
            out = []
            for i in range(n):
                c = captured[i]
                out.append((moves[i], squares_of(c) if c else (), Outcome(outcome[i]), WINNERS[winner[i]]))
            return out

    def _legal_lists(self) -> tuple[list[int], list[int], list[bool]]:
        """:meth:`legal` as three lists, for :meth:`brandubh.Game.legal`
        (which a bot calls every turn): the moves, the bitboard each
        empties, and whether each wins for the side to move."""
        with self._lock:
            n, moves, captured, _outcome, winner = self._legal_call()
            mover = lib.bd_game_side(self._g)
            return (ffi.unpack(moves, n), ffi.unpack(captured, n),
                    [w == mover for w in ffi.unpack(winner, n)])

    def _legal_call(self) -> tuple:
        """The one C call behind :meth:`legal` and :meth:`_legal_lists`:
        (count, moves, captured, outcome, winner), the arrays this thread's
        scratch ones (read them before the next call). Under the lock."""
        captured, outcome, winner = LEGAL.get()
        n = lib.bd_game_legal(self._g, self._buf, captured, outcome, winner)
        if n < 0:
            raise EngineError("out of memory while listing moves")
        return n, self._buf, captured, outcome, winner

    def report(self, ply: Optional[int] = None) -> Optional[MoveReport]:
        """What the move that reached ``ply`` (the last move by default) did;
        None at the start."""
        with self._lock:
            at = lib.bd_game_ply(self._g) if ply is None else self._ply_arg(ply)
            if at == 0:
                return None
            return report_of(lib.bd_game_report_at(self._g, at))

    def move_at(self, ply: int) -> Optional[int]:
        """The move that reached ``ply`` (1 for the first move); None at 0."""
        with self._lock:
            at = self._ply_arg(ply)
            return lib.bd_game_move_at(self._g, at) if at else None

    def log(self) -> list[int]:
        """The moves made, in order."""
        with self._lock:
            buf = ffi.new("bd_move[]", lib.bd_game_ply(self._g))
            return ffi.unpack(buf, lib.bd_game_log(self._g, buf))

    # -- how it stands -----------------------------------------------------

    @property
    def outcome(self) -> Outcome:
        return Outcome(lib.bd_game_outcome(self._g))

    def is_over(self) -> bool:
        return lib.bd_game_outcome(self._g) != _ONGOING

    def is_draw(self) -> bool:
        return lib.bd_game_outcome(self._g) != _ONGOING and lib.bd_game_winner(self._g) == _NOBODY

    @property
    def winner(self) -> Optional[str]:
        """``'attackers'`` or ``'defenders'``; None when drawn or not over."""
        return WINNERS[lib.bd_game_winner(self._g)]

    @staticmethod
    def winner_of(outcome: object) -> Optional[str]:
        """The side an outcome is always a win for, or None: for a draw, for
        anything that is not an outcome, and for ``repetition`` and
        ``no_move``, whose winner depends on the rule set and on who moved
        (see :attr:`winner`).

        >>> Rules.winner_of(BY_CAPTURE), Rules.winner_of(DRAW_PLY_CAP)
        ('attackers', None)
        """
        return fixed_winner(outcome)

    @property
    def repeats(self) -> int:
        """How many times the position on the board has occurred, as the
        repetition rule counts them, this time included."""
        with self._lock:
            return lib.bd_game_repeats(self._g)

    @property
    def ply(self) -> int:
        """Moves made, both sides counted."""
        return lib.bd_game_ply(self._g)

    @property
    def ply_cap(self) -> int:
        return self._variant.ply_cap

    @property
    def variant(self) -> Variant:
        return self._variant

    def _pos(self) -> Any:
        """The position on the board: the game's own, to be read at once,
        with the lock held (it lives as long as the game is not changed)."""
        return lib.bd_game_pos_at(self._g, lib.bd_game_ply(self._g))

    @property
    def position(self) -> str:
        with self._lock:
            return position_text(self._pos())

    @property
    def start(self) -> str:
        with self._lock:
            return position_text(lib.bd_game_pos_at(self._g, 0))

    def board(self) -> Position:
        """A :class:`~brandubh.Position` holding the same position: a copy."""
        with self._lock:
            return Position(self.position, self._variant)

    @property
    def side(self) -> str:
        """``'attackers'`` or ``'defenders'``: whose move it is on the board."""
        with self._lock:
            return SIDES[lib.bd_game_side(self._g)]

    def at(self, sq: Square) -> str:
        """``'attacker'``, ``'defender'``, ``'king'`` or ``''``."""
        with self._lock:
            return PIECES[lib.bd_piece_at(self._pos(), square(sq))]

    def count(self, piece: str) -> int:
        with self._lock:
            return count_pieces(self._pos(), piece)

    @property
    def key_hex(self) -> str:
        with self._lock:
            return f"{lib.bd_pos_key(self._pos()):016x}"

    def key_at(self, ply: int) -> Optional[str]:
        """The key after that many moves (0: the start); None for a ply the
        game has not reached."""
        with self._lock:
            if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= lib.bd_game_ply(self._g):
                return None
            return f"{lib.bd_pos_key(lib.bd_game_pos_at(self._g, ply)):016x}"

    def preview(self, m: MoveLike) -> Optional[MoveReport]:
        """What a legal move would do, without playing it; None when it is
        not legal here (whether or not the game is over)."""
        with self._lock:
            mv = parse_move(m)
            if self.why_not(mv >> 6, mv & 63) != Why.OK:
                return None
            return report_of(lib.bd_game_preview(self._g, mv))

    def why_not(self, from_square: Square, to_square: Square) -> Why:
        """Why a slide is refused in this position, or ``Why.OK``. It answers
        for the position and does not know whether the game is over."""
        with self._lock:
            return why_not_at(self._variant, self._pos(), from_square, to_square)

    # -- many games at once ------------------------------------------------

    def playouts(self, games: int, seed: int = 1, *, stop: Optional[threading.Event] = None) -> PlayoutStats:
        """Play ``games`` games of uniformly random moves from here, all in
        C; the game itself is left as it is. The same seed gives the same
        games.

        ``stop`` (a :class:`~brandubh.Stop` or a ``threading.Event``), set
        from another thread, ends the playouts after the game being played:
        the result counts the games finished and says ``stopped=True``.
        Ctrl-C raises KeyboardInterrupt within a fraction of a second.

        >>> s = Rules().playouts(100, seed=7)
        >>> s.games, s.attackers + s.defenders + s.draws, s.stopped
        (100, 100, False)
        """
        with self._lock:
            return run_playouts(self._g, games, seed, stop)

    # -- the search --------------------------------------------------------

    def search(self, budget: Optional[int] = None, seed: int = 1, depth: Optional[int] = None,
               weights: "WeightsLike" = None, _off: int = 0, *, time_ms: Optional[float] = None,
               stop: Optional[threading.Event] = None, hash_mb: Optional[int] = None,
               threads: Optional[int] = None, endgame: Optional[EndgameTables] = None,
               lockstep: bool = False) -> Optional[SearchResult]:
        """The best move for the side to move that a search of ``budget``
        positions finds, or None when the game is over. The game is not
        changed. No clock is read unless ``time_ms`` is given: the same game,
        budget, seed, depth, weights and ``hash_mb`` give the same result on
        any machine.

        ``budget``: 20,000 positions by default, and no limit but 2**40
        when ``time_ms`` is given. ``seed`` (0 to 2**32-1) settles the
        choice among root moves that score alike and nothing else;
        ``depth`` stops the search after that many moves ahead; ``weights``
        changes some of :meth:`weights` (a dict of them, or the path of a
        weights file that ``brandubh tune`` wrote: :mod:`brandubh.core.weights`).

        ``hash_mb``: the transposition table's size in MiB (1 to 16384,
        rounded down to a power of two of 16-byte entries); by default it is
        sized from the budget (at most 32 MiB), and under a clock from the
        time too (:func:`~brandubh.core.search.timed_table_mb`). The result depends on it,
        deterministically.

        ``threads`` (1 to 64; None or 1: this thread alone): with more, the
        engine's own helper threads search beside this one over one shared
        table (lazy SMP); the budget and ``nodes`` count every thread's
        positions together, and the move is this thread's. **Not
        deterministic**: the threads' timing changes what each finds in the
        table. Worth it with a clock (``time_ms``), where more threads see
        deeper in the same time (docs/searching.md, "Threads").

        ``lockstep=True``, with ``threads`` above 1: the threads take
        turns, about a thousand positions each in a fixed order, so the
        search is deterministic again, and no faster than one thread. It
        is what running them at once on equal cores would do, told in
        positions instead of time, and is for measuring what the helpers
        are worth (``bench/threads.py``).

        ``time_ms`` (milliseconds) and ``stop`` (a :class:`~brandubh.Stop`
        or a ``threading.Event``, set from another thread) end the search
        early, whichever comes first, as if the budget had run out there:
        the result is the best found so far (the last depth finished, or
        the best root move of a partly searched depth whose first move was
        searched in full), with ``stopped=True``. They are **not
        deterministic**: where the search stands when the time runs out
        depends on the machine and its load. The budget stays the
        deterministic limit. Ctrl-C raises KeyboardInterrupt within a
        fraction of a second.

        ``endgame``: endgame tables for these rules
        (:class:`~brandubh.core.endgame.EndgameTables`): a position they
        hold, below the root, is scored exactly (docs/proofs.md, "Endgame
        tables"). Without them nothing changes.

        >>> r = Rules('7/7/7/3k3/7/7/a6 d')
        >>> found = r.search(budget=5_000)
        >>> found.score > 29_000, found.mate_in, move_text(found.move)[:2]
        (True, 3, 'd4')
        """
        with self._lock:
            if endgame is not None and rules_key(endgame.variant) != rules_key(self.variant):
                raise ArgumentError(f"the endgame tables are for {endgame.variant.as_string()}, whose rules are "
                                    f"not this game's ({self.variant.as_string()})")
            return search_game(self._g, budget, seed, depth, weights, _off, time_ms, stop, hash_mb, threads,
                               endgame, lockstep)

    def evaluate(self, weights: "WeightsLike" = None) -> int:
        """The position as the search scores it when it looks no further:
        positive when it favours the attackers.

        >>> Rules().evaluate({'eval': 'classical'}) == Rules().evaluate({'ring': 30})   # no attacker beside the king
        True
        """
        with self._lock:
            return lib.bd_evaluate(c_variant(self._variant), self._pos(), c_weights(weights))

    @staticmethod
    def weights() -> dict:
        """The seven weights of the evaluation, by name."""
        return default_weights()

    def snapshot(self) -> Snapshot:
        """The board as a view draws it (:class:`~brandubh.snapshot.Snapshot`):
        the position, the last move with what it emptied, and how the game
        stands.

        >>> r = Rules(); _ = r.play('d2c2'); r.snapshot().status
        'defenders to move; ply 1; last move d2-c2'
        """
        with self._lock:
            ply = lib.bd_game_ply(self._g)
            over = lib.bd_game_outcome(self._g) != _ONGOING
            if over:
                winner = self.winner
                won = f"the {winner} won" if winner else "a draw"
                standing = f"game over after {plural(ply, 'move')}: {outcome_name(self.outcome)}, {won}"
            else:
                standing = f"{self.side} to move; ply {ply}"
            if ply == 0:
                return of_position(self.position, standing, over=over)
            stored, captured, shown = self.shown_at(ply)
            return of_position(self.position, standing, stored, captured, shown, over)

    def shown_at(self, ply: int) -> tuple[str, tuple[str, ...], str]:
        """The move that reached ``ply`` (1 for the first): as stored, the
        squares it emptied, and as shown (``d1-d3xc3``, ``Kg2-g1++``).

        >>> r = Rules(); _ = r.play('d2c2'); r.shown_at(1)
        ('d2c2', (), 'd2-c2')
        """
        with self._lock:
            at = self._ply_arg(ply)
            if at == 0:
                raise ArgumentError("ply 0 is the start: no move reached it")
            report = report_of(lib.bd_game_report_at(self._g, at))
            stored = move_text(lib.bd_game_move_at(self._g, at))
            return stored, report.capture_names, report.shown(stored)

    def c_game(self) -> Any:
        """The record as the engine's ``bd_game *``, for a caller that hands
        it to the engine itself (:mod:`brandubh.rl`'s observations): read it
        with :attr:`lock` held, and only while the game lives."""
        return self._g

    def _ply_arg(self, ply: int) -> int:
        last = lib.bd_game_ply(self._g)
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= last:
            raise ArgumentError(f"ply must be from 0 to {last}, not {quote(ply)}")
        return ply

    def __str__(self) -> str:
        """The board as a plain ASCII diagram, whose move it is and the last
        move, or how the game ended (:func:`brandubh.views.text.diagram`).

        >>> print(str(Rules()).splitlines()[-1])
        attackers to move; ply 0
        """
        from ..views.text import diagram

        return diagram(self)

    def __repr__(self) -> str:
        with self._lock:
            return (f"<Rules {self.position!r} ply={self.ply} "
                    f"outcome={outcome_name(self.outcome)} variant={self._variant.as_string()!r}>")
