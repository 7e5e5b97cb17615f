"""Deprecated: the reader of every saved game moved to the room of game
files, :mod:`brandubh.records` (``from brandubh.records import read_texts``).
Its names are kept here, with a ``DeprecationWarning``, until the release
:data:`brandubh.deprecated.REMOVED_IN` names."""

from __future__ import annotations

from .deprecated import Moved

__all__: list[str] = []

__getattr__ = Moved(__name__, dict.fromkeys(
    ("GameText", "read_texts", "read_text_game", "otn_clock", "otn_termination", "OTN_RESULTS"), "brandubh.records"))
