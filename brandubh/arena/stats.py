"""What a run of games between two players says: a tally of the results,
the Elo difference with its 95% interval, a sequential probability ratio
test (SPRT) that may stop a run early, and a one-line progress bar.

Games are played in pairs (one opening, the sides swapped), and a pair's
two games are not independent: the opening favours one side, so a pair is
more often split than two games taken apart would be. The SPRT and the
Elo of a match therefore count pairs by default, as fishtest does: a
:class:`Pentanomial`, five counts of the pairs scoring 0, 1/2, 1, 3/2 and
2 points of 2, tested by :func:`sprt_pairs`. :func:`sprt` counts games
one by one (wins, draws, losses: the trinomial), for runs not played in
pairs.

Generic: nothing here knows the rules or how the games were played, so that
``brandubh referee`` and ``brandubh match`` report the same way. Results are
counted from the first player's side: a score of 0.75 means the first player
took three points in four.

>>> t = Tally('A', 'B')
>>> for winner in ('A', 'A', None, 'B'):
...     t.add(attackers='A', defenders='B', winner=winner)
>>> t.wins('A'), t.draws('A'), t.losses('A'), t.score()
(2, 1, 1, 0.625)
>>> e = elo_estimate(60, 20, 20)
>>> round(e.elo), round(e.low), round(e.high)
(147, 86, 218)
>>> s = sprt(60, 20, 20, elo0=0, elo1=20)
>>> s.decision, round(s.llr, 2)
('H1', 3.34)
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence, TextIO

from .. import notation
from ..errors import quote

__all__ = [
    "Z95",
    "expected_score",
    "elo_of_score",
    "EloEstimate",
    "elo_estimate",
    "SPRTResult",
    "sprt",
    "Pentanomial",
    "PAIR_POINTS",
    "elo_estimate_pairs",
    "sprt_pairs",
    "gsprt_llr",
    "EMPTY_BIN",
    "SPRT_BY",
    "sprt_bounds",
    "parse_sprt",
    "Tally",
    "Progress",
    "format_elo",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def expected_score(elo: float) -> float:
    """The score the logistic Elo model expects for a player ``elo`` points
    stronger than its opponent.

    >>> expected_score(0), round(expected_score(400), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """The Elo difference a score (0 to 1) means; ``inf`` or ``-inf`` at the
    ends.

    >>> elo_of_score(0.5), round(elo_of_score(0.75), 1), elo_of_score(1.0)
    (0.0, 190.8, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # never -0.0


def format_elo(value: Optional[float]) -> str:
    """An Elo figure as text: ``+12.3``, ``-4.0``, ``+inf``, ``-``.

    >>> format_elo(12.34), format_elo(-math.inf), format_elo(None)
    ('+12.3', '-inf', '-')
    """
    if value is None or math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def _score_variance(wins: float, draws: float, losses: float) -> float:
    """The variance of one game's score (1, 1/2, 0) over these counts."""
    n = wins + draws + losses
    if n <= 0:
        return 0.0
    s = (wins + 0.5 * draws) / n
    return (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n


@dataclass(frozen=True)
class EloEstimate:
    """The Elo difference of the first player over the second, with a 95%
    interval, and the score they come from. With no games every figure is
    None."""

    games: int
    score: Optional[float]
    score_low: Optional[float]
    score_high: Optional[float]
    elo: Optional[float]
    low: Optional[float]
    high: Optional[float]

    @property
    def margin(self) -> Optional[float]:
        """Half the width of the interval, in Elo; None when either end is
        infinite or there were no games."""
        if self.low is None or self.high is None:
            return None
        if math.isinf(self.low) or math.isinf(self.high):
            return None
        return (self.high - self.low) / 2.0

    def spread(self, digits: int = 0) -> str:
        """How far the interval reaches each way: ``± 49`` when it is
        about as wide on both sides (within a tenth), else ``-41/+178``, the
        two reaches apart (an Elo interval is lopsided near a score of 0 or
        1); empty when an end is infinite or there are no games.

        >>> elo_estimate(5, 0, 5).spread(), elo_estimate(20, 5, 3).spread()
        ('± 252', '-115/+200')
        """
        if self.elo is None or self.low is None or self.high is None or self.margin is None:
            return ""
        below, above = self.elo - self.low, self.high - self.elo
        if abs(above - below) <= 0.1 * max(above, below):
            return f"± {self.margin:.{digits}f}"
        return f"-{below:.{digits}f}/+{above:.{digits}f}"

    def text(self) -> str:
        """``+88.7 ± 49.3 (95%: +39.4 to +138.0)``, or ``-`` with no games;
        a lopsided interval is given as its two reaches (:meth:`spread`).

        >>> elo_estimate(5, 0, 5).text()
        '+0.0 ± 251.8 (95%: -251.8 to +251.8)'
        >>> elo_estimate(20, 5, 3).text()   # a score of 22.5 in 28: +244.7, and 244.7 - 114.6 = 130.1
        '+244.7 -114.6/+199.9 (95%: +130.1 to +444.6)'
        """
        if self.elo is None:
            return "-"
        ends = f"95%: {format_elo(self.low)} to {format_elo(self.high)}"
        spread = self.spread(1)
        if not spread:
            return f"{format_elo(self.elo)} ({ends})"
        return f"{format_elo(self.elo)} {spread} ({ends})"

    def as_dict(self) -> dict:
        """For JSON: infinite figures become None (JSON has no infinity)."""

        def finite(x: Optional[float]) -> Optional[float]:
            return None if x is None or math.isinf(x) or math.isnan(x) else round(x, 2)

        return {
            "games": self.games,
            "score": None if self.score is None else round(self.score, 5),
            "score_interval": [
                None if self.score_low is None else round(self.score_low, 5),
                None if self.score_high is None else round(self.score_high, 5),
            ],
            "elo": finite(self.elo),
            "elo_low": finite(self.low),
            "elo_high": finite(self.high),
            "text": self.text(),
        }


def _interval(n: int, s: float, var: float, z: float) -> tuple[float, float]:
    """The score's interval over ``n`` independent observations of mean
    ``s`` (0 to 1) and variance ``var``: ``s`` plus or minus ``z`` standard
    errors, or Wilson's interval for a proportion ``s`` when ``var`` is zero
    (every observation alike says nothing of the spread), clipped to 0..1."""
    if var > 0.0:
        half = z * math.sqrt(var / n)
        lo, hi = s - half, s + half
    else:
        # Wilson's interval for a proportion s over n trials.
        z2 = z * z
        centre = (s + z2 / (2 * n)) / (1 + z2 / n)
        half = z * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        lo, hi = centre - half, centre + half
        if s >= 1.0:
            hi = 1.0
        if s <= 0.0:
            lo = 0.0
    return max(0.0, lo), min(1.0, hi)


def elo_estimate(wins: int, draws: int, losses: int, z: float = Z95) -> EloEstimate:
    """The Elo difference the counts give, from the first player's side,
    each game taken as independent of the others (:func:`elo_estimate_pairs`
    counts pairs).

    The score is ``(wins + draws / 2) / games``; its interval is the score
    plus or minus ``z`` standard errors, with the variance of one game's
    score measured from the counts (a draw counts one half), clipped to
    0..1, and both ends turned into Elo by the logistic model. When every
    game had the same result that variance is zero and says nothing, so the
    interval is then Wilson's for a proportion equal to the score (for ten
    wins in ten games: 72% to 100%, +166 Elo to +inf).

    >>> e = elo_estimate(10, 0, 0)
    >>> e.elo, round(e.low), e.high
    (inf, 166, inf)
    >>> elo_estimate(0, 0, 0).elo is None
    True
    """
    for name, value in (("wins", wins), ("draws", draws), ("losses", losses)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a whole number of games, not {quote(value)}")
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(0, None, None, None, None, None, None)
    s = (wins + 0.5 * draws) / n
    lo, hi = _interval(n, s, _score_variance(wins, draws, losses), z)
    return EloEstimate(n, s, lo, hi, elo_of_score(s), elo_of_score(lo), elo_of_score(hi))


# -- the sequential probability ratio test --------------------------------


@dataclass(frozen=True)
class SPRTResult:
    """Where a sequential test stands: the log-likelihood ratio, its two
    bounds, and the decision: ``'H1'`` (the first player is ``elo1``
    stronger, or more), ``'H0'`` (at most ``elo0``), or None (play on)."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    decision: Optional[str]

    def text(self) -> str:
        """``LLR 1.23 (-2.94, 2.94) elo0=0 elo1=10: play on``."""
        verdict = {"H1": f"H1 accepted (stronger by {self.elo1:g} or more)",
                   "H0": f"H0 accepted (not stronger by more than {self.elo0:g})",
                   None: "no decision yet"}[self.decision]
        return (f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f}) "
                f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
                f"beta={self.beta:g}: {verdict}")

    def as_dict(self) -> dict:
        return {
            "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
            "llr": round(self.llr, 4), "lower": round(self.lower, 4),
            "upper": round(self.upper, 4), "decision": self.decision,
        }


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The two bounds of the log-likelihood ratio (Wald):
    ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.

    >>> [round(b, 3) for b in sprt_bounds()]
    [-2.944, 2.944]
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError(f"alpha and beta must be between 0 and 1, not {quote(alpha)} and {quote(beta)}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt(wins: int, draws: int, losses: int, elo0: float, elo1: float,
         alpha: float = 0.05, beta: float = 0.05) -> SPRTResult:
    """A generalised SPRT of "the first player is at most ``elo0`` Elo
    stronger" (H0) against "at least ``elo1``" (H1), on the counts so far.

    The log-likelihood ratio is the normal approximation that fishtest-like
    testers use for logistic Elo::

        LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)

    where ``s`` is the score, ``s0`` and ``s1`` the scores ``elo0`` and
    ``elo1`` expect, and ``var`` the variance of one game's score. While one
    of the three results has not happened yet, ``var`` is measured with half
    a game added to each count, so that a run of equal results cannot end the
    test on its first game. The test stops when the ratio leaves
    ``sprt_bounds(alpha, beta)``.

    >>> sprt(0, 0, 0, 0, 10).decision is None
    True
    >>> sprt(1, 0, 0, 0, 10).decision is None
    True
    >>> sprt(40, 120, 40, 0, 50).decision
    'H0'
    """
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, not {quote(elo0)} and {quote(elo1)}")
    lower, upper = sprt_bounds(alpha, beta)
    n = wins + draws + losses
    if n == 0:
        return SPRTResult(elo0, elo1, alpha, beta, 0.0, lower, upper, None)
    s = (wins + 0.5 * draws) / n
    if min(wins, draws, losses) == 0:
        var = _score_variance(wins + 0.5, draws + 0.5, losses + 0.5)
    else:
        var = _score_variance(wins, draws, losses)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    llr = n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SPRTResult(elo0, elo1, alpha, beta, llr, lower, upper, decision)


# -- pairs of games: the pentanomial ------------------------------------------

#: What a match's SPRT may count: pairs of games (one opening, the sides
#: swapped: :func:`sprt_pairs`, the default) or games one by one (:func:`sprt`).
SPRT_BY = ("pairs", "games")

#: The points a pair of games (one opening, the sides swapped) gives the
#: first player: the five bins of a :class:`Pentanomial`, in order.
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)

#: What an empty bin is counted as, in pairs, when a hypothesis' score lies
#: outside the scores seen (every pair so far won 2-0, say): no distribution
#: on the bins seen has that mean, so the likelihood under it would be
#: zero; a thousandth of a pair in each bin keeps it defined, and changes
#: the ratio by little once a few pairs are in.
EMPTY_BIN = 1e-3


def _constrained_mle(pdf: Sequence[float], values: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``values`` with expected value ``mean`` that
    gives the observed frequencies ``pdf`` the greatest likelihood.

    Maximising ``sum(pdf[i] * log(q[i]))`` under ``sum(q) == 1`` and
    ``sum(q[i] * values[i]) == mean`` (Lagrange) gives ``q[i] = pdf[i] /
    (1 + lam * (values[i] - mean))``, with ``lam`` the root of ``sum(pdf[i] *
    (values[i] - mean) / (1 + lam * (values[i] - mean))) == 0``. That sum
    falls as ``lam`` grows, over the interval where every ``q`` is positive,
    so the root is found by halving the interval. ValueError when ``mean``
    is not strictly between the least and the greatest value observed.
    """
    seen = [v for p, v in zip(pdf, values) if p > 0]
    low_value, high_value = min(seen), max(seen)
    if not low_value < mean < high_value:
        raise ValueError(f"no distribution on the scores seen ({low_value:g} to {high_value:g}) "
                         f"has the mean {mean:g}")

    def slope(lam: float) -> float:
        return sum(p * (v - mean) / (1.0 + lam * (v - mean)) for p, v in zip(pdf, values) if p > 0)

    # Every q positive: 1 + lam * (v - mean) > 0 for the highest and lowest v.
    low, high = -1.0 / (high_value - mean), 1.0 / (mean - low_value)
    for _ in range(200):
        mid = (low + high) / 2.0
        if mid in (low, high):
            break
        if slope(mid) > 0.0:
            low = mid
        else:
            high = mid
    lam = (low + high) / 2.0
    q = [p / (1.0 + lam * (v - mean)) if p > 0 else 0.0 for p, v in zip(pdf, values)]
    total = sum(q)
    return [x / total for x in q]


def gsprt_llr(counts: Sequence[float], values: Sequence[float], s0: float, s1: float) -> float:
    """The generalised SPRT's log-likelihood ratio of "the expected score is
    ``s1``" against "it is ``s0``", for ``counts[i]`` observations of the
    score ``values[i]`` (0 to 1): the ratio of the two likelihoods, each
    maximised over every distribution on the values with that mean (M. Van
    den Bergh's GSPRT, fishtest's test)::

        LLR = N * sum(f[i] * log(q1[i] / q0[i]))

    where ``N`` is the number of observations, ``f`` their frequencies, and
    ``q0``, ``q1`` the two maximising distributions
    (``_constrained_mle``). When ``s0`` or ``s1`` lies outside the
    scores observed, each empty bin is counted as :data:`EMPTY_BIN` pairs.

    >>> round(gsprt_llr([10, 0, 30], [0.0, 0.5, 1.0], 0.5, 0.6), 4)   # two values seen: q is fixed
    3.2382
    """
    n = float(sum(counts))
    if n <= 0:
        return 0.0
    seen = [v for c, v in zip(counts, values) if c > 0]
    if not all(min(seen) < s < max(seen) for s in (s0, s1)):
        counts = [c if c > 0 else EMPTY_BIN for c in counts]
    total = float(sum(counts))
    pdf = [c / total for c in counts]
    q0 = _constrained_mle(pdf, values, s0)
    q1 = _constrained_mle(pdf, values, s1)
    return n * sum(f * math.log(b / a) for f, a, b in zip(pdf, q0, q1) if f > 0)


@dataclass(frozen=True)
class Pentanomial:
    """Pairs of games counted by the points the first player took of the
    pair's two: ``counts[i]`` pairs gave it ``PAIR_POINTS[i]`` (0, 1/2, 1,
    3/2, 2). A pair's two games share an opening, so they are not
    independent; the pairs are, and the Elo and the SPRT are counted from
    them.

    >>> p = Pentanomial.of_pairs([(1, 0), (1, 1), (0.5, 1), (0, 0)])
    >>> p.counts, p.pairs, p.games, p.score
    ((1, 0, 1, 1, 1), 4, 8, 0.5625)
    >>> p.text()
    '0: 1, 1/2: 0, 1: 1, 3/2: 1, 2: 1'
    """

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        counts = tuple(self.counts)
        if len(counts) != len(PAIR_POINTS) or any(
                not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in counts):
            raise ValueError(f"a pentanomial is five whole numbers of pairs, not {quote(self.counts)}")
        object.__setattr__(self, "counts", counts)

    @classmethod
    def of_pairs(cls, pairs: Iterable[tuple[float, float]]) -> "Pentanomial":
        """The counts of pairs given as the first player's points in each of
        the two games (1, 1/2 or 0 each)."""
        counts = [0] * len(PAIR_POINTS)
        for first, second in pairs:
            points = first + second
            if points not in PAIR_POINTS or first not in (0, 0.5, 1) or second not in (0, 0.5, 1):
                raise ValueError(f"a game gives 0, 1/2 or 1 point, not {quote(first)} and {quote(second)}")
            counts[PAIR_POINTS.index(points)] += 1
        return cls(tuple(counts))  # type: ignore[arg-type]

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def values(self) -> tuple[float, ...]:
        """Each bin's score per game (0 to 1): a pair's points over 2."""
        return tuple(p / 2.0 for p in PAIR_POINTS)

    @property
    def score(self) -> Optional[float]:
        """The first player's points per game; None with no pairs."""
        n = self.pairs
        return None if n == 0 else sum(c * v for c, v in zip(self.counts, self.values)) / n

    def elo(self, z: float = Z95) -> EloEstimate:
        """The Elo difference with its interval, from the pairs: the score
        plus or minus ``z`` standard errors of the mean of the pairs'
        scores (the variance measured over pairs, not games), each end
        turned into Elo by the logistic model.

        >>> Pentanomial((0, 10, 0, 30, 0)).elo().text()
        '+88.7 ± 50.1 (95%: +40.4 to +140.7)'
        """
        n = self.pairs
        if n == 0:
            return EloEstimate(0, None, None, None, None, None, None)
        s = self.score
        assert s is not None
        var = sum(c * (v - s) ** 2 for c, v in zip(self.counts, self.values)) / n
        lo, hi = _interval(n, s, var, z)
        return EloEstimate(self.games, s, lo, hi, elo_of_score(s), elo_of_score(lo), elo_of_score(hi))

    def sprt(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SPRTResult:
        """:func:`sprt_pairs` of these counts."""
        return sprt_pairs(self, elo0, elo1, alpha, beta)

    def text(self) -> str:
        """The five counts, each after its points: ``0: 3, 1/2: 10, ...``."""
        names = ("0", "1/2", "1", "3/2", "2")
        return ", ".join(f"{name}: {c}" for name, c in zip(names, self.counts))

    def as_dict(self) -> dict:
        return {"pairs": self.pairs, "counts": list(self.counts),
                "points": list(PAIR_POINTS), "score": None if self.score is None else round(self.score, 5)}


def elo_estimate_pairs(counts: Sequence[int], z: float = Z95) -> EloEstimate:
    """:meth:`Pentanomial.elo` of five counts."""
    return Pentanomial(tuple(counts)).elo(z)  # type: ignore[arg-type]


def sprt_pairs(counts: "Pentanomial | Sequence[int]", elo0: float, elo1: float,
               alpha: float = 0.05, beta: float = 0.05) -> SPRTResult:
    """The SPRT of :func:`sprt`'s two hypotheses (logistic Elo), counted
    from pairs of games, as fishtest counts them: the generalised SPRT
    (:func:`gsprt_llr`) over the five bins of a :class:`Pentanomial`, each
    pair's score its points over 2. Where the two games of a pair are
    independent it agrees with :func:`sprt` over the same games; where the
    opening ties them (one side favoured), the pairs' smaller spread lets
    it decide in fewer games.

    >>> sprt_pairs((0, 0, 0, 0, 0), 0, 10).decision is None
    True
    >>> sprt_pairs((0, 0, 0, 0, 1), 0, 10).decision is None   # one pair won 2-0 decides nothing
    True
    >>> sprt_pairs((20, 120, 240, 120, 20), 0, 20).decision   # 520 pairs, an even score
    'H0'
    """
    penta = counts if isinstance(counts, Pentanomial) else Pentanomial(tuple(counts))  # type: ignore[arg-type]
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, not {quote(elo0)} and {quote(elo1)}")
    lower, upper = sprt_bounds(alpha, beta)
    if penta.pairs == 0:
        return SPRTResult(elo0, elo1, alpha, beta, 0.0, lower, upper, None)
    llr = gsprt_llr(penta.counts, penta.values, expected_score(elo0), expected_score(elo1))
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SPRTResult(elo0, elo1, alpha, beta, llr, lower, upper, decision)


def parse_sprt(text: str) -> tuple[float, float]:
    """``'0,10'`` -> ``(0.0, 10.0)``: the two Elo figures of ``--sprt``.

    >>> parse_sprt('-5, 5')
    (-5.0, 5.0)
    """
    parts = [p.strip() for p in str(text).split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt takes two Elo figures as elo0,elo1 (like 0,10), not {quote(text)}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)) or not elo0 < elo1:
        raise ValueError(f"--sprt needs finite elo0 < elo1, not {quote(text)}")
    return elo0, elo1


# -- counting results ------------------------------------------------------


@dataclass
class _Line:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> Optional[float]:
        n = self.games
        return None if n == 0 else (self.wins + 0.5 * self.draws) / n

    def as_dict(self) -> dict:
        return {"games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses,
                "score": None if self.score is None else round(self.score, 5)}


@dataclass
class Tally:
    """Wins, draws and losses of two players, in all and by side.

    >>> t = Tally('A', 'B')
    >>> t.add('A', 'B', 'A'); t.add('B', 'A', None)
    >>> t.by_side('A', 'attackers'), t.by_side('A', 'defenders')
    ((1, 0, 0), (0, 1, 0))
    """

    first: str = "A"
    second: str = "B"
    _lines: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError("the two players need two names")
        for name in (self.first, self.second):
            for side in notation.SIDES:
                self._lines[(name, side)] = _Line()

    def _other(self, name: str) -> str:
        if name == self.first:
            return self.second
        if name == self.second:
            return self.first
        raise ValueError(f"no player named {quote(name)}")

    def add(self, attackers: str, defenders: str, winner: Optional[str]) -> None:
        """One game: who played which side, and who won (None: a draw)."""
        if self._other(attackers) != defenders:
            raise ValueError(f"{quote(attackers)} and {quote(defenders)} are not the two players")
        if winner is not None and winner not in (attackers, defenders):
            raise ValueError(f"the winner {quote(winner)} did not play")
        for name, side in ((attackers, "attackers"), (defenders, "defenders")):
            line = self._lines[(name, side)]
            if winner is None:
                line.draws += 1
            elif winner == name:
                line.wins += 1
            else:
                line.losses += 1

    def by_side(self, name: str, side: str) -> tuple[int, int, int]:
        """(wins, draws, losses) of one player on one side."""
        self._other(name)
        line = self._lines[(name, side)]
        return line.wins, line.draws, line.losses

    def counts(self, name: Optional[str] = None) -> tuple[int, int, int]:
        """(wins, draws, losses) of a player (the first by default)."""
        name = self.first if name is None else name
        self._other(name)
        a, d = self._lines[(name, "attackers")], self._lines[(name, "defenders")]
        return a.wins + d.wins, a.draws + d.draws, a.losses + d.losses

    def wins(self, name: Optional[str] = None) -> int:
        return self.counts(name)[0]

    def draws(self, name: Optional[str] = None) -> int:
        return self.counts(name)[1]

    def losses(self, name: Optional[str] = None) -> int:
        return self.counts(name)[2]

    @property
    def games(self) -> int:
        return sum(self.counts())

    def score(self, name: Optional[str] = None) -> Optional[float]:
        """Points per game of a player (the first by default); None with no
        games."""
        w, d, l = self.counts(name)
        n = w + d + l
        return None if n == 0 else (w + 0.5 * d) / n

    def elo(self, z: float = Z95) -> EloEstimate:
        """The first player's Elo difference over the second."""
        return elo_estimate(*self.counts(), z=z)

    def sprt(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> SPRTResult:
        return sprt(*self.counts(), elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)

    def side_wins(self) -> tuple[int, int, int]:
        """(attackers' wins, draws, defenders' wins) over every game."""
        att = sum(self._lines[(n, "attackers")].wins for n in (self.first, self.second))
        dfn = sum(self._lines[(n, "defenders")].wins for n in (self.first, self.second))
        draws = sum(self._lines[(n, "attackers")].draws for n in (self.first, self.second))
        return att, draws, dfn

    def as_dict(self) -> dict:
        out = {}
        for name in (self.first, self.second):
            w, d, l = self.counts(name)
            n = w + d + l
            out[name] = {
                "games": n, "wins": w, "draws": d, "losses": l,
                "score": None if n == 0 else round((w + 0.5 * d) / n, 5),
                "as_attackers": self._lines[(name, "attackers")].as_dict(),
                "as_defenders": self._lines[(name, "defenders")].as_dict(),
            }
        return out


# -- a progress bar ----------------------------------------------------------


class Progress:
    """A one-line progress bar, redrawn in place on a terminal and silent
    anywhere else (a file, a pipe, a test), so a log stays clean.

    >>> import io
    >>> p = Progress(10, stream=io.StringIO())
    >>> p.enabled
    False
    """

    def __init__(self, total: int, stream: Optional[TextIO] = None,
                 enabled: Optional[bool] = None, width: int = 24,
                 interval: float = 0.1) -> None:
        self.total = max(0, int(total))
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            try:
                enabled = bool(self.stream.isatty())
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = enabled
        self.width = width
        self.interval = interval
        self._last = 0.0
        self._shown = 0
        self._start = time.monotonic()

    def line(self, done: int, text: str = "") -> str:
        """The bar as text, without drawing it.

        >>> Progress(4, enabled=False, width=8).line(1, 'A 1-0-0')
        '[##......]   1/4  A 1-0-0'
        """
        total = max(self.total, 1)
        filled = min(self.width, int(self.width * done / total))
        digits = len(str(self.total))
        bar = "#" * filled + "." * (self.width - filled)
        return f"[{bar}] {done:>{digits + 2}}/{self.total}  {text}".rstrip()

    def update(self, done: int, text: str = "", force: bool = False) -> None:
        """Redraw, at most once per ``interval`` seconds unless forced."""
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < self.interval and done < self.total:
            return
        self._last = now
        elapsed = now - self._start
        line = self.line(done, f"{text}  {elapsed:.0f}s".strip())
        pad = max(0, self._shown - len(line))
        self._shown = len(line)
        try:
            self.stream.write("\r" + line + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False

    def close(self) -> None:
        """Clear the line, so what is printed next starts clean."""
        if not self.enabled or not self._shown:
            return
        try:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
        except (OSError, ValueError):
            pass
        self._shown = 0
