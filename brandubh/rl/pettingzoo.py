"""A PettingZoo AEC environment: two learners, the attackers and the defenders.

``env(variant=..., render_mode=...)`` is the environment wrapped as
PettingZoo's classic board games are (an illegal action ends the game, -1
for the side that made it); :class:`BrandubhAEC` is the bare one. Each
observation is a dict, ``observation`` (the planes, seen by the agent
observed: :mod:`brandubh.rl.encoding`) and ``action_mask`` (the legal
actions, all 0 for the agent not to move). Rewards are +1 and -1 at a win,
0 at a draw, under the rule set's own endings.

This module's own name is ``pettingzoo``; it imports the real PettingZoo
by its absolute name.

>>> from brandubh.rl import move_action
>>> e = env(variant='codingame', render_mode='ansi')
>>> e.reset(seed=1)
>>> e.agent_selection, int(e.observe('attackers')['action_mask'].sum())
('attackers', 40)
>>> e.step(move_action('d2c2'))
>>> e.agent_selection, e.rewards
('defenders', {'attackers': 0, 'defenders': 0})
>>> print(e.render().splitlines()[-1])
defenders to move; ply 1; last move d2-c2
"""

from __future__ import annotations

from typing import Any, Optional

from .encoding import check_view, missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - the rl extra is not installed
    raise ImportError(missing_extra(error.name or "pettingzoo"), name=error.name) from error

from ..core.position import SETUP, SIDES
from ..errors import ArgumentError, MoveError, quote
from ..core.rules import PLAY_OK, Rules, outcome_name
from ..variant import VariantLike, as_variant
from .encoding import ACTIONS, action_move
from .vector import OBS_SHAPE, observe

__all__ = ["BrandubhAEC", "env"]

RENDER_MODES = ("ansi", "human")


class BrandubhAEC(AECEnv):
    """The game for two agents, ``'attackers'`` and ``'defenders'`` (the
    attackers move first), under one rule set.

    ``view``: ``'mover'`` (each agent sees the board as its own side) or
    ``'fixed'`` (both see it as the attackers); ``max_plies``: truncate a
    game that lasts that many moves (None: the rule set's caps only, which
    end it as a draw); ``render_mode``: None, ``'ansi'`` (``render()``
    returns the board as text) or ``'human'`` (prints it).

    >>> raw = BrandubhAEC(variant='modern')
    >>> raw.possible_agents, int(raw.action_space('defenders').n)
    (['attackers', 'defenders'], 1176)
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "brandubh_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, variant: VariantLike = None, render_mode: Optional[str] = None, *, view: str = "mover",
                 max_plies: Optional[int] = None, start: str = SETUP) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ArgumentError(f"render_mode must be None, 'ansi' or 'human', not {quote(render_mode)}")
        if max_plies is not None and (not isinstance(max_plies, int) or isinstance(max_plies, bool)
                                      or max_plies < 1):
            raise ArgumentError(f"max_plies must be a whole number above 0, or None, not {quote(max_plies)}")
        self.variant = as_variant(variant)
        self.render_mode = render_mode
        self.view = check_view(view)
        self.max_plies = max_plies
        self._start = start
        self.game = Rules(start, self.variant)
        self.possible_agents = list(SIDES)
        space = spaces.Dict({
            "observation": spaces.Box(0, 255, OBS_SHAPE, dtype=np.uint8),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in self.possible_agents}
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game from the start. The game has no chance in it, so
        ``seed`` seeds only the action spaces' sampling."""
        self.game = Rules(self._start, self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.game.side
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)

    def observe(self, agent: str) -> dict[str, Any]:
        planes, mask = observe(self.game, agent, self.view)
        if agent != self.game.side:
            mask[:] = 0
        return {"observation": planes, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = action_move(action)
        if self.game.play(m) != PLAY_OK:
            raise MoveError(f"action {int(action)} is not a legal move for the {agent} here: "
                            f"{self.game.why_not(m >> 6, m & 63).name.lower()}")
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self.game.is_over():
            winner = self.game.winner
            if winner is not None:
                self.rewards = {a: 1 if a == winner else -1 for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            for a in self.agents:
                self.infos[a] = {"outcome": outcome_name(self.game.outcome), "winner": winner}
        elif self.max_plies is not None and self.game.ply >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        self.agent_selection = self.game.side
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The board as text (``'ansi'``), or printed (``'human'``)."""
        if self.render_mode is None:
            return None
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(variant: VariantLike = None, render_mode: Optional[str] = None, **kwargs: Any) -> AECEnv:
    """:class:`BrandubhAEC` wrapped as PettingZoo's classic games are: an
    illegal action ends the game with -1 for its agent, an action out of
    range is an assertion, and the calls must come in order."""
    aec: AECEnv = BrandubhAEC(variant, render_mode, **kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)
