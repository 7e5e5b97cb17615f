"""OpenTafl: its notation (brandubh.opentafl.notation), the engine inside OpenTafl
(``brandubh opentafl``, brandubh.opentafl.bot) and OpenTafl engines inside the
arena (brandubh.opentafl.driver).

A scripted host stands in for OpenTafl: it keeps its own game under
brandubh.Rules with a variant written out by hand, plays the other side at
random, and checks every move the engine answers against its own record.
The arena's host plays ``brandubh opentafl`` and a small OpenTafl engine of
the tests' own (tests/bots/otep_bot.py, whose moves come from the
independent tests/reference.py) against the package's engine player: every
game ends, no process is left, and the rules replay each game to the same
result.

Run: python -m pytest -q tests/test_opentafl.py
"""

from __future__ import annotations

import configparser
import io
import json
import os
import random
import re
import shlex
import subprocess
import sys
import threading
import time

import pytest

from brandubh import SETUP, Variant
from brandubh.arena import BotPlayer, Event, Limits, ProcessPlayer, play_game, run_event
from brandubh.arena.command import parse_player
from brandubh.arena.loop import GameSpec
from brandubh.arena.openings import Opening
from brandubh.opentafl.driver import Driver
from brandubh.cli import main
from brandubh.core.position import move_text
from brandubh.errors import BrandubhError
from brandubh.records import game_parse
from brandubh.opentafl.bot import Clock, OpenTaflEngine, serve, write_ini
from brandubh.opentafl.notation import (FIELDS, OPENTAFL_BRANDUB, OpenTaflError, RulesRecord, position_record,
                          read_move, read_position_record, simple_move)
from brandubh.core.rules import Rules, outcome_name
from conftest import SLOW, scale
from test_referee import assert_no_process_left

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the arena needs POSIX process groups")

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(os.path.dirname(HERE), "docs", "opentafl.md")
ENGINE = f"{shlex.quote(sys.executable)} -m brandubh opentafl"
OTEP_BOT = " ".join([shlex.quote(sys.executable), "-S", shlex.quote(os.path.join(HERE, "bots", "otep_bot.py"))])
FILES = "abcdefg"


def legal(rules):
    """The moves of the side to move, in the stored form."""
    return {move_text(m) for m in rules.moves()}


def random_positions(count, seed, variant="opentafl"):
    """Positions from random games (each a position string), the set-up first."""
    rng = random.Random(seed)
    out = [SETUP]
    while len(out) < count:
        r = Rules(SETUP, variant)
        for _ in range(rng.randrange(1, 40)):
            if r.is_over():
                break
            r.play(rng.choice(r.moves()))
            out.append(r.position)
    return out[:count]


# -- notation ---------------------------------------------------------------------


def test_position_records_put_rank_one_first():
    for position in random_positions(60, seed=3):
        record = position_record(position)
        rows = record.strip("/").split("/")
        assert record.startswith("/") and record.endswith("/") and len(rows) == 7
        r = Rules(position, "opentafl")
        for rank, row in enumerate(rows, 1):
            squares = "".join("." * int(c) if c.isdigit() else c for c in row)
            assert len(squares) == 7
            for file, letter in enumerate(squares):
                piece = r.at(f"{FILES[file]}{rank}")
                assert letter == {"": ".", "attacker": "t", "defender": "T", "king": "K"}[piece]
        assert read_position_record(record, r.side) == position


def test_moves_in_both_notations():
    assert simple_move("d1b1") == "d1-b1"
    cases = {"d1-b1": "d1b1", "Td1-b1xb2": "d1b1", "Kd4-d1++": "d4d1", "t-a4": None, "d4d1": "d4d1",
             "c5-c4xd4#": "c5c4", "d1-d3xc3/e3": "d1d3", "a1-a10": None, "h1-h2": None, "": None,
             "d1-b1 ": "d1b1", "d1-b1zz": None}
    assert {text: read_move(text) for text in cases} == cases
    with pytest.raises(OpenTaflError):
        simple_move("d1-b1")
    for bad in (None, 3, b"d1-b1"):
        with pytest.raises(OpenTaflError):
            read_move(bad)
        with pytest.raises(OpenTaflError):
            read_position_record(bad, "attackers")
        with pytest.raises(OpenTaflError):
            RulesRecord.read(bad)


def test_opentafls_brandub_record_is_the_opentafl_preset():
    record = RulesRecord.read(OPENTAFL_BRANDUB)
    # Written out from the rule sheet's opentafl column.
    assert record.variant.fields() == {
        "escape": "corner", "throne_pass": True, "throne_reentry": True, "throne_hostile": False,
        "king_armed": True, "king_capture": "two", "encirclement": False, "no_pieces": True,
        "no_move": "loss", "repetition": "draw", "repeat": 3, "repeat_counts_start": True,
        "ply_cap": 4096, "quiet_cap": 0}
    assert record.start == "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a" and record.name == "Brandub"


