"""Tests of brandubh.Game (the interface of Game::Brandubh's documentation) and
the page docs/bots.md."""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
from pathlib import Path

import pytest

import brandubh
import brandubh.game as game_module
from brandubh import (
    BrandubhError,
    Game,
    LegalMove,
    Refusal,
    RefusalCode,
    Refused,
    Replay,
    Result,
    Rules,
    Variant,
)
from brandubh.core.position import move_text
from brandubh.errors import ArgumentError, PositionError, VariantError
from brandubh.notation import SETUP, move_parse
from brandubh.records import game_parse

from conftest import run_page

REPO = Path(__file__).resolve().parent.parent
PRESETS = ("brandubh", "codingame", "modern", "opentafl")
DOC_START = "7/7/7/3k3/7/7/a6 d"  # the start line of Game::Brandubh::Notation's example
SEED32 = bytes(range(32))

OUTCOMES = ("corner", "capture", "no_pieces", "repetition", "encircled",
            "no_move", "ply_cap", "quiet_cap")


def snapshot(g: Game) -> tuple:
    """Everything a game shows about where it stands."""
    return (g.position, g.signature, g.repeats, g.ply, g.status, g.turn, g.side_to_move,
            g.result, g.log, g.shown, g.draw_offered_by, g.pieces, g.seed)


# ---------------------------------------------------------------- the module


def test_public_names_are_lazy_attributes_of_the_package():
    for name in ("Game", "LegalMove", "Refusal", "RefusalCode", "Result", "Refused", "Replay"):
        assert getattr(brandubh, name) is getattr(game_module, name)
        assert name in brandubh.__all__
        assert name in game_module.__all__


def _public_members():
    """Every public class of the module, and every public method and
    property defined on it (not enum members, not tuple fields)."""
    for name in game_module.__all__:
        cls = getattr(game_module, name)
        if not inspect.isclass(cls):
            continue
        yield name, cls
        for attr, value in vars(cls).items():
            if attr.startswith("_") or attr in getattr(cls, "_fields", ()):
                continue
            if isinstance(value, cls):  # an enum member
                continue
            if inspect.isfunction(value) or isinstance(value, (property, classmethod, staticmethod)) \
                    or type(value).__name__ == "_ClassOrInstance":
                yield f"{name}.{attr}", value


def test_every_public_class_and_method_has_a_runnable_example():
    missing = []
    for label, obj in _public_members():
        target = obj.fget if isinstance(obj, property) else obj
        target = getattr(target, "__func__", target)
        if ">>>" not in (inspect.getdoc(target) or ""):
            missing.append(label)
    assert missing == []


def test_every_public_function_is_type_hinted():
    for label, obj in _public_members():
        target = obj.fget if isinstance(obj, property) else obj
        target = getattr(target, "__wrapped__", getattr(target, "__func__", target))
        if inspect.isfunction(target):
            assert "return" in target.__annotations__, label


# ---------------------------------------------------------------- Game::Brandubh's examples


def test_doc_synopsis():
    game = Game()
    assert game.turn == "p1"
    taking = [m for m in game.legal() if m.captures]
    assert taking == []  # nothing captures from the set-up
    refused = game.play("d1c1")
    assert refused is None
    assert game.status == "active" and game.result is None
    saved = game.as_text()
    again = Game.from_text(saved).game
    assert again.log == ["d1c1"] and again.position == game.position


def test_doc_new_with_every_argument():
    game = Game(attackers="p2", variant={"repeat": 2}, position=DOC_START, seed=SEED32)
    assert game.attackers == "p2"
    assert game.variant == Variant(repeat=2)
    assert game.start == DOC_START == game.position
    assert game.turn == "p1" and game.side_to_move == "defenders"
    assert game.seed is None  # held until the game is finished
    game.play_or_raise("d4d1").play_or_raise("a1a2").play_or_raise("d1g1")
    assert game.result == Result("corner", "p1", "defenders")
    assert game.seed == SEED32


def test_doc_examples_of_the_methods():
    game = Game()
    assert game.side_of("p1") == "attackers"
    assert game.seat_of("defenders") == "p2"
    assert game.play("d1c1") is None
    assert game.play("d1-c1", "p1").code is RefusalCode.NOT_YOUR_TURN
    assert Game().play_or_raise("d1c1").play_or_raise("d3c3").log == ["d1c1", "d3c3"]
    assert game.at("d4") == "king"
    assert game.offer_draw("p1") is None
    assert game.accept_draw("p2") is None
    assert game.result.how == "agreed"
    game = Game()
    assert game.resign("p2") is None and game.winner == "p1"


def test_notation_doc_game_text():
    text = "variant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1 a1a2 d1g1\n"
    game, refused, played = Game.from_text(text)
    assert (refused, played) == (None, 3)
    assert game.shown == ["Kd4-d1", "a1-a2", "Kd1-g1++"]
    assert game.result == Result("corner", "p2", "defenders")
    assert game.as_text() == text
    for line in ("result resign attackers", "result agreed"):
        ended = Game.from_text("variant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1\n" + line).game
        assert ended.status == "finished"
        assert ended.as_text().splitlines()[-1] == line


