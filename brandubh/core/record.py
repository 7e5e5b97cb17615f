"""Deprecated (goes in brandubh 0.3.0): this module was split by concept.
:class:`~brandubh.Rules` and what it says (``PLAY_OK``...) are
:mod:`brandubh.core.rules`; the outcomes :mod:`brandubh.core.outcomes`;
perft :mod:`brandubh.core.perft`; the playouts :mod:`brandubh.core.playouts`;
``timed_table_mb`` :mod:`brandubh.core.search`. Importing it warns once and
gives the same names."""

from __future__ import annotations

from ..deprecation import moved_module

moved_module(__name__, "brandubh.core.rules, brandubh.core.outcomes, brandubh.core.perft, "
                       "brandubh.core.playouts or brandubh.core.search")

from .outcomes import *  # noqa: E402,F401,F403 - the old module's names, as they were
from .outcomes import __all__ as _outcomes
from .perft import *  # noqa: E402,F401,F403
from .perft import __all__ as _perft
from .playouts import *  # noqa: E402,F401,F403
from .playouts import __all__ as _playouts
from .rules import *  # noqa: E402,F401,F403
from .rules import __all__ as _rules
from .search import timed_table_mb  # noqa: E402,F401

__all__ = sorted({*_outcomes, *_perft, *_playouts, *_rules, "timed_table_mb"})
