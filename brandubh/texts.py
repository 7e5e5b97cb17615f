"""Deprecated: the reader of every saved game moved to the room of game
files, :mod:`brandubh.records` (``from brandubh.records import read_texts``).
Its names are kept here, with a ``DeprecationWarning``, until the release
:data:`brandubh.deprecation.REMOVED_IN` names."""

from __future__ import annotations

from .deprecation import renamed

__all__: list[str] = []

__getattr__ = renamed(__name__, {name: f"brandubh.records:{name}" for name in (
    "GameText", "read_texts", "read_text_game", "otn_clock", "otn_termination", "OTN_RESULTS")})