@pytest.mark.parametrize("position, move, shown", [
    ("7/6k/7/7/1ad4/7/3a3 a", "d1d3", "d1-d3xc3"),
    ("7/6k/7/7/1ad1da1/7/3a3 a", "d1d3", "d1-d3xc3,e3"),
    ("1a5/7/7/4k2/7/7/7 d", "e4e1", "Ke4-e1"),
    ("7/7/7/a6/7/6k/7 d", "g2g1", "Kg2-g1++"),
    ("7/7/2aa3/3ka2/3a3/7/7 a", "c5c4", "c5-c4xd4#"),
])
def test_notation_doc_shown_moves(position, move, shown):
    game = Game(position=position)
    assert game.play(move) is None
    assert game.shown == [shown]
    assert move_parse(shown) == move
    again = Game(position=position)
    assert again.play(shown) is None  # the shown form is read back
    assert again.position == game.position


# ---------------------------------------------------------------- construction


def test_defaults():
    game = Game()
    assert game.attackers == "p1"
    assert game.variant == Variant.named("brandubh")
    assert game.start == SETUP == game.position
    assert (game.status, game.turn, game.side_to_move) == ("active", "p1", "attackers")
    assert (game.ply, game.repeats, game.log, game.shown) == (0, 1, [], [])
    assert game.result is None and game.winner is None and game.seed is None
    assert game.draw_offered_by is None
    assert re.fullmatch(r"[0-9a-f]{16}", game.signature)
    assert game.signature == Rules().key_hex
    assert "active" in repr(game)


@pytest.mark.parametrize("variant", [
    Variant.named("codingame"), {"king_capture": "four_two", "encirclement": True},
    "codingame", "brandubh repeat=2", None,
])
def test_variant_forms(variant):
    game = Game(variant=variant)
    assert isinstance(game.variant, Variant)
    assert game.variant == brandubh.variant.as_variant(variant)


@pytest.mark.parametrize("kwargs, error", [
    ({"attackers": "p3"}, ArgumentError),
    ({"attackers": None}, ArgumentError),
    ({"attackers": "P1"}, ArgumentError),
    ({"variant": {"no_such_field": 1}}, VariantError),
    ({"variant": "nonsense"}, VariantError),
    ({"variant": 7}, VariantError),
    ({"position": "7/7/7 a"}, PositionError),
    ({"position": "7/7/7/3k3/7/7/k6 d"}, PositionError),  # two kings
    ({"position": 5}, PositionError),
    ({"seed": bytes(31)}, ArgumentError),
    ({"seed": bytes(33)}, ArgumentError),
    ({"seed": "x" * 32}, ArgumentError),
    ({"seed": 12345}, ArgumentError),
])
def test_bad_arguments_raise(kwargs, error):
    with pytest.raises(error) as caught:
        Game(**kwargs)
    assert isinstance(caught.value, BrandubhError) and isinstance(caught.value, ValueError)
    assert str(caught.value)


def test_seed_forms():
    assert Game(seed=bytearray(32)).resign("p1") is None
    game = Game(seed=bytearray(SEED32))
    game.resign("p1")
    assert game.seed == SEED32 and isinstance(game.seed, bytes)


def test_misspelt_or_positional_keywords_are_type_errors():
    with pytest.raises(TypeError):
        Game(attacker="p1")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Game("p1", "codingame")  # type: ignore[misc]


# ---------------------------------------------------------------- seats


@pytest.mark.parametrize("attackers, defenders", [("p1", "p2"), ("p2", "p1")])
def test_seats_and_sides(attackers, defenders):
    game = Game(attackers)
    assert game.side_of(attackers) == "attackers" and game.side_of(defenders) == "defenders"
    assert game.seat_of("attackers") == attackers and game.seat_of("defenders") == defenders
    for nonsense in ("p3", "", None, 1, "attackers"):
        assert game.side_of(nonsense) is None
    for nonsense in ("attacker", "p1", None, 0):
        assert game.seat_of(nonsense) is None
    assert game.turn == attackers
    assert game.play("d1c1", defenders).code is RefusalCode.NOT_YOUR_TURN
    assert game.play("d1c1", attackers) is None
    assert game.turn == defenders
    assert game.resign(defenders) is None
    assert game.result == Result("resign", attackers, "attackers")
    assert game.winner == attackers and game.turn is None and game.side_to_move is None


def test_defenders_to_move_at_the_start_with_p2_attacking():
    game = Game("p2", position=DOC_START)
    assert game.turn == "p1" and game.side_to_move == "defenders"


# ---------------------------------------------------------------- legal moves


