"""Tests of the pure-Python reference rules (tests/reference.py) against
the numbers of docs/rules.md and hand-made positions.

Run: python -m pytest -q tests/test_reference.py
Set BRANDUBH_SLOW=1 (see conftest.py) to add perft depth 5 (about a minute
per preset), depth 4 under every preset (the brandubh preset's by default)
and a third ply to the walk of the reference's own game.
"""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as R  # noqa: E402
from conftest import SLOW  # noqa: E402


PRESET_NAMES = ["brandubh", "codingame", "modern", "opentafl"]


# ---------------------------------------------------------------- helpers


def sq(name):
    return R.square_index(name)


def P(side, a="", d="", k=""):
    """A position string from space-separated square names."""
    board = {}
    for kind, squares in (("a", a), ("d", d), ("k", k)):
        for name in squares.split():
            assert sq(name) not in board, name
            board[sq(name)] = kind
    return R.format_position(board, side)


def play(game, move):
    """Play 'd1c1' and return the captured squares as names."""
    return [R.square_name(s) for s in game.play(sq(move[:2]), sq(move[2:]))]


def legal(game, move):
    return (sq(move[:2]), sq(move[2:])) in game.moves()


def V(base, **fields):
    return dict(fields, base=base)


# ---------------------------------------------------------------- squares, positions, variants


def test_square_names():
    assert R.square_name(0) == "a1"
    assert R.square_name(6) == "g1"
    assert R.square_name(42) == "a7"
    assert R.square_name(48) == "g7"
    assert R.square_name(24) == "d4"
    assert R.square_name(3) == "d1"
    for bad in (-1, 49, "a1", None):
        with pytest.raises(ValueError):
            R.square_name(bad)
    for i in range(49):
        assert sq(R.square_name(i)) == i


def test_setup_parses_to_rules_md_set_up():
    board, side = R.parse_position(R.SETUP)
    assert side == "a"
    expected = {}
    for name in "d1 d2 d6 d7 a4 b4 f4 g4".split():
        expected[sq(name)] = "a"
    for name in "d3 c4 e4 d5".split():
        expected[sq(name)] = "d"
    expected[sq("d4")] = "k"
    assert board == expected
    assert R.format_position(board, side) == R.SETUP


@pytest.mark.parametrize(
    "text",
    [
        "3a3/3a3/3d3/aadkdaa/3d3/3a3 a",  # six rows
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3/7 a",  # eight rows
        "3a4/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",  # a row eight wide
        "3a2/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",  # a row six wide
        "3a3/3a3/3d3/aadkdaaa/3d3/3a3/3a3 a",  # letters past the edge
        "3x3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",  # unknown letter
        "3A3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",  # upper case
        "8/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",  # digit 8
        "03a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",  # digit 0
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 b",  # bad side
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3",  # no side
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3  a",  # two spaces
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a ",  # trailing space
        "3a3/3a3/3d3/aadkdaa/3d3/3a3//3a3 a",  # empty row
        "",
    ],
)
def test_bad_positions_refused(text):
    with pytest.raises(ValueError):
        R.parse_position(text)


def test_format_is_canonical():
    board, side = R.parse_position("7/7/7/3k3/7/7/a6 d")
    assert R.format_position(board, side) == "7/7/7/3k3/7/7/a6 d"
    assert R.format_position({}, "a") == "7/7/7/7/7/7/7 a"
    assert R.format_position({48: "k", 0: "a"}, "d") == "6k/7/7/7/7/7/a6 d"


def test_two_kings_written_well_but_refused_by_the_game():
    text = "k6/7/7/7/7/7/6k a"
    R.parse_position(text)  # the writing is fine
    with pytest.raises(ValueError, match="king"):
        R.RefGame(text)
    with pytest.raises(ValueError, match="king"):
        R.perft(text, "brandubh", 1)


def test_presets_have_every_field():
    for name in PRESET_NAMES:
        assert set(R.PRESETS[name]) == set(R.FIELDS)
        assert R.make_rules(name) == R.PRESETS[name]


