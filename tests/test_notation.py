"""Tests of brandubh.notation (the functions of Game::Brandubh::Notation's
documentation), and of the game text it held until the room of game files
took it (brandubh.records.text: game_string, game_parse, ...), whose old
names here still work, with a DeprecationWarning."""

from __future__ import annotations

import doctest
import inspect
import os
import subprocess
import sys
from pathlib import Path

import warnings

import pytest

import brandubh.notation as notation
from brandubh.notation import (
    SETUP,
    move_display,
    move_parse,
    move_split,
    move_wire,
    position_cells,
    position_ok,
    square_name,
    square_parse,
)
from brandubh.records import annotated_game_parse, game_parse, game_string

REPO = Path(__file__).resolve().parent.parent
DOC_START = "7/7/7/3k3/7/7/a6 d"

NOT_STRINGS = [None, 0, 3.5, b"d4", ["d4"], ("d", "4"), {"d4": 1}, object()]


# ---------------------------------------------------------------- the module


def test_all_lists_everything_public():
    assert set(notation.__all__) == {
        "SETUP",
        "FAULTS",
        "square_name",
        "square_parse",
        "move_wire",
        "move_split",
        "move_parse",
        "move_display",
        "position_ok",
        "position_cells",
        "row_text",
        "answer_parse",
        "SQUARE_NAMES",
        "SQUARE_INDEX",
        "SIDES",
        "SEATS",
        "PIECES",
        "THRONE",
        "CORNERS",
        "STORED_MOVE",
        "WRITTEN_MOVE",
        "LENIENT_ANSWER",
        "MOVE_SHAPE",
        "OPENTAFL_MOVE",
    }
    for name in notation.__all__:
        assert hasattr(notation, name), name


def test_the_vocabulary_by_hand():
    # Written out from the rules: squares are rank * 7 + file, a1 first.
    assert len(notation.SQUARE_NAMES) == 49
    assert (notation.SQUARE_NAMES[0], notation.SQUARE_NAMES[6], notation.SQUARE_NAMES[24],
            notation.SQUARE_NAMES[42], notation.SQUARE_NAMES[48]) == ("a1", "g1", "d4", "a7", "g7")
    assert all(notation.SQUARE_INDEX[name] == sq for sq, name in enumerate(notation.SQUARE_NAMES))
    assert notation.THRONE == 24 and notation.CORNERS == (0, 6, 42, 48)
    assert notation.SIDES == ("attackers", "defenders") and notation.SEATS == ("p1", "p2")
    assert notation.PIECES == {"a": "attacker", "d": "defender", "k": "king"}


def test_the_engine_numbers_the_board_as_the_vocabulary_does():
    from brandubh._engine import lib

    assert lib.BD_THRONE == notation.THRONE and lib.BD_SQUARES == len(notation.SQUARE_NAMES)
    assert lib.BD_CORNERS == sum(1 << sq for sq in notation.CORNERS)
    assert (lib.BD_ATTACKERS, lib.BD_DEFENDERS) == (0, 1)


@pytest.mark.parametrize("text, stored", [
    ("d2c2", "d2c2"), ("D2C2", "d2c2"), ("d2 c2", "d2c2"), ("  g7a7 \r\n", "g7a7"), (b"a1b1\n", "a1b1"),
    ("d2  c2", None), ("d2-c2", None), ("Kd2c2", None), ("d2c9", None), ("d2c2x", None), ("", None), (None, None),
])
def test_answer_parse_reads_as_the_puzzles_referee(text, stored):
    assert notation.answer_parse(text) == stored


