"""Moves: the helpers that take a move number (brandubh/core/position.py)
refuse anything that is not one with a MoveError, a sentence, instead of an
IndexError or a number that means nothing; and the Move value
(brandubh/moves.py), one a move, read once from text and played as the
number it is."""

import pytest

import brandubh
from brandubh import MoveError
from brandubh.core.position import move, move_from, move_number, move_text, move_to, parse_move

HELPERS = [move_number, move_from, move_to, move_text, parse_move]

NOT_MOVE_NUMBERS = [
    -1, -5, -4096, 49, 63, 49 * 64, 63 * 64 + 63, 4096, 4097, 10**20, -(10**20), 10**100,
]
NOT_INTS = [True, False, 3.0, None, b"d1d3", [209], 209.5]


def test_every_move_number_goes_there_and_back():
    for m in range(4096):
        if m >> 6 < 49 and m & 63 < 49:
            assert move_number(m) == m
            assert move(move_from(m), move_to(m)) == m
            assert parse_move(move_text(m)) == m
        else:
            with pytest.raises(MoveError):
                move_text(m)


@pytest.mark.parametrize("helper", HELPERS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", NOT_MOVE_NUMBERS)
def test_out_of_range_is_a_move_error(helper, value):
    with pytest.raises(MoveError) as caught:
        helper(value)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, brandubh.BrandubhError)
    assert "is not a move number" in message and "0-48" in message, message
    assert message == message.strip() and len(message.split()) >= 6, message
    assert len(message) < 120, message  # 10**100 is cut short, not printed whole


@pytest.mark.parametrize("helper", [move_number, move_from, move_to, move_text], ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
def test_not_an_int_is_a_move_error(helper, value):
    with pytest.raises(MoveError, match=r"^a move number is an int \(from \* 64 \+ to\), not \w+$"):
        helper(value)


def test_the_named_examples():
    with pytest.raises(MoveError, match=r"^-5 is not a move number"):
        move_text(-5)
    with pytest.raises(MoveError, match=r"^100000000000000000000 is not a move number"):
        move_text(10**20)
    with pytest.raises(MoveError, match=r"^-5 is not a move number"):
        move_from(-5)
    with pytest.raises(MoveError, match=r"^100000000000000000000 is not a move number"):
        move_to(10**20)
    # The same from the top level.
    with pytest.raises(brandubh.MoveError):
        brandubh.move_text(-5)



# -- the Move value --------------------------------------------------------------


def test_every_move_is_one_value_by_any_road():
    import pickle

    from brandubh import Move

    for m in range(4096):
        if m >> 6 < 49 and m & 63 < 49:
            text = move_text(m)
            value = Move(m)
            assert value == m and int(value) == m and hash(value) == hash(m) and str(value) == text
            assert value is Move(text) is Move.parse(text) is Move(value) is pickle.loads(pickle.dumps(value))
            assert value is Move.between(move_from(m), move_to(m)) is Move.between(value.from_square, value.to_square)
            assert value.from_square + value.to_square == text and eval(repr(value), {"Move": Move}) is value
        else:
            with pytest.raises(MoveError, match=r"is not a move number: it is from \* 64 \+ to, with both squares 0-48$"):
                Move(m)


@pytest.mark.parametrize("value", NOT_MOVE_NUMBERS)
def test_a_move_value_refuses_what_is_not_a_move_number(value):
    from brandubh import Move

    with pytest.raises(MoveError, match=r"is not a move number"):
        Move(value)


@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
def test_a_move_value_refuses_what_is_neither_text_nor_a_number(value):
    from brandubh import Move

    with pytest.raises(MoveError, match=r"^a move is a string like 'd1d3' or a move number, not \w+$"):
        Move(value)
    with pytest.raises(MoveError, match=r"^a move is written as a string like 'd1d3', not \w+$"):
        Move.parse(value)


def test_a_move_value_reads_either_written_form_once():
    from brandubh import Move, SquareError

    assert Move("d1d3") is Move("D1-D3") is Move(" d1-d3xc3 ") is Move("d1-d3xc3,e3") is Move.parse("d1d3")
    assert Move("Kd4-d1") is Move("d4d1") and Move("Kg2-g1++") is Move("g2g1") and Move("c5-c4xd4#") is Move("c5c4")
    assert Move.between("D1", "d3") is Move.between(3, 17) is Move("d1d3")
    for text in ("d1 d3", "d1-d9", "", "hello", "d1d3 and more", "K", "d1d3\x00"):
        with pytest.raises(MoveError, match=r"is not written as a move: give d1d3 or d1-d3$"):
            Move(text)
    for squares in (("d1", "d9"), ("h1", "a1"), (49, 0), (-1, 3), (True, 3), ("d1", None)):
        with pytest.raises(SquareError):
            Move.between(*squares)


def test_a_move_value_prints_as_stored_and_counts_as_its_number():
    from brandubh import Move

    move = Move("d1-d3")
    assert (str(move), f"{move}", f"[{move:>6}]", "%s" % move, "%d" % move, repr(move)) == (
        "d1d3", "d1d3", "[  d1d3]", "d1d3", "209", "Move('d1d3')")
    assert move == 209 and str(move) == "d1d3" and move in {209} and move_text(move) == "d1d3"


def test_a_search_gives_move_values_and_the_game_plays_them_without_reading_text(monkeypatch):
    from brandubh import Bot, Game, Move, Rules
    from brandubh import notation
    from brandubh.session import Session

    found = Rules().search(budget=2_000)
    assert isinstance(found.move, Move) and found.pv and all(isinstance(m, Move) for m in found.pv)
    assert found.pv[0] is found.move and repr(found).startswith(f"SearchResult(move={found.move!r}")
    game = Game()
    session = Session(game, Bot(1, seed="read once"), "defenders")
    chosen = Bot(1, seed="read once").choose(Game())

    def no_text(text):
        raise AssertionError(f"a Move was read as text again: {text!r}")

    # From here no move is read from text: a Move goes to the game (and the
    # engine) as the number it is, the bot's reply among them.
    monkeypatch.setattr(notation, "move_parse", no_text)
    assert Game().play(found.move) is None and Game().play(Move.between("d2", "c2")) is None
    assert str(Game().play(Move(209))) == "d1 to d3: the attacker on d1 is blocked by the piece on d2"
    said = session.reply()
    assert said is not None and not said.refused and game.log == [str(chosen)]


def test_a_move_used_as_its_old_text_still_works_for_a_release_and_says_so():
    """A Game's search and a bot gave a move's text until 0.2.0: compared
    with a string or sliced as one, a Move still answers as that text did,
    with a DeprecationWarning naming what to write instead; as a number it
    says nothing."""
    import warnings

    import pytest

    from brandubh import Game, Move

    found = Game().search(budget=2_000, seed=1).move
    text = str(found)
    with pytest.warns(DeprecationWarning, match=r"compared with a string .*: use str\(move\) == text"):
        assert found == text
    with pytest.warns(DeprecationWarning):
        assert not found != text
    with pytest.warns(DeprecationWarning, match="read as a string"):
        assert (found[:2], found[2:]) == (found.from_square, found.to_square)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert found == int(found) and found in {int(found)} and {found: 1}[int(found)] == 1
        assert Move("d1d3") != Move("d1c1") and hash(Move("d1d3")) == hash(int(Move("d1d3")))