BRANDUB_START = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"


@pytest.mark.parametrize("fields, expected", [
    # Every default of OpenTafl's: corners, encirclement, a strong king, a
    # throne hostile to all, passable, the king may go back to it.
    ("", dict(escape="corner", encirclement=True, king_capture="four", throne_hostile=True,
              throne_pass=True, throne_reentry=True, king_armed=True, repetition="draw")),
    ("esc:e", dict(escape="edge")),
    ("surf:n", dict(encirclement=False)),
    ("ks:c", dict(king_capture="nielsen")),
    ("ks:y", dict(king_capture="four")),
    ("ks:n", dict(king_capture="two", throne_hostile=True)),
    ("tfr:l", dict(repetition="loss")),
    ("ka:n cenh:", dict(king_armed=False)),
    ("cenp:", dict(throne_pass=False)),
    ("cenp:tcnkmTCNKM", dict(throne_pass=True)),
    ("cens:", dict(throne_reentry=False)),
    ("cenre:", dict(throne_reentry=False)),  # the king starts on the throne
    ("cenhe:K", dict(throne_hostile=False, king_capture="four")),
    ("corh:tTK cenh:t", dict()),
    ("sw:n efe:n spd:-1 ber:", dict()),
    ("name:Irish Brandubh of Old", dict()),
])
def test_a_field_maps_to_the_variant(fields, expected):
    text = f"dim:7 {fields} {BRANDUB_START}"
    got = RulesRecord.read(text).variant
    for key, value in expected.items():
        assert getattr(got, key) == value, (key, got)
    # What a record cannot carry is the base's.
    base = RulesRecord.read(text, base="brandubh").variant
    assert (base.no_move, base.ply_cap) == ("draw", 400)


def test_the_start_and_the_side_that_moves_first():
    r = RulesRecord.read("dim:7 atkf:n start:/1t5/7/7/3K3/7/7/7/")
    assert r.start == "7/7/7/3k3/7/7/1a5 d"
    inverted = RulesRecord.read("dim:7 atkf:n starti:/7/7/7/3K3/7/7/1t5/")
    assert inverted.start == r.start
    # A king set up off the throne, who may stop on it but never come back:
    # he may go there once, which the package cannot say.
    with pytest.raises(OpenTaflError) as e:
        RulesRecord.read("dim:7 cenre: start:/1t5/7/7/2K4/7/7/7/")
    assert e.value.field == "cenre"


@pytest.mark.parametrize("fields, field", [
    ("dim:9", "dim"), ("sw:y", "sw"), ("efe:y", "efe"), ("linc:y", "linc"), ("ber:y", "ber"),
    ("spd:2", "spd"), ("kj:y", "kj"), ("afor:y", "afor"), ("tfr:w", "tfr"), ("tfr:i", "tfr"),
    ("tfr:q", "tfr"), ("ka:a", "ka"), ("ka:h", "ka"), ("ks:m", "ks"), ("ks:q", "ks"),
    ("esc:x", "esc"), ("surf:maybe", "surf"), ("cenhe:t", "cenhe"), ("ks:w cenhe:tT", "cenhe"),
    ("ks:s cenhe:tT", "cenhe"), ("ks:c cenhe:", "cenhe"), ("corh:t", "corh"), ("ks:w corh:tT", "corh"),
    ("cenh:T", "cenh"), ("ka:n", "cenh"), ("cenp:t", "cenp"), ("cens:tK", "cens"), ("cors:", "cors"),
    ("cors:TK", "cors"), ("cenhe:tx", "cenhe"), ("foo:1", "foo"), ("esc:c esc:e", "esc"),
    ("ks:w cenhe:K", "cenhe"),
])
def test_a_field_this_package_does_not_play_is_refused_by_name(fields, field):
    with pytest.raises(OpenTaflError) as e:
        RulesRecord.read(f"dim:7 {fields} {BRANDUB_START}")
    assert e.value.field == field
    assert str(e.value).startswith(field), str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("start, words", [
    ("", "no start"),
    ("start:/3t3/3t3/3T3/ttTKTct/3T3/3t3/3t3/", "commanders"),
    ("start:/3t3/3t3/3T3/ttTKTkt/3T3/3t3/3t3/", "attacking king"),
    ("start:/3t3/3t3/3T3/ttTKTKt/3T3/3t3/3t3/", "2 kings"),
    ("start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/", "6 rows"),
    ("start:/3t3/3t3/3T3/ttTKTttt/3T3/3t3/3t3/", "7x7"),
    ("start:/3t3/3t3/3T3/ttTTTtt/3T3/3t3/3t3/", "soldier on d4"),
    ("start:/t6/7/7/3K3/7/7/7/ starti:/7/7/7/3K3/7/7/t6/", "both"),
    ("start:/3t3/3t3/3T3/tt?KTtt/3T3/3t3/3t3/", "not a piece"),
    ("start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/" + "9" * 5000 + "/", "empty squares"),
    ("start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/100/", "empty squares"),
    ("start: /3t3/", "1 rows"),
])
def test_a_start_this_package_does_not_play_is_refused(start, words):
    with pytest.raises(OpenTaflError) as e:
        RulesRecord.read(f"dim:7 {start}")
    assert words in str(e.value)
    assert e.value.field in ("start", "starti")