@pytest.mark.parametrize("grammar, text, matches", [
    ("STORED_MOVE", "d1d3", True), ("STORED_MOVE", "D1D3", False), ("STORED_MOVE", "d1-d3", False),
    ("WRITTEN_MOVE", "Kd4-d1", True), ("WRITTEN_MOVE", "d1-d3xc3,e3", True), ("WRITTEN_MOVE", "d1 d3", False),
    ("MOVE_SHAPE", "d1d9", True), ("MOVE_SHAPE", "z10-a1", True), ("MOVE_SHAPE", "hello", False),
    ("OPENTAFL_MOVE", "td1-d3", True), ("OPENTAFL_MOVE", "Kd4-d1", True), ("OPENTAFL_MOVE", "d1-d37", False),
    ("LENIENT_ANSWER", "d2 C2", True), ("LENIENT_ANSWER", "d2\tc2", False),
])
def test_each_grammar_by_hand(grammar, text, matches):
    assert (getattr(notation, grammar).fullmatch(text) is not None) == matches


def test_every_function_has_a_doctest():
    for name in notation.__all__:
        obj = getattr(notation, name)
        if callable(obj) and not hasattr(obj, "fullmatch"):
            doc = inspect.getdoc(obj) or ""
            assert ">>>" in doc, name
    assert ">>>" in (notation.__doc__ or "")


def test_the_examples_are_many():
    # tests/test_doctests.py runs them; this keeps them from dwindling unnoticed.
    found = doctest.DocTestFinder().find(notation)
    assert sum(len(test.examples) for test in found) >= 20


def test_loads_without_the_engine():
    code = (
        "import brandubh.notation, sys; "
        "assert not any(m.startswith('brandubh._') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('brandubh'))"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=str(REPO),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr


def test_imports_nothing_else_from_the_package():
    # But the forwarding of the names that moved out (standard library only).
    source = Path(notation.__file__).read_text()
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith(("import ", "from ")) and stripped != "from .deprecation import renamed":
            assert "brandubh" not in stripped, line
            assert not stripped.startswith("from ."), line


@pytest.mark.parametrize("name", ["game_string", "game_parse", "annotated_game_parse", "comment_text", "MARKS"])
def test_the_game_text_moved_to_the_room_of_game_files_and_its_old_names_warn(name):
    import brandubh.records

    with pytest.warns(DeprecationWarning, match=rf"^brandubh\.notation\.{name} is deprecated and goes in brandubh "
                      rf"0\.3\.0: use brandubh\.records\.{name}$"):
        old = getattr(notation, name)
    assert old is getattr(brandubh.records, name) and name not in notation.__all__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="has no attribute 'game_strin'"):
            notation.game_strin  # noqa: B018


# ----------------------------------------------------------------- constants


def test_setup_constant():
    assert SETUP == "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"


# ------------------------------------------------------------------- squares


def test_square_name_examples():
    assert square_name(3, 3) == "d4"
    assert square_name(0, 0) == "a1"
    assert square_name(6, 0) == "g1"
    assert square_name(0, 6) == "a7"
    assert square_name(6, 6) == "g7"
    assert square_name(2, 4) == "c5"


def test_square_name_every_square_round_trips():
    names = set()
    for f in range(7):
        for r in range(7):
            name = square_name(f, r)
            assert name == "abcdefg"[f] + str(r + 1)
            assert square_parse(name) == (f, r)
            names.add(name)
    assert len(names) == 49


@pytest.mark.parametrize(
    "file, rank",
    [
        (-1, 0),
        (0, -1),
        (7, 0),
        (0, 7),
        (7, 7),
        (100, 3),
        (3.0, 3),
        ("3", 3),
        (3, "3"),
        (None, 3),
        (True, 0),
        (0, False),
    ],
)
def test_square_name_rejects(file, rank):
    assert square_name(file, rank) is None


