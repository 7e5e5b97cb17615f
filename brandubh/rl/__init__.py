"""Reinforcement learning: the game as actions, observations and rewards.

* :mod:`brandubh.rl.encoding`: the fixed action numbers (a square left, a
  direction, a distance: 1,176 of them) and the observation planes; no
  dependency beyond the package.
* :class:`VectorEnv` (:mod:`brandubh.rl.vector`): thousands of games stepped
  by one C call, observations, rewards, endings and legal-action masks
  written straight into numpy arrays.
* :mod:`brandubh.rl.pettingzoo` (a PettingZoo AEC environment for two
  learners) and :mod:`brandubh.rl.gymnasium` (one learner against a
  :class:`brandubh.Bot`, and :class:`VectorEnv` behind Gymnasium's vector
  interface).

numpy, PettingZoo and Gymnasium come with ``pip install brandubh[rl]``;
docs/rl.md has the encodings, with a picture of the planes.

>>> from brandubh import rl
>>> rl.ACTIONS, rl.PLANES[:3]
(1176, ('own', 'enemy', 'king'))
>>> rl.move_text(rl.action_move(rl.move_action('d2c2')))
'd2c2'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _lazy

# name -> the module of this package that defines it (loaded on first use,
# so that the encodings need no numpy).
_LAZY = {
    "ACTIONS": "encoding", "PLANES": "encoding", "DIRECTIONS": "encoding", "DISTANCES": "encoding",
    "VIEWS": "encoding", "action_move": "encoding", "move_action": "encoding",
    "action_parts": "encoding", "action_of": "encoding", "move_text": "encoding",
    "VectorEnv": "vector", "Step": "vector", "observe": "vector",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    from .encoding import (
        ACTIONS as ACTIONS, DIRECTIONS as DIRECTIONS, DISTANCES as DISTANCES, PLANES as PLANES,
        VIEWS as VIEWS, action_move as action_move, action_of as action_of, action_parts as action_parts,
        move_action as move_action, move_text as move_text,
    )
    from .vector import Step as Step, VectorEnv as VectorEnv, observe as observe


_load = _lazy(__name__, _LAZY, globals())


if not TYPE_CHECKING:
    __getattr__ = _load


def __dir__() -> list[str]:
    return sorted(__all__)
