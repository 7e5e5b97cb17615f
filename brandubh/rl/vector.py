"""Many games at once: :class:`VectorEnv`, and :func:`observe` for one game.

A :class:`VectorEnv` holds ``num_envs`` games under one rule set. One call
of :meth:`~VectorEnv.step` plays one action in every game, in C, and writes
what learners need into numpy arrays that the environment owns and reuses:
the observations, the rewards, which games ended, and the legal-action
masks. A game that ends starts again at once (its last position is kept in
:attr:`~VectorEnv.final_observations`). There is no Python loop over games.

>>> env = VectorEnv(4, variant='codingame', seed=7)
>>> obs, masks = env.reset()
>>> obs.shape, obs.dtype.name, masks.shape, int(masks[0].sum())
((4, 7, 7, 7), 'uint8', (4, 1176), 40)
>>> step = env.step(env.random_actions())
>>> step.observations is obs, step.rewards.tolist(), bool(step.terminations.any())
(True, [0.0, 0.0, 0.0, 0.0], False)
>>> env.position(0).endswith(' d')
True
"""

from __future__ import annotations

import threading
from typing import Any, NamedTuple, Optional

from .encoding import missing_extra

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - the rl extra is not installed
    raise ImportError(missing_extra("numpy"), name=error.name) from error

from ..core import kernels, stopping
from .._engine import ffi, lib
from ..core.position import SETUP, SIDES, c_position, c_variant, move_text, position_text
from ..errors import ArgumentError, EngineError, MoveError, quote
from ..core.rules import Rules
from ..core.search import MAX_THREADS, c_weights, check_limits
from ..variant import Variant, VariantLike, as_variant
from .encoding import ACTIONS, PLANES, check_view

#: The shape of one observation: planes, ranks, files.
OBS_SHAPE = (len(PLANES), 7, 7)
#: The most games one environment holds.
MAX_ENVS = 1 << 20
#: Searches of up to this many positions in all run in the calling thread;
#: from the main thread larger ones run in a worker, so that Ctrl-C stops
#: them (brandubh/stopping.py).
INLINE_SEARCH_NODES = 500_000


class Step(NamedTuple):
    """What :meth:`VectorEnv.step` returns: the environment's own arrays,
    read-only, overwritten by the next step (copy what you keep)."""

    observations: Any   #: (num_envs, 7, 7, 7) uint8, for the side to move now
    rewards: Any        #: (num_envs,) float32, for the side that moved
    terminations: Any   #: (num_envs,) bool: the move ended the game
    truncations: Any    #: (num_envs,) bool: the game reached max_plies
    masks: Any          #: (num_envs, 1176) int8: the legal actions now


def _whole(name: str, value: object, low: int, high: int) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{name} must be a whole number, not {quote(value)}")
    if not low <= int(value) <= high:
        raise ArgumentError(f"{name} must be from {low} to {high}, not {value}")
    return int(value)


def _buffer(ctype: str, array: Any) -> Any:
    return ffi.from_buffer(ctype, array, require_writable=True)