def random_variant(rng):
    return Variant(**{
        "escape": rng.choice(["corner", "edge"]), "throne_pass": rng.random() < 0.5,
        "throne_reentry": rng.random() < 0.5, "throne_hostile": rng.random() < 0.5,
        "king_armed": rng.random() < 0.5, "king_capture": rng.choice(["nielsen", "two", "four"]),
        "encirclement": rng.random() < 0.5, "no_pieces": rng.random() < 0.5,
        "no_move": rng.choice(["draw", "loss"]), "repetition": rng.choice(["draw", "loss"]),
        "repeat_counts_start": rng.random() < 0.5, "ply_cap": rng.randrange(1, 4097),
        "quiet_cap": rng.randrange(0, 200)})


def test_a_record_written_for_a_variant_reads_back_as_it():
    rng = random.Random(5)
    starts = [p for p in random_positions(40, seed=8) if Rules(p, "opentafl").at("d4") in ("", "king")]
    for _ in range(200):
        variant, start = random_variant(rng), rng.choice(starts)
        record = RulesRecord.of(variant, start)
        back = RulesRecord.read(record.text, base=variant)
        assert (back.variant, back.start) == (variant, start), record.text
        # And from OpenTafl's defaults for the rest, the carried fields still hold.
        plain = RulesRecord.read(record.text).variant
        for key in ("escape", "throne_pass", "throne_reentry", "throne_hostile", "king_armed",
                    "king_capture", "encirclement", "repetition"):
            assert getattr(plain, key) == getattr(variant, key), (key, record.text)


def test_a_variant_no_record_can_say_is_refused():
    with pytest.raises(OpenTaflError, match="four_two"):
        RulesRecord.of("codingame")
    with pytest.raises(OpenTaflError, match="threefold"):
        RulesRecord.of("opentafl repeat=2")
    with pytest.raises(OpenTaflError, match="soldier on a1"):
        RulesRecord.of("opentafl", "7/7/7/3k3/7/7/a6 d")


# -- the clock ------------------------------------------------------------------------


def test_a_clock_share_never_reaches_what_is_left():
    rng = random.Random(2)
    for _ in range(2000):
        a, d = rng.choice([0, 1, 30, 500, 10_000, 600_000]) * rng.random(), rng.random() * 5000
        ot_a, ot_d = rng.random() < 0.5, rng.random() < 0.5
        period, na, nd = rng.choice([0, 1, 10, 30]), rng.randrange(4), rng.randrange(4)
        line = f"{a:.0f}{'*' if ot_a else ''} {d:.0f}{'*' if ot_d else ''} {period} {na} {nd}"
        clock = Clock.parse(line)
        for side, left, over, n in (("attackers", round(a), ot_a, na), ("defenders", round(d), ot_d, nd)):
            share = clock.share_ms(side, margin_ms=20)
            # What the side may spend before it loses, or loses a period.
            spendable = left if over else left + (period * 1000 if n else 0)
            assert 1.0 <= share <= max(1.0, spendable / 2 - 20), (line, side, share)


@pytest.mark.parametrize("line", ["", "1 2 3 4", "a b c d e", "1 2 3 4 5 6", "-5 1 1 1 1", "1 1 1 -1 1"])
def test_a_clock_line_that_is_not_one(line):
    with pytest.raises(OpenTaflError):
        Clock.parse(line)


# -- the engine, driven by a scripted host ---------------------------------------------

JUNK = ["", "   ", "hello there", "opponent-move", "opponent-move zz /7/", "move", "move /1/2/",
        "clock", "clock 1 2", "play sideways", "play", "error", "error x",
        "side", "analyze", "analyze x y", "\x00\x01\x02",
        "opponent-move d1-d2|d2-d3 /3t3/", "move d1-b1 d2-c2", "x" * 5000]


