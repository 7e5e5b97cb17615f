"""brandubh: the Irish 7x7 tafl game, a C engine with a Python API.

>>> import brandubh
>>> brandubh.perft(2)
960
>>> r = brandubh.Rules(variant='codingame')
>>> r.play('d2c2'), r.side
(0, 'defenders')
>>> print(r.search(budget=2_000).move)
e4e2

The names below load the compiled engine on first use, so that
``import brandubh.notation`` works without it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

__version__ = "0.1.0"
"""The package's version."""

SETUP = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"
"""The position every game starts from unless it is told otherwise."""

# name -> the module that defines it
_LAZY = {
    "Variant": "variant", "PRESETS": "variant",
    "BrandubhError": "errors", "VariantError": "errors", "PositionError": "errors",
    "SquareError": "errors", "MoveError": "errors", "ArgumentError": "errors",
    "EngineError": "errors", "Stopped": "errors", "Stop": "core.stopping",
    "Position": "core.position", "MoveReport": "core.position", "Why": "core.position", "square": "core.position",
    "square_name": "core.position", "move": "core.position", "move_from": "core.position", "move_to": "core.position",
    "move_text": "core.position", "parse_move": "core.position", "ATTACKERS": "core.position", "DEFENDERS": "core.position",
    "Rules": "core.rules", "Outcome": "core.outcomes", "outcome_name": "core.outcomes", "perft": "core.perft",
    "perft_stats": "core.perft", "divide": "core.perft", "PerftStats": "core.perft", "PlayoutStats": "core.playouts",
    "Game": "game", "LegalMove": "moves", "Refusal": "refusals", "RefusalCode": "refusals",
    "Result": "moves", "Refused": "refusals", "Replay": "game",
    "Bot": "bot", "SearchResult": "core.search", "Move": "moves",
}

__all__ = ["SETUP", "__version__", *_LAZY]

# Old names kept one release (CHANGELOG.md), each use with a
# DeprecationWarning (brandubh.deprecation): old -> "module:new name".
_RENAMED = {"Engine": "brandubh.core.position:Position"}

if TYPE_CHECKING:
    # The same names, for type checkers: with these a checker sees the real
    # classes and functions, where the module ``__getattr__`` would make each
    # of them ``Any``. tests/test_typing.py checks that this block and
    # ``_LAZY`` name the same things from the same modules.
    from .bot import Bot as Bot
    from .core.position import (
        ATTACKERS as ATTACKERS, DEFENDERS as DEFENDERS, Engine as Engine, MoveReport as MoveReport,
        Position as Position, Why as Why, move as move, move_from as move_from, move_text as move_text,
        move_to as move_to, parse_move as parse_move, square as square, square_name as square_name,
    )
    from .errors import (
        ArgumentError as ArgumentError, BrandubhError as BrandubhError, EngineError as EngineError,
        MoveError as MoveError, PositionError as PositionError, SquareError as SquareError,
        Stopped as Stopped, VariantError as VariantError,
    )
    from .game import Game as Game, Replay as Replay
    from .moves import LegalMove as LegalMove, Move as Move, Result as Result
    from .refusals import Refusal as Refusal, RefusalCode as RefusalCode, Refused as Refused
    from .core.outcomes import Outcome as Outcome, outcome_name as outcome_name
    from .core.perft import PerftStats as PerftStats, divide as divide, perft as perft, perft_stats as perft_stats
    from .core.playouts import PlayoutStats as PlayoutStats
    from .core.rules import Rules as Rules
    from .core.search import SearchResult as SearchResult
    from .core.stopping import Stop as Stop
    from .variant import PRESETS as PRESETS, Variant as Variant


def _lazy(package: str, table: Mapping[str, str], namespace: dict,
          old: Optional[Mapping[str, str]] = None) -> Callable[[str], Any]:
    """A package's module ``__getattr__`` for the names of ``table`` (name
    -> the package's module that defines it): it imports that module and
    keeps the value in the package's ``namespace``, so that the next look-up
    does not come back to it. (brandubh.rl loads its names the same way.)
    The names of ``old`` are renamed ones, served with a warning
    (:func:`brandubh.deprecation.renamed`)."""

    def load(name: str) -> Any:
        module = table.get(name)
        if module is None:
            if old and name in old:
                from .deprecation import renamed

                return renamed(package, old)(name)
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    return load


_load = _lazy(__name__, _LAZY, globals(), _RENAMED)


if not TYPE_CHECKING:
    # Hidden from type checkers: a module ``__getattr__`` would let them
    # accept any name at all (``brandubh.Gmae``) as ``Any``.
    __getattr__ = _load


def __dir__() -> list[str]:
    return sorted(__all__)
