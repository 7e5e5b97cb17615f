"""The text diagrams (brandubh.views.text, str() of Game, Rules and Position)
against diagrams written out by hand."""

from __future__ import annotations

import re
import unicodedata

import pytest

from brandubh import Game, Position, Rules
from brandubh.errors import ArgumentError, BrandubhError, MoveError, PositionError
from brandubh.views.text import diagram

SETUP_ASCII = """\
    a  b  c  d  e  f  g
  +---------------------+
7 | #  .  .  A  .  .  # | 7
6 | .  .  .  A  .  .  . | 6
5 | .  .  .  D  .  .  . | 5
4 | A  A  D  K  D  A  A | 4
3 | .  .  .  D  .  .  . | 3
2 | .  .  .  A  .  .  . | 2
1 | #  .  .  A  .  .  # | 1
  +---------------------+
    a  b  c  d  e  f  g"""

SETUP_UNICODE = """\
    a  b  c  d  e  f  g
  ┌─────────────────────┐
7 │ ⊠  ·  ·  ●  ·  ·  ⊠ │ 7
6 │ ·  ·  ·  ●  ·  ·  · │ 6
5 │ ·  ·  ·  ○  ·  ·  · │ 5
4 │ ●  ●  ○  ♔  ○  ●  ● │ 4
3 │ ·  ·  ·  ○  ·  ·  · │ 3
2 │ ·  ·  ·  ●  ·  ·  · │ 2
1 │ ⊠  ·  ·  ●  ·  ·  ⊠ │ 1
  └─────────────────────┘
    a  b  c  d  e  f  g"""

# The attacker from e1 to e3 takes the defender on d3 against the one on c3.
CAPTURE_ASCII = """\
    a  b  c  d  e  f  g
  +---------------------+
7 | #  .  .  .  .  .  # | 7
6 | .  .  .  .  .  .  . | 6
5 | .  .  .  .  .  .  . | 5
4 | .  .  .  K  .  .  . | 4
3 | .  .  A  x [A] .  . | 3
2 | .  .  .  .  .  .  . | 2
1 | #  .  .  . [.] .  # | 1
  +---------------------+
    a  b  c  d  e  f  g
defenders (p2) to move; ply 1; last move e1-e3xd3"""

# The king leaves the throne, and escapes at g1.
ESCAPED_ASCII = """\
    a  b  c  d  e  f  g
  +---------------------+
7 | #  .  .  .  .  .  # | 7
6 | .  .  .  .  .  .  . | 6
5 | .  .  .  .  .  .  . | 5
4 | .  .  .  +  .  .  . | 4
3 | .  .  .  .  .  .  . | 3
2 | A  .  .  .  .  .  . | 2
1 | #  .  . [.] .  . [K]| 1
  +---------------------+
    a  b  c  d  e  f  g
game over after 3 moves: the king reached a corner, the defenders (p2) won; last move Kd1-g1++"""

# The same capture seen from the other side: g7 at the bottom left.
CAPTURE_FLIPPED = """\
    g  f  e  d  c  b  a
  +---------------------+
1 | #  . [.] .  .  .  # | 1
2 | .  .  .  .  .  .  . | 2
3 | .  . [A] x  A  .  . | 3
4 | .  .  .  K  .  .  . | 4
5 | .  .  .  .  .  .  . | 5
6 | .  .  .  .  .  .  . | 6
7 | #  .  .  .  .  .  # | 7
  +---------------------+
    g  f  e  d  c  b  a
defenders (p2) to move; ply 1; last move e1-e3xd3"""

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_str_of_a_new_game_is_the_ascii_set_up():
    assert str(Game()) == SETUP_ASCII + "\nattackers (p1) to move; ply 0"
    assert str(Game("p2")) == SETUP_ASCII + "\nattackers (p2) to move; ply 0"


def test_str_of_rules_and_engine():
    assert str(Rules()) == SETUP_ASCII + "\nattackers to move; ply 0"
    assert str(Position()) == SETUP_ASCII + "\nattackers to move"
    assert diagram("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a") == SETUP_ASCII + "\nattackers to move"