def test_variant_normalisation():
    assert R.make_rules(V("brandubh", repeat=1))["repeat"] == 2
    assert R.make_rules(V("brandubh", repeat=-5))["repeat"] == 2
    assert R.make_rules(V("brandubh", repeat=7))["repeat"] == 7
    assert R.make_rules({"ply_cap": 0})["ply_cap"] == 400
    assert R.make_rules({"ply_cap": 4097})["ply_cap"] == 400
    assert R.make_rules({"ply_cap": 4096})["ply_cap"] == 4096
    assert R.make_rules({"ply_cap": 1})["ply_cap"] == 1
    assert R.make_rules(V("codingame", ply_cap=-3))["ply_cap"] == 200
    assert R.make_rules(V("modern", ply_cap=9999))["ply_cap"] == 4096
    full = dict(R.PRESETS["opentafl"])
    assert R.make_rules(full) == R.PRESETS["opentafl"]
    with pytest.raises(ValueError):
        R.make_rules({"no_such_field": 1})
    with pytest.raises(ValueError):
        R.make_rules("nope")
    with pytest.raises(ValueError):
        R.make_rules({"king_capture": "three"})
    with pytest.raises(ValueError):
        R.RefGame(R.SETUP, {"escape": "side"})


# ---------------------------------------------------------------- perft


@pytest.mark.parametrize("variant", PRESET_NAMES)
def test_perft_setup_depth_1_to_3(variant):
    assert R.perft(R.SETUP, variant, 0) == 1
    assert R.perft(R.SETUP, variant, 1) == 40
    assert R.perft(R.SETUP, variant, 2) == 960
    assert R.perft(R.SETUP, variant, 3) == 39512


# Depth 4 takes 1.5 seconds a preset: the brandubh preset's by default, the
# others' under SLOW (each preset's depth 3 above, by default).
@pytest.mark.parametrize("variant", [v if v == "brandubh" else pytest.param(v, marks=pytest.mark.slow)
                                     for v in PRESET_NAMES])
def test_perft_setup_depth_4(variant):
    assert R.perft(R.SETUP, variant, 4) == 1007392


def test_perft_slides():
    assert R.perft(R.SETUP, "brandubh", 3, slides=True) == 39568
    assert R.perft(R.SETUP, "codingame", 3, slides=True) == 39568
    assert R.perft(R.SETUP, "brandubh", 4, slides=True) == 1011592


@pytest.mark.slow
@pytest.mark.parametrize("variant", PRESET_NAMES)
def test_perft_setup_depth_5(variant):
    assert R.perft(R.SETUP, variant, 5) == 41843336


def test_divide_sums_to_perft_and_names_moves():
    d1 = R.divide(R.SETUP, "brandubh", 1)
    assert len(d1) == 40 and set(d1.values()) == {1}
    assert "d1c1" in d1 and "a4a1" not in d1 and "d2d1" not in d1
    d3 = R.divide(R.SETUP, "brandubh", 3)
    assert sum(d3.values()) == 39512
    assert sum(R.divide(R.SETUP, "opentafl", 3, slides=True).values()) == 39568


def test_perft_hand_counted_king_and_corner_attacker():
    # King on the throne, an attacker set up on a1.  King: 12 moves; the
    # attacker then has 10, except 7 when the king stands on d1 or a4.
    pos = "7/7/7/3k3/7/7/a6 d"
    assert R.perft(pos, "brandubh", 1) == 12
    assert R.perft(pos, "brandubh", 2) == 10 * 10 + 7 + 7
    # With escape on the edge the four edge moves end the game: leaves at
    # depth 1, nothing below them.
    edge = V("brandubh", escape="edge")
    assert R.perft(pos, edge, 1) == 12
    assert R.perft(pos, edge, 2) == 8 * 10
    div = R.divide(pos, edge, 2)
    assert div["d4d7"] == 0 and div["d4d6"] == 10


