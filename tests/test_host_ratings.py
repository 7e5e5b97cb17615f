"""Glicko-2 (brandubh.ratings) against Glickman's worked example, and its
ranges and symmetries."""

from __future__ import annotations

import math

import pytest

from brandubh.ratings import DEFAULT, Rating, RatingError, Result, update

EXAMPLE = [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)]


def test_glickmans_worked_example() -> None:
    new = update(Rating(1500, 200, 0.06), EXAMPLE, tau=0.5)
    # The paper's figures, from its rounded steps: 1464.06, 151.52, 0.05999.
    assert abs(new.rating - 1464.06) < 0.011
    assert abs(new.deviation - 151.52) < 0.005
    assert abs(new.volatility - 0.05999) < 0.00001
    assert str(new) == "1464 ± 152" and new.provisional


def test_the_order_of_the_games_does_not_matter() -> None:
    one = update(Rating(1500, 200, 0.06), EXAMPLE)
    other = update(Rating(1500, 200, 0.06), EXAMPLE[::-1])
    assert all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(one, other))


def test_a_win_raises_a_loss_lowers_a_draw_between_equals_keeps() -> None:
    win = update(DEFAULT, [Result(1500, 350, 1)])
    loss = update(DEFAULT, [Result(1500, 350, 0)])
    draw = update(DEFAULT, [Result(1500, 350, 0.5)])
    assert win.rating > 1500 > loss.rating
    assert math.isclose(win.rating - 1500, 1500 - loss.rating)
    assert math.isclose(draw.rating, 1500)
    assert win.deviation < 350
    assert win.provisional


def test_many_games_make_a_rating_sure() -> None:
    player = DEFAULT
    for _ in range(30):
        player = update(player, [Result(1500, 60, 0.5)])
    assert not player.provisional and str(player).startswith("1500 ± ")


def test_no_games_widen_the_deviation_only() -> None:
    rested = update(Rating(1700, 60, 0.06), [])
    assert rested.rating == 1700 and rested.deviation > 60 and rested.volatility == 0.06


@pytest.mark.parametrize("player, results", [
    (Rating(1500, 0, 0.06), []),
    (Rating(float("nan"), 200, 0.06), []),
    (Rating(1500, 200, -1), []),
    (DEFAULT, [Result(1500, 200, 2)]),
    (DEFAULT, [Result(1500, float("inf"), 1)]),
])
def test_values_out_of_range_are_refused_with_a_sentence(player: Rating, results: list) -> None:
    with pytest.raises(RatingError) as caught:
        update(player, results)
    assert isinstance(caught.value, ValueError) and " not " in str(caught.value)


def test_the_worked_example_on_the_docs_page_runs() -> None:
    import contextlib
    import io
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "host.md").read_text(encoding="utf-8")
    section = page.split("## Ratings", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None and "update(" in block.group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.group(1), "docs/host.md", "exec"), {})
    assert out.getvalue() == "1464 ± 152 True\n"