def test_repr_stays_what_it_was():
    assert repr(Game()).startswith("<Game active ply=0 attackers=p1 variant='brandubh' position=")
    assert repr(Rules()).startswith("<Rules '3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a' ply=0")
    assert repr(Position()) == "Position('3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a', 'brandubh')"
    assert Position().to_string() == "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"


def test_unicode_set_up():
    assert Game().diagram(unicode=True) == SETUP_UNICODE + "\nattackers (p1) to move; ply 0"
    assert diagram(Rules(), unicode=True) == SETUP_UNICODE + "\nattackers to move; ply 0"


def test_the_last_move_and_what_it_took():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3")
    assert str(game) == CAPTURE_ASCII
    rules = Rules("7/7/7/3k3/2ad3/7/4a2 a")
    rules.play("e1e3")
    assert str(rules) == CAPTURE_ASCII.replace("defenders (p2) to move", "defenders to move")


def test_a_finished_game():
    game = Game.replay(["d4d1", "a1a2", "d1g1"], position="7/7/7/3k3/7/7/a6 d").game
    assert str(game) == ESCAPED_ASCII
    rules = Rules("7/7/7/3k3/7/7/a6 d")
    for move in ("d4d1", "a1a2", "d1g1"):
        rules.play(move)
    assert str(rules).splitlines()[-1] == \
        "game over after 3 moves: corner, the defenders won; last move Kd1-g1++"


def test_flipped():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3")
    assert game.diagram(flipped=True) == CAPTURE_FLIPPED


def test_lastmove_false_and_a_given_last_move():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3")
    plain = diagram(game, lastmove=False)
    assert "[" not in plain and " x " not in plain
    assert plain.splitlines()[-1] == "defenders (p2) to move; ply 1"
    given = diagram("7/7/7/3k3/7/7/a6 d", lastmove="A2-A1")
    assert given.splitlines()[8] == "1 |[A] .  .  .  .  .  # | 1"
    assert given.splitlines()[7] == "2 |[.] .  .  .  .  .  . | 2"
    assert given.splitlines()[-1] == "defenders to move; last move a2-a1"


def test_a_waiting_draw_offer_and_a_resignation():
    game = Game()
    game.offer_draw("p2")
    assert str(game).splitlines()[-1] == "attackers (p1) to move; ply 0; p2 offers a draw"
    game.resign("p1")
    assert str(game).splitlines()[-1] == "game over after 0 moves: the attackers resigned"


def test_colour_is_the_unicode_diagram_painted():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3")
    painted = game.diagram(unicode=True, colour=True)
    assert "\x1b[" in painted
    assert ANSI.sub("", painted) == game.diagram(unicode=True)
    assert "\x1b" not in game.diagram(unicode=True) and "\x1b" not in str(game)


def test_every_unicode_glyph_is_one_column_and_lines_line_up():
    text = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3").diagram(unicode=True)
    lines = text.splitlines()
    assert {len(line) for line in lines[2:9]} == {27}, lines  # the seven ranks
    assert {len(line) for line in (lines[1], lines[9])} == {25}, lines  # the border
    for ch in text:
        assert unicodedata.east_asian_width(ch) in ("N", "Na", "A"), ch
    for line in text.splitlines():
        assert line == line.rstrip()


def test_bad_arguments_are_value_errors_with_a_sentence():
    with pytest.raises(PositionError, match="is not a position"):
        diagram("7/7/7 a")
    with pytest.raises(MoveError, match="lastmove must be a move"):
        diagram("7/7/7/3k3/7/7/a6 d", lastmove="z9")
    with pytest.raises(ArgumentError, match="not True"):
        diagram("7/7/7/3k3/7/7/a6 d", lastmove=True)
    with pytest.raises(ArgumentError, match="a Rules or a Game, not list"):
        diagram([])
    assert issubclass(ArgumentError, ValueError) and issubclass(MoveError, BrandubhError)
