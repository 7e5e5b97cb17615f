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

import contextlib
import json
import os
import signal
import threading
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from . import stopping
from .._engine import ffi, lib
from ..errors import ArgumentError, EngineError, quote
from ..files import WholeFile, check_writable, open_regular
from ..words import plural
from .position import SIDES, c_constants, move_text
from .search import MAX_HASH_MB, MAX_THREADS
from .stopping import check_stop

if TYPE_CHECKING:
    from .rules import Rules  # only named: the solver is below the record it is given

__all__ = ["solve_rules", "Solved", "Progress", "DEFAULT_BUDGET", "MAX_BUDGET", "SLICE", "OUTCOMES", "STAGES",
           "table_mb", "SAVE_EVERY", "STATE_FORMAT", "REFUTATION_MOST", "MAX_WITHIN"]

#: The positions a solve expands unless told otherwise: a few seconds here.
DEFAULT_BUDGET = 2_000_000
#: The most a caller may give.
MAX_BUDGET = 1 << 40
#: Positions a C call: a fraction of a second. The budget is spent in
#: slices of this size (the last one what is left), so that the same budget
#: gives the same result whoever calls.
SLICE = 1 << 18
#: How often a solve given a state file saves it, in positions (rounded up
#: to whole slices): about three minutes here.
SAVE_EVERY = 1 << 26
#: The first line of a state file names it, with its version.
STATE_FORMAT = "brandubh solver state 1"
#: The most a state file's first line (its description, JSON) may take.
_HEAD_LIMIT = 1 << 20
#: How much of a part is read or checked at a time.
_CHUNK = 1 << 24
#: The most plies a ``within=`` may ask for (more than any rule set's cap).
MAX_WITHIN = 1 << 16
#: The most positions a draw's proof, one side's refutation, is written
#: down with: a draw far from the ply cap has a refutation far larger.
REFUTATION_MOST = 1 << 21
#: bd_solver_restore's refusals, in words.
_REFUSED = {
    lib.BD_RESTORE_FORMAT: "it was written by another version of the solver or on another kind of machine",
    lib.BD_RESTORE_GAME: "it was saved for another game",
    lib.BD_RESTORE_TABLE: "it was saved with a table of another size",
}
#: The table's size when the caller gives none: about a 32-byte entry for
#: each position of the budget, as a power of two of MiB from 1 to this.
DEFAULT_MAX_MB = 256

#: What a solve came to, by ``enum bd_solved`` (BD_SOLVED_WIN is "win"):
#: "open" (not settled within the budget), "win", "draw", "unknown" (no win
#: for either side in the solver's model, which these rules do not let
#: prove a draw), "lost" (a win proven whose proof could not be rebuilt:
#: a larger table will do) and "no_win" (the one side asked about,
#: ``side=``, proven not to win within ``within=`` plies).
OUTCOMES = {value: name.lower() for name, value in c_constants("bd_solved", "SOLVED_").items()}
#: What the solver is doing, by ``enum bd_solve_stage``.
STAGES = {value: name.lower() for name, value in c_constants("bd_solve_stage", "STAGE_").items()}


@dataclass(frozen=True)
class Progress:
    """Where a solve stands, between two slices: ``stage`` ("prove",
    "shorten", "extract", "done"), the side whose win is looked for
    (``prover``) and within how many plies (``bound``), and the positions
    expanded so far (``nodes``) of the ``budget``; ``both`` when both
    sides' wins are looked for at once (``threads=2``: ``prover`` and
    ``bound`` are then the attackers')."""

    stage: str
    prover: str
    bound: int
    nodes: int
    budget: int
    both: bool = False


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
    game's position first when the winner is to move. For a ``draw``: the
    ``proof`` is each side's win refuted (every position the refutation of
    a side's win reaches with the other side to move, with that side's
    move: the side to move tells which refutation a line is of), its
    ``positions`` those the two refutations reach; empty, with 0
    positions, where a refutation is larger than :data:`REFUTATION_MOST`
    positions (the draw is proven all the same). ``no_win_within``:
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
    #: The positions a state file held when this run resumed from it (0
    #: for a run from the start): ``nodes`` less this is this run's.
    resumed: int = 0
    #: A side's "not won within n" (``no_win_within``, a ``no_win``) is
    #: the rules' own for n up to this many plies; past it, where a
    #: repetition loses, it is "short of forcing a repetition" (the
    #: solver's model does not see such wins: docs/proofs.md).
    exact_within: int = 0
    #: The question asked with ``side=``: that side (None for a full
    #: solve) and the plies within which its win was looked for (the
    #: plies the rules leave at most; for a full solve, those).
    side: Optional[str] = None
    within: int = 0

    @property
    def exact(self) -> bool:
        """Whether a ``no_win`` is the rules' own: the bound asked about
        is within :attr:`exact_within`."""
        return self.within <= self.exact_within


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
    return Progress(STAGES[status.stage], SIDES[status.prover], status.bound, status.nodes, budget, bool(status.both))