def test_legal_at_the_set_up():
    moves = Game().legal()
    assert len(moves) == 40
    assert all(isinstance(m, LegalMove) for m in moves)
    assert [m.move for m in moves] == [move_text(m) for m in Rules().moves()]
    assert {m.piece for m in moves} == {"attacker"}
    assert not any(m.captures or m.wins for m in moves)
    first = moves[0]
    assert (first.move, first.from_square, first.to_square) == ("d1b1", "d1", "b1")
    assert str(first) == "d1b1"
    with pytest.raises(AttributeError):  # a LegalMove cannot be changed
        first.move = "x"  # type: ignore[misc]


def test_legal_is_a_new_list_each_time():
    game = Game()
    moves = game.legal()
    moves.clear()
    assert len(game.legal()) == 40


def test_legal_captures_and_wins():
    game = Game(position="7/7/2aa3/3ka2/3a3/7/7 a")
    by_move = {m.move: m for m in game.legal()}
    assert by_move["c5c4"].captures == ("d4",) and by_move["c5c4"].wins
    game = Game(position="7/6k/7/7/1ad1da1/7/3a3 a")
    assert {m.move: m.captures for m in game.legal()}["d1d3"] == ("c3", "e3")
    game = Game(position="7/7/7/3k3/2d4/7/1a5 d")  # the last attacker
    pieces = {m.move: m for m in game.legal()}
    assert pieces["c3c1"].captures == ("b1",) and pieces["c3c1"].wins
    assert pieces["d4d1"].piece == "king"


def test_legal_wins_by_encirclement():
    game = Game(variant="codingame", position="7/3a3/2a1a2/1a1k3/2a1a2/3a3/5a1 a")
    assert [m.move for m in game.legal() if m.wins] == ["f1f4"]
    assert game.play("f1f4") is None
    assert game.result == Result("encircled", "p1", "attackers")


def test_legal_is_empty_when_finished():
    game = Game()
    game.resign("p1")
    assert game.legal() == []
    assert Game(position="7/7/7/7/7/7/a6 d").legal() == []


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_agrees_with_playing_each_move(preset):
    rng = random.Random(f"legal {preset}")
    for _ in range(8):
        game = Game(variant=preset)
        for _ in range(rng.randrange(0, 60)):
            if game.status != "active":
                break
            game.play(rng.choice(game.legal()))
        rules = Rules(game.start, game.variant)
        for mv in game.log:
            rules.play(mv)
        legal = game.legal()
        assert [m.move for m in legal] == [move_text(m) for m in rules.moves()]
        for m in legal:
            preview = rules.preview(m.move)
            assert m.captures == preview.capture_names
            assert m.piece == rules.at(m.from_square)
            clone = rules.clone()
            clone.play(m.move)
            assert m.wins == (clone.is_over() and clone.winner == rules.side)


# ---------------------------------------------------------------- playing


def test_play_either_form_and_a_legal_move():
    for written in ("d1c1", "D1C1", "d1-c1", " d1-c1 ", "d1-c1xb2"):
        game = Game()
        assert game.play(written) is None, written
        assert game.log == ["d1c1"]
    game = Game()
    assert game.play(game.legal()[1]) is None
    assert game.log == ["d1c1"]
    game = Game(position=DOC_START)
    assert game.play("Kd4-d1") is None and game.shown == ["Kd4-d1"]


def test_a_refusal_changes_nothing():
    game = Game().play_or_raise("d1c1")
    game.offer_draw("p1")
    before = snapshot(game)
    for move, seat in [("d1c1", None), ("d3c3", "p1"), ("nonsense", None), ("d3c3", "p3"),
                       ("d4d1", None), ("c4c1", None), ("d5d4", None), ("c1c2", None)]:
        refused = game.play(move, seat)
        assert isinstance(refused, Refusal)
        assert snapshot(game) == before
    assert game.draw_offered_by == "p1"  # a refused move leaves the offer standing


def test_play_or_raise():
    game = Game()
    assert game.play_or_raise("d1c1", "p1") is game
    with pytest.raises(Refused) as caught:
        game.play_or_raise("d1c1")
    err = caught.value
    assert isinstance(err, BrandubhError) and isinstance(err, ValueError)
    assert err.refusal.code is RefusalCode.NO_PIECE is err.code
    assert str(err) == err.refusal.message
    assert game.log == ["d1c1"]


# ---------------------------------------------------------------- every refusal


def refusal_of(position, move, variant=None, seat=None):
    game = Game(position=position, variant=variant)
    refused = game.play(move, seat)
    assert isinstance(refused, Refusal), (position, move)
    return refused


