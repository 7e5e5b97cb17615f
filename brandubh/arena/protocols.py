"""The wire protocols the arena speaks to programs, found by name: each a
package of this one with a ``host`` module (the arena's side of it: a
``Session`` class, and ``RULES`` when the protocol cannot tell a program
the rules).

>>> protocol_host('opentafl').__name__, PROTOCOLS
('brandubh.opentafl.host', ('codingame', 'opentafl'))
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Sequence

from ..errors import BrandubhError, quote

__all__ = ["PROTOCOLS", "protocol_host", "protocol_session", "rules_differ"]

PROTOCOLS = ("codingame", "opentafl")
"""The wire protocols: each a package of that name with a ``host`` module."""


def protocol_host(name: str) -> Any:
    """The arena's side of the wire protocol ``name``: the module
    ``brandubh.<name>.host`` (each protocol is a package of its own)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", str(name)):
        raise BrandubhError(f"{quote(name)} is not the name of a wire protocol")
    try:
        module = importlib.import_module(f"brandubh.{name}.host")
    except ImportError:
        module = None
    if module is None or not hasattr(module, "Session"):
        raise BrandubhError(f"{quote(name)} is not a wire protocol this package speaks "
                            f"({', '.join(PROTOCOLS)})")
    return module


def protocol_session(name: str, variant: Any, seat: str) -> Any:
    """A ``Session`` of the wire protocol ``name`` (:func:`protocol_host`)."""
    return protocol_host(name).Session(variant, seat)


def rules_differ(plays: Any, variant: Any, judged: Sequence[str] = ()) -> list[str]:
    """The rule fields in which ``variant`` differs from ``plays``, those
    in ``judged`` (what the host alone judges) left out.

    >>> rules_differ('codingame', 'codingame repeat=5', ('repeat',)), rules_differ('brandubh', 'modern')[:2]
    ([], ['throne_reentry', 'king_capture'])
    """
    from dataclasses import fields

    from ..variant import as_variant

    a, b = as_variant(plays), as_variant(variant)
    return [f.name for f in fields(a) if f.compare and f.name not in judged
            and getattr(a, f.name) != getattr(b, f.name)]
