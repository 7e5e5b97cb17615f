"""Deprecated (goes in brandubh 0.3.0): :mod:`brandubh.host.client`.

``from brandubh.serve.host.client import BotClient`` keeps working for this
release, with a :class:`DeprecationWarning` naming the new path."""

from __future__ import annotations

from ...deprecation import moved_module

moved_module(__name__, "brandubh.host.client")

from ...host.client import BotClient, HostError  # noqa: E402 - after the warning, as every old path

__all__ = ["BotClient", "HostError"]
