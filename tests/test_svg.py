"""brandubh.views.svg: the picture parsed as XML, its pieces found by where they
are drawn, against positions written out by hand."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from brandubh import Game, Position, Rules
from brandubh.errors import ArgumentError, BrandubhError, MoveError, SquareError
from brandubh.snapshot import of_position
from brandubh.views.svg import board

NS = "{http://www.w3.org/2000/svg}"

# The set-up, square by square, as docs/rules.md describes it.
SETUP_PIECES = {
    "d1": "attacker", "d2": "attacker", "d6": "attacker", "d7": "attacker",
    "a4": "attacker", "b4": "attacker", "f4": "attacker", "g4": "attacker",
    "d3": "defender", "c4": "defender", "e4": "defender", "d5": "defender",
    "d4": "king",
}

# docs/bots.md's lookout: the king on e1, attackers on a5, f5 and c1.
LOOKOUT = "7/7/a4a1/7/7/7/2a1k2 a"
LOOKOUT_PIECES = {"a5": "attacker", "f5": "attacker", "c1": "attacker", "e1": "king"}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def classes(element: ET.Element) -> list[str]:
    return element.get("class", "").split()


def square_rects(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each board square's rectangle (x, y, width, height), by the square
    its class names."""
    out = {}
    for rect in root.iter(NS + "rect"):
        words = classes(rect)
        if words and words[0] == "square":
            out[words[1]] = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
    assert len(out) == 49
    return out


def square_at(rects: dict, x: float, y: float) -> str:
    inside = [name for name, (rx, ry, w, h) in rects.items() if rx < x < rx + w and ry < y < ry + h]
    assert len(inside) == 1, (x, y, inside)
    return inside[0]


def drawn_pieces(svg: str) -> dict[str, str]:
    """{square: kind} of the pieces as drawn: each piece's centre (its
    translate) is looked up among the squares' rectangles, so a piece
    labelled d4 but drawn on e4 counts as e4."""
    root = parse(svg)
    rects = square_rects(root)
    found = {}
    for g in root.iter(NS + "g"):
        words = classes(g)
        if words[:1] != ["piece"]:
            continue
        x, y = map(float, re.fullmatch(r"translate\(([-\d.]+)[ ,]([-\d.]+)\)", g.get("transform")).groups())
        where = square_at(rects, x, y)
        assert where not in found
        assert words[2] == where, (words, where)  # the label agrees with the drawing
        found[where] = words[1]
    return found


def test_the_set_up_has_its_thirteen_pieces_where_they_stand():
    assert drawn_pieces(board(Game())) == SETUP_PIECES
    assert drawn_pieces(board("3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a")) == SETUP_PIECES
    assert drawn_pieces(board(Rules())) == SETUP_PIECES
    assert drawn_pieces(board(Position())) == SETUP_PIECES


def test_a_position_of_four_pieces():
    assert drawn_pieces(board(LOOKOUT)) == LOOKOUT_PIECES
    assert drawn_pieces(board(LOOKOUT, flipped=True)) == LOOKOUT_PIECES


def test_a_game_after_a_capture():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3")
    assert drawn_pieces(board(game)) == {"d4": "king", "c3": "attacker", "e3": "attacker"}


def test_the_board_is_laid_out_a1_bottom_left_or_top_right_when_flipped():
    rects = square_rects(parse(board(Game())))
    xs = sorted({r[0] for r in rects.values()})
    ys = sorted({r[1] for r in rects.values()})
    assert rects["a1"][:2] == (xs[0], ys[-1]) and rects["g7"][:2] == (xs[-1], ys[0])
    assert rects["b1"][0] > rects["a1"][0] and rects["a2"][1] < rects["a1"][1]
    flipped = square_rects(parse(board(Game(), flipped=True)))
    assert flipped["a1"][:2] == (xs[-1], ys[0]) and flipped["g7"][:2] == (xs[0], ys[-1])
    # the throne and the corners are marked as such
    assert "throne" in [c for r in parse(board(Game())).iter(NS + "rect") if "d4" in classes(r)
                        for c in classes(r)]
    corners = {classes(r)[1] for r in parse(board(Game())).iter(NS + "rect") if "corner" in classes(r)}
    assert corners == {"a1", "g1", "a7", "g7"}


def marks(svg: str, kind: str) -> list[str]:
    """The squares (or moves) of the shapes of one kind, in order."""
    return [classes(e)[1] for e in parse(svg).iter() if classes(e)[:1] == [kind]]