@pytest.mark.parametrize("position, variant, move, code, message", [
    (SETUP, None, "d1h1", RefusalCode.OFF_BOARD, "d1 to h1: h1 is not on the board"),
    (SETUP, None, "k1d1", RefusalCode.OFF_BOARD, "k1 to d1: k1 is not on the board"),
    (SETUP, None, "a0-a9", RefusalCode.OFF_BOARD, "a0 to a9: a0 and a9 are not on the board"),
    (SETUP, None, "c1c2", RefusalCode.NO_PIECE, "c1 to c2: there is no piece on c1"),
    (SETUP, None, "d3c3", RefusalCode.NOT_YOURS,
     "d3 to c3: the defender on d3 belongs to the defenders, and it is the attackers' move"),
    (DOC_START, None, "a1a2", RefusalCode.NOT_YOURS,
     "a1 to a2: the attacker on a1 belongs to the attackers, and it is the defenders' move"),
    (SETUP, None, "d1d1", RefusalCode.SAME_SQUARE,
     "d1 to d1: the attacker on d1 has to move to another square"),
    (SETUP, None, "d1c2", RefusalCode.NOT_A_LINE,
     "d1 to c2: the attacker on d1 moves along a rank or a file, and c2 is on neither"),
    (SETUP, None, "d1d4", RefusalCode.BLOCKED,
     "d1 to d4: the attacker on d1 is blocked by the piece on d2"),
    (SETUP, None, "d1d2", RefusalCode.BLOCKED,
     "d1 to d2: the attacker on d1 is blocked by the piece on d2"),
    ("7/7/2a4/2dk3/7/7/3a3 d", None, "c4c6", RefusalCode.BLOCKED,
     "c4 to c6: the defender on c4 is blocked by the piece on c5"),
    ("7/7/7/7/7/6k/3a3 a", {"throne_pass": False}, "d1d7", RefusalCode.BLOCKED,
     "d1 to d7: the attacker on d1 may not cross the throne on d4"),
    ("7/1k5/7/7/7/7/3a3 a", None, "d1d4", RefusalCode.THRONE,
     "d1 to d4: the king alone may stop on the throne"),
    ("7/7/7/7/7/7/a2k3 d", None, "d1d4", RefusalCode.THRONE,
     "d1 to d4: the king may not return to the throne"),
    (SETUP, None, "a4a1", RefusalCode.CORNER, "a4 to a1: the king alone may stop on a corner"),
    (SETUP, None, "hello", RefusalCode.NOT_A_MOVE, "'hello' is not written as a move"),
    (SETUP, None, "d1 d3", RefusalCode.NOT_A_MOVE, "'d1 d3' is not written as a move"),
    (SETUP, None, 5, RefusalCode.NOT_A_MOVE, "a move is written as a string like 'd1d3', not int"),
    (SETUP, None, None, RefusalCode.NOT_A_MOVE, "not NoneType"),
])
def test_move_refusals(position, variant, move, code, message):
    refused = refusal_of(position, move, variant)
    assert refused.code is code
    assert message in refused.message
    assert str(refused) == refused.message
    assert bool(refused) is True


def test_the_king_may_return_where_reentry_is_on():
    game = Game(position="7/7/7/7/7/7/a2k3 d", variant="modern")
    assert game.play("d1d4") is None


def test_turn_and_seat_refusals():
    game = Game()
    refused = game.play("d1c1", "p2")
    assert refused.code is RefusalCode.NOT_YOUR_TURN
    assert refused.message == "it is p1's move (the attackers), not p2's"
    for seat in ("p3", "", "P1", 1):
        for refused in (game.play("d1c1", seat), game.resign(seat), game.offer_draw(seat),
                        game.accept_draw(seat), game.decline_draw(seat)):
            assert refused.code is RefusalCode.NOT_A_SEAT
            assert repr(seat) in refused.message and "p1 and p2" in refused.message
    assert game.ply == 0 and game.status == "active"


def test_game_over_refusals():
    game = Game(position="7/7/7/7/7/6k/a6 d").play_or_raise("g2g1")
    assert game.result.how == "corner"
    for refused in (game.play("a1a2"), game.play("a1a2", "p1"), game.resign("p1"),
                    game.offer_draw("p2"), game.accept_draw("p1"), game.decline_draw("p2")):
        assert refused.code is RefusalCode.GAME_OVER
        assert refused.message == ("the game is over: the king reached a corner, "
                                   "the defenders (p2) won")


@pytest.mark.parametrize("ending, text", [
    (lambda g: g.resign("p1"), "the game is over: the attackers resigned"),
    (lambda g: (g.offer_draw("p1"), g.accept_draw("p2")), "the game is over: the players agreed a draw"),
])
def test_game_over_refusals_after_the_players_ended_it(ending, text):
    game = Game()
    ending(game)
    assert str(game.play("d1c1")) == text


def test_draw_refusals():
    game = Game()
    assert game.accept_draw("p1").code is RefusalCode.NO_OFFER
    assert str(game.decline_draw("p2")) == "no draw has been offered"
    assert game.offer_draw("p1") is None
    # Each said to the seat that asked, in a player's words: "you", the other by its side.
    waiting = game.offer_draw("p2")
    assert waiting.code is RefusalCode.OFFER_WAITING
    assert waiting.message == "the attackers have offered a draw already: you may accept or decline it"
    again = game.offer_draw("p1")
    assert again.code is RefusalCode.OFFER_WAITING
    assert again.message == "your offer of a draw is already waiting for an answer"
    own = game.accept_draw("p1")
    assert own.code is RefusalCode.OWN_OFFER
    assert own.message == ("you offered the draw, so you cannot answer it: "
                           "it is for the defenders to accept or decline")
    swapped = Game(attackers="p2")
    swapped.offer_draw("p1")   # p1 has the defenders here
    assert str(swapped.decline_draw("p1")).endswith("it is for the attackers to accept or decline")
    assert str(swapped.offer_draw("p2")).startswith("the defenders have offered a draw already")
    assert game.decline_draw("p1").code is RefusalCode.OWN_OFFER
    assert game.draw_offered_by == "p1" and game.status == "active"


