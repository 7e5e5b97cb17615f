"""The sequential test counted from pairs of games (the pentanomial), held
against figures worked out here by other means: a case small enough to
solve by hand, and the trinomial test where a pair's two games are
independent. And ``brandubh match --sprt``, which counts pairs by default
and says the five counts."""

from __future__ import annotations

import json
import math

import pytest

from brandubh.arena.report import EventResult
from brandubh.arena.stats import (PAIR_POINTS, Pentanomial, elo_estimate, expected_score, gsprt_llr, sprt,
                                  sprt_pairs)
from brandubh.cli import main


def test_a_hand_worked_case_two_bins_seen():
    # 10 pairs split 1/2 point of 2, 30 pairs 3/2 of 2: pair scores 0.25 and
    # 0.75 a game. A distribution on those two values alone is fixed by its
    # mean m: the 0.75 bin holds (m - 0.25) / 0.5. So under H0 (0 Elo, m =
    # 1/2) each bin holds one half, and under H1 (+50 Elo) the 0.75 bin
    # holds (s1 - 0.25) / 0.5, s1 = 1 / (1 + 10 ** (-50 / 400)).
    s1 = 1 / (1 + 10 ** (-50 / 400))
    high1 = (s1 - 0.25) / 0.5
    by_hand = 10 * math.log((1 - high1) / 0.5) + 30 * math.log(high1 / 0.5)
    assert by_hand == pytest.approx(4.176, abs=5e-4)   # on paper: 10 ln .71415 + 30 ln 1.28585
    result = sprt_pairs((0, 10, 0, 30, 0), 0, 50)
    assert result.llr == pytest.approx(by_hand, abs=1e-9)
    assert result.decision == "H1"          # above log(0.95 / 0.05) = 2.944
    # The Elo from the pairs: mean 0.625, the pairs' variance
    # (10 * 0.375**2 + 30 * 0.125**2) / 40 = 0.046875, so the 95% interval
    # of the score is 0.625 -+ 1.96 * sqrt(0.046875 / 40).
    elo = Pentanomial((0, 10, 0, 30, 0)).elo()
    half = 1.959963984540054 * math.sqrt(0.046875 / 40)
    assert elo.score == 0.625 and elo.games == 80
    assert elo.low == pytest.approx(-400 * math.log10(1 / (0.625 - half) - 1))
    assert elo.high == pytest.approx(-400 * math.log10(1 / (0.625 + half) - 1))


def test_the_constrained_likelihood_is_the_greatest_one():
    # The GSPRT's distributions maximise the data's likelihood among those
    # with the hypothesis' mean: no other distribution with that mean on a
    # grid of them does better, and the LLR is the difference of the two maxima.
    counts = (3, 11, 25, 14, 7)
    values = tuple(p / 2 for p in PAIR_POINTS)
    freq = [c / sum(counts) for c in counts]

    def best(mean):
        top = -math.inf
        steps = 40
        # Every distribution on the five values with the grid's weights for
        # the first three; the last two follow from the sum and the mean.
        for a in range(1, steps):
            for b in range(1, steps - a):
                for c in range(1, steps - a - b):
                    q0, q1, q2 = a / steps, b / steps, c / steps
                    rest = 1 - q0 - q1 - q2
                    # q3 * 0.75 + q4 * 1 = mean - (q1 * 0.25 + q2 * 0.5), q3 + q4 = rest
                    q4 = (mean - q1 * 0.25 - q2 * 0.5 - 0.75 * rest) / 0.25
                    q3 = rest - q4
                    if q3 <= 0 or q4 <= 0:
                        continue
                    ll = sum(f * math.log(q) for f, q in zip(freq, (q0, q1, q2, q3, q4)))
                    top = max(top, ll)
        return top

    s0, s1 = 0.5, expected_score(30)
    on_grid = sum(counts) * (best(s1) - best(s0))
    exact = gsprt_llr(counts, values, s0, s1)
    # The grid only approaches each maximum from below, so the two agree
    # to within what a grid step costs.
    assert exact == pytest.approx(on_grid, abs=0.15)


