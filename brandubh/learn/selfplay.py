"""``brandubh selfplay``: positions from the engine's games against itself,
each with the search's score and the game's result, in a data file for
``brandubh train`` (docs/learned.md).

Each game (csrc/selfplay.c, one C call a game) starts with a few random
moves, then plays the search's move at every turn with a small budget of
positions; every position searched is kept with the search's score (from
the attackers' side) and, once the game is over, its result. The games go
round the rule sets asked for (by default every preset), game ``i`` under
the ``i % len(variants)``-th. Everything follows from the seed: the same
command writes the same bytes.

The data file: a header of 32 bytes, then ``count`` records of 24, every
number little-endian::

    header  magic b"BDSP", version (u16, 1), record size (u16, 24),
            count (u64), seed (u64), budget (u32), random plies (u16, u16:
            the fewest and the most)
    record  attackers (u64 bitboard), defenders (u64, the king not
            included), score (i16), ply (u16), king's square (i8, -1 for
            none), side to move (u8, 0 attackers), result (i8: 1 attackers
            won, -1 defenders, 0 drawn), flags (u8: bd_sample_flag in the
            low four bits, the rule set's number in :data:`TAGS` in the high
            four, 15 for a rule set that is no preset)

The file is written whole (:class:`brandubh.files.WholeFile`: under
another name beside it, then moved into place) when done, or when Ctrl-C
stops the run (then with the positions of the games finished): a reader
never sees half a file, a full disk leaves the old file as it was, and a
link is written through to its target.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), 'd.bin')
>>> generate(path, 50, seed=3, budget=300)
50
>>> info, records = read_data(path)
>>> info.count, len(records), info.budget
(50, 50, 300)
"""

from __future__ import annotations

import os
import struct
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

from ..errors import ArgumentError, DataError, quote
from ..files import WholeFile, open_regular

__all__ = ["MAGIC", "VERSION", "FLAGS", "HEADER", "RECORD", "TAGS", "DataInfo", "Sample", "read_data", "read_header",
           "generate"]

MAGIC = b"BDSP"
VERSION = 1
HEADER = struct.Struct("<4sHHQQIHH")
RECORD = struct.Struct("<QQhHbBbB")
#: The presets by their number in a record's flags.
TAGS = ("brandubh", "codingame", "modern", "opentafl")
OTHER_TAG = 15


def _flags() -> dict:
    from ..core.position import c_constants

    return {name.lower(): bit for name, bit in c_constants("bd_sample_flag", "SAMPLE_").items()}


#: The flags of a record's low four bits, by name (``enum bd_sample_flag``,
#: read from the engine): the king had an open line, the side to move had a
#: capture, the search's score was a win or a loss found.
FLAGS = _flags()
#: Positions written by one C call at most: the longest game there can be.
MAX_GAME = 4096


@dataclass(frozen=True)
class DataInfo:
    """A data file's header."""

    count: int
    seed: int
    budget: int
    random_plies: tuple[int, int]


@dataclass(frozen=True)
class Sample:
    """One record, read."""

    att: int
    dfn: int
    score: int
    ply: int
    king: int
    side: int
    result: int
    flags: int

    @property
    def tag(self) -> int:
        return self.flags >> 4


def read_header(data: bytes, size: int, where: str = "the data") -> DataInfo:
    """The header at the start of ``data``, checked against the file's
    ``size``; DataError, in a sentence, for anything else."""
    if len(data) < HEADER.size:
        raise DataError(f"{where} is truncated: {len(data)} bytes, shorter than the {HEADER.size}-byte header")
    magic, version, rec, count, seed, budget, lo, hi = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise DataError(f"{where} is not a self-play data file (it starts with {quote(magic)}, not {MAGIC!r})")
    if version != VERSION:
        raise DataError(f"{where} is a self-play data file of version {version}; this package reads version {VERSION}")
    if rec != RECORD.size:
        raise DataError(f"{where} has records of {rec} bytes, not {RECORD.size}")
    want = HEADER.size + count * RECORD.size
    if size != want:
        raise DataError(f"{where} is truncated or damaged: its header says {count} positions "
                        f"({want} bytes), the file has {size} bytes")
    return DataInfo(count, seed, budget, (lo, hi))


def read_data(path: Union[str, "os.PathLike[str]"]) -> tuple[DataInfo, list[Sample]]:
    """A data file's header and records, checked (DataError for a file
    that is truncated, of another kind or of another version)."""
    where = os.fspath(path)
    try:
        with open_regular(where, "data file") as f:
            data = f.read()
    except ArgumentError as exc:
        raise DataError(str(exc)) from None
    except OSError as exc:
        raise DataError(f"cannot read the data file {quote(where, 300)}: {exc.strerror or exc}") from None
    info = read_header(data, len(data), f"the data file {quote(where, 300)}")
    return info, [Sample(*RECORD.unpack_from(data, HEADER.size + i * RECORD.size)) for i in range(info.count)]