def test_perft_slides_does_not_end_on_the_corner():
    # King b1, attacker set up on g1.  Normal: b1a1 ends; slides: it goes on.
    pos = "7/7/7/7/7/7/1k4a d"
    assert R.perft(pos, "brandubh", 1) == 11
    assert R.perft(pos, "brandubh", 2) == 8 + 7 + 6 + 5 + 6 * 10
    assert R.perft(pos, "brandubh", 2, slides=True) == 8 + 7 + 6 + 5 + 6 * 10 + 10
    assert R.divide(pos, "brandubh", 2)["b1a1"] == 0
    assert R.divide(pos, "brandubh", 2, slides=True)["b1a1"] == 10


def test_perft_capture_of_the_king_is_a_leaf():
    pos = P("a", k="b5", a="a5 c7 g2", d="f6")
    assert R.divide(pos, "brandubh", 1)["c7c5"] == 1
    assert R.divide(pos, "brandubh", 2)["c7c5"] == 0
    assert R.divide(pos, "brandubh", 3)["c7c5"] == 0
    # slides: nothing is captured, the game goes on
    assert R.divide(pos, "brandubh", 2, slides=True)["c7c5"] > 0


def test_perft_of_an_ended_root():
    assert R.perft("7/7/7/7/7/7/a6 d", "brandubh", 1) == 0  # no king
    assert R.perft("7/7/7/7/7/7/a6 d", "brandubh", 0) == 1
    assert R.divide("7/7/7/7/7/7/a6 d", "brandubh", 2) == {}
    assert R.perft("7/7/7/3k3/7/7/7 a", "brandubh", 1) == 0  # no attacker
    assert R.perft("7/7/7/3k3/7/7/7 d", "codingame", 1) == 12  # no_pieces off


