"""Random playouts, checked move by move against the reference.

The engine's playouts choose each move with splitmix64 and a documented rule
(csrc/playout.c): the soldiers' moves grouped by direction (east, west,
north, south), each group in the order of the square reached, then the
king's moves; the k-th of them, k = (random >> 32) * count >> 32. Knowing the
rule, the reference (tests/reference.py) can play the very same games with
its own legal moves and endings: the totals must agree exactly."""

from __future__ import annotations

import random

import pytest

import reference as ref
from brandubh import Rules, Variant
from brandubh.variant import PRESETS
from test_reference_vs_engine import random_position, random_variant

MASK = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def in_choice_order(model: ref.RefGame) -> list[tuple[int, int]]:
    def group(move: tuple[int, int]) -> tuple[int, int]:
        frm, to = move
        if model.board[frm] == "k":
            direction = 4
        elif frm // 7 == to // 7:
            direction = 0 if to > frm else 1
        else:
            direction = 2 if to > frm else 3
        return direction, to

    return sorted(model.moves(), key=group)


def reference_playouts(variant, position: str, prefix: list[tuple[int, int]], games: int, seed: int) -> dict:
    totals = {"games": 0, "plies": 0, "outcomes": {}, "attackers": 0, "defenders": 0, "draws": 0}
    state = seed
    for _ in range(games):
        model = ref.RefGame(position, variant)
        for frm, to in prefix:
            model.play(frm, to)
        base = model.ply
        while model.outcome == "ongoing":
            moves = in_choice_order(model)
            state, r = splitmix64(state)
            model.play(*moves[((r >> 32) * len(moves)) >> 32])
        totals["games"] += 1
        totals["plies"] += model.ply - base
        totals["outcomes"][model.outcome] = totals["outcomes"].get(model.outcome, 0) + 1
        totals[model.winner or "draws"] += 1
    return totals


def engine_playouts(variant, position: str, prefix: list[tuple[int, int]], games: int, seed: int) -> dict:
    game = Rules(position, Variant.from_fields(variant) if isinstance(variant, dict) else variant)
    for frm, to in prefix:
        game.play(frm * 64 + to)
    before = (game.position, game.ply, game.outcome)
    s = game.playouts(games, seed=seed)
    assert (game.position, game.ply, game.outcome) == before
    return {"games": s.games, "plies": s.plies, "outcomes": {k: n for k, n in s.outcomes.items() if n},
            "attackers": s.attackers, "defenders": s.defenders, "draws": s.draws}


def random_prefix(variant, position: str, rng: random.Random) -> list[tuple[int, int]]:
    model = ref.RefGame(position, variant)
    prefix = []
    for _ in range(rng.randint(0, 40)):
        if model.outcome != "ongoing":
            break
        prefix.append(rng.choice(model.moves()))
        model.play(*prefix[-1])
    return prefix if model.outcome == "ongoing" else prefix[:-1]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_playouts_from_the_setup_are_the_reference_games(preset):
    for seed in (1, 2, 3):
        expected = reference_playouts(preset, ref.SETUP, [], 4, seed)
        assert engine_playouts(PRESETS[preset], ref.SETUP, [], 4, seed) == expected, seed


@pytest.mark.parametrize("preset", list(PRESETS))
def test_playouts_after_a_history_are_the_reference_games(preset):
    # Repetition counts the positions played before the playouts began.
    rng = random.Random(f"history-{preset}")
    for i in range(8):
        prefix = random_prefix(preset, ref.SETUP, rng)
        seed = rng.getrandbits(64)
        expected = reference_playouts(preset, ref.SETUP, prefix, 2, seed)
        assert engine_playouts(PRESETS[preset], ref.SETUP, prefix, 2, seed) == expected, (i, prefix)


def test_playouts_under_house_rules_are_the_reference_games():
    rng = random.Random("house-playouts")
    endings: set[str] = set()
    for i in range(200):
        variant = random_variant(rng)
        position = random_position(rng) if i % 2 else ref.SETUP
        if ref.RefGame(position, variant).outcome != "ongoing":
            continue
        prefix = random_prefix(variant, position, rng)
        seed = rng.getrandbits(64)
        expected = reference_playouts(variant, position, prefix, 2, seed)
        assert engine_playouts(variant, position, prefix, 2, seed) == expected, (i, variant, position, prefix)
        endings |= set(expected["outcomes"])
    # Not vacuous: the games end in many ways.
    assert len(endings) >= 6, endings
