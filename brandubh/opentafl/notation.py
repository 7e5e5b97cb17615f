"""OpenTafl's notation as the OpenTafl front end uses it: the names of
:mod:`brandubh.otn`, where the notation lives (below the game, so that the
game and the game records read OpenTafl's records too).

>>> from brandubh.otn import RulesRecord as Same
>>> RulesRecord is Same
True
"""

from __future__ import annotations

from ..otn import (FIELDS, OPENTAFL_BRANDUB, OpenTaflError, RulesRecord, position_record, read_move,
                   read_position_record, simple_move)

__all__ = [
    "FIELDS",
    "OPENTAFL_BRANDUB",
    "OpenTaflError",
    "RulesRecord",
    "position_record",
    "read_position_record",
    "simple_move",
    "read_move",
]