PathLike = Union[str, "os.PathLike[str]"]


def _identity(rules: Rules, side: Optional[str] = None, within: Optional[int] = None) -> dict[str, Any]:
    """The game a state belongs to: its rules, its start and the moves made;
    and the question, where one side's win within a bound was asked (a
    state saved before such questions has none: ``side`` None)."""
    game: dict[str, Any] = {"variant": rules.variant.as_string(), "start": rules.start,
                            "moves": [move_text(m) for m in rules.log()]}
    if side is not None:
        game.update(side=side, within=within)
    return game


def _game_words(game: dict[str, Any]) -> str:
    moves = game["moves"]
    played = f"after {plural(len(moves), 'move')} ({' '.join(moves)})" if moves else "with no move made"
    asked = f", the {game['side']}' win within {game['within']} plies" if game.get("side") else ""
    return f"{game['start']} under {game['variant']}, {played}{asked}"


def _parts(solver: Any) -> list[Any]:
    """The solver's state as three buffers over its own memory (no copy):
    the header, filled in now, the table, the proof in hand."""
    out = []
    for part in range(3):
        at = ffi.new("void **")
        size = lib.bd_solver_state(solver, part, at)
        out.append(memoryview(ffi.buffer(at[0], size)) if size else memoryview(b""))
    return out


def _save_state(path: PathLike, solver: Any, head: dict[str, Any]) -> None:
    """Write the solver's state to ``path`` whole (:class:`~brandubh.files.WholeFile`:
    a crash, a full disk or Ctrl-C while it is written leaves the last one):
    a line of JSON saying what it is, then the three parts, their CRC-32 in
    the line."""
    parts = _parts(solver)
    crc = 0
    for part in parts:
        for at in range(0, len(part), _CHUNK):
            crc = zlib.crc32(part[at:at + _CHUNK], crc)
    line = json.dumps({**head, "parts": [len(p) for p in parts], "crc32": crc}, separators=(",", ":")) + "\n"
    with WholeFile(path) as new:
        new.file.write(line.encode("utf-8"))
        for part in parts:
            new.file.write(part)


def _read_head(path: PathLike, game: dict[str, Any]) -> dict[str, Any]:
    """A state file's description, checked against the game: an
    ArgumentError with a sentence for a file that is no solver's state, or
    one saved for another game."""
    where = quote(os.fspath(path), 200)
    with open_regular(path, what="state file") as f:
        line = f.readline(_HEAD_LIMIT)
    try:
        head = json.loads(line.decode("utf-8"))
        ok = isinstance(head, dict) and head.get("format") == STATE_FORMAT
    except ValueError:
        ok = False
    if not ok:
        raise ArgumentError(f"cannot resume from {where}: it is not a state file of this solver "
                            f"(its first line should name {STATE_FORMAT!r}); give another --state file")
    saved = {key: head.get(key) for key in ("variant", "start", "moves", "side", "within") if key in head or key in game}
    if saved != game:
        raise ArgumentError(f"cannot resume from {where}: it holds the solve of {_game_words(saved)}, "
                            f"not of {_game_words(game)}; give another --state file, or remove it to start afresh")
    return head