class Host:
    """OpenTafl, as far as the tests need it: the game under ``variant``
    (written out by hand, never read from the record), the other side
    played at random."""

    def __init__(self, engine, record, variant, start, engine_side, seed=1, junk=False):
        self.engine, self.variant, self.engine_side = engine, variant, engine_side
        self.rules = Rules(start, variant)
        self.rng = random.Random(seed)
        self.junk = False
        self.said = []  # every line the engine wrote
        assert self.feed("rules " + record) == []
        self.junk = junk  # between the lines of the game, lines that mean nothing

    def feed(self, line):
        if self.junk:
            before = None if self.engine.game is None else self.engine.game.log()
            for text in self.rng.sample(JUNK, 3):
                out = self.engine.feed(text)
                assert all(x.startswith("status ") for x in out), (text, out)
                assert (None if self.engine.game is None else self.engine.game.log()) == before
        out = self.engine.feed(line)
        self.said += out
        return out

    def ask(self, clock=None):
        """Ask the engine for a move; the move (stored form) and what else it said."""
        assert self.feed(f"play {self.rules.side}") == []
        if clock is not None:
            assert self.feed(f"clock {clock}") == []
        out = self.engine.answer()
        self.said += out
        moves = [x for x in out if x.startswith("move ")]
        assert len(moves) == 1 and out[-1] == moves[0], out
        return read_move(moves[0][5:]), out[:-1]

    def play_out(self, clock=None, max_plies=600):
        """Play to the end; the host's record."""
        r = self.rules
        while not r.is_over() and r.ply < max_plies:
            if r.side == self.engine_side:
                move, notes = self.ask(clock)
                assert notes == [], notes  # no resync, no complaint
                assert move in legal(r), f"{move} is not legal in {r.position}"
                r.play(move)
                if r.is_over():  # the move that ends the game is never confirmed
                    break
                assert self.feed(f"move {position_record(r.position)}") == []
            else:
                move = self.rng.choice(r.moves())
                r.play(move)
                if r.is_over():  # and the opponent's is never sent
                    break
                assert self.feed(f"opponent-move {simple_move(move_text(move))} "
                                 f"{position_record(r.position)}") == []
                # The engine's own record is the host's, history and all.
                assert self.engine.game.log() == r.log() and self.engine.game.start == r.start
        return r

    def finish(self):
        r = self.rules
        code = 0 if not r.is_over() else 1 if r.winner is None else 2 if r.winner == "attackers" else 3
        assert self.feed(f"finish {code}") == []


def engine(**kw):
    kw.setdefault("budget", 200)
    return OpenTaflEngine(**kw)


@pytest.mark.parametrize("side", ["attackers", "defenders"])
def test_whole_games_under_the_opentafl_preset(side):
    e = engine()
    for game in range(3):  # one process, several games: finish, then new rules
        host = Host(e, OPENTAFL_BRANDUB, Variant.named("opentafl"), SETUP, side, seed=game)
        r = host.play_out()
        assert r.is_over()
        host.finish()
        assert e.resyncs == 0 and not [x for x in host.said if x.startswith(("status", "error"))]


@pytest.mark.parametrize("record, variant, start, base", [
    # Edge escape, encirclement, a strong king (every default of OpenTafl's).
    ("dim:7 esc:e " + BRANDUB_START, Variant.named("opentafl").replace(
        escape="edge", encirclement=True, king_capture="four", throne_hostile=True), SETUP, "opentafl"),
    # This package's own default rules, sent as a record, with the rest from --variant brandubh.
    (RulesRecord.of("brandubh").text, Variant.named("brandubh"), SETUP, "brandubh"),
    # The defenders first, from a position that is not the set-up; an unarmed king.
    ("dim:7 atkf:n ka:n cenh: ks:c tfr:l start:/3t3/1t5/3T3/t1TKT1t/7/3t3/3t3/",
     Variant.named("opentafl").replace(king_armed=False, king_capture="nielsen", throne_hostile=True,
                                       encirclement=True, repetition="loss"),
     "3a3/3a3/7/a1dkd1a/3d3/1a5/3a3 d", "opentafl"),
])
def test_whole_games_under_other_rule_records(record, variant, start, base):
    for seed, side in enumerate(["attackers", "defenders", "attackers", "defenders"]):
        e = engine(base=base, seed=seed)
        host = Host(e, record, variant, start, side, seed=seed, junk=seed == 0)
        assert (e.rules.variant, e.rules.start) == (variant, start)
        host.play_out()
        host.finish()
        assert e.resyncs == 0


def test_a_refused_record_is_said_once_and_again_for_each_play():
    e = engine()
    assert e.feed("rules dim:7 sw:y " + BRANDUB_START) == [
        "error -1 sw:y: this package does not play shieldwall captures"]
    assert e.feed("play attackers") == []
    assert e.answer() == ["error -1 sw:y: this package does not play shieldwall captures"]
    assert e.feed("opponent-move d1-c1 /2t4/3t3/3T3/ttTKTtt/3T3/3t3/3t3/") == []
    # Good rules afterwards: a game again.
    host = Host(e, OPENTAFL_BRANDUB, Variant.named("opentafl"), SETUP, "attackers")
    host.play_out(max_plies=20)


