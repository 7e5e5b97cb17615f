"""The Python layer of the engine issue: Variant, Position, Rules, the move
helpers, perft's arguments, and the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

import brandubh
from brandubh import (BrandubhError, MoveError, Outcome, Position, PositionError, Rules, SquareError,
                      Variant, VariantError, Why, move, move_text, outcome_name, parse_move, square)
from brandubh.variant import as_variant

SETUP = brandubh.SETUP


# -- Variant -------------------------------------------------------------------

def test_presets_match_the_rule_sheet():
    table = {  # docs/rules.md's preset table, field by field
        "brandubh": dict(throne_reentry=False, throne_hostile=True, king_capture="nielsen", encirclement=False,
                         no_pieces=True, no_move="draw", repetition="draw", repeat_counts_start=True,
                         ply_cap=400, quiet_cap=0),
        "codingame": dict(throne_reentry=True, throne_hostile=True, king_capture="four_two", encirclement=True,
                          no_pieces=False, no_move="loss", repetition="loss", repeat_counts_start=False,
                          ply_cap=200, quiet_cap=0),
        "modern": dict(throne_reentry=True, throne_hostile=True, king_capture="two", encirclement=False,
                       no_pieces=True, no_move="loss", repetition="loss", repeat_counts_start=True,
                       ply_cap=4096, quiet_cap=100),
        "opentafl": dict(throne_reentry=True, throne_hostile=False, king_capture="two", encirclement=False,
                         no_pieces=True, no_move="loss", repetition="draw", repeat_counts_start=True,
                         ply_cap=4096, quiet_cap=0),
    }
    for name, fields in table.items():
        v = Variant.named(name)
        assert v.escape == "corner" and v.throne_pass and v.king_armed and v.repeat == 3
        for key, value in fields.items():
            assert getattr(v, key) == value, (name, key)
        assert v.name == name and v.as_string() == name


@pytest.mark.parametrize("text", ["brandubh", "codingame repeat=2", "modern quiet_cap=0 escape=edge",
                                  "repeat=4 no_move=loss", "opentafl king_capture=four throne_pass=0"])
def test_variant_string_round_trip(text):
    v = Variant.from_string(text)
    assert Variant.from_string(v.as_string()) == v
    assert as_variant(v.as_string()) == v
    assert as_variant(v.fields()) == v


def test_variant_substitutions_and_aliases():
    assert Variant(repeat=0).repeat == 2
    assert Variant(ply_cap=0).ply_cap == 400 and Variant(ply_cap=5000).ply_cap == 400
    assert Variant.named("codingame").replace(ply_cap=-1).ply_cap == 200
    assert Variant.from_fields({"king_everywhere_two": True}).king_capture == "two"
    assert Variant.from_fields({"king_strong": 1}).king_capture == "four"
    assert Variant.from_fields({"king_strong": 0}).king_capture == "nielsen"
    assert Variant.from_string("king_strong=1").king_capture == "four"


@pytest.mark.parametrize("bad", ["", "nosuchpreset", "repeat", "repeat=x", "colour=red", "repeat=2 repeat=3",
                                 "escape=sideways", "quiet_cap=5000", "king_strong=1 king_everywhere_two=1",
                                 "throne_pass=maybe", "brandubh\nmodern"])
def test_bad_variant_strings(bad):
    with pytest.raises(VariantError) as info:
        Variant.from_string(bad)
    assert str(info.value)


def test_bad_variant_values():
    for kwargs in ({"throne_pass": 2}, {"king_capture": "three"}, {"repeat": 2.5}, {"ply_cap": True}):
        with pytest.raises(VariantError):
            Variant(**kwargs)
    with pytest.raises(VariantError):
        as_variant(42)
    with pytest.raises(VariantError):
        Variant.from_fields({"nosuch": 1})


def test_variant_is_hashable_and_frozen():
    assert len({Variant(), Variant.named("brandubh"), Variant(repeat=4)}) == 2
    with pytest.raises(Exception):
        Variant().repeat = 5  # type: ignore[misc]


# -- squares and moves -------------------------------------------------------------

def test_square_and_move_helpers():
    assert square("a1") == 0 and square("G7") == 48 and square(24) == 24
    assert move_text(move("d1", "d3")) == "d1d3" and parse_move("Kd4-d1") == move(24, 3)
    for bad in ("h1", "a8", "", "d44", 49, -1, None, 1.0):
        with pytest.raises(SquareError):
            square(bad)
    for bad in ("d1", "d1d", "xx", 4095, -1, None):
        with pytest.raises(MoveError):
            parse_move(bad)


# -- Position ----------------------------------------------------------------------

def test_engine_plays_any_slide_and_reports():
    e = Position("7/7/7/3k3/7/7/a6 d")
    assert e.side == "defenders" and e.at("d4") == "king" and e.count("king") == 1
    r = e.do_move("d4d1")
    assert r.king_moved and not r.ends and e.side == "attackers"
    assert e.to_string() == "7/7/7/7/7/7/a2k3 a"
    e2 = e.copy()
    e2.do_move("a1b1")
    assert e.at("a1") == "attacker" and e2.at("b1") == "attacker"
    assert e.why_not("a1", "a1") == Why.SAME_SQUARE and e.why_not("a1", "z9") == Why.OFF_BOARD
    with pytest.raises(MoveError):
        e.do_move("d1d7")  # not the attackers' piece
    assert len(e.key_hex) == 16 and e.key_hex != e2.key_hex


def test_engine_refuses_two_kings_and_bad_text():
    with pytest.raises(PositionError, match="more than one king"):
        Position("k6/7/7/3k3/7/7/a6 d")
    for bad in ("", "7/7/7/7/7/7/7", "8/7/7/7/7/7/7 a", "7/7/7/7/7/7/7 x", 5):
        with pytest.raises(PositionError):
            Position(bad)


# -- Rules -------------------------------------------------------------------------

def test_rules_record_keys_and_clone():
    r = Rules()
    k0 = r.key_hex
    assert r.play("d2c2") == Rules.PLAY_OK and r.play("d2c2") == Rules.PLAY_ILLEGAL
    assert r.key_at(0) == k0 and r.key_at(1) == r.key_hex and r.key_at(2) is None and r.key_at(-1) is None
    c = r.clone()
    c.play(c.moves()[0])
    assert r.ply == 1 and c.ply == 2 and c.log()[:1] == r.log()
    b = r.board()
    b.do_move(b.moves()[0])
    assert r.position != b.to_string()
    assert r.start == SETUP and r.move_at(1) == move("d2", "c2") and r.move_at(0) is None
    assert r.report().captures == () and r.report(0) is None


def test_outcome_names_and_winners():
    assert [outcome_name(o) for o in Outcome] == ["ongoing", "corner", "capture", "no_pieces", "repetition",
                                                  "encircled", "no_move", "ply_cap", "quiet_cap"]
    assert outcome_name(-1) is None and outcome_name("corner") is None and outcome_name(True) is None
    assert Rules.winner_of(Rules.BY_CORNER) == "defenders" and Rules.winner_of(Rules.BY_CAPTURE) == "attackers"
    assert Rules.winner_of(Rules.DRAW_REPETITION) is None and Rules.winner_of(42) is None
    assert Rules.ONGOING == 0 and Rules.PLAY_OK == 0


def test_playouts_deterministic_and_leave_the_game():
    r = Rules(variant="modern")
    r.play("d2c2")
    a = r.playouts(300, seed=9)
    assert a == r.playouts(300, seed=9) and a != r.playouts(300, seed=10)
    assert a.games == 300 == a.attackers + a.defenders + a.draws == sum(a.outcomes.values())
    assert r.ply == 1 and r.position == "3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d"
    with pytest.raises(BrandubhError):
        r.playouts(-1)


def test_perft_arguments():
    assert brandubh.perft(2, variant=Variant.named("modern")) == 960
    assert brandubh.perft(2, variant={"king_capture": "four"}) == 960
    with pytest.raises(PositionError):
        brandubh.perft(1, position="nonsense")
    with pytest.raises(VariantError):
        brandubh.perft(1, variant="nonsense")


# -- the command line ----------------------------------------------------------------

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "brandubh", *args], capture_output=True, text=True)


def test_cli_perft_and_errors():
    ok = run_cli("perft", "3", "--variant", "codingame repeat=2")
    assert ok.returncode == 0 and "39512" in ok.stdout and "M leaves/s" in ok.stdout
    divide = run_cli("perft", "2", "--divide")
    assert divide.returncode == 0 and "d1c1 23" in divide.stdout.splitlines()  # tests/reference.py agrees
    bad = run_cli("perft", "3", "--variant", "nonsense")
    assert bad.returncode == 2 and "no preset named 'nonsense'" in bad.stderr
    assert run_cli("perft", "-1").returncode == 2
    assert "perft" in run_cli("--help").stdout


def test_a_command_loads_its_own_module_only():
    """`brandubh perft` does not import the arena, the servers or the
    trainer (a quarter of a second of every run, when every command's module
    was loaded); the top level's help and an unknown command still list
    every command, and an alias finds its command."""
    script = ("import sys\nfrom brandubh.cli import main\nstatus = main(sys.argv[1:])\n"
              "loaded = sorted(m for m in sys.modules if m.startswith('brandubh.cli.'))\n"
              "print(status, ' '.join(loaded), file=sys.stderr)\n")
    one = subprocess.run([sys.executable, "-c", script, "perft", "1"], capture_output=True, text=True)
    assert one.stderr.split()[-2:] == ["0", "brandubh.cli.perft"], one.stderr
    assert not {"brandubh.arena", "brandubh.serve", "brandubh.learn.train"} & set(one.stderr.split())
    alias = subprocess.run([sys.executable, "-c", script, "analyze", "--help"], capture_output=True, text=True)
    assert alias.stdout.startswith("usage: brandubh analyse"), alias.stdout + alias.stderr
    wrong = run_cli("nosuch")
    assert wrong.returncode == 2 and "'perft'" in wrong.stderr and "'host'" in wrong.stderr
