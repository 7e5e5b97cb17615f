"""``brandubh.Bot``: levels of play, each a node budget.

>>> from brandubh import Bot, Rules
>>> game = Rules()
>>> m = Bot(3, seed=1).choose(game)
>>> m in game.moves(), m
(True, Move('b4b3'))
"""

from __future__ import annotations

import random
import threading
from typing import Any, Optional, Union

from . import notation
from .errors import ArgumentError, quote
from .moves import Move
from .core.rules import Rules
from .core.search import check_limits, check_lockstep, check_threads, features_off, salt_bytes, salt_seed
from .core.weights import WeightsLike, as_weights

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
#: ones; the learned tables give the defenders 185, the NNUE, the default, 84), which
#: says nothing of who is ahead, so a bot with the defenders must not take
#: a draw at once.
DRAW_MARGIN = 500

SeedLike = Union[int, str, bytes, None]


class Bot:
    """A player: a level from 1 (a beginner who sometimes blunders) to 6
    (the strongest), or an explicit ``budget``. ``seed`` (any int, str or
    bytes) makes its choices repeatable; with none, a :class:`~brandubh.Game`'s
    own seed is used when it has one.

    ``weights`` changes some of the evaluation's weights: a dict, or the
    path of a weights file (:mod:`brandubh.core.weights`, what ``brandubh tune``
    writes).

    ``threads`` (1 to 64): each search of ``choose`` runs on that many
    threads (:meth:`brandubh.Rules.search`); more than one is not
    deterministic, and pays with a clock (``time_ms``) rather than a budget.
    ``lockstep=True`` has the threads take turns: deterministic again, and
    no faster than one thread, for measuring what the helpers are worth.

    ``choose(game)`` takes a :class:`~brandubh.Game` or a
    :class:`~brandubh.Rules` and returns the move, a :class:`~brandubh.Move`
    that either plays and that prints as ``d1d3``; None when the game is
    over. The game is not changed.

    >>> Bot(1).budget, Bot(6).budget
    (200, 4000000)
    """

    def __init__(self, level: int = 4, seed: SeedLike = None, *, budget: Optional[int] = None,
                 depth: Optional[int] = None, weights: WeightsLike = None,
                 off: tuple = (), threads: Optional[int] = None, lockstep: bool = False) -> None:
        if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
            raise ArgumentError(f"level must be a whole number from 1 to {MAX_LEVEL}, not {quote(level)}")
        if seed is not None and not isinstance(seed, (int, str, bytes)):
            raise ArgumentError(f"seed must be an int, a string or bytes, not {type(seed).__name__}")
        self.level = level
        self.budget, self.blunder = LEVELS[level]
        if budget is not None:
            self.budget, self.blunder = budget, 0.0
        check_limits(self.budget, 1, depth)
        check_threads(threads)
        check_lockstep(lockstep)
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
        # Threads for each search of choose() (Rules.search's threads=);
        # None: one, deterministic. accepts_draw searches on one thread, so
        # that its answer stays the same every time.
        self.threads: Optional[int] = threads
        self.lockstep = lockstep
        # A stop handle (a brandubh.Stop or a threading.Event) for each
        # search of choose(): set from another thread, it ends the search
        # with the best move found so far (brandubh opentafl sets it on
        # goodbye). None: none. Not for accepts_draw, whose answer must not
        # depend on when it was asked to stop.
        self.stop: Optional[threading.Event] = None

    def __repr__(self) -> str:
        return f"Bot(level={self.level}, budget={self.budget}, seed={self.seed!r})"

    def _seeds(self, game: Any, tail: bytes = b"") -> tuple[bytes, int]:
        """What this bot's choices in ``game`` as it stands come from: the
        bytes its blunders are drawn with, and the search's seed. The same
        bot in the same position and move number chooses the same way;
        different moves of one game get different ones. A bot with no seed
        of its own takes a :class:`~brandubh.Game`'s (through
        :meth:`~brandubh.Game.search_seed`, which does not give it away)."""
        if isinstance(game, Rules):
            key, ply = game.key_hex, game.ply
        else:
            key, ply = game.signature, game.ply
        moment = b"|" + key.encode() + b"|" + str(ply).encode() + tail
        seed = self.seed
        if seed is None and not isinstance(game, Rules):
            number = game.search_seed(moment)
            # A game with no seed of its own salts with the moment alone.
            return (moment if number == salt_seed(moment) else number.to_bytes(4, "big") + moment), number
        if isinstance(seed, int):
            seed = str(seed)
        salt = salt_bytes(seed or b"", "seed") + moment
        return salt, salt_seed(salt)

    def choose(self, game: Any) -> Optional[Move]:
        """The move this bot plays in ``game``, a :class:`~brandubh.Game`
        or a :class:`~brandubh.Rules`: a :class:`~brandubh.Move`, which
        either of them plays as it is; None when the game is over. The game
        is not changed. An ArgumentError when ``game`` is neither.

        >>> from brandubh import Game
        >>> Bot(2, seed=7).choose(Game()) == Bot(2, seed=7).choose(Game())
        True
        >>> print(Bot(2, seed=7).choose(Game()))
        f4f3
        >>> Bot(1).choose(None)
        Traceback (most recent call last):
        ...
        brandubh.errors.ArgumentError: Bot.choose takes a brandubh.Game or a brandubh.Rules, not NoneType
        """
        _check_game(game, "choose")
        # One step under the game's lock: another thread sharing the game
        # must not play a move between the look at it and the search.
        with game.lock:
            if isinstance(game, Rules):
                moves: list[Any] = game.moves()
            else:
                moves = [m.move for m in game.legal()]   # none once finished, a resignation too
            if not moves:
                return None
            salt, seed = self._seeds(game)
            if self.blunder and random.Random(salt).random() < self.blunder:
                return Move(random.Random(salt + b"|blunder").choice(moves))
            found = game.search(budget=self.budget, seed=seed, depth=self.depth, weights=self.weights,
                                **self._search_options(game))
            return found.move

    def _search_options(self, game: Any, clock: bool = True) -> dict:
        """The search's settings beyond the budget: features turned off, the
        clock and the stop handle (not for a draw's judgement)."""
        options: dict[str, Any] = {"time_ms": self.time_ms if clock else None,
                                   "stop": self.stop if clock else None}
        if self.off:
            options["_off"] = self.off
        if clock and self.threads is not None:
            options["threads"] = self.threads
            options["lockstep"] = self.lockstep
        return options

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
        _check_game(game, "accepts_draw")
        if side is None:
            offer = getattr(game, "draw_offered_by", None)
            if offer is None:
                raise ArgumentError("no draw offer is waiting: say which side the bot plays (side=)")
            side = game.side_of("p2" if offer == "p1" else "p1")
        if side not in notation.SIDES:
            raise ArgumentError(f"side must be 'attackers' or 'defenders', not {quote(side)}")
        with game.lock:
            if game.is_over() if isinstance(game, Rules) else game.status != "active":
                return False
            _, seed = self._seeds(game, b"|draw")
            found = game.search(budget=self.budget, seed=seed, depth=self.depth, weights=self.weights,
                                **self._search_options(game, clock=False))
            to_move = game.side if isinstance(game, Rules) else game.side_to_move
            mine = found.score if to_move == side else -found.score
            start = Rules(variant=game.variant).evaluate(self.weights)  # the attackers' view
            return bool(mine <= (start if side == "attackers" else -start) - DRAW_MARGIN)


#: What a bot reads of a :class:`~brandubh.Game` (which this layer may not
#: import: the game imports the bot): anything that has them all is taken
#: for one.
_GAME_PARTS = ("lock", "legal", "search", "signature", "ply", "search_seed")


def _check_game(game: object, method: str) -> None:
    """An ArgumentError unless ``game`` is a Rules or has what a Game has."""
    if not isinstance(game, Rules) and not all(hasattr(game, part) for part in _GAME_PARTS):
        raise ArgumentError(f"Bot.{method} takes a brandubh.Game or a brandubh.Rules, "
                            f"not {type(game).__name__}")
