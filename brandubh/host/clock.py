"""The clocks of ``brandubh host``: Fischer increments, kept by the server.

A :class:`Clock` holds each side's time left, in milliseconds, and which
side's clock runs since when (a wall-clock time, :func:`time.time`, so that
a server started again reads the same clock from its store). A move
presses the mover's clock: the time it took comes off, the increment goes
on, and the other side's clock starts. A side whose time is gone has lost
on time (its flag fell), whether or not anyone is connected: the server's
timer asks :meth:`Clock.deadline` when that will be.

>>> clock = Clock.preset('5+3')
>>> clock.left_ms('attackers', now=0.0)
300000
>>> clock.start('attackers', now=10.0)
>>> clock.press('attackers', now=14.5), clock.left_ms('attackers', now=14.5), clock.running
(True, 298500, 'defenders')
>>> clock.deadline()
314.5
>>> clock.press('defenders', now=400.0), clock.left_ms('defenders', now=400.0)
(False, 0)

A correspondence clock gives a number of days a move: each move gives the
mover the whole allowance again, and the other's starts (``'3d'``):

>>> post = clock_of('3d'); post.start('attackers', now=0.0)
>>> post.press('attackers', now=86400.0), post.left_ms('attackers', now=86400.0) == post.base_ms, post.name
(True, True, '3d')
"""

from __future__ import annotations

import math
import re
from typing import Any, Optional

from ..errors import quote

__all__ = ["Clock", "PRESETS", "DAYS", "SPEEDS", "BLITZ_SECONDS", "parse_clock", "clock_of", "speed", "pool_of"]

#: The clocks offered: minutes each and seconds added a move.
PRESETS = ("1+1", "3+2", "5+3", "10+5", "15+10", "30+20")
#: The speeds a rating is kept for, each rule set apart.
SPEEDS = ("blitz", "rapid", "correspondence")
#: A game whose clock gives at most this many seconds a side for 40 moves
#: (minutes and 40 increments, as lichess estimates) is blitz; longer, rapid.
BLITZ_SECONDS = 480
#: The days a move a correspondence game may have: 1d to DAYS d.
DAYS = 14
_DAYS = re.compile(r"([0-9]{1,2})d")
_CLOCK = re.compile(r"([0-9]{1,3}(?:\.[0-9]{1,2})?)\+([0-9]{1,3})")
_SIDES = ("attackers", "defenders")


def parse_clock(text: object) -> Optional[tuple[int, int]]:
    """``'5+3'`` as (milliseconds each, milliseconds added a move); None for
    ``'untimed'`` (or None). The minutes may have two decimals (``'0.5+2'``,
    half a minute). A :class:`ValueError` for anything else.

    >>> parse_clock('15+10'), parse_clock('0.5+2'), parse_clock('untimed')
    ((900000, 10000), (30000, 2000), None)
    >>> parse_clock('0+0')
    Traceback (most recent call last):
    ...
    ValueError: a clock is 'untimed' or minutes+seconds from 0.01+0 to 180+180 (as 5+3), not '0+0'
    """
    if text is None or text == "untimed":
        return None
    m = _CLOCK.fullmatch(text) if isinstance(text, str) else None
    base = round(float(m.group(1)) * 60_000) if m is not None else 0
    if m is None or not 600 <= base <= 180 * 60_000 or int(m.group(2)) > 180:
        raise ValueError(f"a clock is 'untimed' or minutes+seconds from 0.01+0 to 180+180 (as 5+3), "
                         f"not {quote(text)}")
    return base, int(m.group(2)) * 1000


def clock_of(text: object) -> Optional["Clock"]:
    """The clock ``text`` names: ``'5+3'`` (Fischer), ``'3d'`` (days a
    move, 1 to :data:`DAYS`), or None for ``'untimed'``; a
    :class:`ValueError` for anything else.

    >>> clock_of('5+3').name, clock_of('7d').per_move, clock_of('untimed')
    ('5+3', True, None)
    """
    m = _DAYS.fullmatch(text) if isinstance(text, str) else None
    if m is not None:
        if not 1 <= int(m.group(1)) <= DAYS:
            raise ValueError(f"a correspondence clock is 1d to {DAYS}d (days a move), not {quote(text)}")
        return Clock(int(m.group(1)) * 86_400_000, 0, per_move=True)
    parsed = parse_clock(text)
    return Clock(*parsed) if parsed is not None else None


