"""Deprecated (goes in brandubh 0.3.0): this module was split by concept.
The program as a player (:class:`~brandubh.arena.ProcessPlayer`) is
:mod:`brandubh.arena.process_player`; its process and pipes
:mod:`brandubh.arena.pipes`; ending what programs leave behind
(``own_process``, ``sweep_orphans``, ``marked``, ``Registry``)
:mod:`brandubh.arena.reaping`; the wire protocols by name
:mod:`brandubh.arena.protocols`. Importing it warns once and gives the
same names."""

from __future__ import annotations

from ..deprecation import moved_module

moved_module(__name__, "brandubh.arena.process_player, brandubh.arena.reaping, brandubh.arena.protocols "
                       "or brandubh.arena.pipes")

from .pipes import CappedLog as _CappedLog  # noqa: E402,F401 - as it was named
from .process_player import (  # noqa: E402,F401
    DEFAULT_STDERR_LIMIT, END_GRACE, ProcessPlayer, check_command, split_command,
)
from .protocols import PROTOCOLS, protocol_host, protocol_session, rules_differ  # noqa: E402,F401
from .reaping import MARK, Registry, become_subreaper, marked, own_process, sweep_orphans  # noqa: E402,F401

__all__ = ["PROTOCOLS", "ProcessPlayer", "Registry", "split_command", "check_command", "protocol_session",
           "protocol_host", "rules_differ", "sweep_orphans", "become_subreaper", "own_process"]
