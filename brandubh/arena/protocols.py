"""The wire protocols the arena speaks to programs, found by name: each a
package of this one with a ``driver`` module, the arena's side of it: a
``Driver`` class (one a program and a game), ``TITLE`` (its name in
sentences), and ``RULES`` when the protocol cannot tell a program the rules.

>>> driver_module('opentafl').__name__, PROTOCOLS
('brandubh.opentafl.driver', ('codingame', 'opentafl'))
>>> driver_module('telnet')
Traceback (most recent call last):
...
brandubh.errors.BrandubhError: 'telnet' is not a wire protocol this package speaks (codingame, opentafl)
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Sequence

from ..errors import BrandubhError, quote

__all__ = ["PROTOCOLS", "driver_module", "new_driver", "rules_differ"]

PROTOCOLS = ("codingame", "opentafl")
"""The wire protocols: each a package of that name with a ``driver`` module."""


def driver_module(name: str) -> Any:
    """The arena's side of the wire protocol ``name``: the module
    ``brandubh.<name>.driver`` (each protocol is a package of its own)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", str(name)):
        raise BrandubhError(f"{quote(name)} is not the name of a wire protocol")
    try:
        module = importlib.import_module(f"brandubh.{name}.driver")
    except ImportError:
        module = None
    if module is None or not hasattr(module, "Driver"):
        raise BrandubhError(f"{quote(name)} is not a wire protocol this package speaks "
                            f"({', '.join(PROTOCOLS)})")
    return module


def new_driver(name: str, variant: Any, seat: str) -> Any:
    """A ``Driver`` of the wire protocol ``name`` (:func:`driver_module`)
    for one program in one game, at ``seat`` under ``variant``."""
    return driver_module(name).Driver(variant, seat)


def rules_differ(plays: Any, variant: Any, judged: Sequence[str] = ()) -> list[str]:
    """The rule fields in which ``variant`` differs from ``plays``, those
    in ``judged`` (what the arena alone judges) left out.

    >>> rules_differ('codingame', 'codingame repeat=5', ('repeat',)), rules_differ('brandubh', 'modern')[:2]
    ([], ['throne_reentry', 'king_capture'])
    """
    from dataclasses import fields

    from ..variant import as_variant

    a, b = as_variant(plays), as_variant(variant)
    return [f.name for f in fields(a) if f.compare and f.name not in judged
            and getattr(a, f.name) != getattr(b, f.name)]
