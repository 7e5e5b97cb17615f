"""brandubh: the Irish 7x7 tafl game, a C engine with a Python API.

>>> import brandubh
>>> brandubh.perft(2)
960
>>> r = brandubh.Rules(variant='codingame')
>>> r.play('d2c2'), r.side
(0, 'defenders')

The names below load the compiled engine on first use, so that
``import brandubh.notation`` works without it.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

SETUP = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"

# name -> the module that defines it
_LAZY = {
    "Variant": "variant", "PRESETS": "variant",
    "BrandubhError": "errors", "VariantError": "errors", "PositionError": "errors",
    "SquareError": "errors", "MoveError": "errors", "ArgumentError": "errors",
    "EngineError": "errors",
    "Engine": "engine", "MoveReport": "engine", "Why": "engine", "square": "engine",
    "square_name": "engine", "move": "engine", "move_from": "engine", "move_to": "engine",
    "move_text": "engine", "parse_move": "engine", "ATTACKERS": "engine", "DEFENDERS": "engine",
    "Rules": "rules", "Outcome": "rules", "outcome_name": "rules", "perft": "rules",
    "perft_stats": "rules", "divide": "rules", "PerftStats": "rules", "PlayoutStats": "rules",
    "Game": "game", "LegalMove": "game", "Refusal": "game", "RefusalCode": "game",
    "Result": "game", "Refused": "game", "Replay": "game",
    "Bot": "bot", "SearchResult": "search",
}

__all__ = ["SETUP", "__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'brandubh' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