def test_an_error_takes_the_move_back_and_the_replay_gets_another():
    e = engine()
    host = Host(e, OPENTAFL_BRANDUB, Variant.named("opentafl"), SETUP, "defenders", seed=4)
    r = host.rules
    r.play("d2c2")
    host.feed(f"opponent-move d2-c2 {position_record(r.position)}")
    first, _ = host.ask()
    assert e.game.ply == 2
    refused = []
    for round_ in range(3):  # OpenTafl refuses it, again and again
        out = host.feed("error 2")
        assert len(out) == 1 and out[0].startswith("status ") and "refused my move" in out[0]
        assert e.game.log() == r.log()  # the refused move is taken back
        refused.append(first)
        # The previous move again, with the right board, and play again.
        assert host.feed(f"opponent-move d2-c2 {position_record(r.position)}") == []
        first, notes = host.ask()
        assert notes == [] and first in legal(r) and first not in refused
    r.play(first)
    assert host.feed(f"move {position_record(r.position)}") == []
    assert e.game.log() == r.log()
    host.play_out()


def test_a_clock_near_zero_still_gets_a_legal_move_at_once():
    e = OpenTaflEngine(level=3)
    host = Host(e, OPENTAFL_BRANDUB, Variant.named("opentafl"), SETUP, "attackers")
    for clock in ("1 1 0 0 0", "0 0 0 0 0", "5* 5* 1 1 1", "40 40 0 0 0"):
        move, notes = host.ask(clock=clock)
        assert notes == [] and move in legal(host.rules)
        assert e.think_ms == 1.0  # the floor: a share of nothing
        assert e.feed("error 2")  # take it back, and ask again
    move, _ = host.ask(clock="60000 60000 10 3 3")
    assert 1.0 < e.think_ms <= Clock.parse("60000 60000 10 3 3").share_ms("attackers")


def test_the_clock_is_read_only_without_a_fixed_budget():
    e = engine(budget=300)
    host = Host(e, OPENTAFL_BRANDUB, Variant.named("opentafl"), SETUP, "attackers")
    host.ask(clock="60000 60000 10 3 3")
    assert e.think_ms is None and e.bot.budget == 300


def test_a_position_that_differs_from_the_record_is_taken_with_a_status_line():
    e = engine()
    assert e.feed("rules " + OPENTAFL_BRANDUB) == []
    # The host's board after d2-c2 has lost an attacker on g4: not the move's.
    board = "3a3/3a3/3d3/aadkda1/3d3/2a4/3a3 d"
    out = e.feed(f"opponent-move d2-c2 {position_record(board)}")
    assert len(out) == 1 and out[0].startswith("status ") and "OpenTafl's position" in out[0]
    assert e.game.position == board and e.resyncs == 1
    assert e.feed("play defenders") == []
    move = read_move(e.answer()[-1][5:])
    assert move in legal(Rules(board, "opentafl"))
    # A confirmation that differs is taken too.
    out = e.feed(f"move {position_record('3a3/3a3/7/aadk1a1/3d3/2a4/3a3 a')}")
    assert out and e.game.position == "3a3/3a3/7/aadk1a1/3d3/2a4/3a3 a"
    # A play for the side the record does not have to move: from the board.
    assert e.feed("play defenders") == []
    out = e.answer()
    assert out[0].startswith("status ") and out[-1].startswith("move ")
    assert read_move(out[-1][5:]) in legal(Rules("3a3/3a3/7/aadk1a1/3d3/2a4/3a3 d", "opentafl"))


def test_play_without_rules_plays_opentafls_brandub():
    e = engine()
    assert e.feed("play attackers") == []
    out = e.answer()
    assert out[0].startswith("status ") and "no rules" in out[0]
    assert read_move(out[-1][5:]) in legal(Rules())


def test_goodbye_mid_game_ends_the_engine():
    e = engine()
    host = Host(e, OPENTAFL_BRANDUB, Variant.named("opentafl"), SETUP, "attackers")
    host.ask()
    assert host.feed("goodbye") == [] and e.done


def test_analysis_lines_are_legal_and_best_first():
    e = engine()
    position = "3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d"
    assert e.feed("rules " + OPENTAFL_BRANDUB) == []
    assert e.feed(f"position {position_record(position)}") == []
    assert e.feed("side defenders") == []
    out = e.feed("analyze 3 0.2")
    assert len(out) == 1 and out[0].startswith("analysis 3 ")
    words = out[0].split()[2:]
    lines = list(zip(words[0::2], [int(w) for w in words[1::2]]))
    assert len(lines) == 3
    firsts = set()
    for moves, score in lines:
        r = Rules(position, "opentafl")
        for text in moves.split("|"):
            if r.is_over():
                break
            assert r.play(read_move(text)) == 0, (moves, text)
        firsts.add(moves.split("|")[0])
    assert len(firsts) == 3
    scores = [s for _, s in lines]
    assert scores[1] >= scores[2]
    # A position the engine cannot take is said, not a crash.
    assert e.feed("position /7/7/7/7/7/7/") == []
    assert e.feed("analyze 1 0.1")[0].startswith("error 0 ")


# -- the engine as a process -------------------------------------------------------------


