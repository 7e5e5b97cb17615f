"""Deprecated (goes in brandubh 0.3.0): :mod:`brandubh.codingame.driver`,
where ``Session`` is ``Driver`` and ``JUDGED_BY_THE_HOST`` is
``JUDGED_BY_THE_ARENA``. Importing it warns once and gives the same
objects under the old names."""

from __future__ import annotations

from ..deprecation import moved_module

moved_module(__name__, "brandubh.codingame.driver (Session is Driver there)")

from .driver import JUDGED_BY_THE_ARENA as JUDGED_BY_THE_HOST, RULES, TITLE, Driver as Session  # noqa: E402,F401

__all__ = ["Session", "RULES", "JUDGED_BY_THE_HOST"]