def test_square_parse_examples():
    assert square_parse("d4") == (3, 3)
    assert square_parse("D4") == (3, 3)
    assert square_parse("a1") == (0, 0)
    assert square_parse("G7") == (6, 6)
    file, rank = square_parse("c5")
    assert (file, rank) == (2, 4)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "d",
        "4",
        "h1",
        "a0",
        "a8",
        "d44",
        "dd",
        "44",
        "4d",
        " d4",
        "d4 ",
        "d4\n",
        "K4",
        "d\u0664",  # ARABIC-INDIC DIGIT FOUR
        "\uff44" + "4",  # FULLWIDTH d
        "\u0131" + "1",  # dotless i
    ]
    + NOT_STRINGS,
)
def test_square_parse_rejects(text):
    assert square_parse(text) == ()


# --------------------------------------------------------------------- moves


def test_move_wire():
    assert move_wire("d1", "d3") == "d1d3"
    assert move_wire("D1", "d3") == "d1d3"
    assert move_wire("a7", "G7") == "a7g7"
    assert move_wire("d4", "d4") == "d4d4"


@pytest.mark.parametrize(
    "a, b",
    [("d1", "d8"), ("h1", "d3"), ("", "d3"), ("d1", ""), ("d1-", "d3"),
     ("d1", None), (None, "d3"), ("d1", 13), ("d1 ", "d3")],
)
def test_move_wire_rejects(a, b):
    assert move_wire(a, b) is None


def test_move_split():
    assert move_split("d1d3") == ("d1", "d3")
    frm, to = move_split("a7g7")
    assert (frm, to) == ("a7", "g7")
    assert move_split("d4d4") == ("d4", "d4")


@pytest.mark.parametrize(
    "text",
    ["D1D3", "d1D3", "d1-d3", "Kd1d3", "d1d3 ", " d1d3", "d1d", "d1d3x",
     "d1d3xc3", "d1d8", "h1d3", "", "d1d3d5", "d1d3\n"] + NOT_STRINGS,
)
def test_move_split_rejects(text):
    assert move_split(text) == ()


@pytest.mark.parametrize(
    "text, stored",
    [
        # the documentation's examples
        ("Kd4-d1", "d4d1"),
        ("d1d3", "d1d3"),
        ("d1-d3", "d1d3"),
        ("d1-d3xc3", "d1d3"),
        ("d1-d3xc3,e3", "d1d3"),
        ("Ke4-e1", "e4e1"),
        ("Kg2-g1++", "g2g1"),
        ("c5-c4xd4#", "c5c4"),
        # either case
        ("D1-D3XC3", "d1d3"),
        ("D1D3", "d1d3"),
        ("kd4-d1", "d4d1"),
        ("KD4-D1", "d4d1"),
        ("Kd4D1", "d4d1"),
        ("d1-d3Xc3,E3", "d1d3"),
        # with or without each part
        ("Kd4d1", "d4d1"),
        ("d1d3xc3", "d1d3"),
        ("d1d3xc3,e3,d2", "d1d3"),
        ("g2g1++", "g2g1"),
        ("c5c4#", "c5c4"),
        ("Kb1-a1xb2++", "b1a1"),
        ("Kb1a1xb2,a2++", "b1a1"),
        # surrounding white space is stripped
        ("  d1-d3  ", "d1d3"),
        ("\td1d3\n", "d1d3"),
        # the writing only: a move to its own square is written correctly
        ("d4-d4", "d4d4"),
    ],
)
def test_move_parse_accepts(text, stored):
    assert move_parse(text) == stored


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "d1",
        "d1-",
        "d1-d",
        "d1--d3",
        "d1 d3",
        "d1 -d3",
        "d1- d3",
        "d1-d3 xc3",
        "d1-d3x",
        "d1-d3xc3,",
        "d1-d3xc3,,e3",
        "d1-d3x,c3",
        "d1-d3xc3 ,e3",
        "d1-d3xc3, e3",
        "d1-d3xh3",
        "d1-d3+",
        "d1-d3+++",
        "d1-d3++#",
        "d1-d3#++",
        "d1-d3##",
        "d1-d3++xc3",
        "d1-d3#xc3",
        "d1-d8",
        "h1-d3",
        "d0-d3",
        "KKd4-d1",
        "Qd4-d1",
        "Kd4-d1K",
        "d1-d3 junk",
        "d1d3d5",
        "d1\u2013d3",  # en dash
        "\u212ad4-d1",  # KELVIN SIGN, folds to k under re.IGNORECASE
        "d1-d3\u00d7c3",  # multiplication sign
        "d1:d3",
        "d1d3e",
        "1d1d3",
        "d1-d3-d5",
    ]
    + NOT_STRINGS,
)
def test_move_parse_rejects(text):
    assert move_parse(text) is None


