"""The evaluation against the description of its seven numbers in
Game::Brandubh::Rules's documentation, computed here the plain way from the
reference's moves (tests/reference.py), on positions from random games under
every preset and under house rules.

That documentation: attacker and defender for each piece on the board;
lane_one for each winning square the king can reach in one move and lane_two
for each he can reach in two (and not in one); freedom for each square the
king can move to; corner_guard for each attacker on one of the three squares
that close a corner; ring for each attacker next to the king. Positive
favours the attackers."""

import random

import pytest

import reference as ref
from brandubh import PRESETS, Rules, Variant

# Weights unlike each other (primes), so that a term counted wrong is not
# made up for by another.
WEIGHTS = {"attacker": 7, "defender": 11, "lane_one": 1009, "lane_two": 307, "freedom": 13,
           "corner_guard": 101, "ring": 53}

# The three squares that close each corner: the two beside it and the one
# diagonally in front of it.
CORNER_GUARDS = {ref.square_index(name) for name in
                 ("a2", "b1", "b2", "f1", "g2", "f2", "a6", "b7", "b6", "f7", "g6", "f6")}


def plain_evaluate(position: str, rules: dict, w: dict) -> tuple[int, int]:
    """The score, and how many escape squares are two moves away."""
    board, _ = ref.parse_position(position)
    pieces = list(board.values())
    score = w["attacker"] * pieces.count("a") - w["defender"] * pieces.count("d")
    score += w["corner_guard"] * sum(1 for sq, piece in board.items() if piece == "a" and sq in CORNER_GUARDS)
    kings = [sq for sq, piece in board.items() if piece == "k"]
    if not kings:
        return score, 0
    king = kings[0]
    reach = set(ref.piece_destinations(board, king, rules))
    one = {sq for sq in reach if ref.is_escape(sq, rules)}
    two = set()
    for sq in reach - one:
        moved = dict(board)
        del moved[king]
        moved[sq] = "k"
        two |= {t for t in ref.piece_destinations(moved, sq, rules) if ref.is_escape(t, rules)}
    two -= one
    score -= w["lane_one"] * len(one) + w["lane_two"] * len(two) + w["freedom"] * len(reach)
    beside = {ref.neighbour(king, d) for d in ref.DIRECTIONS} - {None}
    score += w["ring"] * sum(1 for sq in beside if board.get(sq) == "a")
    return score, len(two)


def _house_rules(rng: random.Random) -> dict:
    return {"escape": rng.choice(["corner", "edge"]), "throne_pass": rng.random() < 0.5,
            "throne_reentry": rng.random() < 0.5, "throne_hostile": rng.random() < 0.5,
            "king_armed": rng.random() < 0.5}


@pytest.mark.parametrize("variant", [*PRESETS, "house"])
def test_evaluate_matches_the_plain_count(variant):
    rng = random.Random(f"evaluate {variant}")
    checked = with_two = 0
    for _ in range(150):
        if variant == "house":
            fields = _house_rules(rng)
            game = Rules(variant=Variant.from_string(" ".join(
                f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in fields.items())))
            rules = ref.make_rules(fields)
        else:
            game, rules = Rules(variant=variant), ref.make_rules(variant)
        for _ in range(rng.randint(0, 60)):
            if game.is_over():
                break
            game.play(rng.choice(game.moves()))
            want, two = plain_evaluate(game.position, rules, WEIGHTS)
            assert game.evaluate(WEIGHTS) == want, (variant, game.position)
            checked += 1
            with_two += two > 0
    # Not vacuous: many positions, some with escapes two moves away.
    assert checked > 1000 and with_two > 50
