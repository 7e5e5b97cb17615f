"""Gymnasium: one learner against a :class:`brandubh.Bot`, and the batched
environment behind Gymnasium's vector interface.

:class:`BrandubhEnv` is a ``gymnasium.Env``: the learner plays one side and
a bot of a given level the other, each reply played inside ``step``. The
observation is a dict, ``observation`` (the planes, seen by the learner's
side: :mod:`brandubh.rl.encoding`) and ``action_mask`` (its legal actions);
the reward is +1, -1 or 0 when the game ends. An illegal action loses the
game (``illegal='lose'``, the default: reward -1, ``info['illegal']``) or
raises :class:`~brandubh.MoveError` (``illegal='raise'``).

:class:`BrandubhVectorEnv` is a ``gymnasium.vector.VectorEnv`` over
:class:`~brandubh.rl.VectorEnv` (self-play: every game's side to move plays
the action given), with same-step autoreset.

Importing this module registers both, so ``gymnasium.make`` finds them
(or name the module in the id: ``"brandubh.rl.gymnasium:brandubh/Brandubh-v0"``):

>>> import gymnasium
>>> env = gymnasium.make('brandubh/Brandubh-v0', side='defenders', level=1)
>>> obs, info = env.reset(seed=3)
>>> obs['observation'].shape, info['ply']      # the bot has made the first move
((7, 7, 7), 1)
>>> envs = gymnasium.make_vec('brandubh/Brandubh-v0', num_envs=8, vectorization_mode='vector_entry_point')
>>> obs, info = envs.reset(seed=1)
>>> obs['action_mask'].shape
(8, 1176)
"""

from __future__ import annotations

from typing import Any, Optional

from .encoding import check_view, missing_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - the rl extra is not installed
    raise ImportError(missing_extra(error.name or "gymnasium"), name=error.name) from error

from ..bot import LEVELS, Bot
from ..core.position import SETUP, SIDES
from ..errors import ArgumentError, MoveError, quote
from ..core.rules import PLAY_OK, Rules, outcome_name
from ..variant import VariantLike, as_variant
from .encoding import ACTIONS, action_move, check_action
from .vector import OBS_SHAPE, VectorEnv, observe

__all__ = ["BrandubhEnv", "BrandubhVectorEnv", "ENV_ID", "register"]

#: The id both are registered under.
ENV_ID = "brandubh/Brandubh-v0"
ILLEGAL = ("lose", "raise")


def _observation_space() -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0, 255, OBS_SHAPE, dtype=np.uint8),
        "action_mask": spaces.Box(0, 1, (ACTIONS,), dtype=np.int8),
    })