class VectorEnv:
    """``num_envs`` games under one rule set, stepped together in C.

    ``variant``: a preset's name, a dict of fields or a
    :class:`~brandubh.Variant`; ``seed`` (0 to 2**64-1) seeds each game's
    generator for :meth:`random_actions` (the same seed, the same games, on
    every machine); ``view``: ``'mover'`` (each observation seen by the side
    to move) or ``'fixed'`` (by the attackers); ``max_plies``: cut a game
    that lasts that many moves short (a truncation), None for no cut beyond
    the rules' own caps; ``start``: the position every game starts from;
    ``threads`` (1 to 64): how many threads each call splits the games over
    (contiguous slices: the first in the calling thread, the others on
    ``threads - 1`` C threads the environment keeps from call to call, which
    end with it; a step, the masks and the random actions take one only
    for every 32 games). The
    arrays are the same, byte for byte, on any number of threads: only the
    time changes.

    Rewards are +1, -1 or 0 for the side that made the move, at the end of a
    game by its rules (under ``codingame`` a repetition loses for the side
    that made it): zero-sum, so the other side's reward is minus it. The
    rule set's caps end games as draws, which are terminations.

    >>> env = VectorEnv(2, seed=1)
    >>> _ = env.reset()
    >>> actions = env.random_actions()
    >>> actions.dtype.name, bool(env.masks[0, actions[0]])
    ('int32', True)
    """

    def __init__(self, num_envs: int, variant: VariantLike = None, seed: int = 0, *, view: str = "mover",
                 max_plies: Optional[int] = None, start: str = SETUP, threads: int = 1) -> None:
        self.num_envs = _whole("num_envs", num_envs, 1, MAX_ENVS)
        self.variant: Variant = as_variant(variant)
        self.view = check_view(view)
        self.max_plies = None if max_plies is None else _whole("max_plies", max_plies, 1, 1 << 30)
        self._seed = _whole("seed", seed, 0, (1 << 64) - 1)
        self.threads = _whole("threads", threads, 1, MAX_THREADS)
        if Rules(start, self.variant).is_over():
            raise ArgumentError(f"the start {quote(start)} is already an ending under this rule set")
        n = self.num_envs
        self.observations = np.zeros((n, *OBS_SHAPE), dtype=np.uint8)
        #: The last position of each game that ended at the last step (rows
        #: of games that did not end keep what they had).
        self.final_observations = np.zeros((n, *OBS_SHAPE), dtype=np.uint8)
        self.masks = np.zeros((n, ACTIONS), dtype=np.int8)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)
        #: How each game that ended at the last step ended (an
        #: :class:`~brandubh.Outcome` number), 0 for the others.
        self.outcomes = np.zeros(n, dtype=np.uint8)
        #: Its winner: 0 the attackers, 1 the defenders, -1 a draw or none.
        self.winners = np.full(n, -1, dtype=np.int8)
        self._actions = np.zeros(n, dtype=np.int32)
        self._step = Step(self.observations, self.rewards, self.terminations, self.truncations, self.masks)
        out = ffi.new("bd_vec_out *")
        out.obs = _buffer("uint8_t[]", self.observations)
        out.masks = _buffer("uint8_t[]", self.masks)
        out.rewards = _buffer("float[]", self.rewards)
        out.terminated = _buffer("uint8_t[]", self.terminations)
        out.truncated = _buffer("uint8_t[]", self.truncations)
        out.outcomes = _buffer("uint8_t[]", self.outcomes)
        out.winners = _buffer("int8_t[]", self.winners)
        out.final_obs = _buffer("uint8_t[]", self.final_observations)
        # The arrays' memory stays alive as long as this struct names it:
        # both belong to this environment. Python sees the arrays read-only:
        # only the engine writes them (a step clears in each row of the
        # masks only what it last marked there).
        self._out = out
        for array in (self.observations, self.final_observations, self.masks, self.rewards,
                      self.terminations, self.truncations, self.outcomes, self.winners):
            array.flags.writeable = False
        self._c_actions = _buffer("int32_t[]", self._actions)
        self._bad = ffi.new("int *")
        self._start = start
        vec = lib.bd_vec_new(c_variant(self.variant), c_position(start), n, self.max_plies or 0,
                             int(self.view == "fixed"))
        if vec == ffi.NULL:
            raise EngineError(f"out of memory for {n} games")
        self._c = ffi.gc(vec, lib.bd_vec_free)
        lib.bd_vec_set_threads(self._c, self.threads)
        # Every call holds it: the engine releases the GIL, and a step must
        # not run while another thread's search reads the games.
        self._lock = threading.Lock()
        self.reset()

    def __repr__(self) -> str:
        return (f"VectorEnv({self.num_envs}, variant={self.variant.as_string()!r}, view={self.view!r}, "
                f"max_plies={self.max_plies}, threads={self.threads})")

    def reset(self, seed: Optional[int] = None) -> tuple[Any, Any]:
        """Every game back to the start; ``seed`` reseeds the generators
        (None: the environment's seed again, so the same games follow).
        Returns ``(observations, masks)``, the environment's own arrays."""
        if seed is not None:
            self._seed = _whole("seed", seed, 0, (1 << 64) - 1)
        with self._lock:
            lib.bd_vec_reset(self._c, self._seed, self._out)
        return self.observations, self.masks

    def step(self, actions: Any) -> Step:
        """Play ``actions[i]`` (an action number, :mod:`brandubh.rl.encoding`)
        in game ``i``, for every game, and return the :class:`Step`. Games
        that ended are started again in the same call: their row of
        ``observations`` and ``masks`` is the new game's, and their last
        position is in :attr:`final_observations`. A wrong shape, a number
        that is not an action, or an action that is not legal in its game
        is refused with an error naming the first such game, and nothing is
        played."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ArgumentError(f"actions must have shape ({self.num_envs},), one a game, not {a.shape}")
        if a.dtype.kind not in "iu":
            raise ArgumentError(f"actions must be whole numbers (an integer array), not {a.dtype.name}")
        bad = np.flatnonzero((a < 0) | (a >= ACTIONS))
        if bad.size:
            i = int(bad[0])
            raise MoveError(f"action {a[i]} of game {i} is out of range: actions are 0 to {ACTIONS - 1}")
        with self._lock:
            np.copyto(self._actions, a, casting="unsafe")
            code = lib.bd_vec_step(self._c, self._c_actions, self._out, self._bad)
            if code != lib.BD_VEC_OK:
                if code == lib.BD_VEC_ILLEGAL:
                    raise MoveError(self._why_illegal(self._bad[0]))
                if code == lib.BD_VEC_NO_MEMORY:
                    raise EngineError("out of memory while recording the moves")
                raise EngineError(f"the engine said {code} to a step")  # pragma: no cover
        return self._step

    def _why_illegal(self, i: int) -> str:
        action = int(self._actions[i])
        m = lib.bd_action_move(action)
        if m == 0:
            return f"action {action} of game {i} leaves the board"
        game = self.rules(i, locked=True)
        why = game.why_not(m >> 6, m & 63)
        return (f"action {action} ({move_text(m)}) of game {i} is not a legal move there: "
                f"{why.name.lower()} (position {game.position})")

    def legal_masks(self) -> Any:
        """The legal-action masks of every game as they stand, written again
        into :attr:`masks`, which is returned."""
        with self._lock:
            lib.bd_vec_observe(self._c, ffi.NULL, self._out.masks)
        return self.masks

    def random_actions(self) -> Any:
        """A uniformly random legal action for every game (a new int32
        array), from each game's own generator: the ``k``-th of its ``n``
        legal actions in increasing order, ``k = (random >> 32) * n >> 32``
        with splitmix64 (docs/rl.md)."""
        actions = np.empty(self.num_envs, dtype=np.int32)
        with self._lock:
            lib.bd_vec_random(self._c, _buffer("int32_t[]", actions))
        return actions

    def search(self, budget: int = 1_000, seed: int = 1, depth: Optional[int] = None,
               weights: Optional[dict] = None, *, scores: bool = False) -> Any:
        """The engine's move in every game as an action (a new int32 array):
        one search of ``budget`` positions each (see
        :meth:`brandubh.Rules.search`; game ``i`` is searched with the seed
        ``seed + i``), deterministic. A teacher for imitation learning and
        an opponent for self-play. With ``scores``, returns ``(actions,
        scores)``, each score for the side to move (above 29,000 a win
        found). Ctrl-C stops it with KeyboardInterrupt."""
        check_limits(budget, seed, depth)
        if seed + self.num_envs - 1 >= 1 << 32:
            raise ArgumentError(f"seed + num_envs - 1 must be below 2**32, not {seed + self.num_envs - 1}")
        limits = ffi.new("bd_search_limits *")
        limits.budget, limits.depth, limits.seed = budget, depth or 0, seed
        w = c_weights(weights)
        actions = np.empty(self.num_envs, dtype=np.int32)
        found = np.zeros(self.num_envs, dtype=np.int32)
        c_actions, c_scores = _buffer("int32_t[]", actions), _buffer("int32_t[]", found)
        popcnt = int(kernels.ACTIVE is kernels.POPCNT)

        def job(flag: Any) -> int:
            limits.stop = flag
            with self._lock:
                return lib.bd_vec_search(self._c, limits, w, popcnt, c_actions, c_scores)

        code = stopping.run(job, None, None, budget * self.num_envs > INLINE_SEARCH_NODES)
        if code < 0:
            raise EngineError("out of memory for the search")
        return (actions, found) if scores else actions

    # -- reading one game ---------------------------------------------------

    def _game(self, i: int) -> Any:
        return lib.bd_vec_game(self._c, _whole("game", i, 0, self.num_envs - 1))

    def position(self, i: int) -> str:
        """Game ``i``'s position, as a position string."""
        with self._lock:
            g = self._game(i)
            return position_text(lib.bd_game_pos_at(g, lib.bd_game_ply(g)))

    def side(self, i: int) -> str:
        """The side to move in game ``i``."""
        with self._lock:
            return SIDES[lib.bd_game_side(self._game(i))]

    def log(self, i: int) -> list[int]:
        """The moves of game ``i`` so far (since it last started)."""
        with self._lock:
            return self._log(i)

    def _log(self, i: int) -> list[int]:
        g = self._game(i)
        buf = ffi.new("bd_move[]", max(lib.bd_game_ply(g), 1))
        return ffi.unpack(buf, lib.bd_game_log(g, buf))

    def rules(self, i: int, *, locked: bool = False) -> Rules:
        """Game ``i`` as a :class:`~brandubh.Rules` of its own (its moves
        replayed from the start): to look at it, draw it, or go on with it
        apart from the environment."""
        if locked:
            moves = self._log(i)
        else:
            moves = self.log(i)
        game = Rules(self._start, self.variant)
        for m in moves:
            game.play(m)
        return game


def observe(game: Rules, side: Optional[str] = None, view: str = "mover") -> tuple[Any, Any]:
    """One game's observation and legal-action mask, as new arrays of shape
    (7, 7, 7) (uint8) and (1176,) (int8): seen by ``side`` (by default the
    side to move; ``view='fixed'``: always by the attackers). The mask is
    all 0 once the game is over.

    >>> planes, mask = observe(Rules())
    >>> int(planes[0].sum()), int(planes[1].sum()), int(mask.sum())
    (8, 5, 40)
    """
    if not isinstance(game, Rules):
        raise ArgumentError(f"observe takes a brandubh.Rules, not {type(game).__name__}")
    check_view(view)
    if side is not None and side not in SIDES:
        raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
    planes = np.zeros(OBS_SHAPE, dtype=np.uint8)
    mask = np.zeros(ACTIONS, dtype=np.int8)
    with game.lock:
        g = game.c_game()
        seen = 0 if view == "fixed" else SIDES.index(side) if side else lib.bd_game_side(g)
        lib.bd_observe(g, seen, _buffer("uint8_t[]", planes))
        lib.bd_action_mask(g, _buffer("uint8_t[]", mask))
    return planes, mask
