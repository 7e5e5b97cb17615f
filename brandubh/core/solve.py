"""The proof solver from Python: a forced win proven, or a draw, from a game
as it stands (docs/proofs.md).

The solver is C (csrc/solve.c): depth-first proof-number search with a
transposition table of its own, limited by a count of positions and never
by a clock. :func:`solve_rules` runs it on a :class:`~brandubh.Rules` record
(its history counts: repetition and the move caps are the rules') a slice
of positions at a time, so that a caller can show progress between slices
and Ctrl-C stops it within a fraction of a second. The same record, budget
and table size give the same result on every machine; only ``stop=`` (and
Ctrl-C) is not deterministic.

>>> from brandubh import Rules
>>> found = solve_rules(Rules('7/7/7/3k3/7/7/a6 d'), budget=1_000)
>>> found.outcome, found.winner, found.plies, found.shortest, move_text(found.first_move)
('win', 'defenders', 3, True, 'd4d1')
>>> found.proof[0]
('7/7/7/3k3/7/7/a6 d', 'd4d1')
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import stopping
from .._engine import ffi, lib
from ..errors import ArgumentError, EngineError, quote
from .position import SIDES, c_constants, move_text
from .search import MAX_HASH_MB
from .stopping import check_stop

if TYPE_CHECKING:
    from .rules import Rules  # only named: the solver is below the record it is given

__all__ = ["solve_rules", "Solved", "Progress", "DEFAULT_BUDGET", "MAX_BUDGET", "SLICE", "OUTCOMES", "STAGES",
           "table_mb"]

#: The positions a solve expands unless told otherwise: a few seconds here.
DEFAULT_BUDGET = 2_000_000
#: The most a caller may give.
MAX_BUDGET = 1 << 40
#: Positions a C call: a fraction of a second. The budget is spent in
#: slices of this size (the last one what is left), so that the same budget
#: gives the same result whoever calls.
SLICE = 1 << 18
#: The table's size when the caller gives none: about a 32-byte entry for
#: each position of the budget, as a power of two of MiB from 1 to this.
DEFAULT_MAX_MB = 256

#: What a solve came to, by ``enum bd_solved`` (BD_SOLVED_WIN is "win"):
#: "open" (not settled within the budget), "win", "draw", "unknown" (no win
#: for either side in the solver's model, which these rules do not let
#: prove a draw) and "lost" (a win proven whose proof could not be rebuilt:
#: a larger table will do).
OUTCOMES = {value: name.lower() for name, value in c_constants("bd_solved", "SOLVED_").items()}
#: What the solver is doing, by ``enum bd_solve_stage``.
STAGES = {value: name.lower() for name, value in c_constants("bd_solve_stage", "STAGE_").items()}


@dataclass(frozen=True)
class Progress:
    """Where a solve stands, between two slices: ``stage`` ("prove",
    "shorten", "extract", "done"), the side whose win is looked for
    (``prover``) and within how many plies (``bound``), and the positions
    expanded so far (``nodes``) of the ``budget``."""

    stage: str
    prover: str
    bound: int
    nodes: int
    budget: int


@dataclass(frozen=True)
class Solved:
    """What :func:`solve_rules` found.

    ``outcome``: one of :data:`OUTCOMES`' names. For a ``win``: the
    ``winner``, the longest line of the proof in ``plies`` (``shortest``
    when no shorter win exists; otherwise the budget ran out before that
    was shown), the winner's ``first_move`` (a move number) when the winner
    is to move, the proof's ``positions`` (either side to move) and the
    ``proof`` itself: every position it reaches with the winner to move,
    as a position string, with the winner's move there (stored form), the
    game's position first when the winner is to move. ``no_win_within``:
    for each side, the most plies within which it is proven not to win
    (0: none), repetitions aside. ``nodes``: the positions expanded; ``limit``: the plies the rules leave (the ply cap's,
    or the quiet cap's when nearer); ``stopped``: ``stop=`` ended it.
    """

    outcome: str
    winner: Optional[str]
    plies: Optional[int]
    shortest: bool
    first_move: Optional[int]
    positions: int
    proof: tuple[tuple[str, str], ...]
    nodes: int
    limit: int
    stopped: bool = False
    no_win_within: dict[str, int] = field(default_factory=dict)


def table_mb(budget: int) -> int:
    """The table's size in MiB for a budget when none is asked for: a
    32-byte entry a position, rounded up to a power of two, from 1 to
    :data:`DEFAULT_MAX_MB`.

    >>> table_mb(1_000), table_mb(2_000_000), table_mb(10**9)
    (1, 64, 256)
    """
    mb = 1
    while mb < DEFAULT_MAX_MB and (mb << 20) < budget * 32:
        mb *= 2
    return mb


def _check(budget: object, hash_mb: object) -> None:
    if not isinstance(budget, int) or isinstance(budget, bool) or not 1 <= budget <= MAX_BUDGET:
        raise ArgumentError(f"budget must be a whole number of positions from 1 to 2**40, not {quote(budget)}")
    if hash_mb is not None and (not isinstance(hash_mb, int) or isinstance(hash_mb, bool)
                                or not 1 <= hash_mb <= MAX_HASH_MB):
        raise ArgumentError(f"hash_mb must be a whole number of MiB from 1 to {MAX_HASH_MB}, or None, "
                            f"not {quote(hash_mb)}")


def _progress(status: Any, budget: int) -> Progress:
    return Progress(STAGES[status.stage], SIDES[status.prover], status.bound, status.nodes, budget)


def solve_rules(rules: Rules, budget: int = DEFAULT_BUDGET, *, hash_mb: Optional[int] = None,
                stop: Optional[threading.Event] = None,
                progress: Optional[Callable[[Progress], None]] = None) -> Solved:
    """Solve the game as it stands, within ``budget`` positions: see
    :class:`Solved`. The record is not changed (the solver copies it).

    ``hash_mb``: the table's size in MiB (1 to 16384; by default
    :func:`table_mb` of the budget); the result depends on it,
    deterministically. ``progress`` is called between slices of
    :data:`SLICE` positions, and once more when a slice is cut by Ctrl-C,
    before KeyboardInterrupt goes on. ``stop`` (a :class:`~brandubh.Stop`
    or a ``threading.Event``) ends the solve early, with ``stopped=True``:
    not deterministic.
    """
    _check(budget, hash_mb)
    check_stop(stop)
    mb = table_mb(budget) if hash_mb is None else hash_mb
    with rules.lock:
        raw = lib.bd_solver_new(rules.c_game(), mb << 20)
    if raw == ffi.NULL:
        raise EngineError("out of memory for the solver")
    solver = ffi.gc(raw, lib.bd_solver_free)
    status = ffi.new("bd_solve_status *")
    left = budget
    done = lib.BD_STAGE_DONE
    while True:
        step = min(left, SLICE)
        left -= step

        def job(flag: Any, step: int = step) -> int:
            return lib.bd_solver_run(solver, step, flag, status)

        try:
            code = stopping.run(job, stop, None, True)
        except KeyboardInterrupt:
            if progress is not None:
                progress(_progress(status, budget))
            raise
        if code != 0:
            raise EngineError("out of memory while solving: give a smaller table (hash_mb)")
        if status.stage == done or left == 0 or status.stopped:
            break
        if progress is not None:
            progress(_progress(status, budget))
    if progress is not None:
        progress(_progress(status, budget))
    outcome = OUTCOMES[status.solved]
    proof: tuple[tuple[str, str], ...] = ()
    if outcome == "win":
        text = ffi.new("char[]", lib.BD_POS_TEXT_MAX)
        move = ffi.new("bd_move *")
        lines = []
        for i in range(status.proof_lines):
            lib.bd_solver_proof_line(solver, i, text, move)
            lines.append((ffi.string(text).decode("ascii"), move_text(move[0])))
        proof = tuple(lines)
    win = outcome == "win"
    return Solved(
        outcome=outcome,
        winner=SIDES[status.winner] if win else None,
        plies=status.plies if win else None,
        shortest=bool(status.shortest) if win else False,
        first_move=status.first_move if win and status.first_move else None,
        positions=status.proof_positions if win else 0,
        proof=proof,
        nodes=status.nodes,
        limit=status.limit,
        stopped=bool(status.stopped),
        no_win_within={side: status.no_win_within[i] for i, side in enumerate(SIDES)},
    )