def test_move_parse_returns_what_move_split_reads():
    for text in ("Kd4-d1", "D1-D3XC3", "c5-c4xd4#"):
        stored = move_parse(text)
        assert move_split(stored)
        assert move_wire(*move_split(stored)) == stored


def test_move_display_doc_examples():
    assert move_display("d1d3") == "d1-d3"
    assert move_display("d1d3", captures=["c3"]) == "d1-d3xc3"
    assert move_display("d1d3", captures=["c3", "e3"]) == "d1-d3xc3,e3"
    assert move_display("e4e1", king=True) == "Ke4-e1"
    assert move_display("g2g1", king=True, king_home=True) == "Kg2-g1++"
    assert move_display("c5c4", captures=["d4"], king_taken=True) == "c5-c4xd4#"


def test_move_display_order_and_forms():
    # captures keep the order given, are written in lower case
    assert move_display("d1d3", captures=("E3", "c3")) == "d1-d3xe3,c3"
    # a king that captures as he escapes: move, captures, ending
    assert (
        move_display("b1a1", king=True, captures=["b2"], king_home=True)
        == "Kb1-a1xb2++"
    )
    assert move_display("d1d3", captures=None) == "d1-d3"
    assert move_display("d1d3", captures=iter(["c3"])) == "d1-d3xc3"
    assert move_display("d1d3", captures=[]) == "d1-d3"
    assert move_display("d1d3", king=0, king_home=0, king_taken=0) == "d1-d3"
    assert move_display("d1d3", king_taken=True) == "d1-d3#"


@pytest.mark.parametrize(
    "move, about",
    [
        ("D1D3", {}),
        ("d1-d3", {}),
        ("Kd1d3", {}),
        ("d1d8", {}),
        ("", {}),
        (None, {}),
        (1234, {}),
        ("d1d3", {"captures": "c3"}),
        ("d1d3", {"captures": ["c3", "h3"]}),
        ("d1d3", {"captures": ["c3", ""]}),
        ("d1d3", {"captures": [None]}),
        ("d1d3", {"captures": 3}),
        ("d1d3", {"captures": [" c3"]}),
        ("d1d3", {"king_home": True, "king_taken": True}),
    ],
)
def test_move_display_rejects(move, about):
    assert move_display(move, **about) is None


@pytest.mark.parametrize(
    "move, about",
    [
        ("d1d3", {}),
        ("d1d3", {"captures": ["c3", "e3", "d2", "d4"]}),
        ("a1a7", {"king": True, "king_home": True}),
        ("b1a1", {"king": True, "captures": ["b2"], "king_home": True}),
        ("c5c4", {"captures": ["d4"], "king_taken": True}),
    ],
)
def test_move_display_reads_back(move, about):
    shown = move_display(move, **about)
    assert shown is not None and shown != move
    assert move_parse(shown) == move
    assert move_parse(shown.upper()) == move


def test_move_display_keywords_only():
    with pytest.raises(TypeError):
        move_display("d1d3", True)  # type: ignore[misc]


# ----------------------------------------------------------------- positions


def test_position_ok_setup_and_doc_example():
    assert position_ok(SETUP) is True
    assert position_ok(DOC_START) is True


