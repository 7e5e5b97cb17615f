"""The C engine against the independent pure-Python reference (tests/reference.py)
on many random games and positions, under every preset and random house rules.

Everything is seeded, so a failure names a game that can be replayed."""

from __future__ import annotations

import random

import pytest

import reference as ref
from brandubh import Rules, Variant, divide, move, move_from, move_to, outcome_name, perft
from brandubh.variant import PRESETS

GAMES_PER_PRESET = 2000
POSITIONS_PER_PRESET = 200


def random_position(rng: random.Random) -> str:
    """Any placement: soldiers on the throne or a corner, no king, few pieces."""
    squares = list(range(49))
    rng.shuffle(squares)
    board = {}
    for _ in range(rng.randint(0, 8)):
        board[squares.pop()] = "a"
    for _ in range(rng.randint(0, 4)):
        board[squares.pop()] = "d"
    if rng.random() < 0.9:
        board[rng.choice([ref.THRONE, squares.pop()])] = "k"
    return ref.format_position(board, rng.choice("ad"))


def random_variant(rng: random.Random) -> dict:
    return {
        "escape": rng.choice(["corner", "corner", "edge"]),
        "throne_pass": rng.random() < 0.7,
        "throne_reentry": rng.random() < 0.5,
        "throne_hostile": rng.random() < 0.6,
        "king_armed": rng.random() < 0.7,
        "king_capture": rng.choice(["nielsen", "two", "four_two", "four"]),
        "encirclement": rng.random() < 0.4,
        "no_pieces": rng.random() < 0.6,
        "no_move": rng.choice(["draw", "loss"]),
        "repetition": rng.choice(["draw", "loss"]),
        "repeat": rng.choice([2, 3, 3, 4]),
        "repeat_counts_start": rng.random() < 0.5,
        "ply_cap": rng.choice([30, 100, 400]),
        "quiet_cap": rng.choice([0, 0, 12, 40]),
    }


def moves_of(game: Rules) -> list[tuple[int, int]]:
    return sorted((move_from(m), move_to(m)) for m in game.moves())


def assert_same(game: Rules, model: ref.RefGame, where) -> list[tuple[int, int]]:
    """Compare everything the two can say; `where` is called for the message
    only on a failure. Returns the legal moves."""
    assert game.position == model.position(), where()
    assert outcome_name(game.outcome) == model.outcome, where()
    assert game.winner == model.winner, where()
    assert game.ply == model.ply, where()
    assert game.repeats == model.repeats(), where()
    legal = model.moves()
    assert moves_of(game) == legal, where()
    return legal


def play_out(variant, position: str, rng: random.Random, label: str) -> int:
    """Play one random game in both, comparing after every step; returns plies."""
    game = Rules(position, variant if isinstance(variant, Variant) else Variant.from_fields(variant))
    model = ref.RefGame(position, variant.fields() if isinstance(variant, Variant) else variant)
    start = game.position

    def where(note: str = "") -> str:
        log = " ".join(ref.move_name(m >> 6, m & 63) for m in game.log())
        return f"{label}: from {start!r} after [{log}] {note}"

    legal = assert_same(game, model, where)
    while not game.is_over():
        frm, to = rng.choice(legal)
        expected = tuple(model.captures_of(frm, to))
        assert game.preview(move(frm, to)).captures == expected, where(ref.move_name(frm, to))
        assert game.play(move(frm, to)) == Rules.PLAY_OK, where(ref.move_name(frm, to))
        model.play(frm, to)
        assert game.report().captures == expected, where()
        legal = assert_same(game, model, where)
        if rng.random() < 0.08:
            game.undo()
            model.undo()
            legal = assert_same(game, model, lambda: where("(undo)"))
    # A finished game refuses every move, and undo all the way restores the start.
    assert game.moves() == [] and game.play(move(0, 1)) == Rules.PLAY_OVER
    plies = game.ply
    while game.ply:
        assert game.undo()
        model.undo()
        if game.ply % 7 == 0:
            assert_same(game, model, lambda: where("(undoing)"))
    assert game.position == start and not game.undo()
    return plies


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_games(preset):
    rng = random.Random(f"games-{preset}")
    variant = PRESETS[preset]
    endings = set()
    for i in range(GAMES_PER_PRESET):
        position = ref.SETUP if i % 4 else random_position(rng)
        play_out(variant, position, rng, f"{preset} game {i}")
    # The games reach more than one kind of ending (a weak check that the
    # comparison is not vacuous).
    for i in range(20):
        g = Rules(variant=variant)
        while not g.is_over():
            g.play(rng.choice(g.moves()))
        endings.add(outcome_name(g.outcome))
    assert len(endings) >= 2


def test_random_house_rules():
    rng = random.Random("house rules")
    for i in range(600):
        fields = random_variant(rng)
        position = ref.SETUP if i % 3 else random_position(rng)
        play_out(fields, position, rng, f"house {i} {fields}")


def _random_reached_position(rng: random.Random, variant: Variant) -> str:
    while True:
        game = Rules(variant=variant)
        for _ in range(rng.randint(4, 60)):
            if game.is_over():
                break
            game.play(rng.choice(game.moves()))
        if not game.is_over():
            return game.position


@pytest.mark.parametrize("preset", list(PRESETS))
def test_divide_from_random_positions(preset):
    rng = random.Random(f"divide-{preset}")
    variant = PRESETS[preset]
    for i in range(POSITIONS_PER_PRESET):
        position = _random_reached_position(rng, variant) if i % 5 else random_position(rng)
        depth = 3 if i % 5 else 2
        slides = i % 10 == 7
        got = divide(depth, position, variant, slides=slides)
        want = ref.divide(position, preset, depth, slides=slides)
        assert got == want, (preset, position, depth, slides)


def test_perft_from_random_positions_house_rules():
    rng = random.Random("perft house rules")
    for _ in range(60):
        fields = random_variant(rng)
        position = random_position(rng)
        assert perft(3, position, fields) == ref.perft(position, fields, 3), (position, fields)
