"""The CodinGame protocol (brandubh.codingame.turns) and the bot that speaks it
(brandubh.codingame.bot): the exact lines of a known game, written by hand
from the CodinGame puzzle's statement; boards to positions and back; the
game record a bot rebuilds, and how it starts again from the board when the
input does not follow; the bot's loop on good, odd and garbage input.

Run: python -m pytest -q tests/test_protocol.py
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys

import pytest

import brandubh.codingame.bot as codingame
from brandubh import SETUP
from brandubh.core.position import move_text, parse_move
from brandubh.codingame.turns import (
    ProtocolError,
    Tracker,
    board_lines,
    game_inputs,
    parse_answer,
    parse_turn,
    position_of_board,
    role_of,
    side_of_role,
    turn_input,
    turn_lines,
)
from brandubh.core.rules import Rules

HAS_SEARCH = hasattr(Rules, "search")
# The bot processes run from this directory, not from the repository's root:
# there `python -m` would put the source tree's brandubh/ (no compiled
# engine unless installed editable) ahead of the installed package.
HERE = os.path.dirname(os.path.abspath(__file__))

# A known game under codingame, from the set-up:
#   1. d1b1        an attacker to b1, beside the corner a1
#   2. c4c1xb1     a defender closes b1 against the empty corner: captured
#   3. b4c4        an attacker beside the king on his throne (no capture)
#   4. d3c3
#   5. a4a3
#   6. d5c5xc4     a defender closes c4 against the defender on c3
KNOWN_MOVES = ["d1b1", "c4c1", "b4c4", "d3c3", "a4a3", "d5c5"]

# What each bot reads before each turn, written by hand from the CodinGame
# puzzle's statement: the role, the last move (NONE first), the board from
# rank 7 down.
KNOWN_TURNS = [
    ("attackers", """\
0
NONE
...A...
...A...
...D...
AADKDAA
...D...
...A...
...A...
"""),
    ("defenders", """\
1
d1b1
...A...
...A...
...D...
AADKDAA
...D...
...A...
.A.....
"""),
    ("attackers", """\
0
c4c1
...A...
...A...
...D...
AA.KDAA
...D...
...A...
..D....
"""),
    ("defenders", """\
1
b4c4
...A...
...A...
...D...
A.AKDAA
...D...
...A...
..D....
"""),
    ("attackers", """\
0
d3c3
...A...
...A...
...D...
A.AKDAA
..D....
...A...
..D....
"""),
    ("defenders", """\
1
a4a3
...A...
...A...
...D...
..AKDAA
A.D....
...A...
..D....
"""),
    ("attackers", """\