def test_position_ok_judges_writing_not_sense():
    assert position_ok("7/7/7/3k3/7/7/k6 a") is True  # two kings
    assert position_ok("7/7/7/7/7/7/7 a") is True  # no piece at all
    assert position_ok("kkkkkkk/7/7/7/7/7/7 d") is True
    assert position_ok("16/7/7/3k3/7/7/a6 d") is True  # two runs in a row


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "7/7/7/3k3/7/7/a6",
        "7/7/7/3k3/7/7/a6 ",
        "7/7/7/3k3/7/7/a6 d ",
        " 7/7/7/3k3/7/7/a6 d",
        "7/7/7/3k3/7/7/a6  d",
        "7/7/7/3k3/7/7/a6\td",
        "7/7/7/3k3/7/7/a6 d\n",
        "7/7/7/3k3/7/7/a6 k",
        "7/7/7/3k3/7/7/a6 A",
        "7/7/7/3k3/7/7/a6 ad",
        "7/7/7/3k3/7/7/a6 dd",
        "7/7/7/3k3/7/7/a7 d",  # eight wide
        "7/7/7/3k3/7/7/a5 d",  # six wide
        "7/7/7/3k3/7/7 d",  # six rows
        "7/7/7/3k3/7/7/a6/7 d",  # eight rows
        "7/7/7/3k3/7/7//a6 d",
        "/7/7/7/3k3/7/7/a6 d",
        "7/7/7/3k3/7/7/a6/ d",
        "7/7/7/3K3/7/7/a6 d",  # upper case piece
        "7/7/7/3k3/7/7/A6 d",
        "7/7/7/3t3/7/7/a6 d",  # OpenTafl letter
        "7/7/7/3.3/7/7/a6 d",
        "7/7/7/3k3/7/7/a06 d",
        "7/7/7/3k3/7/7/a8 d",
        "8/7/7/3k3/7/7/a6 d",
        "7/7/7/3k\u00b33/7/7/a6 d",  # superscript three
        "7/7/7/3k3/7/7/a\u0666 d",  # ARABIC-INDIC DIGIT SIX
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3",
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a a",
        "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3/ a",
        "3a3 3a3 3d3 aadkdaa 3d3 3a3 3a3 a",
    ]
    + NOT_STRINGS,
)
def test_position_rejects(text):
    assert position_ok(text) is False
    assert position_cells(text) == ()


def test_position_cells_setup():
    rows, side = position_cells(SETUP)
    assert side == "a"
    assert len(rows) == 7 and all(len(row) == 7 for row in rows)
    assert rows[3] == ("a", "a", "d", "k", "d", "a", "a")
    assert rows[0] == ("", "", "", "a", "", "", "")
    assert rows[6] == ("", "", "", "a", "", "", "")
    assert rows[2] == ("", "", "", "d", "", "", "")
    assert rows[4] == ("", "", "", "d", "", "", "")
    counts = {}
    for row in rows:
        for cell in row:
            counts[cell] = counts.get(cell, 0) + 1
    assert counts == {"": 36, "a": 8, "d": 4, "k": 1}
    # the set-up as docs/rules.md lists it, square by square
    board = {}
    for i, row in enumerate(rows):
        for f, cell in enumerate(row):
            if cell:
                board[square_name(f, 6 - i)] = cell
    assert board == {
        "d1": "a", "d2": "a", "d6": "a", "d7": "a",
        "a4": "a", "b4": "a", "f4": "a", "g4": "a",
        "d3": "d", "c4": "d", "e4": "d", "d5": "d",
        "d4": "k",
    }


def test_position_cells_doc_example():
    rows, side = position_cells(DOC_START)
    assert side == "d"
    assert rows[6][0] == "a"  # a1: rank 1 is the last row, file a first
    assert rows[3][3] == "k"  # d4
    occupied = [
        (i, f) for i, row in enumerate(rows) for f, cell in enumerate(row) if cell
    ]
    assert occupied == [(3, 3), (6, 0)]