def test_every_refusal_code_is_tested():
    # the codes the tests above produce; adding a code means adding a test
    assert {c.name for c in RefusalCode} == {
        "GAME_OVER", "NOT_YOUR_TURN", "NOT_A_SEAT", "NOT_A_MOVE", "OFF_BOARD", "NO_PIECE",
        "NOT_YOURS", "SAME_SQUARE", "NOT_A_LINE", "BLOCKED", "THRONE", "CORNER",
        "OFFER_WAITING", "NO_OFFER", "OWN_OFFER",
    }
    assert RefusalCode.GAME_OVER.value == "game_over" == str(RefusalCode.GAME_OVER)
    for why in brandubh.Why:
        if why.name != "OK":
            assert RefusalCode[why.name]


def test_refusal_is_a_frozen_value():
    refused = Refusal(RefusalCode.NO_OFFER, "no draw has been offered")
    assert refused == Game().accept_draw("p2")
    with pytest.raises(dataclasses.FrozenInstanceError):
        refused.message = "x"  # type: ignore[misc]


# ---------------------------------------------------------------- draws, resignation, undo


def test_draw_offer_lifecycle():
    game = Game()
    assert game.offer_draw("p2") is None  # not p2's turn: an offer is allowed any time
    assert game.decline_draw("p1") is None
    assert game.draw_offered_by is None and game.status == "active"
    assert game.offer_draw("p1") is None
    game.play_or_raise("d1c1")  # a move withdraws it, whoever makes it
    assert game.draw_offered_by is None
    assert game.accept_draw("p2").code is RefusalCode.NO_OFFER
    assert game.offer_draw("p1") is None
    game.play_or_raise("d3c3")  # the other seat's move withdraws it too
    assert game.draw_offered_by is None
    assert game.offer_draw("p2") is None
    assert game.accept_draw("p1") is None
    assert game.result == Result("agreed", None, None)
    assert game.result.is_draw and game.winner is None
    assert game.status == "finished" and game.turn is None and game.draw_offered_by is None
    assert game.as_text().endswith("moves d1c1 d3c3\nresult agreed\n")


def test_undo_takes_back_an_agreed_draw_then_moves():
    game = Game(seed=SEED32).play_or_raise("d1c1")
    game.offer_draw("p1")
    game.accept_draw("p2")
    assert game.seed == SEED32
    assert game.undo() is True
    assert game.status == "active" and game.result is None and game.seed is None
    assert game.draw_offered_by is None and game.log == ["d1c1"]
    assert game.undo() is True and game.log == [] and game.turn == "p1"
    assert game.undo() is False


def test_undo_takes_back_a_resignation():
    game = Game("p2").play_or_raise("d1c1")
    assert game.resign("p1") is None
    assert game.result == Result("resign", "p2", "attackers")
    assert game.undo() is True
    assert game.result is None and game.turn == "p1" and game.ply == 1
    assert len(game.legal()) > 0


def test_undo_withdraws_an_offer():
    game = Game().play_or_raise("d1c1")
    game.offer_draw("p2")
    assert game.undo() is True and game.draw_offered_by is None and game.ply == 0
    game.offer_draw("p1")
    assert game.undo() is False  # nothing to take back ...
    assert game.draw_offered_by is None  # ... and the offer is withdrawn all the same


def test_undo_takes_back_an_ending_on_the_board():
    game = Game(position="7/7/2aa3/3ka2/3a3/7/7 a").play_or_raise("c5c4")
    assert game.result.how == "capture"
    assert game.undo() is True
    assert game.status == "active" and game.position == "7/7/2aa3/3ka2/3a3/7/7 a"
    assert [m.move for m in game.legal() if m.wins] == ["c5c4"]


@pytest.mark.parametrize("preset", PRESETS)
def test_undo_back_to_the_start_restores_everything(preset):
    rng = random.Random(f"undo {preset}")
    for _ in range(15):
        game = Game(variant=preset)
        rules = Rules(variant=preset)
        seen = [(game.position, game.signature, game.repeats, game.ply, game.status)]
        while game.status == "active" and game.ply < 300:
            mv = move_text(rng.choice(rules.moves()))
            assert game.play(mv) is None
            rules.play(mv)
            seen.append((game.position, game.signature, game.repeats, game.ply, game.status))
        if game.status == "active" and rng.random() < 0.5:
            game.resign(rng.choice(("p1", "p2")))
            assert game.undo()
        while seen:
            assert (game.position, game.signature, game.repeats, game.ply, game.status) == seen.pop()
            assert game.undo() is bool(seen)
        assert game.log == [] and game.result is None and game.position == game.start


