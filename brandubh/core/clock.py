"""How long one move may think: the one time manager of every player under
a clock.

The search itself reads no clock; a player under one gives it ``time_ms=``
(:mod:`brandubh.core.stopping`), and that figure comes from here:

- a fixed limit a move (the CodinGame puzzle's 100 ms for the first answer
  and 50 ms for each later one): :func:`move_limit_ms` keeps a margin back
  (the Python bot, ``brandubh codingame``), :func:`first_limit_ms` gives the
  first move the same share of its longer limit as the later ones get (the
  exported C bot, whose settings are these numbers written into its source);
- a clock with main time and overtime periods (OpenTafl's ``clock`` line):
  :func:`share_ms`;
- no clock, but fixed budgets of positions that the limits would allow at
  an assumed speed: :func:`budget_of`.

>>> move_limit_ms(50, 25), first_limit_ms(100, 50, 20)
(25.0, 60.0)
>>> share_ms(60_000, overtime=False, period_ms=10_000, margin_ms=50)
4950.0
>>> budget_of(100, 5_000_000, 0.35)
175000
"""

from __future__ import annotations

__all__ = ["MOVES_TO_GO", "OVERTIME_SHARE", "move_limit_ms", "first_limit_ms", "share_ms", "budget_of"]

MOVES_TO_GO = 20
"""In a clock's main time, a move may spend one this-many-th of what is
left: a game of brandubh between engines lasts some 20 to 60 moves a side,
and the later moves, with fewer pieces, need less."""

OVERTIME_SHARE = 0.5
"""In overtime, a move may spend this share of what is left of the period."""


def move_limit_ms(limit_ms: float, margin_ms: float) -> float:
    """A move with a fixed limit: the limit less ``margin_ms`` (what the
    answer's way out and a busy machine may cost), at least 1 ms."""
    return max(1.0, float(limit_ms) - margin_ms)


def first_limit_ms(first_ms: float, turn_ms: float, margin_ms: float) -> float:
    """The first move, whose limit (``first_ms``) is longer than the later
    ones' (``turn_ms``): the same share of it as a later move keeps of its
    own after ``margin_ms``, so the first margin is as much larger as its
    limit. At least 1 ms."""
    if turn_ms <= 0:
        raise ValueError(f"the later moves' limit must be above 0 ms, not {turn_ms!r}")
    return max(1.0, float(first_ms) * (turn_ms - margin_ms) / turn_ms)


def share_ms(left_ms: float, *, overtime: bool, period_ms: float, margin_ms: float) -> float:
    """How long a move may think on a clock with main time and overtime:
    in overtime (``left_ms`` of the period left), :data:`OVERTIME_SHARE` of
    it; in the main time, one :data:`MOVES_TO_GO`-th of it, or half an
    overtime period (``period_ms``, 0 when none is left) when that is more;
    never more than half of what can be spent before the side loses (or
    loses a period); less ``margin_ms``, and at least 1 ms.

    >>> share_ms(59_000, overtime=True, period_ms=10_000, margin_ms=50)
    29450.0
    >>> share_ms(30, overtime=False, period_ms=0, margin_ms=50)
    1.0
    """
    if overtime:
        spend = OVERTIME_SHARE * left_ms
    else:
        spend = max(left_ms / MOVES_TO_GO, OVERTIME_SHARE * period_ms)
        spend = min(spend, 0.5 * (left_ms + period_ms))
    return max(1.0, spend - margin_ms)


def budget_of(limit_ms: float, rate: float, share: float) -> int:
    """The positions a search visiting ``rate`` a second gets through in
    ``share`` of ``limit_ms``: a fixed budget for a player that must not
    read a clock, at least 1."""
    return max(1, int(rate * limit_ms / 1000 * share))