def test_position_cells_types():
    got = position_cells("16/7/7/3k3/7/7/a6 d")
    assert isinstance(got, tuple)
    rows, side = got
    assert isinstance(rows, tuple) and all(isinstance(r, tuple) for r in rows)
    assert rows[0] == ("",) * 7
    assert side == "d"


# --------------------------------------------------------------------- games


def test_game_string_doc_examples():
    text = game_string(variant="brandubh", moves=["d1c1", "d3c3"])
    assert text == "variant brandubh\nmoves d1c1 d3c3\n"
    text = game_string(start=DOC_START, moves=["d4d1", "a1a2", "d1g1"])
    assert text == (
        "variant brandubh\n"
        "start 7/7/7/3k3/7/7/a6 d\n"
        "moves d4d1 a1a2 d1g1\n"
    )


def test_game_string_defaults_and_forms():
    assert game_string() == "variant brandubh\nmoves\n"
    assert game_string(variant=None) == "variant brandubh\nmoves\n"
    assert game_string(start=SETUP) == "variant brandubh\nmoves\n"
    assert game_string(moves=iter(["d1c1"])) == "variant brandubh\nmoves d1c1\n"
    assert game_string(variant="my house rule", moves=()) == (
        "variant my house rule\nmoves\n"
    )
    assert game_string(result={"how": "resign", "by": "attackers"}) == (
        "variant brandubh\nmoves\nresult resign attackers\n"
    )
    assert game_string(moves=["d1c1"], result={"how": "resign", "by": "defenders"}) == (
        "variant brandubh\nmoves d1c1\nresult resign defenders\n"
    )
    assert game_string(result={"how": "agreed"}) == (
        "variant brandubh\nmoves\nresult agreed\n"
    )


@pytest.mark.parametrize(
    "game",
    [
        {"variant": ""},
        {"variant": " brandubh"},
        {"variant": "brandubh "},
        {"variant": "bran\ndubh"},
        {"variant": "bran\rdubh"},
        {"variant": "bran\u2028dubh"},
        {"variant": "brandubh\n"},
        {"variant": 7},
        {"variant": b"brandubh"},
        {"start": ""},
        {"start": "7/7/7/3k3/7/7/a7 d"},
        {"start": SETUP + "\n"},
        {"start": 5},
        {"moves": "d1c1"},
        {"moves": ["d1c1", "D3C3"]},
        {"moves": ["d1-c1"]},
        {"moves": ["Kd4d1"]},
        {"moves": ["d1c1 d3c3"]},
        {"moves": ["d1c"]},
        {"moves": [None]},
        {"moves": None},
        {"moves": 3},
        {"result": {}},
        {"result": {"how": "resign"}},
        {"result": {"how": "resign", "by": "kings"}},
        {"result": {"how": "resign", "by": "Attackers"}},
        {"result": {"how": "resign", "by": "a"}},
        {"result": {"how": "agreed", "by": "attackers"}},
        {"result": {"how": "draw"}},
        {"result": {"how": "Agreed"}},
        {"result": "agreed"},
        {"result": ("how", "agreed")},
    ],
)
def test_game_string_rejects(game):
    assert game_string(**game) is None


def test_game_parse_doc_example():
    text = (
        "variant brandubh\n"
        "start 7/7/7/3k3/7/7/a6 d\n"
        "moves d4d1 a1a2 d1g1\n"
    )
    assert game_parse(text) == {
        "variant": "brandubh",
        "start": DOC_START,
        "moves": ("d4d1", "a1a2", "d1g1"),
        "result": None,
    }