# ---------------------------------------------------------------- how games end


def test_repetition():
    game = Game()
    cycle = ["d1c1", "d3c3", "c1d1", "c3d3"]
    for i in range(7):
        game.play_or_raise(cycle[i % 4])
    assert game.status == "active" and game.repeats == 2
    game.play_or_raise(cycle[3])
    assert game.repeats == 3 and game.ply == 8
    assert game.result == Result("repetition", None, None)
    assert "for the third time, a draw" in str(game.play("d1c1"))


def test_repetition_as_a_loss():
    game = Game(variant="codingame")
    cycle = ["d1c1", "d3c3", "c1d1", "c3d3"]
    i = 0
    while game.status == "active":
        game.play_or_raise(cycle[i % 4])
        i += 1
    assert game.ply == 9  # the start is not counted under codingame
    # the attackers made the position occur a third time, and lose
    assert game.result == Result("repetition", "p2", "defenders")


def test_ply_cap_and_quiet_cap():
    game = Game(variant={"ply_cap": 2}).play_or_raise("d1c1").play_or_raise("d3c3")
    assert game.result == Result("ply_cap", None, None)
    assert "limit of 2 moves" in str(game.resign("p1"))
    game = Game(variant={"quiet_cap": 3})
    for mv in ("d1c1", "d3c3", "c1d1"):
        game.play_or_raise(mv)
    assert game.result == Result("quiet_cap", None, None)


@pytest.mark.parametrize("position, variant, result", [
    ("7/7/7/7/7/7/a6 d", None, Result("capture", "p1", "attackers")),  # no king
    ("6k/7/7/7/7/7/a6 d", None, Result("corner", "p2", "defenders")),
    ("7/7/7/3k3/7/7/7 d", None, Result("no_pieces", "p2", "defenders")),
    ("7/7/7/7/7/2a4/1aka3 d", None, Result("no_move", None, None)),
    ("7/7/7/7/7/2a4/1aka3 d", "modern", Result("no_move", "p1", "attackers")),
    ("3k3/7/7/7/7/7/a6 d", {"escape": "edge"}, Result("corner", "p2", "defenders")),
])
def test_a_game_set_up_already_over(position, variant, result):
    game = Game(position=position, variant=variant, seed=SEED32)
    assert game.status == "finished" and game.result == result
    assert game.turn is None and game.side_to_move is None and game.legal() == []
    assert game.seed == SEED32
    assert game.undo() is False and game.status == "finished"
    refused = game.play("a1a2")
    assert refused.code is RefusalCode.GAME_OVER
    assert game.resign("p1").code is RefusalCode.GAME_OVER
    text = game.as_text()
    assert Game.from_text(text).game.result == result


def test_no_king_set_up_reads_as_captured():
    refused = Game(position="7/7/7/7/7/7/a6 d").offer_draw("p1")
    assert str(refused) == "the game is over: there was no king on the board, the attackers (p1) won"


def test_all_endings_have_a_sentence():
    sentences = {
        "corner": Game(position="7/7/7/7/7/6k/a6 d").play_or_raise("g2g1"),
        "capture": Game(position="7/7/2aa3/3ka2/3a3/7/7 a").play_or_raise("c5c4"),
        "no_pieces": Game(position="7/7/7/3k3/2d4/7/1a5 d").play_or_raise("c3c1"),
        "encircled": Game(variant="codingame",
                          position="7/3a3/2a1a2/1a1k3/2a1a2/3a3/5a1 a").play_or_raise("f1f4"),
        "no_move": Game(position="7/7/7/7/7/2a4/1aka3 d"),
        "ply_cap": Game(variant={"ply_cap": 1}).play_or_raise("d1c1"),
        "quiet_cap": Game(variant={"quiet_cap": 1}).play_or_raise("d1c1"),
    }
    cycle = ["d1c1", "d3c3", "c1d1", "c3d3"] * 3
    for preset in ("brandubh", "codingame"):
        sentences[f"repetition {preset}"] = Game.replay(cycle, variant=preset).game
    for label, game in sentences.items():
        assert game.result.how == label.split()[0]
        message = str(game.play("d1c1"))
        assert message.startswith("the game is over: ") and len(message) > 30, message
        again = Game.from_text(game.as_text(), game.attackers).game  # every ending round-trips
        assert (again.result, again.shown, again.position, again.repeats) == \
            (game.result, game.shown, game.position, game.repeats)


# ---------------------------------------------------------------- the board


def test_at_and_pieces():
    game = Game()
    assert game.at("d4") == "king" and game.at("D4") == "king"
    assert game.at("d1") == "attacker" and game.at("c4") == "defender" and game.at("a1") == ""
    for nonsense in ("h1", "d0", "d8", "", "d44", " d4", None, 24, b"d4"):
        assert game.at(nonsense) is None
    pieces = game.pieces
    assert len(pieces) == 13 and pieces["d4"] == "king"
    assert list(pieces) == sorted(pieces, key=lambda s: (s[1], s[0]))  # square order
    pieces.clear()
    assert len(game.pieces) == 13
    assert Game(position=DOC_START).pieces == {"a1": "attacker", "d4": "king"}


