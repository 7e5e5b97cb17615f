"""The search from Python: its limits, its body (:func:`search_game`, what
:meth:`brandubh.Rules.search` runs) and its results.

The search itself is C (csrc/search.c): iterative deepening principal
variation search with a transposition table, limited by a count of
positions; C reads no clock. The same game, budget, depth, seed, table size
and weights give the same move, score and node count on every machine.
Only ``time_ms=`` and ``stop=`` (brandubh/stopping.py), which end a search
when the caller says so, and ``threads=`` above 1 (helper threads sharing
the table: lazy SMP, docs/searching.md) are not deterministic, unless the
threads take turns (``lockstep=True``).

>>> from brandubh import Rules
>>> found = Rules().search(budget=20_000, seed=7)
>>> found.nodes <= 20_000, Rules().search(budget=20_000, seed=7) == found
(True, True)
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from . import kernels, stopping
from .._engine import ffi, lib
from .position import c_constants
from .weights import EVALS, WEIGHT_NAMES, c_weights, default_weights  # noqa: F401 - theirs, named here too
from ..errors import ArgumentError, EngineError, quote
from ..moves import Move

if TYPE_CHECKING:
    from .endgame import EndgameTables
    from .weights import WeightsLike

MATE = lib.BD_MATE
WIN = lib.BD_WIN
MAX_DEPTH = lib.BD_MAX_DEPTH
MAX_BUDGET = 1 << 40
#: The budget of a search given neither a budget nor a clock.
DEFAULT_BUDGET = 20_000
#: The largest transposition table a caller may ask for, in MiB (16 GiB).
MAX_HASH_MB = 1 << 14
#: The most threads one search runs on (the engine's BD_MAX_THREADS).
MAX_THREADS = lib.BD_MAX_THREADS
#: Searches up to this many positions take a few tens of milliseconds at
#: most, and run in the calling thread; from the main thread larger ones run
#: in a worker, so that Ctrl-C stops them (brandubh/stopping.py).
INLINE_BUDGET = 500_000
#: So do searches limited to this many moves ahead: tens of milliseconds too
#: (the bench's, at depth 9, visit 5,554 to 135,192 positions). In the
#: worker the bench ran 2% to 5% slower (the search's memory is laid out
#: elsewhere, and the thread may move to the other core).
INLINE_DEPTH = 9

def check_limits(budget: object, seed: object, depth: object) -> None:
    if not isinstance(budget, int) or isinstance(budget, bool) or not 1 <= budget <= MAX_BUDGET:
        raise ArgumentError(f"budget must be a whole number of positions from 1 to 2**40, not {quote(budget)}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 32:
        raise ArgumentError(f"seed must be a whole number from 0 to 4294967295, not {quote(seed)}")
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH):
        raise ArgumentError(f"depth must be a whole number from 1 to {MAX_DEPTH}, or None, not {quote(depth)}")


def check_hash_mb(hash_mb: object) -> None:
    if hash_mb is not None and (not isinstance(hash_mb, int) or isinstance(hash_mb, bool)
                                or not 1 <= hash_mb <= MAX_HASH_MB):
        raise ArgumentError(f"hash_mb must be a whole number of MiB from 1 to {MAX_HASH_MB}, or None, "
                            f"not {quote(hash_mb)}")


def check_threads(threads: object) -> None:
    """``threads=`` must be None or a whole number from 1 to :data:`MAX_THREADS`.

    >>> check_threads(2)
    >>> check_threads(0)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: threads must be a whole number from 1 to 64, or None, not 0
    """
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)
                                or not 1 <= threads <= MAX_THREADS):
        raise ArgumentError(f"threads must be a whole number from 1 to {MAX_THREADS}, or None, "
                            f"not {quote(threads)}")


def check_lockstep(lockstep: object) -> None:
    """``lockstep=`` must be True or False.

    >>> check_lockstep(1)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: lockstep must be True or False, not 1
    """
    if not isinstance(lockstep, bool):
        raise ArgumentError(f"lockstep must be True or False, not {quote(lockstep)}")


def salt_bytes(salt: Union[str, bytes, bytearray, None], what: str = "salt") -> bytes:
    """Any string or bytes as bytes: UTF-8, lone surrogates included (so
    every Python string has one stable encoding); None is empty."""
    if salt is None:
        return b""
    if isinstance(salt, str):
        return salt.encode("utf-8", "surrogatepass")
    if isinstance(salt, (bytes, bytearray)):
        return bytes(salt)
    raise ArgumentError(f"{what} must be a string or bytes, not {type(salt).__name__}")


def salt_seed(salt: Union[str, bytes, None]) -> int:
    """A 32-bit search seed from any string or bytes, by a stable hash
    (the first four bytes of SHA-256 of its UTF-8): the same salt, the same
    seed, on any machine and in any Python.

    >>> salt_seed('abc') == salt_seed(b'abc'), salt_seed(None)
    (True, 1)
    """
    if salt is None:
        return 1
    return int.from_bytes(hashlib.sha256(salt_bytes(salt)).digest()[:4], "big")


class SearchResult(NamedTuple):
    """What a search found.

    ``move`` is the move, a :class:`~brandubh.Move` (from
    :class:`~brandubh.Rules` and :class:`~brandubh.Game` alike): it prints
    as ``d1d3``, either of them plays it, and it is the engine's move number
    too; ``score`` is for the
    side to move: above 29,000 a win found, below -29,000 a loss; ``depth``
    how many moves ahead the result comes from (0 when stopped before a
    look one move ahead was done: the move is then the ordering's first
    choice); ``nodes`` the positions visited (never more than the budget, and half again on a root fail low);
    ``stopped`` true when the search was cut part way through an iteration,
    by the budget running out or by ``stop=`` or ``time_ms=``; ``pv`` the
    line the search expects, Moves too.
    (A named tuple: made in a fraction of a microsecond.)

    >>> from brandubh import Rules
    >>> found = Rules().search(budget=2_000)
    >>> found.move, found.pv[:2]
    (Move('b4b3'), (Move('b4b3'), Move('d5b5')))
    >>> print(found.move)
    b4b3
    """

    move: Move
    score: int
    depth: int
    nodes: int
    stopped: bool
    pv: tuple[Move, ...]

    @property
    def is_win(self) -> bool:
        return self.score > WIN

    @property
    def is_loss(self) -> bool:
        return self.score < -WIN

    @property
    def mate_in(self) -> Optional[int]:
        """Moves (plies) to the end of a forced result, or None."""
        if abs(self.score) > WIN:
            return MATE - abs(self.score)
        return None


#: Search features that `brandubh match` can turn off to measure them, by
#: name, and the bit of each: ``enum bd_off`` of csrc/brandubh.h (BD_OFF_TT is
#: "tt"), read from the engine.
FEATURES = {name.lower(): bit for name, bit in c_constants("bd_off", "OFF_").items()}


def features_off(names: object) -> int:
    """The engine's mask for a list of feature names to turn off (a
    tuple or list of names, or one name); an ArgumentError for anything else.

    >>> features_off(['tt']) == FEATURES['tt'], features_off(())
    (True, 0)
    >>> features_off(5)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: off must be a list of search feature names (tt, ...), not 5
    """
    if isinstance(names, str):
        names = (names,)
    if not isinstance(names, (tuple, list, set, frozenset)):
        raise ArgumentError(f"off must be a list of search feature names ({next(iter(FEATURES))}, ...), "
                            f"not {quote(names)}")
    mask = 0
    for name in names:
        if name not in FEATURES:
            raise ArgumentError(f"no search feature named {quote(name)}; they are {', '.join(FEATURES)}")
        mask |= FEATURES[name]
    return mask


def run_search(game_ptr, budget: int, seed: int, depth: Optional[int], weights,
               off: int = 0, time_ms: Optional[float] = None, stop=None,
               hash_mb: Optional[int] = None, threads: Optional[int] = None,
               endgame: Optional[EndgameTables] = None, lockstep: bool = False) -> Optional[tuple]:
    """One C call; returns (move, score, depth, nodes, stopped, pv), the
    moves as :class:`~brandubh.Move` values, or None. The arguments are
    checked already. Ctrl-C raises KeyboardInterrupt."""
    limits = ffi.new("bd_search_limits *")
    limits.budget, limits.depth, limits.seed, limits.off = budget, depth or 0, seed, off
    if hash_mb is not None:
        limits.tt_bytes = hash_mb << 20
    if threads is not None:
        limits.threads = threads
    limits.lockstep = lockstep
    if endgame is not None:
        lib.bd_endgame_attach(limits, endgame.c_tables())
    out = ffi.new("bd_search_result *")
    long = budget > INLINE_BUDGET and (depth is None or depth > INLINE_DEPTH)
    if not stopping.must_wait(stop, time_ms, long):
        if stop is not None:
            limits.stop = stopping.flag_of(stop)
        code = kernels.ACTIVE.search(game_ptr, limits, weights, out)
    else:
        copy = stopping.clone_game(game_ptr)

        def job(flag) -> int:
            limits.stop = flag
            return kernels.ACTIVE.search(copy, limits, weights, out)

        code = stopping.wait_for(job, stop, time_ms)
    if code == 1:
        return None
    if code != 0:
        raise EngineError("out of memory for the search")
    pv = tuple(Move(out.pv[i]) for i in range(out.pv_length))
    return Move(out.move), out.score, out.depth, out.nodes, bool(out.stopped), pv


def timed_table_mb(budget: int, time_ms: float) -> Optional[int]:
    """The table's size (MiB) for a search under a clock, when the time
    calls for a smaller one than the budget does; else None (the budget's).

    Each search makes its table afresh, and the system gives its pages as
    they are first touched: a 32 MiB table, what a search with no budget
    gets, cost about 35 ms of page faults a search on this project's
    machine, most of a 50 ms move, and two threads touching it at once were
    slower than one (docs/searching.md, "Threads"). Huge pages, where Linux
    gives them (csrc/memory.c), make that a few milliseconds; elsewhere it
    stands. So the table is sized for
    the positions the time allows: 20 million a second, an entry for every
    eight, as the budget's rule (from 1 to 32 MiB).

    >>> timed_table_mb(100_000_000, 50), timed_table_mb(100_000_000, 400), timed_table_mb(20_000, 50)
    (1, 8, None)
    """
    entries = 1024
    while entries < (1 << 21) and entries * 8 <= budget:
        entries *= 2
    wanted = 20_000 * time_ms / 8 * 16  # bytes: the positions in the time, an entry for every eight
    mb = 1
    while mb < 32 and (mb * 2) << 20 <= wanted:
        mb *= 2
    return mb if (mb << 20) < entries * 16 else None


def search_game(game_ptr: Any, budget: Optional[int], seed: int, depth: Optional[int], weights: "WeightsLike",
                off: int = 0, time_ms: Optional[float] = None, stop: Any = None, hash_mb: Optional[int] = None,
                threads: Optional[int] = None, endgame: Optional[EndgameTables] = None,
                lockstep: bool = False) -> Optional[SearchResult]:
    """The body of :meth:`brandubh.Rules.search` for the engine's game
    ``game_ptr`` (a ``bd_game *``, whose lock the caller holds): every
    argument checked, the defaults filled in, one search; None when the
    game is over."""
    if budget is None:
        budget = DEFAULT_BUDGET if time_ms is None else MAX_BUDGET
    check_limits(budget, seed, depth)
    if (time_ms is not None or stop is not None or hash_mb is not None or threads is not None
            or lockstep is not False):
        time_ms = stopping.check_time_ms(time_ms)
        stopping.check_stop(stop)
        check_hash_mb(hash_mb)
        check_threads(threads)
        check_lockstep(lockstep)
        if lib.bd_game_outcome(game_ptr) != lib.BD_ONGOING:
            return None  # no copy, no worker, no wait
    if hash_mb is None and time_ms is not None:
        hash_mb = timed_table_mb(budget, time_ms)
    raw = run_search(game_ptr, budget, seed, depth, c_weights(weights), off, time_ms, stop, hash_mb, threads,
                     endgame, lockstep)
    if raw is None:
        return None
    return SearchResult(*raw)
