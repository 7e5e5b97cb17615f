"""The engine's hot loops, in the build this processor runs best.

The C engine is compiled twice into one module: a portable build for any
processor, and a second copy of perft, the playouts and the search compiled
for the popcount instruction (``csrc/popcnt_build.c``), which every x86-64
processor since about 2009 has but the x86-64 baseline does not promise.
Which one runs is chosen once, here, by asking the processor; both give the
same answers, node for node.

Set the environment variable ``BRANDUBH_PORTABLE=1`` before importing
brandubh to run the portable build anyway (to compare the two, or to rule the
choice out when hunting a problem).

>>> ACTIVE.name in ('portable', 'popcnt')
True
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from .._engine import lib


class Kernels(NamedTuple):
    """One build's entry points: C functions called with cffi arguments."""

    name: str
    perft: Any
    divide: Any
    playouts: Any
    search: Any


PORTABLE = Kernels("portable", lib.bd_perft, lib.bd_divide, lib.bd_playouts, lib.bd_search)
POPCNT = Kernels("popcnt", lib.bd_popcnt_perft, lib.bd_popcnt_divide, lib.bd_popcnt_playouts,
                 lib.bd_popcnt_search)

#: Whether this processor can run the popcount build at all.
HAS_POPCNT = bool(lib.bd_cpu_has_popcnt())

#: The build every call of the package goes to.
ACTIVE = POPCNT if HAS_POPCNT and os.environ.get("BRANDUBH_PORTABLE", "") in ("", "0") else PORTABLE