def test_game_parse_defaults_and_tolerance():
    game = game_parse("variant brandubh\nmoves d1c1 d3c3")
    assert game == {
        "variant": "brandubh",
        "start": SETUP,
        "moves": ("d1c1", "d3c3"),
        "result": None,
    }
    # blank lines, white space at the ends of lines, CRLF, any order
    text = "\n  moves   d1c1  d3c3  \r\n\n\tvariant brandubh \r\nresult agreed\n\n"
    game = game_parse(text)
    assert game is not None
    assert game["moves"] == ("d1c1", "d3c3")
    assert game["variant"] == "brandubh"
    assert game["result"] == {"how": "agreed"}
    # an explicit start line holding the set-up
    game = game_parse("variant brandubh\nstart " + SETUP + "\nmoves\n")
    assert game is not None and game["start"] == SETUP and game["moves"] == ()
    # a variant that is a line keeps its inner spaces
    game = game_parse("variant my  house rule\nmoves\n")
    assert game is not None and game["variant"] == "my  house rule"
    assert game_parse("variant brandubh\nmoves\nresult resign attackers")[
        "result"
    ] == {"how": "resign", "by": "attackers"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "variant brandubh\n",  # no moves line
        "moves d1c1\n",  # no variant line
        "variant\nmoves\n",  # empty variant
        "variant brandubh\nmoves d1c1\nmoves d3c3\n",  # given twice
        "variant brandubh\nvariant brandubh\nmoves\n",
        "variant brandubh\nstart " + SETUP + "\nstart " + SETUP + "\nmoves\n",
        "variant brandubh\nmoves\nresult agreed\nresult agreed\n",
        "variant brandubh\nmoves\ncomment hello\n",  # unknown line
        "variant brandubh\nmoves\n# comment\n",
        "Variant brandubh\nmoves\n",
        "variant brandubh\nMoves\n",
        "variant brandubh\nmovesd1c1\n",
        "variant brandubh\nmoves d1-c1\n",  # shown form is not stored
        "variant brandubh\nmoves D1C1\n",
        "variant brandubh\nmoves d1c1,d3c3\n",
        "variant brandubh\nmoves d1c8\n",
        "variant brandubh\nstart\nmoves\n",
        "variant brandubh\nstart 7/7/7/3k3/7/7/a7 d\nmoves\n",
        "variant brandubh\nstart 7/7/7/3k3/7/7/a6  d\nmoves\n",
        "variant brandubh\nmoves\nresult\n",
        "variant brandubh\nmoves\nresult resign\n",
        "variant brandubh\nmoves\nresult resign kings\n",
        "variant brandubh\nmoves\nresult resign attackers defenders\n",
        "variant brandubh\nmoves\nresult agreed attackers\n",
        "variant brandubh\nmoves\nresult Agreed\n",
        "variant brandubh\nmoves\nresult draw\n",
        "variant brandubh\nmoves\nresult 1-0\n",
    ]
    + NOT_STRINGS,
)
def test_game_parse_rejects(text):
    assert game_parse(text) is None


ROUND_TRIP_GAMES = [
    {},
    {"moves": []},
    {"moves": ["d1c1", "d3c3"]},
    {"variant": "modern", "moves": ["d1c1"]},
    {"variant": "house rule: edge escape", "moves": ["d1c1"]},
    {"start": DOC_START, "moves": ["d4d1", "a1a2", "d1g1"]},
    {"start": DOC_START},
    {"start": "7/7/7/3k3/7/7/k6 a", "moves": ["a1a2"]},  # two kings
    {"moves": ["d1c1"], "result": {"how": "resign", "by": "attackers"}},
    {"moves": ["d1c1", "d3c3"], "result": {"how": "resign", "by": "defenders"}},
    {"result": {"how": "agreed"}},
    {
        "variant": "codingame",
        "start": DOC_START,
        "moves": ["d4d1"],
        "result": {"how": "agreed"},
    },
]


@pytest.mark.parametrize("game", ROUND_TRIP_GAMES)
def test_game_round_trip(game):
    text = game_string(**game)
    assert text is not None
    back = game_parse(text)
    assert back == {
        "variant": game.get("variant", "brandubh"),
        "start": game.get("start", SETUP),
        "moves": tuple(game.get("moves", ())),
        "result": game.get("result"),
    }
    # and the other way: the parsed game writes the same text again
    assert game_string(**back) == text