def test_independent_pairs_agree_with_the_trinomial():
    # Two games that do not depend on each other: a pair's points are the
    # sum of two draws from one win/draw/loss distribution, so its five
    # bins are that distribution convolved with itself. Over many pairs the
    # pentanomial test then says what the trinomial one says of the same games.
    for win, draw, loss in ((0.36, 0.30, 0.34), (0.45, 0.10, 0.45), (0.30, 0.45, 0.25)):
        pairs = 20_000
        bins = [0.0] * 5
        for i, p in enumerate((loss, draw, win)):
            for j, q in enumerate((loss, draw, win)):
                bins[i + j] += p * q
        penta = tuple(round(pairs * b) for b in bins)
        games = 2 * sum(penta)
        w, d, l = (round(games * x) for x in (win, draw, loss))
        for elo0, elo1 in ((0, 10), (-5, 5), (0, 20)):
            by_games = sprt(w, d, l, elo0, elo1).llr
            by_pairs = sprt_pairs(penta, elo0, elo1).llr
            exact_games = gsprt_llr((l, d, w), (0.0, 0.5, 1.0), expected_score(elo0), expected_score(elo1))
            assert by_pairs == pytest.approx(exact_games, rel=0.02, abs=0.05)
            assert by_pairs == pytest.approx(by_games, rel=0.03, abs=0.1)
            elo_games = elo_estimate(w, d, l)
            elo_pairs = Pentanomial(penta).elo()
            assert elo_pairs.elo == pytest.approx(elo_games.elo, abs=0.3)
            assert elo_pairs.margin == pytest.approx(elo_games.margin, rel=0.02)


def test_pairs_tied_by_the_opening_decide_sooner():
    # The side decides most games: A wins every game as the favoured side,
    # and B too, except that A also wins one pair in four whole. Taken one
    # by one the games look like coin tosses (a large spread); in pairs
    # they are nearly all 1-1, and the same +Elo shows through the little spread.
    penta = (0, 0, 30, 0, 10)
    wins, losses = 30 + 20, 30
    by_pairs = sprt_pairs(penta, 0, 30)
    by_games = sprt(wins, 0, losses, 0, 30)
    assert by_pairs.llr > by_games.llr
    assert by_pairs.decision == "H1" and by_games.decision is None


def test_no_decision_from_one_pair_and_bad_counts_refused():
    for counts in ((0, 0, 0, 0, 1), (1, 0, 0, 0, 0), (0, 0, 1, 0, 0)):
        assert sprt_pairs(counts, 0, 10).decision is None
    for bad in ((1, 2, 3), (1, 2, 3, 4, -1), (1, 2, 3, 4, 0.5), (True, 0, 0, 0, 0)):
        with pytest.raises(ValueError, match="five whole numbers"):
            Pentanomial(bad)
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        sprt_pairs((1, 1, 1, 1, 1), 10, 0)
    with pytest.raises(ValueError, match="0, 1/2 or 1 point"):
        Pentanomial.of_pairs([(1, 2)])
    from brandubh.arena import BotPlayer, Event

    with pytest.raises(ValueError, match="the SPRT counts pairs or games, not 'moves'"):
        Event([BotPlayer.from_text("budget=10"), BotPlayer.from_text("budget=20")], sprt=(0, 10), sprt_by="moves")


class _Game:
    """What the report reads of a game record."""

    def __init__(self, index, attackers, winner):
        self.index, self.attackers, self.winner = index, attackers, winner
        self.defenders = "B" if attackers == "A" else "A"
        self.counted, self.pairing, self.reason = True, 0, "corner"