def _game_seed(seed: int, game: int) -> int:
    """splitmix64 of the seed and the game's number: each game its own."""
    mask = (1 << 64) - 1
    z = (seed * 0x9E3779B97F4A7C15 + (game + 1) * 0xD1B54A32D192ED03) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def _records(buf: Any, n: int) -> bytes:
    from .._engine import ffi

    raw = bytes(ffi.buffer(buf, n * RECORD.size))
    if sys.byteorder == "little":  # the C struct is the record, byte for byte
        return raw
    return b"".join(RECORD.pack(b.att, b.dfn, b.score, b.ply, b.king, b.side, b.result, b.flags)
                    for b in (buf[i] for i in range(n)))


def generate(out: Union[str, "os.PathLike[str]"], positions: int, seed: int = 1,
             variants: Sequence[Any] = TAGS, budget: int = 2000, random_plies: tuple[int, int] = (2, 10),
             weights: Any = None, progress: Optional[Callable[[int, int, float], None]] = None) -> int:
    """Write ``positions`` positions of self-play to ``out``; returns how
    many were written. Ctrl-C ends the run with the games finished so far
    written (a whole file, its header counting them) and then raises
    KeyboardInterrupt. ``progress(positions, games, seconds)`` is called
    after each game."""
    from ..core import kernels
    from .._engine import ffi, lib
    from ..core.position import SETUP, c_position, c_variant
    from ..core.search import c_weights, check_limits
    from ..variant import as_variant

    if not isinstance(positions, int) or isinstance(positions, bool) or not 1 <= positions <= 1 << 32:
        raise ArgumentError(f"positions must be a whole number from 1 to 2**32, not {quote(positions)}")
    check_limits(budget, seed if 0 <= seed < 1 << 32 else -1, None)
    if (len(random_plies) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in random_plies)
            or not 0 <= random_plies[0] <= random_plies[1] <= 60):
        raise ArgumentError(f"random plies must be two whole numbers 0 <= fewest <= most <= 60, not {quote(random_plies)}")
    if not variants:
        raise ArgumentError("no rule set to play under")
    vs = [as_variant(v) for v in variants]
    tags = [TAGS.index(v.name) if v.name in TAGS else OTHER_TAG for v in vs]
    cvs = [c_variant(v) for v in vs]
    w = c_weights(weights)
    start = c_position(SETUP)
    limits = ffi.new("bd_search_limits *")
    limits.budget = budget
    buf = ffi.new("bd_sample[]", MAX_GAME)
    popcnt = int(kernels.ACTIVE is kernels.POPCNT)
    lo, hi = random_plies
    written = games = 0
    stopped = False
    t0 = time.perf_counter()
    # Finished or stopped by Ctrl-C, the header counts what is there and
    # the file goes into place whole; a full disk leaves the old file.
    with WholeFile(out) as new:
        f = new.file
        f.write(HEADER.pack(MAGIC, VERSION, RECORD.size, 0, seed, budget, lo, hi))
        try:
            while written < positions:
                gs = _game_seed(seed, games)
                k = games % len(vs)
                limits.seed = gs & 0xFFFFFFFF
                plies = lo + (gs >> 32) % (hi - lo + 1)
                n = lib.bd_selfplay(cvs[k], start, gs, plies, limits, w, popcnt, tags[k], buf, MAX_GAME)
                if n < 0:
                    from ..errors import EngineError

                    raise EngineError("out of memory for a self-play game")
                n = min(n, positions - written)
                f.write(_records(buf, n))
                written += n
                games += 1
                if progress is not None:
                    progress(written, games, time.perf_counter() - t0)
        except KeyboardInterrupt:
            stopped = True
        f.seek(0)
        f.write(HEADER.pack(MAGIC, VERSION, RECORD.size, written, seed, budget, lo, hi))
    if stopped:
        raise KeyboardInterrupt
    return written


def read_header_of(path: Union[str, "os.PathLike[str]"]) -> tuple[DataInfo, int]:
    """A data file's header, checked against its size, without reading the
    records; and its size in bytes."""
    where = os.fspath(path)
    try:
        with open_regular(where, "data file") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(HEADER.size)
    except ArgumentError as exc:
        raise DataError(str(exc)) from None
    except OSError as exc:
        raise DataError(f"cannot read the data file {quote(where, 300)}: {exc.strerror or exc}") from None
    return read_header(head, size, f"the data file {quote(where, 300)}"), size
