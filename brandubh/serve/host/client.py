"""Deprecated: :mod:`brandubh.host.client` (removed in 0.3.0).

``from brandubh.serve.host.client import BotClient`` keeps working for this
release, with a :class:`DeprecationWarning` naming the new path."""

from __future__ import annotations

import warnings

from ...host.client import BotClient, HostError

__all__ = ["BotClient", "HostError"]

warnings.warn("brandubh.serve.host.client is now brandubh.host.client: the old path is removed in 0.3.0",
              DeprecationWarning, stacklevel=2)   # the importer's line (the import machinery's frames are skipped)