def test_the_report_pairs_a_games_two_halves():
    # Games 0 and 1 share an opening, 2 and 3 the next...: A takes 1, 2
    # and 1/2 point of 2; game 6's pair has no second game yet, so it is
    # left out of the pairs (the games count it).
    results = ["A", "B", "A", "A", None, "B", "B"]
    games = [_Game(i, "A" if i % 2 == 0 else "B", w) for i, w in enumerate(results)]
    r = EventResult([("A", "a"), ("B", "b")], games, {"schedule": "pair"}, sprt_bounds=(0, 10))
    assert r.pentanomial().counts == (0, 1, 1, 0, 1) and r.pentanomial().pairs == 3
    assert r.sprt().llr == sprt_pairs((0, 1, 1, 0, 1), 0, 10).llr
    by_games = EventResult([("A", "a"), ("B", "b")], games, {"schedule": "pair"}, sprt_bounds=(0, 10),
                           sprt_by="games")
    assert by_games.sprt().llr == sprt(3, 1, 3, 0, 10).llr


def test_match_sprt_counts_pairs_and_says_the_five_counts(capsys):
    argv = ["match", "budget=600", "budget=150", "--games", "12", "--jobs", "1", "--sprt", "0,300",
            "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "pairs (one opening, sides swapped), A's points of 2: 0: " in out
    assert "SPRT (" in out and "pairs, pentanomial)" in out
    assert main(argv + ["--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["sprt_by"] == "pairs"
    # The five counts, recounted from the games: game 2k and 2k+1 are a pair.
    games = summary["games"]
    points: dict = {}
    for g in games:
        a = 0.5 if g["winner"] is None else float(g["winner"] == "A")
        points.setdefault((g["game"] - 1) // 2, []).append(a)
    counts = [0] * 5
    for pair in points.values():
        if len(pair) == 2:
            counts[int(2 * sum(pair))] += 1
    assert summary["pairs"]["counts"] == counts
    assert summary["sprt"]["llr"] == round(sprt_pairs(counts, 0, 300).llr, 4)
    assert main(argv + ["--json", "--sprt-by", "games"]) == 0
    assert json.loads(capsys.readouterr().out)["sprt_by"] == "games"


def _tilted(base, mean):
    """``base`` tilted (p[i] * exp(t * x[i]), normalised) to a pair score of ``mean``."""
    values = [p / 2 for p in PAIR_POINTS]

    def dist(t):
        w = [b * math.exp(t * x) for b, x in zip(base, values)]
        return [x / sum(w) for x in w]

    low, high = -50.0, 50.0
    for _ in range(100):
        mid = (low + high) / 2
        if sum(p * x for p, x in zip(dist(mid), values)) < mean:
            low = mid
        else:
            high = mid
    return dist((low + high) / 2)


@pytest.mark.parametrize("true_elo, wanted", [(0, "H0"), (20, "H1")])
def test_the_test_keeps_its_error_rates_on_simulated_pairs(true_elo, wanted):
    # Pairs drawn from a pentanomial like a balanced book's (half of them
    # 1-1), tilted to the true Elo: at elo0 the test should accept H1 in
    # about alpha of the runs, at elo1 accept H0 in about beta. A fixed
    # seed: the same runs every time (more of them under BRANDUBH_SLOW=1).
    import random

    from conftest import scale

    runs = scale(60, 400)
    rng = random.Random(f"pentanomial {true_elo}")
    probs = _tilted((0.07, 0.18, 0.5, 0.18, 0.07), expected_score(true_elo))
    wrong = undecided = 0
    for _ in range(runs):
        counts = [0] * 5
        result = None
        for step in range(200):  # at most 4,000 pairs, the ratio read every 20
            for b in rng.choices(range(5), probs, k=20):
                counts[b] += 1
            result = sprt_pairs(counts, 0, 20).decision
            if result is not None:
                break
        wrong += result not in (None, wanted)
        undecided += result is None
    # 5% each way; a margin for so few runs (the binomial's 99.9% reach).
    assert wrong <= 0.05 * runs + 3.1 * math.sqrt(0.05 * 0.95 * runs)
    assert undecided <= 0.05 * runs
