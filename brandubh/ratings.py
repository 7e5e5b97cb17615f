"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"): a
rating, its deviation (how uncertain it is) and its volatility (how much
it is expected to move), updated from one rating period's results.

The public function is :func:`update`: a :class:`Rating` and the period's
results (each an opponent's rating and deviation, and the score: 1 a win,
0.5 a draw, 0 a loss) give the new :class:`Rating`. Glickman's own worked
example, a 1500 player with deviation 200 and volatility 0.06 who beats a
1400 (deviation 30) and loses to a 1550 (100) and a 1700 (300), with the
system constant tau 0.5:

>>> new = update(Rating(1500, 200, 0.06), [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)],
...              tau=0.5)
>>> f"{new.rating:.2f} {new.deviation:.2f} {new.volatility:.6f}"
'1464.05 151.52 0.059996'

The paper gives 1464.06, 151.52 and 0.05999: it works in rounded steps
(its new mu, -0.2069, times 173.7178 is 1464.06); unrounded, the rating
is 1464.0507, within 0.01 of it.
>>> str(new), new.provisional
('1464 ± 152', True)

A period without games leaves the rating and raises the deviation (the
player's strength is less sure as time passes):

>>> update(Rating(1500, 50, 0.06), []).deviation > 50
True
"""

from __future__ import annotations

import math
from typing import Iterable, NamedTuple

from .errors import BrandubhError

__all__ = ["Rating", "Result", "update", "RatingError", "DEFAULT", "TAU", "PROVISIONAL", "SCALE"]

#: Glicko-2's scale: a rating of 1500 + SCALE * mu, a deviation of SCALE * phi.
SCALE = 173.7178
#: The system constant tau: how much the volatility may change in a period
#: (Glickman suggests 0.3 to 1.2; smaller is steadier).
TAU = 0.5
#: A rating is provisional while its deviation is above this (lichess's bound).
PROVISIONAL = 110.0
#: The precision the new volatility is found to (the paper's epsilon).
_EPSILON = 1e-6


class RatingError(BrandubhError):
    """A rating, deviation, volatility or score out of its range: the
    sentence says which."""


class Rating(NamedTuple):
    """A player's Glicko-2 rating: ``rating`` (1500 a newcomer),
    ``deviation`` (350 a newcomer: the rating is known to within about
    twice this either way) and ``volatility``."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        """Whether the deviation is still too high for the rating to mean much."""
        return self.deviation > PROVISIONAL

    def __str__(self) -> str:
        return f"{round(self.rating)} ± {round(self.deviation)}"


#: A newcomer's rating.
DEFAULT = Rating()


class Result(NamedTuple):
    """One game of a rating period: the opponent's ``rating`` and
    ``deviation`` (as they were before the period), and the ``score`` (1 a
    win, 0.5 a draw, 0 a loss)."""

    rating: float
    deviation: float
    score: float


def _check(rating: float, deviation: float, what: str) -> None:
    if not (math.isfinite(rating) and math.isfinite(deviation) and deviation > 0):
        raise RatingError(f"{what} must be a finite rating with a deviation above 0, not {rating!r} ± {deviation!r}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def update(player: Rating, results: Iterable[Result], *, tau: float = TAU) -> Rating:
    """The rating ``player`` has after a period with these ``results``
    (none: the deviation grows, the rest stays), with the system constant
    ``tau``. A :class:`RatingError` for a value out of its range."""
    _check(player.rating, player.deviation, "a player's rating")
    if not (math.isfinite(player.volatility) and player.volatility > 0) or not (math.isfinite(tau) and tau > 0):
        raise RatingError(f"the volatility and tau must be above 0, not {player.volatility!r} and {tau!r}")
    games = list(results)
    for result in games:
        _check(result.rating, result.deviation, "an opponent's rating")
        if not 0.0 <= result.score <= 1.0:
            raise RatingError(f"a score is 1 (a win), 0.5 (a draw) or 0 (a loss), not {result.score!r}")
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.deviation / SCALE, player.volatility
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    # Step 3 and 4: the estimated variance of the rating from the games alone, and the improvement.
    inverse_v = 0.0
    gain = 0.0
    for result in games:
        mu_j, phi_j = (result.rating - 1500.0) / SCALE, result.deviation / SCALE
        g = _g(phi_j)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inverse_v += g * g * expected * (1.0 - expected)
        gain += g * (result.score - expected)
    v = 1.0 / inverse_v
    delta = v * gain
    # Step 5: the new volatility, the root of f by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 to 8: the new deviation and rating, back on the usual scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(1500.0 + SCALE * new_mu, SCALE * new_phi, new_sigma)