def test_the_last_move_and_the_squares_it_emptied():
    game = Game(position="7/7/7/3k3/2ad3/7/4a2 a").play_or_raise("e1e3")
    svg = board(game)
    assert sorted(marks(svg, "lastmove")) == ["e1", "e3"]
    assert marks(svg, "captured") == ["d3"]
    quiet = board(game, lastmove=False)
    assert marks(quiet, "lastmove") == [] and marks(quiet, "captured") == []
    given = board(LOOKOUT, lastmove="Ke2-e1")
    assert sorted(marks(given, "lastmove")) == ["e1", "e2"] and marks(given, "captured") == []
    assert marks(board(LOOKOUT), "lastmove") == []


def test_arrows_and_squares():
    svg = board(LOOKOUT, arrows=["f5f1", ("e1", "g1"), ("a5", "a5", "#0000ff")],
                squares={"f1": "#ff0000", "g1": "orange"})
    assert marks(svg, "arrow") == ["f5f1", "e1g1", "a5a5"]
    assert marks(svg, "mark") == ["f1", "g1"]
    root = parse(svg)
    fills = {classes(e)[1]: e.get("fill") for e in root.iter(NS + "rect") if classes(e)[:1] == ["mark"]}
    assert fills == {"f1": "#ff0000", "g1": "orange"}
    assert marks(board(LOOKOUT, squares=["c1"]), "mark") == ["c1"]


def test_coordinates_size_and_the_side_to_move():
    root = parse(board(Game(), size=200))
    assert (root.get("width"), root.get("height")) == ("200", "200")
    texts = [t.text for t in root.iter(NS + "text")]
    assert sorted(texts) == sorted(list("abcdefg1234567") * 2)
    assert [classes(c) for c in root.iter(NS + "circle") if "turn" in classes(c)] == [["turn", "attackers"]]
    bare = parse(board(Game(), size=None, coordinates=False))
    assert bare.get("width") is None and bare.get("viewBox") is not None
    assert list(bare.iter(NS + "text")) == []
    # flipped, the files read g to a from the left
    flipped = parse(board(Game(), flipped=True))
    bottom = sorted((float(t.get("x")), t.text) for t in flipped.iter(NS + "text")
                    if t.text in "abcdefg" and float(t.get("y")) > 300)
    assert "".join(text for _, text in bottom) == "gfedcba"


def test_an_ended_game_shows_no_side_to_move():
    """Once the king is home nobody is to move: the title says the game is
    over and the frame has no turn disc; its description says how it ended.
    The same position as a bare string still names the side to move."""
    game = Game(position="3k3/7/7/7/7/7/a6 d")
    game.play("d7a7")
    assert game.result is not None
    root = parse(board(game))
    assert root.find(NS + "title").text.endswith("(game over)")
    assert "game over" in root.find(NS + "desc").text
    assert [c for c in root.iter(NS + "circle") if "turn" in classes(c)] == []
    rules = game.snapshot()
    assert rules.over and not of_position(rules.position).over
    bare = parse(board(rules.position))
    assert bare.find(NS + "title").text.endswith("to move)")


def test_the_picture_is_self_contained():
    svg = board(Game().play_or_raise("d2c2"), arrows=["d3d2"], squares=["c2"])
    root = parse(svg)
    allowed = {"svg", "title", "desc", "rect", "path", "g", "circle", "polygon", "text"}
    tags = {e.tag[len(NS):] if e.tag.startswith(NS) else e.tag for e in root.iter()}
    assert tags <= allowed, tags - allowed
    for element in root.iter():
        for name, value in element.attrib.items():
            assert "href" not in name and "url(" not in value and "://" not in value, (name, value)
    head = svg.split(">", 1)[0]
    assert head == ('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 320 320" '
                    'width="400" height="400"')
    assert "<script" not in svg and "<style" not in svg and "@import" not in svg and "<image" not in svg


def test_a_notebook_shows_a_game_by_itself():
    game = Game().play_or_raise("d2c2")
    assert game._repr_svg_() == board(game)


def test_bad_arguments_are_value_errors_with_a_sentence():
    with pytest.raises(SquareError, match="must name a square, a1 to g7, not 'z1'"):
        board(LOOKOUT, squares=["z1"])
    with pytest.raises(ArgumentError, match="not the one string 'c1'"):
        board(LOOKOUT, squares="c1")
    with pytest.raises(ArgumentError, match="must be a colour"):
        board(LOOKOUT, squares={"c1": "red\" onload=\"x"})
    with pytest.raises(MoveError, match="an arrow must be a move"):
        board(LOOKOUT, arrows=["c1"])
    with pytest.raises(ArgumentError, match="an arrow must be"):
        board(LOOKOUT, arrows=[42])
    with pytest.raises(ArgumentError, match="size must be"):
        board(LOOKOUT, size=0)
    with pytest.raises(ArgumentError, match="size must be"):
        board(LOOKOUT, size=True)
    with pytest.raises(BrandubhError):
        board("not a position")
    assert issubclass(SquareError, ValueError)
