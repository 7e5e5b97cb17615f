"""Old names kept for one release after a rename: each still works, with a
:class:`DeprecationWarning` that names the new one (CHANGELOG.md lists
them under "Deprecated").

Two kinds, one mechanism. A module kept at its old path calls
:func:`moved_module` at its top and re-exports the new modules' names; a
renamed name is served by a module ``__getattr__`` that :func:`renamed`
makes. The warning is attributed to the line that used the old name, past
the import system and this machinery, so Python's default filter shows it
where that line is in ``__main__``, and a test suite sees it as its own.

>>> import warnings
>>> from brandubh.notation import SETUP
>>> getattr_ = renamed('brandubh.notation', {'OLD_SETUP': 'SETUP'})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter('always')
...     value = getattr_('OLD_SETUP')
>>> value is SETUP, str(caught[0].message)
(True, 'brandubh.notation.OLD_SETUP is deprecated and goes in brandubh 0.3.0: use brandubh.notation.SETUP')
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import FrameType
from typing import Any, Callable, Mapping, Optional

__all__ = ["REMOVED_IN", "message", "warn", "moved_module", "renamed"]

REMOVED_IN = "0.3.0"
"""The release that drops every name this module keeps."""


def _outside(skip_module: str) -> int:
    """The ``stacklevel`` of the first caller outside this module, the
    import system and the module ``skip_module`` (the old one), counted from
    :func:`warn`'s caller's call to :func:`warnings.warn`."""
    frame: Optional[FrameType] = sys._getframe(2)  # warn's caller
    level = 2
    while frame is not None and frame.f_back is not None:
        internal = frame.f_code.co_filename.startswith("<frozen importlib")
        if not internal and frame.f_globals.get("__name__", "") not in (__name__, skip_module, "importlib"):
            break
        # warnings.warn passes over the import system's own frames by itself
        level += 0 if internal else 1
        frame = frame.f_back
    return level


def message(old: str, new: str) -> str:
    """The sentence of every deprecation: ``old`` goes in :data:`REMOVED_IN`,
    use ``new`` (tools/build-web says it of the web folder's old names too).

    >>> message('engine.js', 'brandubh.js')
    'engine.js is deprecated and goes in brandubh 0.3.0: use brandubh.js'
    """
    return f"{old} is deprecated and goes in brandubh {REMOVED_IN}: use {new}"


def warn(old: str, new: str, skip_module: str = "") -> None:
    """A DeprecationWarning with :func:`message`."""
    warnings.warn(message(old, new), DeprecationWarning, stacklevel=_outside(skip_module))


def moved_module(old: str, new: str) -> None:
    """Called at the top of a module kept only at its old path ``old`` (its
    ``__name__``): a DeprecationWarning when it is first imported."""
    warn(f"the module {old}", new, skip_module=old)


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``module``'s old names: ``names`` maps
    each to its new one, a name of the same module or ``pkg.mod:name``.
    Each use warns (the value is not kept, so every use is seen), and any
    other name is an AttributeError."""

    def lookup(name: str) -> Any:
        new = names.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, _, attr = new.rpartition(":")
        where = where or module
        warn(f"{module}.{name}", f"{where}.{attr}", skip_module=module)
        return getattr(importlib.import_module(where), attr)

    lookup.names = dict(names)  # type: ignore[attr-defined] # what it forwards, for the checks of the layers
    return lookup
