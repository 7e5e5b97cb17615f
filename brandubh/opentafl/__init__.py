"""OpenTafl: its notation and its engine protocol, both ways.

- :mod:`~brandubh.opentafl.notation`: OpenTafl's rules records, positions
  and moves, mapped to and from :class:`~brandubh.Variant` and this
  package's notation;
- :mod:`~brandubh.opentafl.engine`: the engine OpenTafl runs
  (``brandubh opentafl``), with its clock and its analysis;
- :mod:`~brandubh.opentafl.host`: the arena's side, hosting a program that
  speaks the protocol (``brandubh match "protocol=opentafl,cmd=..."``).

``python -m brandubh.opentafl`` is ``brandubh opentafl``.
"""

from .engine import MARGIN_MS, Clock, OpenTaflEngine, serve, write_ini

__all__ = ["MARGIN_MS", "Clock", "OpenTaflEngine", "serve", "write_ini"]
