"""The C engine against the independent pure-Python reference (tests/reference.py)
on many random games and positions, under every preset and random house rules.

Everything is seeded, and each random game has a seed of its own
(``games-<preset>-<n>``, ``house-<n>``), so a failure names a game that can
be replayed alone.

By default a couple of hundred games per preset; BRANDUBH_SLOW=1 (see
conftest.py) plays the thousands of the long run, of which the default games
are a part."""

from __future__ import annotations

import random

import pytest

import reference as ref
from brandubh import Rules, Variant, divide, move, move_from, move_to, outcome_name, perft
from brandubh.variant import PRESETS
from conftest import scale

GAMES_PER_PRESET = scale(120, 2000)
HOUSE_GAMES = scale(150, 600)
POSITIONS_PER_PRESET = scale(30, 200)
HOUSE_PERFT_POSITIONS = 60

# The endings, as (outcome, winner), that the 2000 games of the long run reach
# under each preset and the 600 under house rules. Each must come up in the
# default run too, or the sample has lost something; random play reaches a
# few of them very seldom, so the default run adds the first long-run game
# that does (RARE_GAMES). Found by playing the long run and asking the
# reference how each game ended.
ENDINGS = {
    "brandubh": {("capture", "attackers"), ("corner", "defenders"), ("no_pieces", "defenders"),
                 ("ply_cap", None)},
    "codingame": {("capture", "attackers"), ("corner", "defenders"), ("ply_cap", None),
                  ("no_move", "defenders"), ("repetition", "defenders"), ("repetition", "attackers")},
    "modern": {("capture", "attackers"), ("corner", "defenders"), ("quiet_cap", None),
               ("no_pieces", "defenders"), ("no_move", "defenders")},
    "opentafl": {("capture", "attackers"), ("corner", "defenders"), ("no_pieces", "defenders"),
                 ("repetition", None)},
}
HOUSE_ENDINGS = {("capture", "attackers"), ("corner", "defenders"), ("quiet_cap", None),
                 ("ply_cap", None), ("no_move", "defenders"), ("no_move", None),
                 ("repetition", None), ("no_pieces", "defenders")}
RARE_GAMES = {"codingame": [1365], "modern": [820], "opentafl": [929]}


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


def play_out(variant, position: str, rng: random.Random, label: str) -> tuple:
    """Play one random game in both, comparing after every step; returns how
    it ended, as the reference's (outcome, winner)."""
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
    ending = (model.outcome, model.winner)
    while game.ply:
        assert game.undo()
        model.undo()
        if game.ply % 7 == 0:
            assert_same(game, model, lambda: where("(undoing)"))
    assert game.position == start and not game.undo()
    return ending


def assert_every_ending(reached: set, expected: set, what: str) -> None:
    missing = expected - reached
    assert not missing, f"{what}: no game ended {sorted(missing, key=str)}; reached {sorted(reached, key=str)}"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_games(preset):
    variant = PRESETS[preset]
    reached = set()
    for i in sorted(set(range(GAMES_PER_PRESET)) | set(RARE_GAMES.get(preset, []))):
        rng = random.Random(f"games-{preset}-{i}")
        position = ref.SETUP if i % 4 else random_position(rng)
        reached.add(play_out(variant, position, rng, f"{preset} game {i}"))
    assert_every_ending(reached, ENDINGS[preset], preset)


def test_random_house_rules():
    reached = set()
    for i in range(HOUSE_GAMES):
        rng = random.Random(f"house-{i}")
        fields = random_variant(rng)
        position = ref.SETUP if i % 3 else random_position(rng)
        reached.add(play_out(fields, position, rng, f"house {i} {fields}"))
    assert_every_ending(reached, HOUSE_ENDINGS, "house rules")


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
    for _ in range(HOUSE_PERFT_POSITIONS):
        fields = random_variant(rng)
        position = random_position(rng)
        assert perft(3, position, fields) == ref.perft(position, fields, 3), (position, fields)
