"""The two builds of the engine's hot loops (portable, and popcount; see
brandubh/kernels.py) answer alike: perft, divide, playouts and the search,
node for node, under every preset."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import brandubh
from brandubh import Rules
from brandubh.core import kernels
from brandubh.variant import PRESETS
from test_search import _random_positions

pytestmark = pytest.mark.skipif(not kernels.HAS_POPCNT, reason="this processor has no popcount instruction")


def _everything(game: Rules) -> tuple:
    v, pos = game.variant, game.position
    return (
        brandubh.perft_stats(3, position=pos, variant=v),
        brandubh.perft_stats(3, position=pos, variant=v, bulk=False),
        brandubh.perft(3, position=pos, variant=v, slides=True),
        brandubh.divide(2, position=pos, variant=v),
        game.playouts(100, seed=11),
        game.search(budget=15_000, seed=3),
        game.search(budget=2_000, seed=4, weights={"freedom": 9}),
    )


def test_the_builds_agree(monkeypatch):
    games = _random_positions(24, "kernels")
    assert {g.variant for g in games} == {PRESETS[name] for name in PRESETS}
    for game in games:
        monkeypatch.setattr(kernels, "ACTIVE", kernels.PORTABLE)
        portable = _everything(game)
        monkeypatch.setattr(kernels, "ACTIVE", kernels.POPCNT)
        assert _everything(game) == portable, game.position


@pytest.mark.parametrize("setting, expected", [(None, "popcnt"), ("0", "popcnt"), ("1", "portable")])
def test_brandubh_portable_chooses_the_build(setting, expected):
    env = {k: v for k, v in os.environ.items() if k != "BRANDUBH_PORTABLE"}
    if setting is not None:
        env["BRANDUBH_PORTABLE"] = setting
    shown = subprocess.run([sys.executable, "-c", "import brandubh.core.kernels as k; print(k.ACTIVE.name)"],
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert shown == expected
