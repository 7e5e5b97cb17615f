"""The helpers that take a move number (brandubh/engine.py) refuse anything
that is not one with a MoveError, a sentence, instead of an IndexError or a
number that means nothing."""

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