def _load_state(path: PathLike, solver: Any, head: dict[str, Any]) -> None:
    """Read a state file's parts into a solver made for its game and table
    size: an ArgumentError, the solver then of no use, for one that is cut
    short, damaged or refused."""
    where = quote(os.fspath(path), 200)
    sizes = head.get("parts")
    if not (isinstance(sizes, list) and len(sizes) == 3 and all(isinstance(n, int) and n >= 0 for n in sizes)):
        raise ArgumentError(f"cannot resume from {where}: {_REFUSED[lib.BD_RESTORE_FORMAT]}")
    reader: Any   # a buffered file, which has readinto
    with open_regular(path, what="state file") as reader:
        f = reader
        f.readline(_HEAD_LIMIT)
        first = f.read(sizes[0])
        got = lib.bd_solver_restore(solver, first, len(first))
        if got == lib.BD_RESTORE_MEMORY:
            raise EngineError("out of memory for the solver's proof")
        if got != 0:
            raise ArgumentError(f"cannot resume from {where}: {_REFUSED[got]}")
        crc = zlib.crc32(first)
        parts = _parts(solver)
        for part, size in zip(parts[1:], sizes[1:]):
            if len(part) != size:
                raise ArgumentError(f"cannot resume from {where}: {_REFUSED[lib.BD_RESTORE_TABLE]}")
            for at in range(0, size, _CHUNK):
                chunk = part[at:at + _CHUNK]
                if f.readinto(chunk) != len(chunk):
                    raise ArgumentError(f"cannot resume from {where}: the file is cut short")
                crc = zlib.crc32(chunk, crc)
        if f.read(1) or crc != head.get("crc32"):
            raise ArgumentError(f"cannot resume from {where}: the file is damaged (its checksum does not match)")


class _Interrupts:
    """Ctrl-C counted rather than raised while a solve with a state file
    runs (in the main thread, where signals are handled): the first lets
    the slice under way end and the state be saved at its end, where a run
    straight through passes; a second cuts the slice short (the state saved
    then is sound, but a run resumed from it may differ from one straight
    through)."""

    def __init__(self) -> None:
        self.count = 0
        self.flag: Any = None
        self._old: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        self.count += 1
        if self.count > 1 and self.flag is not None:
            self.flag[0] = 1

    def __enter__(self) -> "_Interrupts":
        if stopping.in_main_thread():
            self._old = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def _run_slice(job: Callable[[Any], int], stop: Optional[threading.Event], interrupts: _Interrupts) -> int:
    """``job(flag)`` in a worker while this thread waits, raising the flag
    when ``stop`` is set or Ctrl-C comes twice."""
    flag = interrupts.flag = ffi.new("int *")
    # A stop set already is raised before the worker starts, as stopping.run
    # does: raised by the loop below, it came as late as this thread was next
    # given a core (thousands of positions later on a busy machine).
    if interrupts.count > 1 or (stop is not None and stop.is_set()):
        flag[0] = 1
    box: list[int] = []
    done = threading.Event()

    def work() -> None:
        try:
            box.append(job(flag))
        finally:
            done.set()

    threading.Thread(target=work, name="brandubh-solve", daemon=True).start()
    while not done.is_set():
        if stop is not None and stop.is_set():
            flag[0] = 1
        done.wait(stopping.POLL_SECONDS if stop is not None else stopping.SLICE_SECONDS)
    interrupts.flag = None
    return box[0]


def _lines(solver: Any, line_of: Callable[..., int], count: int) -> tuple[tuple[str, str], ...]:
    """The lines a solver has written down: positions and moves, as text."""
    text = ffi.new("char[]", lib.BD_POS_TEXT_MAX)
    move = ffi.new("bd_move *")
    lines = []
    for i in range(count):
        line_of(solver, i, text, move)
        lines.append((ffi.string(text).decode("ascii"), move_text(move[0])))
    return tuple(lines)


def _refutations(solver: Any) -> tuple[tuple[tuple[str, str], ...], int]:
    """A draw's proof: both sides' wins refuted, and the positions they
    reach; nothing where one is larger than :data:`REFUTATION_MOST`."""
    lines: tuple[tuple[str, str], ...] = ()
    positions = 0
    count = ffi.new("uint64_t *")
    for prover in range(len(SIDES)):
        got = lib.bd_solver_refutation(solver, prover, REFUTATION_MOST, count)
        if got < 0:
            raise EngineError("out of memory while writing the draw's proof down")
        if got:
            return (), 0
        lines += _lines(solver, lib.bd_solver_refutation_line, count[0])
        positions += lib.bd_solver_refuted_positions(solver)
    return lines, positions


