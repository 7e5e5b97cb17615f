"""``brandubh.Bot``: levels of play, each a node budget.

>>> from brandubh import Bot, Rules
>>> game = Rules()
>>> m = Bot(3, seed=1).choose(game)
>>> m in game.moves()
True
"""

from __future__ import annotations

import contextlib
import random
from typing import Any, Optional, Union

from .errors import ArgumentError, quote
from .search import check_limits, features_off, salt_bytes, salt_seed
from .weights import WeightsLike, as_weights

# level: (budget in positions, chance of a random move instead of a search).
# Each level's budget is eight to ten times the one below. Measured with
# brandubh match, colours swapped, against the level below (brandubh rules,
# the search as of Bench: 1154633):
#   2 v 1: 77% (+210 Elo, 95%: +157 to +273), 200 games
#   3 v 2: 81% (+249, +195 to +316), 200 games
#   4 v 3: 75% (+191, +140 to +250), 200 games
#   5 v 4: 74% (+177, +128 to +234), 200 games (70% at 400,000, 8 times 4's:
#          the gap narrows as both search deeper, so 5 and 6 take ten and eight)
#   6 v 5: 79% (+228, +118 to +406), 40 games (4 M positions a move)
LEVELS: dict[int, tuple[int, float]] = {
    1: (200, 0.25),
    2: (1_000, 0.08),
    3: (6_000, 0.0),
    4: (48_000, 0.0),
    5: (500_000, 0.0),
    6: (4_000_000, 0.0),
}
MAX_LEVEL = max(LEVELS)

#: A bot accepts a draw offer when its own search scores the position at
#: least this much worse for it than the evaluation scores the set-up (under
#: the same rules and weights): about two and a half soldiers behind where
#: the game started, or a loss it can see coming. From the set-up, not from
#: zero: the soldiers' weights alone favour the attackers there (by 240 with
#: the weights of Game::Brandubh's documentation, by 1004 with the tuned
#: ones; the learned evaluation, the default, gives the defenders 185), which
#: says nothing of who is ahead, so a bot with the defenders must not take
#: a draw at once.
DRAW_MARGIN = 500

SeedLike = Union[int, str, bytes, None]


def _held(game: Any) -> Any:
    """The game's lock (a Game's or a Rules'), or nothing to hold."""
    lock = getattr(game, "_lock", None)
    return lock if lock is not None else contextlib.nullcontext()


class Bot:
    """A player: a level from 1 (a beginner who sometimes blunders) to 6
    (the strongest), or an explicit ``budget``. ``seed`` (any int, str or
    bytes) makes its choices repeatable; with none, a :class:`~brandubh.Game`'s
    own seed is used when it has one.

    ``weights`` changes some of the evaluation's weights: a dict, or the
    path of a weights file (:mod:`brandubh.weights`, what ``brandubh tune``
    writes).

    ``choose(game)`` takes a :class:`~brandubh.Game` (and returns the move as
    stored, ``'d1d3'``) or a :class:`~brandubh.Rules` (and returns a move
    number); None when the game is over. The game is not changed.

    >>> Bot(1).budget, Bot(6).budget
    (200, 4000000)
    """

    def __init__(self, level: int = 4, seed: SeedLike = None, *, budget: Optional[int] = None,
                 depth: Optional[int] = None, weights: WeightsLike = None,
                 off: tuple = ()) -> None:
        if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
            raise ArgumentError(f"level must be a whole number from 1 to {MAX_LEVEL}, not {quote(level)}")
        if seed is not None and not isinstance(seed, (int, str, bytes)):
            raise ArgumentError(f"seed must be an int, a string or bytes, not {type(seed).__name__}")
        self.level = level
        self.budget, self.blunder = LEVELS[level]
        if budget is not None:
            self.budget, self.blunder = budget, 0.0
        check_limits(self.budget, 1, depth)
        self.depth = depth
        # A dict of some weights, or a weights file (brandubh tune's), read
        # and checked once, here.
        self.weights: Optional[dict] = as_weights(weights) or None
        # Search features turned off, to measure them (brandubh match "off=tt").
        self.off = features_off(off)
        self.seed = seed
        # A clock limit for each search, in milliseconds (brandubh codingame
        # sets it); None: the budget alone, deterministic.
        self.time_ms: Optional[float] = None

    def __repr__(self) -> str:
        return f"Bot(level={self.level}, budget={self.budget}, seed={self.seed!r})"

    def _salt(self, game: Any, rules: Any) -> bytes:
        seed = self.seed
        if seed is None:
            seed = getattr(game, "_seed", None) or b""
        if isinstance(seed, int):
            seed = str(seed)
        # The same bot in the same game position and move number chooses the
        # same way; different moves of one game get different salts.
        return salt_bytes(seed, "seed") + b"|" + rules.key_hex.encode() + b"|" + str(rules.ply).encode()

    def choose(self, game: Any) -> Union[int, str, None]:
        # One step under the game's lock: another thread sharing the game
        # must not play a move between the look at it and the search.
        with _held(game):
            return self._choose(game)

    def _choose(self, game: Any) -> Union[int, str, None]:
        rules = getattr(game, "_rules", game)
        # A Game may be finished (a resignation) while its record is not.
        moves = rules.moves() if getattr(game, "status", "active") == "active" else []
        if not moves:
            return None
        salt = self._salt(game, rules)
        if self.blunder and random.Random(salt).random() < self.blunder:
            chosen = random.Random(salt + b"|blunder").choice(moves)
        else:
            chosen = rules.search(budget=self.budget, seed=salt_seed(salt), depth=self.depth,
                                  weights=self.weights, _off=self.off,
                                  time_ms=self.time_ms).move
        if rules is game:
            return chosen
        from .engine import move_text

        return move_text(chosen)

    def accepts_draw(self, game: Any, side: Optional[str] = None) -> bool:
        """Whether this bot, playing ``side``, accepts a draw: when a search
        at its own budget (with no blunders) scores the position
        :data:`DRAW_MARGIN` or more worse for it than the set-up, including
        a loss it sees coming; otherwise it declines and plays on. ``side`` defaults, for a
        :class:`~brandubh.Game` with an offer waiting, to the side of the
        seat that did not make it. False when the game is over. The same
        game and bot give the same answer every time.

        >>> from brandubh import Game
        >>> game = Game(position='7/7/7/3k3/7/7/a6 a')   # one attacker against the king
        >>> _ = game.offer_draw('p2')
        >>> Bot(2).accepts_draw(game), Bot(2).accepts_draw(game, 'defenders')
        (True, False)
        >>> start = Game()                                 # the set-up: neither is behind
        >>> Bot(2).accepts_draw(start, 'attackers'), Bot(2).accepts_draw(start, 'defenders')
        (False, False)
        """
        if side is None:
            offer = getattr(game, "draw_offered_by", None)
            if offer is None:
                raise ArgumentError("no draw offer is waiting: say which side the bot plays (side=)")
            side = game.side_of("p2" if offer == "p1" else "p1")
        if side not in ("attackers", "defenders"):
            raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
        with _held(game):
            rules = getattr(game, "_rules", game)
            if getattr(game, "status", "active") != "active" or rules.is_over():
                return False
            found = rules.search(budget=self.budget, seed=salt_seed(self._salt(game, rules) + b"|draw"),
                                 depth=self.depth, weights=self.weights, _off=self.off)
            mine = found.score if rules.side == side else -found.score
            start = type(rules)(variant=rules.variant).evaluate(self.weights)  # the attackers' view
            return bool(mine <= (start if side == "attackers" else -start) - DRAW_MARGIN)
