"""The package's bot as a player: a :class:`~brandubh.Bot` inside
this process, held by its node budget (deterministic: the same game and
seed give the same move), unless its setting gives a clock.

A setting is comma-separated ``key=value`` pairs: ``level`` (1-6),
``budget`` (positions a move), ``depth``, any evaluation weight
(``attacker``, ``defender``, ``lane_one``, ``lane_two``, ``freedom``,
``corner_guard``, ``ring``), ``weights=FILE`` (a weights file, as
``brandubh tune`` writes: :mod:`brandubh.core.weights`; a weight also written in
the setting wins over the file's), and ``off=`` search features to turn
off, joined by ``+`` (the names of
:data:`brandubh.core.search.FEATURES`: ``tt``, ``killers``, ``history``,
``pvs``, ``threats``, ``qsearch``, ``blocks``, ``lmr``, ``fail_low``,
``incremental``, ``rfp``, ``futility``, ``lmr_deep``, ``iir``, ``countermove``). Two settings are not
deterministic: ``time_ms`` (each move searched for that many milliseconds;
with neither ``level`` nor ``budget`` the clock is the only limit) and
``threads`` (each search on that many threads, 1 to 64):
``time_ms=100,threads=2`` (``ms`` is short for ``time_ms``), unless
``lockstep=1`` has the threads take turns (deterministic, and no faster
than one thread: ``budget=100000,threads=2,lockstep=1`` is two threads of
50,000 positions each). ``eval=learned``
or ``eval=classical`` picks the evaluation (docs/learned.md).

>>> parse_setting('budget=5000,ring=40')
{'budget': 5000, 'weights': {'ring': 40}}
>>> BotPlayer.from_text('level=2').describe()
'level=2'
"""

from __future__ import annotations

import re
import time
from typing import Any, Optional

from ..errors import ArgumentError, quote
from .player import Answer, Limits, Player, Seat, Table

__all__ = ["BotPlayer", "parse_setting", "make_bot"]


def _names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from ..core.search import FEATURES, WEIGHT_NAMES

    return tuple(WEIGHT_NAMES), tuple(FEATURES)


def parse_setting(text: str) -> dict:
    """A setting's text as the keyword arguments of :class:`~brandubh.Bot`;
    ArgumentError, naming the part, for anything else."""
    weight_names, features = _names()
    out: dict = {}
    weights: dict = {}
    from_file: dict = {}
    for part in filter(None, (p.strip() for p in str(text).split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if key == "weights" and eq:
            # Read here, so the player carries the numbers (to another
            # process, or a Ray worker) and not the file's name.
            from ..core.weights import load_weights

            if not raw.strip():
                raise ArgumentError(f"weights= in {quote(text)} names no file")
            from_file = load_weights(raw.strip())
            continue
        if key == "off" and eq:
            names = tuple(filter(None, raw.strip().split("+")))
            unknown = [n for n in names if n not in features]
            if unknown:
                raise ArgumentError(f"{quote(unknown[0])} is not a search feature: use "
                                    + ", ".join(features))
            out["off"] = names
            continue
        raw = raw.strip()
        if key == "eval" and eq and not re.fullmatch(r"-?[0-9]+", raw):
            weights[key] = raw  # a name: learned or classical (checked by the bot)
            continue
        if not eq or not re.fullmatch(r"-?[0-9]{1,12}", raw):
            raise ArgumentError(f"{quote(part)} in {quote(text)} is not key=whole-number (at most 12 digits)")
        value = int(raw)
        if key == "ms":
            key = "time_ms"
        if key in ("level", "budget", "depth", "threads", "time_ms"):
            out[key] = value
        elif key == "lockstep":
            if value not in (0, 1):
                raise ArgumentError(f"lockstep is 0 or 1, not {value}")
            out[key] = bool(value)
        elif key in weight_names:
            weights[key] = value
        else:
            raise ArgumentError(f"{quote(key)} is not a setting: use level, budget, depth, threads, "
                                f"lockstep (0 or 1), time_ms (or ms), eval, off, cmd, "
                                f"weights=FILE or a weight ({', '.join(weight_names)})")
    if weights or from_file:
        # A weight written in the setting wins over the file's.
        out["weights"] = {**from_file, **weights}
    if not out:
        raise ArgumentError(f"{quote(text)} sets nothing: give e.g. level=4 or budget=20000")
    return out


def make_bot(setting: dict, seed: Any):
    """The :class:`~brandubh.Bot` of a setting (as :func:`parse_setting`
    gives it); ArgumentError for a bad value."""
    from ..bot import Bot

    from ..core.stopping import check_time_ms

    kwargs = dict(setting)
    time_ms = check_time_ms(kwargs.pop("time_ms", None))
    if time_ms is not None and "level" not in kwargs and "budget" not in kwargs:
        from ..core.search import MAX_BUDGET

        kwargs["budget"] = MAX_BUDGET  # the clock alone
    bot = Bot(kwargs.pop("level", 4), seed=seed, **kwargs)
    bot.time_ms = time_ms
    return bot


class BotPlayer(Player):
    """The package's bot with a setting (a dict as :func:`parse_setting`
    gives, and the text it came from). The bot is checked when the player
    is made, so a bad setting is refused before any game."""

    def __init__(self, setting: dict, text: Optional[str] = None, name: str = "") -> None:
        self.setting = dict(setting)
        self.text = text if text is not None else ",".join(f"{k}={v}" for k, v in setting.items())
        self.name = name
        make_bot(self.setting, "check")

    @classmethod
    def from_text(cls, text: str, name: str = "") -> "BotPlayer":
        return cls(parse_setting(text), text.strip(), name)

    def describe(self) -> str:
        return self.text

    def sit(self, table: Table, seat: str, game_index: int, variant: Any) -> Seat:
        return _BotSeat(self.name, make_bot(self.setting, f"{self.name}{game_index}"))

    def __repr__(self) -> str:
        return f"BotPlayer({self.text!r}, name={self.name!r})"


class _BotSeat(Seat):
    def __init__(self, name: str, bot: Any) -> None:
        self.name = name
        self.bot = bot

    def answer(self, game: Any, last: Optional[str], limits: Limits, first: bool) -> Answer:
        t0 = time.perf_counter()
        move = self.bot.choose(game)
        took = time.perf_counter() - t0
        if move is None:  # pragma: no cover - the loop asks only while the game is on
            return Answer(fault="crash", detail="the bot found no move", seconds=took)
        return Answer(move=str(move), seconds=took)