def test_signature_depends_on_the_board_and_side_only():
    a = Game()
    for mv in ("d1c1", "d3c3", "c1d1", "c3d3"):
        a.play_or_raise(mv)
    assert a.signature == Game().signature and a.repeats == 2
    b = Game().play_or_raise("d1c1")
    assert b.signature == Game(position=b.position).signature
    assert b.signature != Game().signature


def test_log_and_shown_are_copies():
    game = Game().play_or_raise("d1c1")
    game.log.append("x")
    game.shown.append("x")
    assert game.log == ["d1c1"] and game.shown == ["d1-c1"]


# ---------------------------------------------------------------- replay and text


def test_replay_as_a_class_method():
    replay = Game.replay(["d1c1", "d3c3"], attackers="p2", variant="modern", seed=SEED32)
    assert isinstance(replay, Replay) and isinstance(replay, tuple)
    game, refused, played = replay
    assert (refused, played, replay.ok) == (None, 2, True)
    assert game.attackers == "p2" and game.variant == Variant.named("modern")
    assert game.log == ["d1c1", "d3c3"]
    game.resign("p1")
    assert game.seed == SEED32


def test_replay_stops_at_a_refusal():
    game, refused, played = Game.replay(["d1c1", "d3-c3", "c1c3", "d2d1"])
    assert played == 2 and game.log == ["d1c1", "d3c3"]
    assert refused.code is RefusalCode.BLOCKED and "c1 to c3" in refused.message
    assert not Game.replay(["d1c1", "d3-c3", "c1c3"]).ok


def test_replay_with_a_result():
    game, refused, played = Game.replay(["d1c1"], result={"how": "resign", "by": "defenders"})
    assert refused is None and played == 1
    assert game.result == Result("resign", "p1", "attackers")
    game = Game.replay([], result={"how": "agreed"}).game
    assert game.result == Result("agreed", None, None)
    # an ending the players cannot make: the game was already over
    over = Game.replay(["g2g1"], position="7/7/7/7/7/6k/a6 d", result={"how": "agreed"})
    assert over.played == 1 and over.refusal.code is RefusalCode.GAME_OVER
    assert over.game.result.how == "corner"


@pytest.mark.parametrize("bad", [
    {"how": "resign"}, {"how": "resign", "by": "p1"}, {"how": "agreed", "by": "attackers"},
    {"how": "won"}, "agreed", 3,
])
def test_replay_with_a_bad_result_raises(bad):
    with pytest.raises(ArgumentError):
        Game.replay([], result=bad)


def test_replay_moves_must_be_a_list():
    with pytest.raises(ArgumentError):
        Game.replay("d1c1 d3c3")
    with pytest.raises(ArgumentError):
        Game.replay(5)
    assert Game.replay(iter(["d1c1"])).played == 1
    assert Game.replay().game.ply == 0


def test_replay_as_a_method():
    game = Game("p2", variant="opentafl", position=DOC_START, seed=SEED32).play_or_raise("d4d1")
    again, refused, played = game.replay(game.log)
    assert (refused, played) == (None, 1)
    assert again is not game
    assert (again.attackers, again.variant, again.start, again.position) == \
        ("p2", game.variant, DOC_START, game.position)
    again.resign("p1")
    assert again.seed is None  # the seed is not carried over: it would give it away
    assert game.replay([], result={"how": "agreed"}).game.status == "finished"
    assert game.status == "active"


def test_as_text():
    assert Game().as_text() == "variant brandubh\nmoves\n"
    game = Game(variant={"repeat": 2}).play_or_raise("d1c1")
    assert game.as_text() == "variant brandubh repeat=2\nmoves d1c1\n"
    game.resign("p2")
    assert game.as_text() == "variant brandubh repeat=2\nmoves d1c1\nresult resign defenders\n"
    parsed = game_parse(game.as_text())
    assert parsed["result"] == {"how": "resign", "by": "defenders"}


def test_from_text():
    text = "variant codingame\nmoves d1c1 d3c3\n"
    game, refused, played = Game.from_text(text, "p2", seed=SEED32)
    assert (refused, played) == (None, 2)
    assert game.attackers == "p2" and game.variant == Variant.named("codingame")
    stopped = Game.from_text("variant brandubh\nmoves d1c1 d1c1\n")
    assert stopped.played == 1 and stopped.refusal.code is RefusalCode.NO_PIECE
    for bad in ("", "moves d1c1", "variant brandubh", "variant brandubh\nmoves d1-c1\n", None):
        with pytest.raises(ArgumentError):
            Game.from_text(bad)  # type: ignore[arg-type]
    with pytest.raises(VariantError):
        Game.from_text("variant nonsense\nmoves\n")
    with pytest.raises(PositionError):
        Game.from_text("variant brandubh\nstart 7/7/7/3k3/7/7/k6 d\nmoves\n")