class BrandubhEnv(gymnasium.Env):
    """The learner plays ``side`` (``'attackers'`` or ``'defenders'``)
    against ``brandubh.Bot(level)`` (1 to 6), under ``variant``.

    ``view``: ``'mover'`` (the learner sees the board as its own side) or
    ``'fixed'`` (as the attackers); ``max_plies``: truncate a game that
    lasts that many moves; ``render_mode``: None or ``'ansi'`` (the board
    as text). The bot is seeded from ``reset(seed=...)``, so a seeded reset
    replays the same game for the same actions.

    >>> env = BrandubhEnv(level=1)
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(246)   # d2c2
    >>> reward, terminated, info['ply']                          # and the bot has replied
    (0.0, False, 2)
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: VariantLike = None, side: str = "attackers", level: int = 1, *,
                 view: str = "mover", illegal: str = "lose", max_plies: Optional[int] = None,
                 render_mode: Optional[str] = None, start: str = SETUP) -> None:
        if side not in SIDES:
            raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
        if illegal not in ILLEGAL:
            raise ArgumentError(f"illegal must be 'lose' or 'raise', not {quote(illegal)}")
        if render_mode not in (None, "ansi"):
            raise ArgumentError(f"render_mode must be None or 'ansi', not {quote(render_mode)}")
        if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
            raise ArgumentError(f"level must be a whole number from 1 to {max(LEVELS)}, not {quote(level)}")
        if max_plies is not None and (not isinstance(max_plies, int) or isinstance(max_plies, bool)
                                      or max_plies < 1):
            raise ArgumentError(f"max_plies must be a whole number above 0, or None, not {quote(max_plies)}")
        self.variant = as_variant(variant)
        self.side = side
        self.level = level
        self.view = check_view(view)
        self.illegal = illegal
        self.max_plies = max_plies
        self.render_mode = render_mode
        self._start = start
        self.observation_space = _observation_space()
        self.action_space = spaces.Discrete(ACTIONS)
        self.game = Rules(start, self.variant)
        self.bot = Bot(level)
        self._done = True   # until the first reset

    def _obs(self) -> dict[str, Any]:
        planes, mask = observe(self.game, self.side, self.view)
        if self.game.side != self.side:
            mask[:] = 0
        return {"observation": planes, "action_mask": mask}

    def _info(self, **more: Any) -> dict[str, Any]:
        return {"ply": self.game.ply, "outcome": outcome_name(self.game.outcome), "winner": self.game.winner,
                **more}

    def _reward(self) -> float:
        winner = self.game.winner
        return 0.0 if winner is None else 1.0 if winner == self.side else -1.0

    def _bot_moves(self) -> None:
        if not self.game.is_over() and self.game.side != self.side:
            reply = self.bot.choose(self.game)
            if reply is not None:
                self.game.play(reply)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        self.game = Rules(self._start, self.variant)
        self.bot = Bot(self.level, seed=int(self.np_random.integers(1 << 62)))
        self._bot_moves()
        self._done = self.game.is_over()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self._done:
            raise ArgumentError("the episode is over: call reset() before another step")
        number = check_action(action)
        try:
            legal = self.game.play(action_move(number)) == PLAY_OK
        except MoveError:   # an action that leaves the board
            legal = False
        if not legal:
            if self.illegal == "raise":
                raise MoveError(f"action {number} is not a legal move for the {self.side} here")
            self._done = True
            other = SIDES[1 - SIDES.index(self.side)]
            return self._obs(), -1.0, True, False, self._info(illegal=True, winner=other)
        self._bot_moves()
        terminated = self.game.is_over()
        truncated = not terminated and self.max_plies is not None and self.game.ply >= self.max_plies
        self._done = terminated or truncated
        return self._obs(), self._reward(), terminated, bool(truncated), self._info()

    def render(self) -> Optional[str]:  # type: ignore[override]
        """The board as text, for ``render_mode='ansi'``."""
        return str(self.game) if self.render_mode == "ansi" else None


class BrandubhVectorEnv(gymnasium.vector.VectorEnv):
    """:class:`~brandubh.rl.VectorEnv` as a Gymnasium vector environment:
    ``num_envs`` self-play games, observations as the dict of
    :class:`BrandubhEnv` (batched), rewards for the side that moved,
    ``infos`` with ``outcome`` and ``winner`` arrays and, for games that
    ended, ``final_obs``. Same-step autoreset: a game that ends is started
    again in the same step. ``copy=False`` returns the environment's own
    arrays (overwritten by the next step) instead of copies.

    >>> envs = BrandubhVectorEnv(3, seed=2)
    >>> obs, infos = envs.reset()
    >>> obs, rewards, terminations, truncations, infos = envs.step(envs.env.random_actions())
    >>> obs['observation'].shape, rewards.tolist()
    ((3, 7, 7, 7), [0.0, 0.0, 0.0])
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, variant: VariantLike = None, seed: int = 0, *, view: str = "mover",
                 max_plies: Optional[int] = None, copy: bool = True, start: str = SETUP) -> None:
        self.env = VectorEnv(num_envs, variant, seed, view=view, max_plies=max_plies, start=start)
        self.num_envs = self.env.num_envs
        self.copy = bool(copy)
        self.single_observation_space = _observation_space()
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _obs(self, observations: Any, masks: Any) -> dict[str, Any]:
        if self.copy:
            return {"observation": observations.copy(), "action_mask": masks.copy()}
        return {"observation": observations, "action_mask": masks}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        observations, masks = self.env.reset(seed)
        return self._obs(observations, masks), {}

    def step(self, actions: Any) -> tuple[dict, Any, Any, Any, dict]:
        step = self.env.step(actions)
        infos: dict[str, Any] = {"outcome": self.env.outcomes.copy(), "winner": self.env.winners.copy()}
        ended = step.terminations | step.truncations
        if ended.any():
            final = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = {"observation": self.env.final_observations[i].copy(),
                            "action_mask": np.zeros(ACTIONS, dtype=np.int8)}
            infos["final_obs"], infos["_final_obs"] = final, ended.copy()
        rewards, terminations, truncations = step.rewards, step.terminations, step.truncations
        if self.copy:
            rewards, terminations, truncations = rewards.copy(), terminations.copy(), truncations.copy()
        return self._obs(step.observations, step.masks), rewards, terminations, truncations, infos


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done when this module is
    imported; again is harmless)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:BrandubhEnv",
                           vector_entry_point=f"{__name__}:BrandubhVectorEnv")


register()
