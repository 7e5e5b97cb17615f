"""What a score means to a person: the engine's raw score turned into a
centred score and a chance, from the view of the side it is shown to.

The engine's score is a sum of evaluation terms from the side to move's
view. Its zero is not an even game: under brandubh rules the set-up scores
well for the attackers, yet between two equal engines the defenders win
nearly every game. So the raw score says little to a person. Here it is
read through a curve fitted to the engine's own games against itself
(``tools/fit_chances.py``, from ``brandubh selfplay`` data; the figures
below), one per preset and evaluation:

    chance = 1 / (1 + exp(-slope * (score - centre)))

where ``score`` is from the attackers' view, ``centre`` is the score at
which the attackers' expected result is one half (a separate centre for
each side to move), and the chance counts a draw as half a win.

The *centred score* is ``slope * (score - centre)`` scaled to chess's
familiar units: +1.0 means the same chance as a pawn up in lichess's
curve (about 59%), +3.0 about 75%, 0.0 an even game. A win found by the
search reads "wins in N" (N: the winner's own moves) instead.

>>> o = Outlook.of(-91, None, side_to_move='attackers', viewer='defenders')  # the set-up, searched (2,000 positions)
>>> str(o)                                 # the raw -91 is the attackers' score: good for the defenders
'+4.4 (84%)'
>>> o.of_other().viewer, round(o.chance + o.of_other().chance, 9)
('attackers', 1.0)
>>> str(Outlook.of(29990, 10, side_to_move='attackers', viewer='attackers'))
'wins in 5'
>>> str(Outlook.of(29990, 10, side_to_move='attackers', viewer='defenders'))
'loses in 5'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Union

from .errors import ArgumentError, quote
from .notation import SIDES
from .variant import Variant, VariantLike, as_variant

__all__ = ["Curve", "Outlook", "curve_for", "CURVES", "CP_SLOPE", "EVALUATIONS"]

#: lichess's curve from centipawns to a win chance: chance = 1 / (1 +
#: exp(-CP_SLOPE * cp)). The centred score is put in the same units.
CP_SLOPE = 0.00368208

#: The evaluations the curves are fitted for: the engine's default (the
#: NNUE), the learned tables (``eval=learned``) and the hand-set one
#: (``eval=classical``).
EVALUATIONS = ("nnue", "learned", "classical")


@dataclass(frozen=True)
class Curve:
    """A fitted curve from a raw score (attackers' view) to the attackers'
    expected result: ``slope`` per score unit, the ``centre`` with the
    attackers to move and with the defenders to move, and how many
    positions it was fitted on."""

    slope: float
    centre_attackers: float
    centre_defenders: float
    positions: int

    def centred(self, score: float, side_to_move: str) -> float:
        """``slope * (score - centre)``: the attackers' log-odds."""
        centre = self.centre_attackers if side_to_move == "attackers" else self.centre_defenders
        return self.slope * (score - centre)


# -- fitted by tools/fit_chances.py: do not edit by hand ----------------------
# python tools/fit_chances.py --nnue DATA [DATA...] --learned DATA --classical DATA
# (brandubh selfplay data, see docs/review.md for the runs)
CURVES: dict[tuple[str, str], Curve] = {
    ("nnue", "brandubh"): Curve(0.0226424, -19.2, -19.6, 199381),
    ("nnue", "codingame"): Curve(0.0258900, -16.6, -16.5, 200198),
    ("nnue", "modern"): Curve(0.0187802, -26.4, -27.3, 166484),
    ("nnue", "opentafl"): Curve(0.0233451, -3.5, -4.4, 201637),
    ("learned", "brandubh"): Curve(0.0122804, -53.5, -54.6, 194685),
    ("learned", "codingame"): Curve(0.0151675, -72.4, -73.0, 193913),
    ("learned", "modern"): Curve(0.0093676, -75.5, -79.3, 165229),
    ("learned", "opentafl"): Curve(0.0127667, -72.3, -74.1, 236455),
    ("classical", "brandubh"): Curve(0.0064474, 1175.8, 1167.3, 73745),
    ("classical", "codingame"): Curve(0.0099441, 1106.7, 1100.9, 80765),
    ("classical", "modern"): Curve(0.0083035, 976.4, 969.6, 73431),
    ("classical", "opentafl"): Curve(0.0069291, 1041.5, 1033.3, 83009),
}
# -- end of the fitted curves ---------------------------------------------------


def curve_for(variant: VariantLike = None, evaluation: str = "nnue") -> Curve:
    """The curve for a rule set (a rule set that is no preset takes its
    nearest preset's) and an evaluation.

    >>> curve_for('codingame') is CURVES['nnue', 'codingame']
    True
    """
    if evaluation not in EVALUATIONS:
        raise ArgumentError(f"no win-chance curve for the evaluation {quote(evaluation)}; "
                            f"there are curves for {', '.join(EVALUATIONS)}")
    return CURVES[evaluation, as_variant(variant).nearest]


def _logistic(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _check_side(side: object, what: str) -> str:
    if side not in SIDES:
        raise ArgumentError(f"{what} must be 'attackers' or 'defenders', not {quote(side)}")
    return str(side)


@dataclass(frozen=True)
class Outlook:
    """A position as one side sees it: ``viewer`` (the side it is shown
    to), ``chance`` (its expected result, 0 to 1, a draw counted as a half),
    ``score`` (the centred score in pawn-like units, +1.0 about 59%; None
    when a result is found), ``wins_in``/``loses_in`` (the winner's own
    moves to a forced result, or None), and ``raw`` (the engine's score from
    the side to move's view, as the search returned it)."""

    viewer: str
    chance: float
    score: Optional[float]
    wins_in: Optional[int]
    loses_in: Optional[int]
    raw: int
    side_to_move: str

    @classmethod
    def of(cls, raw: int, mate_in: Optional[int], *, side_to_move: str, viewer: str,
           variant: VariantLike = None, evaluation: str = "nnue") -> "Outlook":
        """The outlook for ``viewer`` from a search's ``raw`` score and its
        ``mate_in`` (plies to a forced result, both sides' counted, or None)
        for a position with ``side_to_move`` to move under ``variant``.

        >>> Outlook.of(29_999, 1, side_to_move='defenders', viewer='defenders').wins_in
        1
        """
        side_to_move = _check_side(side_to_move, "side_to_move")
        viewer = _check_side(viewer, "viewer")
        sign = 1 if viewer == side_to_move else -1
        if mate_in is not None:
            mover_wins = raw > 0
            # The winner's own moves: the mover winning in m plies moves on
            # plies 1, 3, ..., m; the other side winning moves on 2, 4, ..., m.
            moves = (mate_in + 1) // 2 if mover_wins else max(1, mate_in // 2)
            viewer_wins = mover_wins == (sign == 1)
            return cls(viewer, 1.0 if viewer_wins else 0.0, None,
                       moves if viewer_wins else None, None if viewer_wins else moves, raw, side_to_move)
        curve = curve_for(variant, evaluation)
        attackers_score = raw if side_to_move == "attackers" else -raw
        logit = curve.centred(attackers_score, side_to_move)
        if viewer == "defenders":
            logit = -logit
        return cls(viewer, _logistic(logit), round(logit / CP_SLOPE / 100, 2), None, None, raw, side_to_move)

    @classmethod
    def of_result(cls, winner: Optional[str], *, viewer: str, side_to_move: str = "attackers") -> "Outlook":
        """The outlook of a finished game: 1 for a win, 0 for a loss, a half
        for a draw (``winner`` None).

        >>> Outlook.of_result('attackers', viewer='defenders').chance
        0.0
        """
        viewer = _check_side(viewer, "viewer")
        chance = 0.5 if winner is None else (1.0 if winner == viewer else 0.0)
        return cls(viewer, chance, None, None, None, 0, side_to_move)

    def of_other(self) -> "Outlook":
        """The same position from the other side's view."""
        other = SIDES[1 - SIDES.index(self.viewer)]
        return Outlook(other, 1.0 - self.chance, None if self.score is None else -self.score,
                       self.loses_in, self.wins_in, self.raw, self.side_to_move)

    @property
    def percent(self) -> int:
        """The chance in whole percent."""
        return int(round(self.chance * 100))

    @property
    def words(self) -> str:
        """``+1.3`` or ``wins in 3``: the score as one token of text."""
        if self.wins_in is not None:
            return f"wins in {self.wins_in}"
        if self.loses_in is not None:
            return f"loses in {self.loses_in}"
        if self.score is None:
            return {1.0: "won", 0.0: "lost"}.get(self.chance, "drawn")
        return f"{self.score:+.1f}"

    def __str__(self) -> str:
        """``+1.3 (62%)``, or ``wins in 3``.

        >>> str(Outlook(viewer='attackers', chance=0.62, score=1.3, wins_in=None, loses_in=None, raw=0,
        ...             side_to_move='attackers'))
        '+1.3 (62%)'
        """
        if self.score is None:
            return self.words
        return f"{self.words} ({self.percent}%)"

    def as_dict(self) -> dict[str, Union[str, int, float, None]]:
        """The outlook as JSON-ready fields."""
        return {"viewer": self.viewer, "chance": round(self.chance, 4), "score": self.score,
                "wins_in": self.wins_in, "loses_in": self.loses_in, "raw": self.raw,
                "side_to_move": self.side_to_move, "text": str(self)}