0
d5c5
...A...
...A...
..D....
...KDAA
A.D....
...A...
..D....
"""),
]


def first_legal(record, budget):
    """A test chooser: the first legal move (never the product's choice)."""
    return record.moves()[0]


# ---------------------------------------------------------------- the lines


def test_known_game_lines_exactly():
    assert game_inputs(KNOWN_MOVES) == KNOWN_TURNS


def test_known_game_turns_read_back():
    r = Rules(variant="codingame")
    for (side, text), m in zip(KNOWN_TURNS, KNOWN_MOVES + [None]):
        turn = parse_turn(text.splitlines())
        assert turn.side == side == r.side
        assert turn.position == r.position
        if m is not None:
            assert r.play(m) == 0
            assert turn_input(r.side, m, r.position) == KNOWN_TURNS[r.ply][1]


def test_setup_board_lines():
    assert board_lines(SETUP) == ["...A...", "...A...", "...D...", "AADKDAA",
                                  "...D...", "...A...", "...A..."]
    assert position_of_board(board_lines(SETUP), 0) == SETUP
    assert position_of_board(board_lines(SETUP), "defenders") == SETUP[:-1] + "d"


def test_roles():
    assert [side_of_role(x) for x in (0, 1, "0", "1", "a", "d", "attackers")] == [
        "attackers", "defenders", "attackers", "defenders", "attackers", "defenders", "attackers"]
    assert role_of("defenders") == 1
    for bad in (2, -1, True, "x", None, "01"):
        with pytest.raises(ProtocolError):
            side_of_role(bad)


def test_board_round_trip_on_random_positions():
    rng = random.Random(5)
    for _ in range(200):
        r = Rules(variant="codingame")
        for _ in range(rng.randrange(60)):
            if r.is_over():
                break
            r.play(rng.choice(r.moves()))
        lines = board_lines(r.position)
        assert all(len(x) == 7 and set(x) <= set(".ADK") for x in lines)
        assert position_of_board(lines, r.side) == r.position


@pytest.mark.parametrize("lines, words", [
    (["......."] * 6, "7 lines"),
    (["......."] * 6 + ["......"], "6 characters"),
    (["......."] * 6 + ["..x...."], "'x'"),
    (["...K..."] * 2 + ["......."] * 5, "2 kings"),
    (["......."] * 6 + ["...a..."], "'a'"),
])
def test_bad_boards(lines, words):
    with pytest.raises(ProtocolError, match=words):
        position_of_board(lines, 0)


def test_parse_turn_errors():
    good = ["0", "NONE", *board_lines(SETUP)]
    assert parse_turn(good).last_action is None
    assert parse_turn([x + "\r\n" for x in good]).role == 0
    with pytest.raises(ProtocolError, match="9 lines"):
        parse_turn(good[:8])
    with pytest.raises(ProtocolError, match="role"):
        parse_turn(["2", *good[1:]])
    with pytest.raises(ProtocolError, match="last move"):
        parse_turn(["0", "d2-d4", *good[2:]])
    with pytest.raises(ProtocolError, match="last move"):
        parse_turn(["0", "D2D4", *good[2:]])


def test_parse_answer():
    assert move_text(parse_answer("d2d4")) == "d2d4"
    assert move_text(parse_answer(b"  g7a7 \r\n")) == "g7a7"
    assert move_text(parse_answer("D2 d4")) == "d2d4"   # as the referee reads it
    for bad in ("", "d2d8", "d2-d4", "d2d4 d4d5", "Kd2d4", "d2d4x", "NONE"):
        with pytest.raises(ProtocolError):
            parse_answer(bad)


def test_turn_lines_refuses_bad_last_move():
    with pytest.raises(ProtocolError):
        turn_lines(0, "d9d4", SETUP)
    assert turn_lines(0, "NONE", SETUP)[1] == "NONE"
    assert turn_lines(0, "Kd4-d1", SETUP)[1] == "d4d1"


# ---------------------------------------------------------------- the record


def _follow(game_moves, start=SETUP, variant="codingame"):
    """Both bots' trackers over a game, the referee's Rules beside them."""
    referee = Rules(start, variant)
    trackers = {"attackers": Tracker(variant), "defenders": Tracker(variant)}
    last = None
    for m in game_moves:
        side = referee.side
        t = trackers[side]
        record = t.update(turn_lines(side, last, referee.position))
        assert t.notes == []
        assert record.position == referee.position
        assert record.repeats == referee.repeats
        yield t, record, referee
        t.played(m)
        assert referee.play(m) == 0
        last = move_text(parse_move(m))


def test_tracker_keeps_the_whole_record():
    rng = random.Random(11)
    for game in range(20):
        r = Rules(variant="codingame")
        while not r.is_over():
            r.play(rng.choice(r.moves()))
        moves = r.log()
        for t, record, referee in _follow(moves):
            # The bot's record is the game itself, from the set-up...
            assert record.log() == referee.log()
            assert record.start == SETUP
            assert t.resyncs == 0


def test_tracker_sees_repetition_as_the_referee_does():
    # Attackers and defenders shuffle; the position after a4a5 comes back.
    shuffle = ["a4a5", "c4c5", "a5a4", "c5c4"] * 2
    seen = []
    for t, record, referee in _follow(shuffle):
        seen.append(record.repeats)
    # The set-up is not recorded at the start under codingame, so it counts
    # once at ply 4; the positions of plies 1-3 come back at plies 5-7.
    assert seen == [1, 1, 1, 1, 1, 2, 2, 2]
    r = Rules(variant="codingame")
    for m in shuffle + ["a4a5"]:
        r.play(m)
    assert r.outcome.name == "REPETITION" and r.winner == "defenders"


def test_tracker_first_turn_from_another_position():
    t = Tracker()
    position = "7/7/7/3k3/7/7/a6 d"
    record = t.update(turn_lines(1, "b1a1", position))
    assert record.position == position and record.ply == 0
    assert t.resyncs == 1 and "not the set-up after b1a1" in t.notes[0]
    # With NONE, a position that is not the set-up is simply the start.
    t = Tracker()
    record = t.update(turn_lines(1, None, position))
    assert record.position == position and t.notes == [] and t.resyncs == 0


@pytest.mark.parametrize("last", ["D2C2", "d2 c2", "D2 c2", " d2c2 "])
def test_tracker_reads_the_last_move_as_the_referee_reads_answers(last):
    # The opponent's answer, in a form the referee takes, passed on as written:
    # the record follows it, with no resync.
    after = Rules(variant="codingame")
    after.play("d2c2")
    lines = turn_lines(1, "d2c2", after.position)
    t = Tracker()
    record = t.update([lines[0], last + "\n", *lines[2:]])
    assert record.ply == 1 and t.notes == [] and t.resyncs == 0


def test_tracker_resyncs_when_the_board_does_not_follow():
    t = Tracker()
    r = t.update(turn_lines(0, None, SETUP))
    t.played("d2c2")
    # The referee says d3d2, but shows a board where the defender went to e3.
    wrong = Rules(variant="codingame")
    wrong.play("d2c2")
    wrong.play("d3e3")
    r = t.update(turn_lines(0, "d3d2", wrong.position))
    assert r.position == wrong.position and r.ply == 0 and r.side == "attackers"
    assert t.resyncs == 1 and "not the board given" in t.notes[0]
    # An impossible last move: the same.
    t.played("b4b3")
    r = t.update(turn_lines(0, "a1a2", SETUP))
    assert r.position == SETUP and "cannot be played" in t.notes[0]


def test_tracker_garbage_lines():
    t = Tracker()
    t.update(turn_lines(0, None, SETUP))
    t.played("d2c2")
    after = Rules(variant="codingame")
    after.play("d2c2")
    after.play("d3d2")
    good = turn_lines(0, "d3d2", after.position)
    # An unreadable board: the record and the reported move carry on.
    r = t.update(good[:2] + ["what"] * 7)
    assert r.position == after.position and r.ply == 2
    assert any("cannot be read" in n for n in t.notes)
    t.played("b4b3")
    after.play("b4b3")
    after.play("e4e3")
    # An unreadable role line: the role is kept.
    r = t.update(["x"] + turn_lines(0, "e4e3", after.position)[1:])
    assert r.position == after.position and r.ply == 4 and any("role" in n for n in t.notes)
    # A garbage last move on a later turn: start again from the board.
    t.played("a4a3")
    after.play("a4a3")
    after.play("e3e2")
    r = t.update(["0", "e3-e2"] + board_lines(after.position))
    assert r.position == after.position and r.ply == 0


def test_tracker_nothing_readable():
    t = Tracker()
    assert t.update(["?"] * 9) is None
    assert t.notes
    # Two kings and a stray letter: a board is still made of it.
    lines = ["0", "NONE", "...K...", "...K...", "...x...", "AAD.DAA", "...D...", "...A...", "..."]
    r = Tracker().update(lines)
    assert r is not None and r.count("king") == 1 and r.side == "attackers"


# ---------------------------------------------------------------- the bot's loop


def _run_bot(text, choose=first_legal, first=1000, turn=1000):
    out, err = io.StringIO(), io.StringIO()
    code = codingame.play(io.StringIO(text), out, err, choose, first, turn, "codingame")
    return code, out.getvalue().splitlines(), err.getvalue()


def test_bot_loop_plays_the_known_game_seat():
    # The defenders' inputs of the known game; the chooser plays the game's moves.
    script = iter(KNOWN_MOVES[1::2])

    def scripted(record, budget):
        return parse_move(next(script))

    text = "".join(t for side, t in KNOWN_TURNS if side == "defenders")
    code, answers, err = _run_bot(text, scripted)
    assert code == 0 and answers == KNOWN_MOVES[1::2] and err == ""


def test_bot_loop_answers_a_legal_move_to_garbage():
    turns = "0\nNONE\n" + "\n".join(board_lines(SETUP)) + "\n"
    garbage = "0\nd1d1\n" + "x\n" * 7
    blank_lead = "\n\n" + turns
    code, answers, err = _run_bot(turns + garbage + blank_lead + "1\nNONE\n...")
    assert code == 0 and len(answers) == 4
    legal = {move_text(m) for m in Rules(variant="codingame").moves()}
    assert answers[0] in legal and answers[2] in legal
    assert "brandubh codingame: turn 2" in err


def test_bot_loop_chooser_failures_still_answer():
    def broken(record, budget):
        raise RuntimeError("boom")

    def wrong(record, budget):
        return parse_move("a1a1")

    turns = "0\nNONE\n" + "\n".join(board_lines(SETUP)) + "\n"
    for choose, words in ((broken, "boom"), (wrong, "not legal")):
        code, answers, err = _run_bot(turns, choose)
        assert code == 0 and answers == ["d1b1"] and words in err


def test_bot_plays_on_when_its_record_says_the_game_is_over():
    # The attackers repeat a position a third time (a loss for them under
    # codingame), but a referee asks the defenders to move anyway.
    shuffle = ["a4a5", "c4c5", "a5a4", "c5c4"] * 2 + ["a4a5"]
    inputs = [t for side, t in game_inputs(shuffle[:-1]) if side == "defenders"]
    r = Rules(variant="codingame")
    for m in shuffle:
        r.play(m)
    assert r.is_over()
    inputs.append(turn_input(1, "a4a5", Rules(r.position, "codingame").position))
    replies = iter(shuffle[1::2] + ["c4c5"])

    def scripted(record, budget):
        return parse_move(next(replies))

    code, answers, err = _run_bot("".join(inputs), scripted)
    assert answers == ["c4c5", "c5c4", "c4c5", "c5c4", "c4c5"]
    assert "says the game is over (repetition)" in err


def test_bot_no_move_at_all():
    # The defenders' king is shut in on the edge and is all they have.
    position = "7/7/7/7/7/3a3/2aka2 d"
    code, answers, err = _run_bot(turn_input(1, None, position))
    assert answers == ["NONE"] and "no legal move" in err


def test_budgets():
    assert codingame.budgets() == (175_000, 125_000)
    assert codingame.budgets(budget=1000) == (1400, 1000)
    assert codingame.budgets(budget=1000, first_budget=7) == (7, 1000)
    assert codingame.budgets(rate=10e6) == (350_000, 250_000)
    with pytest.raises(Exception):
        codingame.budgets(budget=0)


def test_bot_command_help_and_register():
    import argparse

    from brandubh.cli import codingame as command

    parser = argparse.ArgumentParser(prog="brandubh")
    sub = parser.add_subparsers(dest="command")
    command.register(sub)
    args = parser.parse_args(["codingame", "--level", "3", "--budget", "5000", "--seed", "9"])
    assert (args.level, args.budget, args.seed, args.variant) == (3, 5000, 9, "codingame")
    assert args.run is command.run
    for bad in (["--level", "0"], ["--level", "99"], ["--budget", "0"], ["--seed", "-1"]):
        with pytest.raises(SystemExit):
            parser.parse_args(["codingame", *bad])
    text = sub.choices["codingame"].format_help()
    for words in ("--level", "--budget", "--first-budget", "--margin", "--seed", "NONE", "175,000"):
        assert words in text


# ---------------------------------------------------------------- the real bot


def _bot_process(*args):
    return subprocess.run([sys.executable, "-m", "brandubh.codingame", *args],
                          input="".join(t for side, t in KNOWN_TURNS if side == "defenders"),
                          capture_output=True, text=True, timeout=60, cwd=HERE)


@pytest.mark.skipif(not HAS_SEARCH, reason="Rules.search is not built yet")
def test_real_bot_answers_legal_moves_over_the_protocol():
    done = _bot_process("--budget", "3000")
    assert done.returncode == 0, done.stderr
    answers = done.stdout.splitlines()
    assert len(answers) == 3
    # Each answer is legal in the position the bot was shown.
    for (side, text), answer in zip([t for t in KNOWN_TURNS if t[0] == "defenders"], answers):
        r = Rules(parse_turn(text.splitlines()).position, "codingame")
        assert parse_move(answer) in r.moves()
    # The boards after its answers were not its moves: it says so, and resyncs.
    assert "starting again from the board" in done.stderr
    # Deterministic: the same input, the same answers.
    assert _bot_process("--budget", "3000").stdout == done.stdout


@pytest.mark.skipif(not HAS_SEARCH, reason="Rules.search is not built yet")
def test_real_bot_survives_garbage_input():
    done = subprocess.run([sys.executable, "-m", "brandubh.codingame", "--budget", "2000"],
                          input="hello\nworld\n" + "???\n" * 7 + "0\nNONE\n" + "\n".join(board_lines(SETUP)) + "\n",
                          capture_output=True, text=True, timeout=60, cwd=HERE)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert parse_move(lines[1]) in Rules(variant="codingame").moves()
    assert "brandubh codingame: turn 1" in done.stderr


@pytest.mark.skipif(not HAS_SEARCH, reason="Rules.search is not built yet")
def test_real_bot_plays_to_the_clock_by_default():
    done = _bot_process("--verbose", "--margin", "25")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 3
    assert "clock 75 ms then 25 ms" in done.stderr
    assert "clock 75 ms," in done.stderr and "clock 25 ms," in done.stderr
    # A budget reads no clock.
    fixed = _bot_process("--verbose", "--budget", "3000")
    assert "budgets 4200 then 3000" in fixed.stderr and "clock" not in fixed.stderr