def solve_rules(rules: Rules, budget: int = DEFAULT_BUDGET, *, hash_mb: Optional[int] = None,
                stop: Optional[threading.Event] = None,
                progress: Optional[Callable[[Progress], None]] = None,
                state: Optional[PathLike] = None, save_every: int = SAVE_EVERY,
                slice_nodes: int = SLICE, side: Optional[str] = None, within: Optional[int] = None,
                threads: int = 1) -> Solved:
    """Solve the game as it stands, within ``budget`` positions: see
    :class:`Solved`. The record is not changed (the solver copies it).

    ``side`` (``'attackers'`` or ``'defenders'``) asks one question only:
    does that side win within ``within`` plies (by default, and at most,
    the plies the rules leave)? The solver then looks for that side's win
    alone, and ends with a ``win`` (its proof, as a full solve's; not
    shown the shortest unless it was on the way), a ``no_win`` (proven:
    every line of the other side's defence answered within the bound; the
    rules' own up to :attr:`Solved.exact_within` plies) or ``open``.

    ``hash_mb``: the table's size in MiB (1 to 16384; by default
    :func:`table_mb` of the budget); the result depends on it,
    deterministically. ``progress`` is called between slices of
    ``slice_nodes`` positions (:data:`SLICE`), and once more when a slice
    is cut by Ctrl-C, before KeyboardInterrupt goes on. ``stop`` (a
    :class:`~brandubh.Stop` or a ``threading.Event``) ends the solve early,
    with ``stopped=True``: not deterministic.

    ``state``: a file the solver's state is saved in, whole, every
    ``save_every`` positions (rounded up to slices), at the end and on
    Ctrl-C (which then lets the slice under way end first, under a second,
    so that what is saved is what a run straight through passes by; a
    second Ctrl-C cuts the slice); where
    the file exists, the solve goes on from it (its table size and slices
    are the saved ones; ``budget`` counts the positions before too) and a
    file saved for another game is refused with a sentence. With a state
    file the budget is rounded up to whole slices, so that every save falls
    where a run straight through passes: a run stopped and resumed gives
    exactly what one run straight through gives.

    ``threads``: 1 (the default) gives the same result, node counts
    included, for the same arguments on every machine. 2 or more: while
    neither side's win is settled, each side's is looked for on a thread of
    its own, the two sharing the table and the budget (more than two add
    nothing yet); every answer is as sound as one thread's (a win comes
    with its proof, a draw or a "no" rests on the same kind of facts), but
    the counts, and so what a budget reaches and where a resumed state goes
    on from, depend on how the threads ran. One side's question (``side``)
    runs on one thread.
    """
    _check(budget, hash_mb)
    check_stop(stop)
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
        raise ArgumentError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {quote(threads)}")
    if side is None and within is not None:
        raise ArgumentError("within= needs side=: the side whose win is looked for")
    if side is not None and side not in SIDES:
        raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
    if within is not None and (not isinstance(within, int) or isinstance(within, bool) or not 1 <= within <= MAX_WITHIN):
        raise ArgumentError(f"within must be a whole number of plies from 1 to {MAX_WITHIN:,}, not {quote(within)}")
    asked = _identity(rules, side, MAX_WITHIN if side is not None and within is None else within)
    for name, value in (("save_every", save_every), ("slice_nodes", slice_nodes)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ArgumentError(f"{name} must be a whole number of positions above 0, not {quote(value)}")
    head: dict[str, Any] = {}
    if state is not None:
        if os.path.exists(state):
            head = _read_head(state, asked)
            saved_mb, saved_slice = head.get("hash_mb"), head.get("slice")
            if not isinstance(saved_mb, int) or not isinstance(saved_slice, int) or saved_slice < 1:
                raise ArgumentError(f"cannot resume from {quote(os.fspath(state), 200)}: "
                                    f"{_REFUSED[lib.BD_RESTORE_FORMAT]}")
            slice_nodes = saved_slice
            if hash_mb is not None and hash_mb != saved_mb:
                raise ArgumentError(f"cannot resume from {quote(os.fspath(state), 200)} with a {hash_mb} MiB table: "
                                    f"it was saved with {saved_mb} MiB; give that, or no table size")
            hash_mb = saved_mb
        else:
            check_writable(state)
    mb = table_mb(budget) if hash_mb is None else hash_mb
    with rules.lock:
        raw = lib.bd_solver_new(rules.c_game(), mb << 20)
    if raw == ffi.NULL:
        raise EngineError("out of memory for the solver")
    solver = ffi.gc(raw, lib.bd_solver_free)
    lib.bd_solver_threads(solver, threads)
    if side is not None and not rules.is_over():
        if lib.bd_solver_within(solver, SIDES.index(side), asked["within"]) != 0:  # pragma: no cover - checked above
            raise ArgumentError(f"the solver refused the question: the {side}' win within {within} plies")
    spent = resumed = 0
    if head:
        _load_state(state, solver, head)  # type: ignore[arg-type]
        spent = int(head.get("spent", 0))
        resumed = int(head.get("nodes", 0))
    status = ffi.new("bd_solve_status *")
    done = lib.BD_STAGE_DONE
    game = asked

    def save() -> None:
        if state is not None:
            _save_state(state, solver, {"format": STATE_FORMAT, **game, "hash_mb": mb, "slice": slice_nodes,
                                        "spent": spent, "budget": budget, "nodes": status.nodes})

    if state is not None:
        # Whole slices only: a call's end is where the search starts again
        # from the root, so a run stopped part way through a slice would
        # go on differently from one that ran straight through it.
        budget = -(-budget // slice_nodes) * slice_nodes
    left = budget - spent
    next_save = spent + save_every
    if head:
        # Where the saved solve stands: this expands nothing, unless a stop
        # cut the writing of a proof down, which it then finishes.
        lib.bd_solver_run(solver, 0, ffi.NULL, status)
        if status.stage == done:
            left = 0
    with (_Interrupts() if state is not None else contextlib.nullcontext()) as interrupts:
        while left > 0:
            step = min(left, slice_nodes)
            left -= step

            def job(flag: Any, step: int = step) -> int:
                return lib.bd_solver_run(solver, step, flag, status)

            try:
                code = stopping.run(job, stop, None, True) if interrupts is None else _run_slice(job, stop, interrupts)
            except KeyboardInterrupt:
                if progress is not None:
                    progress(_progress(status, budget))
                raise
            if code != 0:
                raise EngineError("out of memory while solving: give a smaller table (hash_mb)")
            spent += step
            over = status.stage == done or left == 0 or status.stopped
            ctrl_c = interrupts is not None and interrupts.count > 0
            if ctrl_c or over or spent >= next_save:
                save()
                next_save = spent + save_every
            if ctrl_c:
                if progress is not None:
                    progress(_progress(status, budget))
                raise KeyboardInterrupt
            if over:
                break
            if progress is not None:
                try:
                    progress(_progress(status, budget))
                except KeyboardInterrupt:
                    # Between slices: what is saved is where a straight run passes.
                    save()
                    raise
    if progress is not None:
        progress(_progress(status, budget))
    outcome = OUTCOMES[status.solved]
    proof: tuple[tuple[str, str], ...] = ()
    positions = status.proof_positions if outcome == "win" else 0
    if outcome == "win":
        proof = _lines(solver, lib.bd_solver_proof_line, status.proof_lines)
    elif outcome == "draw" and status.limit:
        proof, positions = _refutations(solver)
    win = outcome == "win"
    return Solved(
        outcome=outcome,
        winner=SIDES[status.winner] if win else None,
        plies=status.plies if win else None,
        shortest=bool(status.shortest) if win else False,
        first_move=status.first_move if win and status.first_move else None,
        positions=positions,
        proof=proof,
        nodes=status.nodes,
        limit=status.limit,
        stopped=bool(status.stopped),
        no_win_within={name: status.no_win_within[i] for i, name in enumerate(SIDES)},
        resumed=resumed,
        exact_within=status.exact_within,
        side=side,
        within=status.within,
    )
