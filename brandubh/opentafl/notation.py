"""OpenTafl's notation as the OpenTafl front end uses it: the names of
:mod:`brandubh.otn`, where the notation lives (below the game, so that the
game and the room of game files read OpenTafl's records too). New code
imports :mod:`brandubh.otn`.

>>> from brandubh.otn import RulesRecord as Same
>>> RulesRecord is Same
True
"""

from __future__ import annotations

from .. import otn
from ..otn import *  # the same names, listed once, in brandubh.otn

__all__ = list(otn.__all__)