def test_game_round_trip_setup_start_is_left_out():
    text = game_string(start=SETUP, moves=["d1c1"])
    assert "start" not in text
    assert game_parse(text)["start"] == SETUP


def test_game_parse_result_is_a_fresh_dict():
    text = "variant brandubh\nmoves\nresult agreed\n"
    first = game_parse(text)
    first["result"]["how"] = "changed"
    assert game_parse(text)["result"] == {"how": "agreed"}


def test_game_from_shown_moves():
    # a log of shown moves, read with move_parse, stored in a game
    shown = ["d1-c1", "D3-C3XC2", "Kd4-d1", "a1-a2", "Kd1-g1++"]
    stored = [move_parse(m) for m in shown]
    assert stored == ["d1c1", "d3c3", "d4d1", "a1a2", "d1g1"]
    text = game_string(moves=stored)
    assert game_parse(text)["moves"] == tuple(stored)


@pytest.mark.parametrize("how", ["timeout", "crash", "garbage", "illegal"])
def test_a_fault_is_a_result_of_its_own(how):
    text = f"variant codingame\nmoves d2c2\nresult {how} defenders\n"
    assert game_string("codingame", moves=["d2c2"], result={"how": how, "by": "defenders"}) == text
    assert game_parse(text)["result"] == {"how": how, "by": "defenders"}
    assert game_parse(text.replace("defenders", "nobody")) is None
    assert game_parse(f"variant brandubh\nmoves\nresult {how}") is None
    assert game_string(result={"how": how}) is None
    assert game_string(result={"how": "late", "by": "attackers"}) is None


# ------------------------------------------------------------- annotated game texts


def test_annotations_are_written_and_read_back():
    text = game_string(moves=["d1c1", "d3c3", "d2d1"], marks={1: "?!", 3: "??"},
                       comments={0: "from the set-up", 2: "a {braced}\nremark"}, tags={"event": "club night"})
    assert text == ("variant brandubh\ntag event club night\n"
                    "moves {from the set-up} d1c1?! d3c3 {a (braced) remark} d2d1??\n")
    game = annotated_game_parse(text)
    assert game["moves"] == ("d1c1", "d3c3", "d2d1")
    assert game["marks"] == {1: "?!", 3: "??"}
    assert game["comments"] == {0: "from the set-up", 2: "a (braced) remark"}
    assert game["tags"] == {"event": "club night"}
    # game_parse reads the same text, the annotations left out
    assert game_parse(text) == {"variant": "brandubh", "start": SETUP, "moves": ("d1c1", "d3c3", "d2d1"),
                                "result": None}


def test_a_game_with_no_annotations_is_written_as_before():
    assert game_string(moves=["d1c1"], marks={}, comments={}, tags={}) == "variant brandubh\nmoves d1c1\n"


@pytest.mark.parametrize("moves", [
    "d1c1 {open", "d1c1 }", "d1c1 {a} {b}", "d1c1!!! d3c3", "d1c1?? ?", "d1c1 ?!", "{x}{y} d1c1",
])
def test_annotated_moves_lines_refused(moves):
    assert annotated_game_parse("variant brandubh\nmoves " + moves) is None


@pytest.mark.parametrize("annotations", [
    {"marks": {0: "?"}}, {"marks": {2: "?"}}, {"marks": {1: "?!?"}}, {"comments": {2: "late"}},
    {"tags": {"Bad Name": "x"}}, {"tags": {"ok": 3}}, {"marks": ["?"]},
])
def test_annotations_out_of_place_are_not_written(annotations):
    assert game_string(moves=["d1c1"], **annotations) is None


def test_a_tag_given_twice_is_refused():
    assert annotated_game_parse("variant brandubh\ntag a 1\ntag a 2\nmoves\n") is None