class Pipe:
    """``brandubh opentafl`` in a process, its lines read as they come."""

    def __init__(self, *args, argv=None, cwd=None):
        self.proc = subprocess.Popen((argv or shlex.split(ENGINE)) + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                                     cwd=cwd)
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(line.rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def send(self, *lines):
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def expect(self, prefix, timeout=60.0):
        """The next line (it must start with ``prefix``), read past status lines."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                while not self.lines:
                    assert self.cond.wait(max(0.0, deadline - time.monotonic())), f"no line ({prefix})"
                line = self.lines.pop(0)
                assert line is not None, f"the engine ended before {prefix}: {self.proc.stderr.read()}"
                if not line.startswith("status "):
                    assert line.startswith(prefix), (line, prefix)
                    return line

    def close(self, timeout=30.0):
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def test_installed_by_its_ini_the_engine_plays_games_and_leaves_on_goodbye(tmp_path):
    engines = tmp_path / "OpenTafl" / "engines"
    engines.mkdir(parents=True)
    assert main(["opentafl", "--write-ini", str(engines), "--budget", "300", "--seed", "7"]) == 0
    ini = configparser.ConfigParser()
    assert ini.read(engines / "brandubh.ini")
    section = ini["engine"]
    assert section["arguments"] == "-m brandubh opentafl --budget 300 --seed 7"
    assert "brandubh" in section["name"] and "--budget 300" in section["name"]
    # As OpenTafl does: the directory relative to engines/, the file checked
    # to exist there, the command run in it with the arguments split on spaces.
    folder = os.path.normpath(os.path.join(engines, section["directory"]))
    assert os.path.isfile(os.path.join(folder, section["filename"]))
    assert os.path.samefile(os.path.join(folder, section["filename"]), sys.executable)
    p = Pipe(argv=[section["command"], *section["arguments"].split(" ")], cwd=folder)
    assert p.expect("hello") == "hello"
    # Lines it does not understand, and a record it does not play: said, not a crash.
    p.send("this is not the protocol", "\x00\x7f", "rules dim:11 " + BRANDUB_START)
    assert p.expect("error -1 ").startswith("error -1 dim:11")
    for game in range(2):
        p.send("rules " + OPENTAFL_BRANDUB)
        r = Rules(SETUP, Variant.named("opentafl"))
        rng = random.Random(9 + game)
        while not r.is_over() and (game == 0 or r.ply < 6):
            if r.side == "attackers":  # the engine
                p.send("play attackers", "clock 600000 600000 10 3 3")
                move = read_move(p.expect("move ")[5:])
                assert r.play(move) == 0
                if not r.is_over():
                    p.send(f"move {position_record(r.position)}")
            else:
                move = rng.choice(r.moves())
                r.play(move)
                if not r.is_over():
                    p.send(f"opponent-move {simple_move(move_text(move))} {position_record(r.position)}")
        if game == 0:
            p.send("finish 2" if r.winner == "attackers" else "finish 3")
    p.send("goodbye")  # in the middle of the second game
    assert p.close() == 0


def test_the_engine_leaves_at_the_end_of_its_input():
    out = io.StringIO()
    e = engine()
    assert serve(io.StringIO("rules " + OPENTAFL_BRANDUB + "\nplay attackers\n"), out, e) == 0
    assert out.getvalue().splitlines()[0] == "hello"
    # And on goodbye, even with a play unanswered.
    out = io.StringIO()
    assert serve(io.StringIO("play attackers\ngoodbye\nplay attackers\n"), out, engine()) == 0
    assert out.getvalue() == "hello\n"


#: A move no machine searches to its end in a test's time: a budget of a
#: trillion positions, or a clock of a day (a twentieth of it, 72 minutes, a
#: move under --clock-only).
ENDLESS_MOVES = {
    "budget": (["--budget", str(10**12)], []),
    "clock": (["--clock-only"], ["clock 86400000 86400000 0 0 0"]),
}


@pytest.mark.parametrize("limit,end", [("budget", "goodbye"), ("budget", "end of input"),
                                       ("clock", "end of input")])
def test_goodbye_or_the_end_of_the_input_stops_a_move_search(limit, end):
    args, clock = ENDLESS_MOVES[limit]
    p = Pipe(*args)
    try:
        assert p.expect("hello") == "hello"
        p.send("rules " + OPENTAFL_BRANDUB, *clock, "play attackers")
        time.sleep(1.0)   # past the wait for a clock line (0.1 s): the search is under way
        if end == "goodbye":
            p.send("goodbye")
        else:
            p.proc.stdin.close()
        # Generous, to hold with both cores busy: the search not stopped ran 40 s and more.
        assert p.close(timeout=10) == 0
        with p.cond:   # everything it wrote, read: no move, the search was stopped
            assert p.cond.wait_for(lambda: None in p.lines, timeout=10)
            assert not any(line and line.startswith("move ") for line in p.lines), p.lines
    finally:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()

def test_write_ini_refuses_what_opentafl_cannot_pass(tmp_path, capsys):
    assert main(["opentafl", "--write-ini", str(tmp_path), "--variant", "opentafl repeat=2"]) == 2
    assert "space" in capsys.readouterr().err and not (tmp_path / "brandubh.ini").exists()
    with pytest.raises(BrandubhError):
        write_ini(str(tmp_path / "file"), ["--level", ""])


# -- the arena's driver --------------------------------------------------------------------


def test_the_session_tells_the_game_as_opentafl_would():
    from brandubh import Game

    game = Game("p1", variant="opentafl")
    s = Driver(game.variant, "p2")  # the defenders
    game.play("d2c2")
    assert s.start(game) == "rules " + RulesRecord.of("opentafl", SETUP).text + "\n"
    assert s.turn(game, "d2c2") == ("opponent-move d2-c2 /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/\n"
                                    "play defenders\n")
    game.play("d3d2")
    game.play("b4b2")
    assert s.turn(game, "b4b2").splitlines() == [
        "move /3t3/2tT3/7/ttTKTtt/3T3/3t3/3t3/",
        "opponent-move b4-b2 /3t3/1ttT3/7/t1TKTtt/3T3/3t3/3t3/",
        "play defenders"]
    assert s.reply("position") == "position /3t3/1ttT3/7/t1TKTtt/3T3/3t3/3t3/\n"
    assert s.reply("status hi") == ""
    assert s.read("error -1 cannot")[1] == "gave up with error -1: cannot"
    assert s.read("error 0 a warning") == (None, None)
    assert s.read("move K-d4") == (None, "answered move 'K-d4', which is not a move like d2-c2")
    assert s.clock(None) == "" and s.clock(2.5) == "clock 2500* 2500* 3 1 1\n"
    game.resign("p1")
    assert s.end(game) == "finish 3\ngoodbye\n"


def test_rules_no_record_can_say_are_refused_before_the_first_game():
    player = parse_player(f"protocol=opentafl,cmd={ENGINE}")
    assert player.describe() == f"opentafl: {ENGINE}"
    with pytest.raises(BrandubhError, match="four_two"):
        player.check(Variant.named("codingame"))
    player.check(Variant.named("brandubh"))


def check_games(games, variant, faults=()):
    """Every game ended; the rules replay each one to its result."""
    for g in games:
        assert g.counted, g.describe() + g.detail
        parsed = game_parse(g.text)
        r = Rules(parsed["start"], variant)
        for m in parsed["moves"]:
            assert r.play(m) == 0, (g.describe(), m)
        if g.fault is None:
            assert (g.reason, g.winner_side) == (outcome_name(r.outcome), r.winner), g.describe()
        else:
            assert g.reason in faults and not r.is_over(), g.describe()
    assert_no_process_left(games)


def test_the_engine_plays_the_engine_player_through_the_arena(capsys):
    code = main(["match", f"protocol=opentafl,cmd={ENGINE} --budget 300", "budget=300",
                 "--games", "2", "--jobs", "2", "--variant", "opentafl", "--random-plies", "2", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    summary = json.loads(out.out)
    assert summary["players"]["A"] == f"opentafl: {ENGINE} --budget 300"
    games = summary["games"]
    assert len(games) == 2 and {g["attackers"] for g in games} == {"A", "B"}
    for g in games:
        assert g["fault"] is None, g
        parsed = game_parse(g["text"])
        r = Rules(parsed["start"], "opentafl")
        for m in parsed["moves"]:
            assert r.play(m) == 0
        assert (g["reason"], g["winner_side"]) == (outcome_name(r.outcome), r.winner)


def test_the_engine_against_a_crashing_and_a_hanging_opentafl_engine(tmp_path):
    log = tmp_path / "hang.log"
    crash = ProcessPlayer(f"{OTEP_BOT} --crash-at 3", name="C", protocol="opentafl")
    hang = ProcessPlayer(f"{OTEP_BOT} --hang-at 2 --child --log {shlex.quote(str(log))}", name="H",
                         protocol="opentafl")
    me = ProcessPlayer(f"{ENGINE} --budget 200", name="O", protocol="opentafl")
    # The hanging engine's only later answer is the one it never gives.
    limits = Limits(first_ms=30_000, turn_ms=1000, startup_ms=10_000, lenient=False)
    specs = [GameSpec(0, (crash, me), "p1", variant="opentafl"),
             GameSpec(1, (me, hang), "p1", variant="opentafl", limits=limits)]
    games = [None, None]

    def play(i):
        games[i] = play_game(specs[i])

    threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert (games[0].reason, games[0].fault, games[0].winner) == ("crash", "C", "O")
    assert "exited with code 1" in games[0].detail
    assert (games[1].reason, games[1].fault, games[1].winner) == ("timeout", "H", "O")
    check_games(games, "opentafl", faults=("crash", "timeout"))
    # The hanging engine was told the game as OpenTafl tells it.
    told = log.read_text().splitlines()
    assert told[0] == "rules " + RulesRecord.of("opentafl", SETUP).text
    assert told[1].startswith("opponent-move ") and told[2] == "play defenders"
    assert told[3] == "clock 30000* 30000* 30 1 1"
    # Its second turn: its move confirmed, the engine's sent, play (and it hangs).
    assert [line.split()[0] for line in told[4:]] == ["move", "opponent-move", "play"]


def test_a_game_ends_with_finish_and_goodbye_and_its_last_move_unconfirmed(tmp_path):
    log = tmp_path / "bot.log"
    bot = ProcessPlayer(f"{OTEP_BOT} --seed 5 --log {shlex.quote(str(log))}", name="O", protocol="opentafl")
    me = BotPlayer.from_text("budget=300", name="E")
    game = play_game(GameSpec(0, (bot, me), "p1", variant="opentafl"))
    check_games([game], "opentafl")
    told = log.read_text().splitlines()
    assert told[0] == "rules " + RulesRecord.of("opentafl", SETUP).text and told[1] == "play attackers"
    assert told[-2:] == [{"attackers": "finish 2", "defenders": "finish 3", None: "finish 1"}[game.winner_side],
                         "goodbye"]
    # Every move but the last was told: the bot's confirmed, the engine's sent.
    parsed = game_parse(game.text)
    r = Rules(parsed["start"], "opentafl")
    expected = []
    for m in parsed["moves"][:-1]:
        mover = r.side
        r.play(m)
        board = position_record(r.position)
        expected.append(f"move {board}" if mover == "attackers" else f"opponent-move {simple_move(m)} {board}")
    assert [x for x in told if x.startswith(("move", "opponent-move"))] == expected


@pytest.mark.slow
def test_opentafl_engines_play_each_other_and_the_engine_player():
    players = [ProcessPlayer(f"{ENGINE} --budget 2000", protocol="opentafl"),
               ProcessPlayer(f"{OTEP_BOT} --seed 3", protocol="opentafl"),
               BotPlayer.from_text("budget=1000")]
    result = run_event(Event(players, games=6, variant="opentafl", jobs=2))
    assert len(result.games) == 18
    check_games(result.games, "opentafl")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["brandubh", "opentafl", "modern"])
def test_the_done_when_match(capsys, variant):
    code = main(["match", f"protocol=opentafl,cmd={ENGINE} --level 3 --variant {variant}", "level=2",
                 "--games", "10", "--jobs", "2", "--variant", variant, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    games = json.loads(out.out)["games"]
    assert len(games) == 10
    for g in games:
        assert g["fault"] is None, g
        parsed = game_parse(g["text"])
        r = Rules(parsed["start"], variant)
        for m in parsed["moves"]:
            assert r.play(m) == 0
        assert (g["reason"], g["winner_side"]) == (outcome_name(r.outcome), r.winner)


@pytest.mark.slow
def test_under_a_clock_the_engine_thinks_within_its_share(tmp_path):
    # The engine says on standard error (--verbose) how long each move was
    # given: never more than the share of the clock it was sent.
    player = ProcessPlayer(f"{ENGINE} --level 6 --verbose", name="O", protocol="opentafl")
    me = BotPlayer.from_text("budget=2000", name="E")
    limits = Limits(first_ms=2000, turn_ms=200, startup_ms=10_000, lenient=True, hang_ms=30_000)
    games = [play_game(GameSpec(i, (player, me), "p1" if i % 2 == 0 else "p2", variant="opentafl",
                                limits=limits)) for i in range(2)]
    check_games(games, "opentafl")
    first = Clock.parse("2000* 2000* 2 1 1").share_ms("attackers")
    later = Clock.parse("200* 200* 1 1 1").share_ms("attackers")
    for g in games:
        given = [float(x) for x in re.findall(r"clock (\d+) ms\)", g.stderr["O"])]
        assert given and given[0] <= first and all(x <= later for x in given[1:]), given


# -- the docs page ---------------------------------------------------------------------------


def test_the_docs_page_maps_every_field_and_names_only_real_options():
    import argparse

    from brandubh.cli import match, opentafl

    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    first_cells = [line.split("|")[1] for line in page.splitlines() if line.startswith("| `")]
    assert set(re.findall(r"`([a-z]+)`", " ".join(first_cells))) == FIELDS
    parser = argparse.ArgumentParser(prog="brandubh")
    sub = parser.add_subparsers(dest="command")
    opentafl.register(sub)
    match.register(sub)
    known = {o for name in ("opentafl", "match") for a in sub.choices[name]._actions for o in a.option_strings}
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", page))
    assert named and named <= known, named - known
    # The page's Brandub record is the one the code knows.
    assert OPENTAFL_BRANDUB in page
