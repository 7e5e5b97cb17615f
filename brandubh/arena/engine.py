"""Deprecated (goes in brandubh 0.3.0): :mod:`brandubh.arena.bot_player`,
where ``EnginePlayer`` is :class:`~brandubh.arena.BotPlayer`. Importing it
warns once and gives the same names."""

from __future__ import annotations

from ..deprecation import moved_module

moved_module(__name__, "brandubh.arena.bot_player (EnginePlayer is BotPlayer there)")

from .bot_player import BotPlayer as EnginePlayer, make_bot, parse_setting  # noqa: E402,F401

__all__ = ["EnginePlayer", "parse_setting"]
