"""Deprecated (goes in brandubh 0.3.0): :mod:`brandubh.opentafl.driver`,
where ``Session`` is ``Driver``. Importing it warns once and gives the same
object under the old name."""

from __future__ import annotations

from ..deprecation import moved_module

moved_module(__name__, "brandubh.opentafl.driver (Session is Driver there)")

from .driver import Driver as Session  # noqa: E402,F401

__all__ = ["Session"]
