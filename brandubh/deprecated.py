"""Names that moved, kept at their old place for one release.

A public name that moves (docs/architecture.md says where each thing lives)
keeps working where it was until the release CHANGELOG.md names, with a
``DeprecationWarning`` that says where it went. The old module hands it out
through a :class:`Moved`, its module ``__getattr__``: the name is looked up
in its new module when asked for, so the old module imports nothing new,
and the layers stay as they are (``tests/test_layers.py`` checks every such
forward apart from the imports: that it leads to a module that has the name,
which the old one no longer defines).

Standard library only: the lowest layer may use it.

>>> import warnings
>>> forward = Moved('brandubh.old', {'SIDES': 'brandubh.notation'})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter('always')
...     forward('SIDES')
('attackers', 'defenders')
>>> print(caught[0].message)
brandubh.old.SIDES moved to brandubh.notation.SIDES; the old name goes in 0.3.0
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Mapping

__all__ = ["Moved", "REMOVED_IN"]

#: The release that removes the names kept at their old place.
REMOVED_IN = "0.3.0"


class Moved:
    """The module ``__getattr__`` of ``module`` for the names that left it:
    ``names`` maps each to the module it moved to. Asked for one, it warns
    (``DeprecationWarning``, pointing at the caller) and gives the name's
    value from its new module; any other name is an ``AttributeError``, as
    for a module without one."""

    def __init__(self, module: str, names: Mapping[str, str]) -> None:
        self.module = module
        self.names = dict(names)

    def __call__(self, name: str) -> Any:
        new = self.names.get(name)
        if new is None:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}")
        warnings.warn(f"{self.module}.{name} moved to {new}.{name}; the old name goes in {REMOVED_IN}",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new), name)
