"""OpenTafl: its notation and its engine protocol, both ways.

- :mod:`~brandubh.opentafl.notation`: OpenTafl's rules records, positions
  and moves, mapped to and from :class:`~brandubh.Variant` and this
  package's notation;
- :mod:`~brandubh.opentafl.bot`: the bot OpenTafl runs as an engine
  (``brandubh opentafl``), with its clock and its analysis;
- :mod:`~brandubh.opentafl.driver`: the arena's side, driving a program
  that speaks the protocol (``brandubh match "protocol=opentafl,cmd=..."``).

``python -m brandubh.opentafl`` is ``brandubh opentafl``.
"""

from .bot import MARGIN_MS, Clock, OpenTaflEngine, serve, write_ini

__all__ = ["MARGIN_MS", "Clock", "OpenTaflEngine", "serve", "write_ini"]