class Clock:
    """Two Fischer clocks: ``base_ms`` each at the start, ``increment_ms``
    added after each move; or, ``per_move``, a correspondence clock:
    ``base_ms`` again for each move. ``left``: each side's time at the moment its
    clock last stopped (or the start); ``running``: the side whose clock
    runs, since the wall-clock time ``since`` (None when neither runs)."""

    def __init__(self, base_ms: int, increment_ms: int, *, per_move: bool = False) -> None:
        self.base_ms = base_ms
        self.increment_ms = increment_ms
        self.per_move = per_move
        self.left = {side: base_ms for side in _SIDES}
        self.running: Optional[str] = None
        self.since = 0.0

    @classmethod
    def preset(cls, text: str) -> "Clock":
        """A clock from its name, ``'5+3'``."""
        parsed = parse_clock(text)
        if parsed is None:
            raise ValueError("an untimed game has no clock")
        return cls(*parsed)

    @property
    def name(self) -> str:
        """``'5+3'``, or ``'3d'`` for days a move."""
        if self.per_move:
            return f"{self.base_ms // 86_400_000}d"
        minutes = f"{self.base_ms / 60_000:.2f}".rstrip("0").rstrip(".")
        return f"{minutes}+{self.increment_ms // 1000}"

    def left_ms(self, side: str, now: float) -> int:
        """The time ``side`` has left at ``now``, never below 0."""
        left = self.left[side]
        if self.running == side:
            left -= int(round((now - self.since) * 1000))
        return max(0, left)

    def start(self, side: str, now: float) -> None:
        """Start ``side``'s clock (the other stops where it is)."""
        self.stop(now)
        self.running, self.since = side, now

    def stop(self, now: float) -> None:
        """Stop the running clock, keeping the time it has left."""
        if self.running is not None:
            self.left[self.running] = self.left_ms(self.running, now)
            self.running = None

    def press(self, side: str, now: float) -> bool:
        """``side`` has moved at ``now``: its time comes off, its increment
        goes on and the other's clock starts. False, and nothing but the
        time changed, when ``side``'s flag had fallen by then."""
        if self.running == side and self.left_ms(side, now) <= 0:
            self.stop(now)
            return False
        self.stop(now)
        self.left[side] = self.base_ms if self.per_move else self.left[side] + self.increment_ms
        self.start(_SIDES[1 - _SIDES.index(side)], now)
        return True

    def deadline(self) -> Optional[float]:
        """When the running side's flag falls (wall-clock time), or None."""
        if self.running is None:
            return None
        return self.since + self.left[self.running] / 1000

    def flagged(self, now: float) -> Optional[str]:
        """The side whose time is gone at ``now``, or None."""
        if self.running is not None and self.left_ms(self.running, now) <= 0:
            return self.running
        return None

    def as_dict(self) -> dict[str, Any]:
        """The clock as stored."""
        kept = {"base_ms": self.base_ms, "increment_ms": self.increment_ms, "left": dict(self.left),
                "running": self.running, "since": self.since}
        if self.per_move:   # only then: a record of a Fischer clock is as the first release wrote it
            kept["per_move"] = True
        return kept

    @classmethod
    def from_dict(cls, data: Any) -> "Clock":
        """The clock :meth:`as_dict` stored; a :class:`ValueError` naming
        the first field that is missing or not what it should be.

        >>> c = Clock.preset('3+2'); c.start('defenders', 5.0)
        >>> Clock.from_dict(c.as_dict()).as_dict() == c.as_dict()
        True
        >>> Clock.from_dict({**c.as_dict(), 'since': 'soon'})
        Traceback (most recent call last):
        ...
        ValueError: the clock's since is 'soon', not a number
        """
        if not isinstance(data, dict):
            raise ValueError(f"the clock is {quote(data)}, not an object")

        def number(name: str, value: Any) -> float:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"the clock's {name} is {quote(value)}, not a number")
            return value

        per_move = data.get("per_move", False)
        if not isinstance(per_move, bool):
            raise ValueError(f"the clock's per_move is {quote(per_move)}, not true or false")
        clock = cls(int(number("base_ms", data.get("base_ms"))), int(number("increment_ms", data.get("increment_ms"))),
                    per_move=per_move)
        left = data.get("left")
        if not isinstance(left, dict):
            raise ValueError(f"the clock's time left is {quote(left)}, not one for each side")
        clock.left = {side: int(number(f"time left for the {side}", left.get(side))) for side in _SIDES}
        running = data.get("running")
        if running is not None and running not in _SIDES:
            raise ValueError(f"the clock's running side is {quote(running)}, not the attackers, the defenders "
                             "or none")
        clock.running = running
        clock.since = float(number("since", data.get("since")))
        return clock


def speed(clock: Optional[Clock]) -> Optional[str]:
    """The speed of a clock (None: untimed, which is never rated).

    >>> speed(clock_of('3+2')), speed(clock_of('15+10')), speed(clock_of('2d'))
    ('blitz', 'rapid', 'correspondence')
    """
    if clock is None:
        return None
    if clock.per_move:
        return "correspondence"
    return "blitz" if clock.base_ms / 1000 + 40 * clock.increment_ms / 1000 <= BLITZ_SECONDS else "rapid"


def pool_of(variant: str, clock: Optional[Clock]) -> Optional[str]:
    """The rating pool of a game: its rule set and speed (``brandubh blitz``)."""
    pace = speed(clock)
    return None if pace is None else f"{variant} {pace}"
