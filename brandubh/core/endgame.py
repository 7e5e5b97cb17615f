"""Endgame tables from Python: every position with the king and a few
soldiers, won, drawn or lost for the side to move and in how many plies
(docs/proofs.md, "Endgame tables").

The tables are built in C (csrc/endgame.c) by retrograde analysis over the
engine's own moves, captures and endings, a material signature at a time
(``attackers`` and ``defenders`` beside the king), the smaller ones first.
:class:`EndgameTables` holds a set for one variant, builds or loads its
tables, probes a position, and walks a table to check it. Files are
:mod:`brandubh.endgame`'s.

>>> tables = EndgameTables('brandubh')
>>> for attackers, defenders in signatures(1):
...     _ = tables.build(attackers, defenders)
>>> tables.probe('7/7/7/3k3/7/7/1a5 d')
Probe(value='win', plies=3)
>>> tables.probe('7/7/7/3k3/7/7/1a5 a')
Probe(value='loss', plies=4)
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from typing import Any, Optional

from . import stopping
from .._engine import ffi, lib
from ..errors import ArgumentError, EngineError, quote
from ..variant import Variant, VariantLike, as_variant
from .position import c_constants, c_position, c_variant, new_position, position_text
from .stopping import check_stop

__all__ = ["EndgameTables", "Probe", "TableStats", "signatures", "entries", "rules_key", "every_core",
           "RULE_FIELDS", "MAX_SOLDIERS", "VALUES"]

#: The most soldiers beside the king a table may hold (BD_EG_MAX_SOLDIERS).
MAX_SOLDIERS: int = lib.BD_EG_MAX_SOLDIERS
#: What a probe says for the side to move, by ``enum bd_eg``: "none" (no
#: table holds it), "win", "draw", "loss".
VALUES = {value: name.lower() for name, value in c_constants("bd_eg", "EG_").items()}
#: The fields of a variant that a table's values depend on: the history's
#: (repetition, the caps) are not among them, the tables judging every
#: position with no history (docs/proofs.md says what a value then means).
RULE_FIELDS = ("escape", "throne_pass", "throne_reentry", "throne_hostile", "king_armed", "king_capture",
               "encirclement", "no_pieces", "no_move")


def rules_key(variant: VariantLike) -> str:
    """The hash of the fields in :data:`RULE_FIELDS`: two variants with the
    same key have the same tables.

    >>> rules_key('brandubh') == rules_key(Variant.named('brandubh').replace(ply_cap=90))
    True
    """
    v = as_variant(variant)
    text = ";".join(f"{name}={getattr(v, name)}" for name in RULE_FIELDS)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def signatures(pieces: int) -> list[tuple[int, int]]:
    """Every material signature (attackers, defenders) with up to ``pieces``
    soldiers beside the king, in the order they are built: fewer first.

    >>> signatures(1)
    [(0, 0), (0, 1), (1, 0)]
    """
    if not isinstance(pieces, int) or isinstance(pieces, bool) or not 0 <= pieces <= MAX_SOLDIERS:
        raise ArgumentError(f"pieces must be a whole number from 0 to {MAX_SOLDIERS}, not {quote(pieces)}")
    return [(a, n - a) for n in range(pieces + 1) for a in range(n + 1)]


def entries(attackers: int, defenders: int) -> int:
    """The bytes of a signature's table (one a position, up to symmetry)."""
    _check_signature(attackers, defenders)
    return int(lib.bd_endgame_entries(attackers, defenders))


def _check_signature(attackers: object, defenders: object) -> None:
    for name, n in (("attackers", attackers), ("defenders", defenders)):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ArgumentError(f"{name} must be a whole number from 0, not {quote(n)}")
    if attackers + defenders > MAX_SOLDIERS:  # type: ignore[operator]
        raise ArgumentError(f"a table holds at most {MAX_SOLDIERS} soldiers beside the king, "
                            f"not {attackers} attackers and {defenders} defenders")


