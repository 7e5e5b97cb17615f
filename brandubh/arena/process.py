"""Deprecated (goes in brandubh 0.3.0): this module was split by concept.
The program as a player (:class:`~brandubh.arena.ProcessPlayer`) is
:mod:`brandubh.arena.process_player`; its process and pipes
:mod:`brandubh.arena.pipes`; ending what programs leave behind
(``own_process``, ``sweep_orphans``, ``marked``, ``Registry``)
:mod:`brandubh.arena.reaping`; the wire protocols by name
:mod:`brandubh.arena.protocols` (``protocol_host`` is ``driver_module``
there, ``protocol_session`` ``new_driver``). Importing it warns once and gives the
same names."""

from __future__ import annotations

import importlib
from typing import Any

from ..deprecation import moved_module

moved_module(__name__, "brandubh.arena.process_player, brandubh.arena.reaping, brandubh.arena.protocols "
                       "or brandubh.arena.pipes")

from .pipes import CappedLog as _CappedLog  # noqa: E402,F401 - as it was named
from .process_player import (  # noqa: E402,F401
    DEFAULT_STDERR_LIMIT, END_GRACE, ProcessPlayer, check_command, split_command,
)
from .protocols import PROTOCOLS, driver_module, new_driver, rules_differ  # noqa: E402,F401
from .reaping import MARK, Registry, become_subreaper, marked, own_process, sweep_orphans  # noqa: E402,F401


def protocol_host(name: str) -> Any:
    """The module ``brandubh.<name>.host``, as before (it warns too): the
    protocol's ``Session`` class, now :func:`driver_module`'s ``Driver``."""
    driver_module(name)  # refuse what is not a wire protocol, as before
    return importlib.import_module(f"brandubh.{name}.host")


def protocol_session(name: str, variant: Any, seat: str) -> Any:
    """A ``Session`` of the wire protocol ``name``: now :func:`new_driver`."""
    return new_driver(name, variant, seat)

__all__ = ["PROTOCOLS", "ProcessPlayer", "Registry", "split_command", "check_command", "protocol_session",
           "protocol_host", "rules_differ", "sweep_orphans", "become_subreaper", "own_process"]
