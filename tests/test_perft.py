"""Perft against the numbers in docs/rules.md, for every preset."""

import pytest

import brandubh
from brandubh import perft, perft_stats, divide
from brandubh.variant import PRESETS

TABLE = {1: 40, 2: 960, 3: 39_512, 4: 1_007_392, 5: 41_843_336}
SLIDES = {3: 39_568, 4: 1_011_592}


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("depth", sorted(TABLE))
def test_rules_table(preset, depth):
    assert perft(depth, variant=preset) == TABLE[depth]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("depth", sorted(SLIDES))
def test_slides_table(preset, depth):
    assert perft(depth, variant=preset, slides=True) == SLIDES[depth]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_bulk_and_full_agree(preset):
    bulk = perft_stats(4, variant=preset, bulk=True)
    full = perft_stats(4, variant=preset, bulk=False)
    assert bulk.leaves == full.leaves == TABLE[4]
    assert full.captures > 0


def test_depth_zero_is_one_leaf():
    assert perft(0) == 1


def test_divide_sums_to_perft():
    d = divide(3, variant="codingame")
    assert len(d) == 40
    assert sum(d.values()) == TABLE[3]
    assert set(d) == {brandubh.move_text(m) for m in brandubh.Rules().moves()}


def test_ended_position_has_no_moves():
    # The king stands on a corner: the game is over before any move.
    assert perft(1, position="k6/7/7/7/7/7/a6 a") == 0
    assert perft(0, position="k6/7/7/7/7/7/a6 a") == 1
    assert divide(2, position="k6/7/7/7/7/7/a6 a") == {}
    # In slides perft nothing ends the game.
    assert perft(1, position="k6/7/7/7/7/7/a6 a", slides=True) == 10


@pytest.mark.parametrize("bad", [-1, 21, 2.0, "3", None, True])
def test_bad_depth(bad):
    with pytest.raises(brandubh.BrandubhError):
        perft(bad)


def test_depth6_consistent_two_ways():
    """Depth 6 from the set-up, as the sum over the 960 positions two moves
    deep of their depth-4 counts, each rebuilt from its position string:
    checks the position round trip and the record against the recursion."""
    r = brandubh.Rules(variant="codingame")
    total = 0
    for m1 in r.moves():
        r.play(m1)
        for m2 in r.moves():
            r.play(m2)
            if not r.is_over():
                total += perft(4, position=r.position, variant="codingame")
            r.undo()
        r.undo()
    assert total == DEPTH6["codingame"]   # what test_depth6 holds perft(6) to


# Depth 6 tells the presets apart. These figures are the engine's; the two
# ways of counting above and the reference's agreement at depth 3 from random
# positions (test_reference_vs_engine.py) are what check them.
DEPTH6 = {
    "brandubh": 1_109_525_624,
    "modern": 1_110_941_704,
    "opentafl": 1_111_688_896,
    "codingame": 1_111_530_080,
}


@pytest.mark.parametrize("preset", list(DEPTH6))
def test_depth6(preset):
    assert perft(6, variant=preset) == DEPTH6[preset]
