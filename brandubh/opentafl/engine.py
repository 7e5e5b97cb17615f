"""Deprecated (goes in brandubh 0.3.0): :mod:`brandubh.opentafl.bot`, the
bot that speaks OpenTafl's engine protocol. Importing it warns once and
gives the same names."""

from __future__ import annotations

from ..deprecation import moved_module

moved_module(__name__, "brandubh.opentafl.bot")

from .bot import *  # noqa: E402,F401,F403
from .bot import __all__  # noqa: E402,F401