@dataclass(frozen=True)
class Probe:
    """A table's value for the side to move: ``value`` "win", "draw" or
    "loss", and ``plies`` to the end with best play (0 for a draw): for a
    win the fewest the winner needs, for a loss the most the loser can hold
    out."""

    value: str
    plies: int


@dataclass(frozen=True)
class TableStats:
    """One signature's table: its bytes (``entries``), how many are
    positions, won, drawn and lost for the side to move, the ``longest``
    distance in plies, and the retrograde passes made (``levels``)."""

    attackers: int
    defenders: int
    entries: int
    positions: int
    wins: int
    draws: int
    losses: int
    longest: int
    levels: int


_BUILD_ERRORS = {
    -1: "out of memory for the table",
    -3: "a smaller table it needs is not built or loaded",
    -4: "a distance longer than the format holds (127 plies)",
}


class EndgameTables:
    """A set of endgame tables for one variant (only :data:`RULE_FIELDS`
    matter), empty at first: :meth:`build` or :meth:`load` each signature,
    the smaller ones first.

    A set may be given to :meth:`brandubh.Rules.search` (``endgame=``),
    which then scores the positions it holds exactly.
    """

    def __init__(self, variant: VariantLike = "brandubh") -> None:
        self.variant: Variant = as_variant(variant)
        raw = lib.bd_endgame_new(c_variant(self.variant))
        if raw == ffi.NULL:
            raise EngineError("out of memory for the endgame tables")
        self._t = ffi.gc(raw, lib.bd_endgame_free)
        #: The signatures the set holds, each with its figures.
        self.tables: dict[tuple[int, int], TableStats] = {}
        self.lock = threading.Lock()

    @property
    def soldiers(self) -> int:
        """The most soldiers beside the king of a signature every smaller
        one of which the set holds (-1 when it holds none)."""
        n = -1
        while n < MAX_SOLDIERS and all(s in self.tables for s in signatures(n + 1)):
            n += 1
        return n

    def c_tables(self) -> Any:
        """The engine's set (a ``bd_endgame *``), for the search."""
        return self._t

    def build(self, attackers: int, defenders: int, threads: Optional[int] = None,
              stop: Optional[threading.Event] = None) -> TableStats:
        """Build one signature's table on ``threads`` threads (by default
        one); every smaller one must be in the set. The same bytes on any
        number of threads. Ctrl-C or ``stop`` ends it with
        KeyboardInterrupt or an :class:`~brandubh.errors.ArgumentError`
        (nothing kept)."""
        _check_signature(attackers, defenders)
        check_stop(stop)
        count = _threads(threads)
        out = ffi.new("bd_endgame_stats *")

        def job(flag: Any) -> int:
            return lib.bd_endgame_build(self._t, attackers, defenders, count, flag, out)

        with self.lock:
            self._check_new(attackers, defenders)
            code = stopping.run(job, stop, None, True)
            if code == 0:
                stats = TableStats(attackers, defenders, out.entries, out.positions, out.wins, out.draws,
                                   out.losses, out.longest, out.levels)
                self.tables[(attackers, defenders)] = stats
        if code == 1:
            raise ArgumentError(f"the table of {attackers} attackers and {defenders} defenders was stopped "
                                "before it was done; nothing was kept")
        if code != 0:
            if code == -1:
                raise EngineError(_BUILD_ERRORS[-1])
            raise ArgumentError(f"cannot build the table of {attackers} attackers and {defenders} defenders: "
                                f"{_BUILD_ERRORS.get(code, 'the engine refused it')}")
        return stats

    def _check_new(self, attackers: int, defenders: int) -> None:
        # A table once in the set stays as it is: a search may be reading
        # it in another thread (the engine's set frees a table it replaces).
        if (attackers, defenders) in self.tables:
            raise ArgumentError(f"the set holds the table of {attackers} attackers and {defenders} defenders "
                                "already; make a new set for new tables")

    def data(self, attackers: int, defenders: int) -> bytes:
        """A signature's table as bytes (csrc/endgame.c says what each means)."""
        _check_signature(attackers, defenders)
        ptr = lib.bd_endgame_data(self._t, attackers, defenders)
        if ptr == ffi.NULL:
            raise ArgumentError(f"the set holds no table of {attackers} attackers and {defenders} defenders")
        return bytes(ffi.buffer(ptr, entries(attackers, defenders)))

    def load(self, stats: TableStats, data: bytes) -> None:
        """Put a signature's table in the set, as :meth:`data` gave it."""
        _check_signature(stats.attackers, stats.defenders)
        if len(data) != entries(stats.attackers, stats.defenders):
            raise ArgumentError(f"a table of {stats.attackers} attackers and {stats.defenders} defenders has "
                                f"{entries(stats.attackers, stats.defenders):,} bytes, not {len(data):,}")
        with self.lock:
            self._check_new(stats.attackers, stats.defenders)
            if lib.bd_endgame_load(self._t, stats.attackers, stats.defenders, data, len(data)) != 0:
                raise EngineError(_BUILD_ERRORS[-1])
            self.tables[(stats.attackers, stats.defenders)] = stats

    def probe_c(self, pos: Any) -> Optional[Probe]:
        """:meth:`probe` for an engine position (a ``bd_pos *``)."""
        plies = ffi.new("int *")
        value = VALUES[lib.bd_endgame_probe(self._t, pos, plies)]
        return None if value == "none" else Probe(value, plies[0])

    def probe(self, position: str) -> Optional[Probe]:
        """The value of a position string for its side to move, or None
        when no table of the set holds it (too many soldiers, a table not
        there, no king, or a position already over)."""
        return self.probe_c(c_position(position))

    def check(self, attackers: int, defenders: int, stop: Optional[threading.Event] = None,
              threads: Optional[int] = None) -> tuple[int, Optional[str]]:
        """Walk a table on ``threads`` threads (by default one) and work
        each position's value out again from its moves (the engine's) and
        what they reach (the tables'), apart from the build: how many
        disagree, and the first one's position (the same on any number of
        threads)."""
        _check_signature(attackers, defenders)
        check_stop(stop)
        count = _threads(threads)
        bad = ffi.new("uint64_t *")

        def job(flag: Any) -> int:
            return int(lib.bd_endgame_check(self._t, attackers, defenders, count, flag, bad))

        with self.lock:
            wrong = stopping.run(job, stop, None, True)
        if wrong == -1:
            raise ArgumentError(f"the set holds no table of {attackers} attackers and {defenders} defenders")
        if wrong == -2:
            raise ArgumentError("the check was stopped before it was done")
        return wrong, position_at(attackers, defenders, bad[0]) if wrong else None


def every_core(threads: Optional[int] = None) -> int:
    """``threads``, or by default every core, at most the engine's most
    (BD_MAX_THREADS): what a command that builds or checks tables uses."""
    return min(threads or os.cpu_count() or 1, lib.BD_MAX_THREADS)


def _threads(threads: Optional[int]) -> int:
    """A build's or a check's threads, checked: 1 by default."""
    if threads is None:
        return 1
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= lib.BD_MAX_THREADS:
        raise ArgumentError(f"threads must be a whole number from 1 to {lib.BD_MAX_THREADS}, not {quote(threads)}")
    return threads


def position_at(attackers: int, defenders: int, index: int) -> str:
    """The position at an index of a signature's table (whether the table
    holds it or not: a mirror image, soldiers on one square...), as a
    position string."""
    _check_signature(attackers, defenders)
    if not isinstance(index, int) or not 0 <= index < entries(attackers, defenders):
        raise ArgumentError(f"index must be a whole number below {entries(attackers, defenders)}, "
                            f"not {quote(index)}")
    pos = new_position()
    lib.bd_endgame_position(attackers, defenders, index, pos)
    return position_text(pos)