def random_game(rng: random.Random, preset: str) -> Game:
    """A game of random moves, sometimes from a random position reached by
    play, sometimes stopped early, resigned or agreed drawn."""
    attackers = rng.choice(("p1", "p2"))
    game = Game(attackers, variant=preset)
    rules = Rules(variant=preset)
    stop = rng.choice((None, None, None, rng.randrange(0, 60)))
    while game.status == "active" and (stop is None or game.ply < stop):
        mv = move_text(rng.choice(rules.moves()))
        written = rng.choice((mv, mv.upper(), mv[:2] + "-" + mv[2:]))
        assert game.play(written) is None
        rules.play(mv)
    assert game.position == rules.position
    if game.status == "active":
        roll = rng.random()
        if roll < 0.3:
            game.resign(rng.choice(("p1", "p2")))
        elif roll < 0.6:
            seat = rng.choice(("p1", "p2"))
            game.offer_draw(seat)
            game.accept_draw("p2" if seat == "p1" else "p1")
    return game


@pytest.mark.parametrize("preset", PRESETS)
def test_text_round_trips(preset):
    rng = random.Random(f"round trip {preset}")
    hows: dict[str, int] = {}
    for _ in range(200):
        game = random_game(rng, preset)
        text = game.as_text()
        again, refused, played = Game.from_text(text, game.attackers)
        assert refused is None and played == game.ply
        assert again.as_text() == text
        assert again.position == game.position
        assert again.start == game.start
        assert again.variant == game.variant
        assert again.log == game.log
        assert again.shown == game.shown
        assert again.result == game.result
        assert again.status == game.status
        assert (again.signature, again.repeats, again.ply) == (game.signature, game.repeats, game.ply)
        assert [move_parse(s) for s in game.shown] == game.log
        how = game.result.how if game.result else "active"
        hows[how] = hows.get(how, 0) + 1
    assert {"corner", "capture", "resign", "agreed", "active"} <= set(hows)


@pytest.mark.parametrize("preset", PRESETS)
def test_text_round_trips_from_set_up_positions(preset):
    rng = random.Random(f"positions {preset}")
    for _ in range(30):
        middle = random_game(rng, preset)
        if middle.status != "active":
            continue
        game = Game(variant={**Variant.named(preset).fields(), "repeat": 2}, position=middle.position)
        for _ in range(rng.randrange(1, 40)):
            legal = game.legal()
            if not legal:
                break
            game.play(rng.choice(legal))
        again = Game.from_text(game.as_text()).game
        assert (again.start, again.position, again.log, again.result) == \
            (game.start, game.position, game.log, game.result)
        assert "start " + game.start in game.as_text()


# ---------------------------------------------------------------- docs/bots.md


def test_bots_page_runs():
    page, blocks, printed = run_page("bots.md")
    assert len(blocks) >= 4
    # every "# prints ..." comment in the page is what the code printed
    for expected in re.findall(r"# prints (.+)", page):
        assert expected.strip() in printed, expected


def test_readme_links_the_bots_page():
    readme = (REPO / "README.md").read_text()
    assert "docs/bots.md" in readme


# -- faults, and a game shared by threads --------------------------------------


@pytest.mark.parametrize("fault", ["timeout", "crash", "garbage", "illegal"])
def test_a_fault_ends_the_game_and_survives_its_text(fault):
    game = Game(attackers="p2", variant="codingame").play_or_raise("d2c2")
    assert game.forfeit("p1", fault) is None  # p1 has the defenders, and it is their move
    assert game.result == Result(fault, "p2", "attackers")
    assert game.status == "finished" and game.turn is None and game.legal() == []
    assert game.play("d3c3").code is RefusalCode.GAME_OVER
    # A timeout fits a person (brandubh host's clock) as well as a program;
    # the other faults are a program's.
    assert str(game.play("d3c3")) == "the game is over: " + {
        "timeout": "the defenders ran out of time (timeout), the attackers (p2) won",
        "crash": "the defenders' program stopped running (crash), the attackers (p2) won",
        "garbage": "the defenders' program answered something that is not a move (garbage), "
                   "the attackers (p2) won",
        "illegal": "the defenders' program played a move the rules refuse (illegal), the attackers (p2) won",
    }[fault]
    text = game.as_text()
    assert text.splitlines()[-1] == f"result {fault} defenders"
    again = Game.from_text(text, attackers="p2")
    assert again.ok and again.game.result == game.result and again.game.log == ["d2c2"]
    assert game.undo() and game.status == "active" and game.log == ["d2c2"]


def test_forfeit_refuses_what_is_not_a_fault_or_a_seat():
    game = Game()
    with pytest.raises(ArgumentError):
        game.forfeit("p1", "resign")
    assert game.forfeit("p3", "timeout").code is RefusalCode.NOT_A_SEAT
    assert game.status == "active"