def _random_positions(variant, count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = R.RefGame(R.SETUP, variant)
        for _ in range(rng.randrange(4, 30)):
            moves = game.moves()
            if not moves:
                break
            game.play(*rng.choice(moves))
        if game.outcome == "ongoing":
            found.append(game.position())
    return found


def _walk(game, depth):
    if depth == 0:
        return 1
    total = 0
    for frm, to in game.moves():
        game.play(frm, to)
        total += _walk(game, depth - 1)
        game.undo()
    return total


@pytest.mark.parametrize("variant", PRESET_NAMES)
def test_perft_agrees_with_a_walk_of_refgame(variant):
    # RefGame with repetition and caps out of reach plays the perft tree.
    no_caps = V(variant, repeat=4096, ply_cap=4096, quiet_cap=0)
    for i, pos in enumerate(_random_positions(variant, 3, seed=PRESET_NAMES.index(variant))):
        game = R.RefGame(pos, no_caps)
        # encirclement, no_pieces off: a third ply under SLOW (7 seconds)
        deep = SLOW and i == 0 and variant == "codingame"
        for depth in (1, 2, 3) if deep else (1, 2):
            assert _walk(game, depth) == R.perft(pos, variant, depth), pos
        div = R.divide(pos, variant, 2)
        assert sum(div.values()) == R.perft(pos, variant, 2)


# ---------------------------------------------------------------- movement


def test_only_the_king_stops_on_a_corner():
    g = R.RefGame(P("a", a="a3", k="c5", d="e5"))
    assert legal(g, "a3a2") and legal(g, "a3a6") and legal(g, "a3g3")
    assert not legal(g, "a3a1") and not legal(g, "a3a7")
    g = R.RefGame(P("d", k="a3", a="g5"))
    assert legal(g, "a3a1") and legal(g, "a3a7")


def test_throne_reentry_and_passing():
    pos = P("d", k="d3", a="g6")
    g = R.RefGame(pos, "brandubh")  # no re-entry, may pass
    assert not legal(g, "d3d4") and legal(g, "d3d5") and legal(g, "d3d7")
    g = R.RefGame(pos, "modern")  # re-entry, may pass
    assert legal(g, "d3d4") and legal(g, "d3d5")
    g = R.RefGame(pos, V("brandubh", throne_pass=False))
    assert not legal(g, "d3d4") and not legal(g, "d3d5")
    g = R.RefGame(pos, V("modern", throne_pass=False))
    assert legal(g, "d3d4") and not legal(g, "d3d5")
    # a soldier slides across the empty throne, never stops on it
    g = R.RefGame(P("a", a="d2", k="b6"))
    assert legal(g, "d2d5") and legal(g, "d2d7") and not legal(g, "d2d4")
    g = R.RefGame(P("a", a="d2", k="b6"), V("brandubh", throne_pass=False))
    assert legal(g, "d2d3") and not legal(g, "d2d5")


def test_set_up_pieces_leave_throne_and_corner():
    g = R.RefGame(P("a", a="d4", k="b6"))
    assert len(g.moves()) == 12  # and never comes back
    g.play(sq("d4"), sq("d3"))
    g.play(sq("b6"), sq("b5"))
    assert not legal(g, "d3d4")
    g = R.RefGame(P("a", a="a1", k="c6"))
    assert sorted(R.move_name(f, t) for f, t in g.moves()) == sorted(
        ["a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1b1", "a1c1", "a1d1", "a1e1", "a1f1"]
    )
    g = R.RefGame(R.SETUP.replace(" a", " d"), "brandubh")  # king on the throne leaves
    assert not any(f == sq("d4") for f, _ in g.moves())  # boxed in by his own
    g = R.RefGame(P("d", k="d4", a="a1"), "brandubh")
    assert legal(g, "d4d1") and legal(g, "d4a4")


def test_pieces_do_not_jump():
    g = R.RefGame(R.SETUP)
    assert not legal(g, "d2d3") and not legal(g, "b4c4") and not legal(g, "d1d3")
    assert legal(g, "d2c2") and legal(g, "b4b7")


# ---------------------------------------------------------------- capture


def test_custodial_capture_and_only_the_mover_captures():
    g = R.RefGame(P("a", a="b3 d1", d="c3", k="g5"))
    assert R.square_name(g.captures_of(sq("d1"), sq("d3"))[0]) == "c3"
    assert g.position() == P("a", a="b3 d1", d="c3", k="g5")  # captures_of plays nothing
    assert play(g, "d1d3") == ["c3"]
    assert g.board == {sq("b3"): "a", sq("d3"): "a", sq("g5"): "k"}
    assert g.quiet() == 0


def test_moving_between_two_enemies_is_safe():
    g = R.RefGame(P("d", a="b3 d3", d="c5", k="g5"))
    assert play(g, "c5c3") == []
    assert g.board[sq("c3")] == "d"
    g = R.RefGame(P("d", a="a5 c5 g2", k="b3", d="f6"))
    assert play(g, "b3b5") == []  # the king too
    assert g.outcome == "ongoing"


def test_edge_is_not_hostile():
    g = R.RefGame(P("a", a="c3", d="a3", k="g5"))
    assert play(g, "c3b3") == []
    g = R.RefGame(P("a", a="a2 c4", d="a3", k="g5"))
    assert play(g, "c4a4") == ["a3"]  # along the edge it is custodial as usual


def test_empty_corner_is_hostile_to_both_sides():
    g = R.RefGame(P("a", a="c5", d="b1", k="g5"))
    assert play(g, "c5c1") == ["b1"]
    g = R.RefGame(P("d", a="b1", d="c5", k="g5"))
    assert play(g, "c5c1") == ["b1"]
    g = R.RefGame(P("a", a="e3", d="g2", k="e6"))
    assert play(g, "e3g3") == ["g2"]  # against g1


@pytest.mark.parametrize("variant,taken", [("brandubh", True), ("modern", True), ("codingame", True), ("opentafl", False)])
def test_empty_throne_hostility(variant, taken):
    g = R.RefGame(P("a", a="b2", d="d3", k="g5"), variant)
    assert play(g, "b2d2") == (["d3"] if taken else [])
    g = R.RefGame(P("d", a="d5", d="b6", k="g2"), variant)
    assert play(g, "b6d6") == (["d5"] if taken else [])


def test_king_on_throne_friend_of_defenders_enemy_of_attackers():
    # d3 defender next to the king on his throne: safe
    g = R.RefGame(P("a", a="b2", d="d3", k="d4"))
    assert play(g, "b2d2") == []
    # d5 attacker between a defender and the armed king on his throne: taken
    g = R.RefGame(P("d", a="d5", d="b6", k="d4"))
    assert play(g, "b6d6") == ["d5"]
    g = R.RefGame(P("d", a="d5", d="b6", k="d4"), V("modern", king_armed=False))
    assert play(g, "b6d6") == []


def test_armed_king_captures_as_mover_and_as_far_side():
    pos = P("d", k="b2", a="c3 f6", d="d3")
    g = R.RefGame(pos)
    assert play(g, "b2b3") == ["c3"]  # king moves, defender d3 beyond
    g = R.RefGame(pos, V("brandubh", king_armed=False))
    assert play(g, "b2b3") == []
    pos = P("d", k="b3", a="c3 f6", d="d6")
    g = R.RefGame(pos)
    assert play(g, "d6d3") == ["c3"]  # defender moves, king beyond
    g = R.RefGame(pos, V("brandubh", king_armed=False))
    assert play(g, "d6d3") == []


def test_three_captures_in_one_move():
    g = R.RefGame(P("a", a="a3 e3 c1 c6", d="b3 d3 c2", k="g6"))
    assert play(g, "c6c3") == ["c2", "b3", "d3"]  # sorted by index: c2=9, b3=15, d3=17
    assert g.quiet() == 0


# ---------------------------------------------------------------- king capture


def _king_taken(pos, variant, move):
    g = R.RefGame(pos, variant)
    taken = play(g, move)
    king_gone = "k" not in g.board.values()
    assert king_gone == (g.outcome == "capture")
    if king_gone:
        assert g.winner == "attackers"
    return king_gone, taken


@pytest.mark.parametrize(
    "variant,four,three",
    [("brandubh", True, False), ("codingame", True, False), ("modern", True, True), ("opentafl", True, True)],
)
def test_king_on_the_throne(variant, four, three):
    # four attackers (the mover the fourth)
    assert _king_taken(P("a", k="d4", a="c4 e4 d3 d6"), variant, "d6d5")[0] == four
    # three attackers: the mover d5 and d3 opposite, c4 at the side
    assert _king_taken(P("a", k="d4", a="c4 d3 d6"), variant, "d6d5")[0] == three


@pytest.mark.parametrize(
    "variant,three_sides,two_against_throne",
    [
        ("brandubh", True, False),  # nielsen: three sides and the empty throne
        ("codingame", False, False),  # four_two: the throne never closes
        ("modern", True, True),  # two: the mover and the empty hostile throne
        ("opentafl", False, False),  # two, throne not hostile: c5/e5 are off the line
    ],
)
def test_king_beside_the_throne(variant, three_sides, two_against_throne):
    assert _king_taken(P("a", k="d5", a="c5 e5 g6"), variant, "g6d6")[0] == three_sides
    assert _king_taken(P("a", k="d5", a="g6"), variant, "g6d6")[0] == two_against_throne


def test_nielsen_beside_an_occupied_throne_is_never_taken():
    # a defender set up on the throne: the throne holds a piece, does not close
    assert _king_taken(P("a", k="d5", a="c5 e5 g6", d="d4"), "brandubh", "g6d6")[0] is False
    # under "two" a defender on the throne is no hostile square either
    assert _king_taken(P("a", k="d5", a="g6", d="d4"), "modern", "g6d6")[0] is False


@pytest.mark.parametrize("variant", PRESET_NAMES)
def test_king_elsewhere_taken_by_two_and_by_the_corner(variant):
    assert _king_taken(P("a", k="b5", a="a5 c7", d="f6"), variant, "c7c5") == (True, ["b5"])
    assert _king_taken(P("a", k="b1", a="c5", d="f6"), variant, "c5c1") == (True, ["b1"])
    # not when the far side is empty, a defender or the edge
    assert _king_taken(P("a", k="b5", a="c7", d="f6"), variant, "c7c5")[0] is False
    assert _king_taken(P("a", k="b5", a="c7", d="a5"), variant, "c7c5")[0] is False
    assert _king_taken(P("a", k="a5", a="c5 f2", d="f6"), variant, "c5b5")[0] is False


def test_king_capture_four():
    four = V("modern", king_capture="four")
    assert _king_taken(P("a", k="c3", a="b3 c2 d3 c6"), four, "c6c4")[0] is True
    assert _king_taken(P("a", k="c3", a="b3 c2 c6"), four, "c6c4")[0] is False
    assert _king_taken(P("a", k="b5", a="a5 c7", d="f6"), four, "c7c5")[0] is False
    # the empty throne closes one side
    assert _king_taken(P("a", k="d5", a="c5 e5 g6"), four, "g6d6")[0] is True
    # on the edge never: b1 with a1 corner, c1 and b2
    assert _king_taken(P("a", k="b1", a="c1 b4", d="f6"), four, "b4b2")[0] is False
    assert _king_taken(P("a", k="b2", a="a2 b1 c2 b5"), four, "b5b3")[0] is True


def test_only_an_attacker_moving_next_to_the_king_takes_him():
    # the king already stands between two attackers; another attacker moves
    g = R.RefGame(P("a", k="b5", a="a5 c5 g2", d="f6"))
    assert play(g, "g2g3") == []
    assert g.outcome == "ongoing" and "k" in g.board.values()


# ---------------------------------------------------------------- endings


def test_corner_escape():
    g = R.RefGame(P("d", k="a3", a="g5"))
    play(g, "a3a1")
    assert (g.outcome, g.winner) == ("corner", "defenders")
    assert g.moves() == [] and g.pseudo_moves() != []
    with pytest.raises(ValueError):
        g.play(sq("g5"), sq("g4"))
    g = R.RefGame(P("d", k="c3", a="g5"), V("brandubh", escape="edge"))
    play(g, "c3c1")
    assert (g.outcome, g.winner) == ("corner", "defenders")
    g = R.RefGame(P("d", k="c3", a="g5"), "brandubh")
    play(g, "c3c1")
    assert g.outcome == "ongoing"


def test_corner_comes_before_no_pieces():
    g = R.RefGame(P("d", k="g3", d="e1", a="f1"))
    assert play(g, "g3g1") == ["f1"]
    assert (g.outcome, g.winner) == ("corner", "defenders")


def test_no_pieces():
    pos = P("d", k="f6", d="b2 d3", a="c2")
    g = R.RefGame(pos, "brandubh")
    assert play(g, "d3d2") == ["c2"]
    assert (g.outcome, g.winner) == ("no_pieces", "defenders")
    # codingame: no_pieces off, so the attackers have no move: a loss
    g = R.RefGame(pos, "codingame")
    play(g, "d3d2")
    assert (g.outcome, g.winner) == ("no_move", "defenders")
    # ... and taking the last attacker with the last allowed move is a ply_cap draw
    g = R.RefGame(pos, V("codingame", ply_cap=1))
    play(g, "d3d2")
    assert (g.outcome, g.winner) == ("ply_cap", None)
    # brandubh with no_pieces off: no move is a draw there
    g = R.RefGame(pos, V("brandubh", no_pieces=False))
    play(g, "d3d2")
    assert (g.outcome, g.winner) == ("no_move", None)


def test_no_move_after_a_move_and_its_order_against_ply_cap():
    pos = P("a", k="c1", a="b1 d1 c5")
    g = R.RefGame(pos, "brandubh")
    play(g, "c5c2")
    assert (g.outcome, g.winner) == ("no_move", None)
    g = R.RefGame(pos, "codingame")
    play(g, "c5c2")
    assert (g.outcome, g.winner) == ("no_move", "attackers")
    # 6 (no move, a draw) comes before 7 (ply cap); 7 before 9 (no move, a loss)
    g = R.RefGame(pos, V("brandubh", ply_cap=1))
    play(g, "c5c2")
    assert (g.outcome, g.winner) == ("no_move", None)
    g = R.RefGame(pos, V("codingame", ply_cap=1))
    play(g, "c5c2")
    assert (g.outcome, g.winner) == ("ply_cap", None)
    g = R.RefGame(pos, V("codingame", quiet_cap=1))
    play(g, "c5c2")
    assert (g.outcome, g.winner) == ("quiet_cap", None)


def test_encirclement():
    pos = P("a", k="b2", a="a2 b1 b3 c1 c3 g2")
    g = R.RefGame(pos, "codingame")
    assert g.outcome == "ongoing"
    play(g, "g2d2")
    assert (g.outcome, g.winner) == ("encircled", "attackers")
    g = R.RefGame(pos, "brandubh")
    play(g, "g2d2")
    assert g.outcome == "ongoing"
    # a defender outside the ring (or on the edge) keeps the game going
    g = R.RefGame(P("a", k="b2", a="a2 b1 b3 c1 c3 g2", d="f6"), "codingame")
    play(g, "g2d2")
    assert g.outcome == "ongoing"
    g = R.RefGame(P("a", k="b2", a="a2 b1 b3 c1 c3 g2", d="g5"), "codingame")
    play(g, "g2d2")
    assert g.outcome == "ongoing"
    # encirclement is not asked before the first move
    g = R.RefGame(P("a", k="b2", a="a2 b1 b3 c1 c3 d2 g6"), "codingame")
    assert g.outcome == "ongoing"
    # ... but after any move, a defender's included
    g = R.RefGame(P("d", k="b2", a="a2 b1 b3 c1 c3 d2 g6"), "codingame")
    play(g, "b2c2")
    assert (g.outcome, g.winner) == ("encircled", "attackers")
    # perft: the encircling move is a leaf
    assert R.divide(pos, "codingame", 2)["g2d2"] == 0
    assert R.divide(pos, "brandubh", 2)["g2d2"] > 0


def test_encircled_perft_codingame_only():
    pos = P("a", k="b2", a="a2 b1 b3 c1 c3 g2")
    assert R.perft(pos, "codingame", 2) < R.perft(pos, V("codingame", encirclement=False), 2)


def _shuffle(game, times):
    for _ in range(times):
        for move in ("a4a5", "c4c3", "a5a4", "c3c4"):
            if game.outcome != "ongoing":
                return
            play(game, move)


def test_repetition_brandubh_counts_start_and_draws():
    g = R.RefGame(R.SETUP, "brandubh")
    assert g.repeats() == 1
    _shuffle(g, 1)
    assert g.ply == 4 and g.repeats() == 2 and g.outcome == "ongoing"
    _shuffle(g, 1)
    assert g.ply == 8 and g.repeats() == 3
    assert (g.outcome, g.winner) == ("repetition", None)


def test_repetition_codingame_skips_start_and_the_mover_loses():
    g = R.RefGame(R.SETUP, "codingame")
    _shuffle(g, 2)
    assert g.ply == 8 and g.repeats() == 2 and g.outcome == "ongoing"
    play(g, "a4a5")  # the position after ply 1, 5 and now 9
    assert g.repeats() == 3
    assert (g.outcome, g.winner) == ("repetition", "defenders")


def test_repetition_other_repeat_values():
    g = R.RefGame(R.SETUP, V("modern", repeat=2))
    _shuffle(g, 1)
    assert g.ply == 4 and (g.outcome, g.winner) == ("repetition", "attackers")  # defenders moved
    g = R.RefGame(R.SETUP, V("brandubh", repeat=0))  # taken as 2
    _shuffle(g, 1)
    assert g.ply == 4 and (g.outcome, g.winner) == ("repetition", None)
    g = R.RefGame(R.SETUP, V("opentafl", repeat=2, repeat_counts_start=False))
    _shuffle(g, 1)
    assert g.ply == 4 and g.repeats() == 1 and g.outcome == "ongoing"
    play(g, "a4a5")
    assert (g.outcome, g.winner) == ("repetition", None)


def test_ply_cap():
    g = R.RefGame(R.SETUP, V("brandubh", ply_cap=2))
    play(g, "a4a5")
    assert g.outcome == "ongoing"
    play(g, "c4c3")
    assert (g.outcome, g.winner) == ("ply_cap", None)
    assert g.moves() == []


def test_quiet_cap_and_quiet_count():
    pos = P("a", a="b3 d1 g2", d="c3 f6", k="g5")
    g = R.RefGame(pos, V("brandubh", quiet_cap=3))
    assert g.quiet() == 0
    play(g, "g2g3")
    play(g, "f6f5")
    assert g.quiet() == 2 and g.outcome == "ongoing"
    g.undo()
    g.undo()
    assert play(g, "d1d3") == ["c3"]
    assert g.quiet() == 0
    play(g, "f6f5")
    play(g, "g2g3")
    assert g.quiet() == 2 and g.outcome == "ongoing"
    play(g, "f5f6")
    assert g.quiet() == 3 and (g.outcome, g.winner) == ("quiet_cap", None)


def test_endings_of_a_set_up_position():
    g = R.RefGame("7/7/7/7/7/7/a6 d")
    assert (g.outcome, g.winner) == ("capture", "attackers") and g.moves() == []
    g = R.RefGame("k6/7/7/7/7/7/7 a")  # king on a7 and no attacker: corner first
    assert (g.outcome, g.winner) == ("corner", "defenders")
    g = R.RefGame("7/7/7/3k3/7/7/7 a", "brandubh")
    assert (g.outcome, g.winner) == ("no_pieces", "defenders")
    g = R.RefGame("7/7/7/3k3/7/7/7 a", "codingame")
    assert (g.outcome, g.winner) == ("no_move", "defenders")
    g = R.RefGame("7/7/7/3k3/7/7/7 d", "codingame")
    assert g.outcome == "ongoing"
    boxed = P("d", k="c1", a="b1 d1 c2")
    assert (R.RefGame(boxed, "brandubh").outcome, R.RefGame(boxed, "brandubh").winner) == ("no_move", None)
    assert R.RefGame(boxed, "opentafl").winner == "attackers"
    g = R.RefGame(P("d", k="c1", a="g5"), V("brandubh", escape="edge"))
    assert (g.outcome, g.winner) == ("corner", "defenders")
    # an un-captured king between two attackers stays: capture needs a move
    g = R.RefGame(P("d", k="b5", a="a5 c5"))
    assert g.outcome == "ongoing"
    assert R.RefGame().outcome == "ongoing" and R.RefGame().winner is None


def test_play_refuses_illegal_moves_unchanged():
    g = R.RefGame()
    before = g.position()
    for frm, to in [(sq("d4"), sq("d5")), (sq("d2"), sq("d3")), (sq("a4"), sq("a1")), (sq("c4"), sq("c3"))]:
        with pytest.raises(ValueError):
            g.play(frm, to)
    assert g.position() == before and g.ply == 0
    with pytest.raises(ValueError):
        g.undo()


# ---------------------------------------------------------------- undo


def _snapshot(g):
    return (
        g.position(),
        dict(g.board),
        g.side,
        g.ply,
        g.outcome,
        g.winner,
        g.repeats(),
        g.quiet(),
        g.moves(),
    )


@pytest.mark.parametrize("variant", PRESET_NAMES)
def test_undo_restores_everything(variant):
    rng = random.Random(12345 + PRESET_NAMES.index(variant))
    for _ in range(6):
        g = R.RefGame(R.SETUP, variant)
        snaps = [_snapshot(g)]
        while g.outcome == "ongoing" and g.ply < 120:
            frm, to = rng.choice(g.moves())
            expected = g.captures_of(frm, to)
            assert g.play(frm, to) == expected
            snaps.append(_snapshot(g))
        if g.outcome != "ongoing":
            assert g.moves() == []
        while g.ply > 0:
            assert _snapshot(g) == snaps[g.ply]
            g.undo()
        assert _snapshot(g) == snaps[0]
