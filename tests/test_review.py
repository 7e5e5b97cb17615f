"""Readable scores (brandubh.chances) and the review of a game
(brandubh.review, Game.analyse, brandubh analyse, the page's review).

The curves are checked against games they were not fitted on, the marks
against positions whose blunder the rules show (a move after which the
other side wins at once), and the command's outputs against the review."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from brandubh import Game
from brandubh.chances import CP_SLOPE, CURVES, Outlook, curve_for
from brandubh.review import MARKS, accuracy_of, analyse_game, mark_of

# A game of the engine's own at level 1 that ends with a move after which the
# attackers win at once, found by random play: the position before it had 24
# safe moves (tests check that, not trust it).
BLUNDER_LEAD = ("d1b1 d5g5 a4a2 e4e1 b4b3 e1e4 f4f1 c4c2 f1c1 c2c6 g4g3 d4b4 a2b2 d3c3 d7f7 c3c2 b3e3 c6c4 "
                "e3a3").split()


# -- the curves -------------------------------------------------------------------------


def test_every_preset_and_evaluation_has_a_fitted_curve():
    for (evaluation, preset), curve in CURVES.items():
        assert curve.slope > 0 and curve.positions >= 50_000, (evaluation, preset)
        assert abs(curve.centre_attackers) < 2000 and abs(curve.centre_defenders) < 2000


def test_the_outlook_is_the_same_position_seen_from_either_side():
    for raw in (-900, -120, 0, 45, 700):
        for mover in ("attackers", "defenders"):
            a = Outlook.of(raw, None, side_to_move=mover, viewer="attackers")
            d = Outlook.of(raw, None, side_to_move=mover, viewer="defenders")
            assert math.isclose(a.chance + d.chance, 1.0)
            assert a.score == -d.score
            back = d.of_other()
            assert back.viewer == "attackers" and math.isclose(back.chance, a.chance, abs_tol=1e-12) and back.score == a.score
    # More raw score for the side to move is more chance for it.
    chances = [Outlook.of(raw, None, side_to_move="defenders", viewer="defenders").chance for raw in range(-500, 501, 50)]
    assert chances == sorted(chances) and chances[0] < 0.5 < chances[-1]


def test_the_centre_reads_zero_and_an_even_chance():
    curve = curve_for("brandubh")
    # A raw score is a whole number: rounded to one, it is off by half a
    # unit at most, and the shown score, in hundredths, by half of one more.
    off = 0.5 * curve.slope / (100 * CP_SLOPE) + 0.005
    raw = round(curve.centre_attackers)
    o = Outlook.of(raw, None, side_to_move="attackers", viewer="attackers")
    assert abs(o.chance - 0.5) < 0.01 and abs(o.score) <= off
    # +1.0 is lichess's pawn: about 59%.
    target = curve.centre_attackers + 100 * CP_SLOPE / curve.slope
    o = Outlook.of(round(target), None, side_to_move="attackers", viewer="attackers")
    assert abs(o.score - 1.0) <= off and abs(o.chance - 1 / (1 + math.exp(-100 * CP_SLOPE))) < 0.01


def test_a_found_win_reads_in_the_winners_moves():
    # The mover wins on his 3rd move: plies 1, 3, 5.
    assert str(Outlook.of(29_995, 5, side_to_move="defenders", viewer="defenders")) == "wins in 3"
    # The mover loses on the other side's 2nd move: ply 4.
    assert str(Outlook.of(-29_996, 4, side_to_move="defenders", viewer="attackers")) == "wins in 2"
    assert str(Outlook.of(-29_996, 4, side_to_move="defenders", viewer="defenders")) == "loses in 2"


def test_the_set_up_reads_as_the_defenders_game_under_brandubh_rules():
    # Between equal engines the defenders win most games under brandubh rules:
    # whatever the raw sum says, the set-up must not read as the attackers'.
    found = Game().search(budget=20_000, salt="t")
    o = Outlook.of(found.score, found.mate_in, side_to_move="attackers", viewer="attackers")
    assert o.chance < 0.5 and o.score < 0


@pytest.mark.parametrize("variant", ["brandubh", "codingame"])
def test_the_curve_predicts_games_it_was_not_fitted_on(variant, tmp_path):
    # Fresh self-play data (another seed, a smaller budget): the curve's
    # log-loss must beat the best constant's, the check the fit made.
    from brandubh.learn.selfplay import generate, read_data

    path = tmp_path / "d.bin"
    generate(str(path), 3000, seed=987, variants=[variant], budget=600)
    _, records = read_data(str(path))
    pairs = []
    for r in records:
        if abs(r.score) >= 29000:
            continue
        mover = "attackers" if r.side == 0 else "defenders"
        raw = r.score if mover == "attackers" else -r.score  # the data's score is the attackers'
        chance = Outlook.of(raw, None, side_to_move=mover, viewer="attackers", variant=variant).chance
        pairs.append((min(max(chance, 1e-6), 1 - 1e-6), (r.result + 1) / 2))
    mean = sum(y for _, y in pairs) / len(pairs)

    def loss(p: float, y: float) -> float:
        return -(y * math.log(p) + (1 - y) * math.log(1 - p))

    fitted = sum(loss(p, y) for p, y in pairs) / len(pairs)
    constant = sum(loss(min(max(mean, 1e-6), 1 - 1e-6), y) for _, y in pairs) / len(pairs)
    assert fitted < constant * 0.8, (fitted, constant)


# -- the marks ----------------------------------------------------------------------------


def test_marks_and_accuracy_by_the_chance_lost():
    assert [mark for mark, _, _ in MARKS] == ["??", "?", "?!"]
    for mark, least, _ in MARKS:
        assert mark_of(least) == mark and mark_of(least - 1e-9) != mark
    assert mark_of(0.0) == ""
    accuracies = [accuracy_of(lost / 100) for lost in range(0, 101, 5)]
    assert accuracies == sorted(accuracies, reverse=True) and accuracies[-1] == 0.0 and accuracies[0] > 99.9


def _blunder_position() -> tuple[Game, str, str]:
    game = Game.replay(BLUNDER_LEAD).game
    losing, safe = [], []
    for m in game.legal():
        after = game.replay(game.log).game
        after.play(m.move)
        if after.status != "active":
            continue
        (losing if any(x.wins for x in after.legal()) else safe).append(m.move)
    assert losing and len(safe) >= 10
    return game, losing[0], safe[0]


def test_a_move_that_gives_the_other_side_a_win_at_once_is_a_blunder():
    game, losing, _ = _blunder_position()
    game.play(losing)
    review = analyse_game(game, budget=4_000)
    last = review.moves[-1]
    assert last.move == losing and last.after.loses_in == 1
    assert last.before.chance >= 0.25  # the mover had 24 safe moves
    assert last.mark == "??" and last.best != losing
    assert last.comment.startswith("blunder (") and last.best_shown in last.comment
    # The side that blundered has the lower accuracy of its moves there.
    assert last.accuracy < 50


def test_the_engines_own_move_loses_nothing():
    game, _, _ = _blunder_position()
    best = game.search(budget=4_000, salt="analysis").move
    game.play(best)
    last = analyse_game(game, budget=4_000).moves[-1]
    assert last.move == last.best and last.lost == 0.0 and last.mark == ""


def test_the_review_is_deterministic_and_its_curve_matches_its_moves():
    game = Game.replay(BLUNDER_LEAD[:8]).game
    one, two = game.analyse(budget=2_000), game.analyse(budget=2_000)
    assert one == two
    assert len(one.curve) == len(one.moves) + 1 == game.ply + 1
    for m in one.moves:
        # The attackers' chance after a move is the mover's (or its complement).
        after = m.after.chance if m.side == "attackers" else 1 - m.after.chance
        assert math.isclose(one.chances[m.ply], after)
        assert m.lost == (0.0 if m.move == m.best else max(0.0, m.before.chance - m.after.chance))
    data = one.as_dict()
    assert json.loads(json.dumps(data)) == data and len(data["moves"]) == game.ply


# -- brandubh analyse ------------------------------------------------------------------------


def _run(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys; from brandubh.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, timeout=120, **kw)


def test_the_command_writes_a_table_json_and_a_graph(tmp_path):
    game, losing, _ = _blunder_position()
    game.play(losing)
    path = tmp_path / "game.txt"
    path.write_text(game.as_text())
    out = _run("analyse", str(path), "--budget", "4000", "--json-out", str(tmp_path / "r.json"),
               "--svg", str(tmp_path / "g.svg"))
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == game.ply
    assert "??" in rows[-1] and game.shown[-1] in rows[-1]
    # The chance lost, never below zero, is shown as it is: no minus sign.
    last = analyse_game(game, budget=4000).moves[-1]
    assert rows[-1].split()[5] == f"{last.lost:.0%}"          # was -100%
    assert last.comment.startswith(f"blunder (lost {last.lost:.0%}): best was ")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["moves"][-1]["mark"] == "??" and data["budget"] == 4000 and data["complete"] is True
    assert data == analyse_game(game, budget=4000).as_dict()
    svg = (tmp_path / "g.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == sum(1 for m in data["moves"] if m["mark"])


def test_json_is_a_flag_as_in_match_and_referee(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(Game.replay(BLUNDER_LEAD[:4]).game.as_text())
    want = analyse_game(Game.replay(BLUNDER_LEAD[:4]).game, budget=500).as_dict()
    for args in (["analyse", str(path), "--json"], ["analyse", "--json", str(path)]):
        out = _run(*args, "--budget", "500")
        assert out.returncode == 0 and out.stderr == "", out.stderr
        assert json.loads(out.stdout) == want               # the JSON alone, no table
    out = _run("analyse", str(path), "--budget", "500", "--json-out", str(tmp_path / "new.json"))
    assert out.returncode == 0 and json.loads((tmp_path / "new.json").read_text()) == want
    old = _run("analyse", str(path), "--budget", "500", "--json", str(tmp_path / "old.json"))   # the old form
    assert old.returncode == 0 and json.loads((tmp_path / "old.json").read_text()) == want
    assert old.stderr.startswith(f"brandubh analyse: --json {tmp_path / 'old.json'} is the old form")
    assert "--json-out" in old.stderr and old.stdout == out.stdout
    both = _run("analyse", str(path), "--json", "--json-out", str(tmp_path / "x.json"))
    assert both.returncode == 2 and "give one place for the JSON" in both.stderr
    assert not (tmp_path / "x.json").exists()


def test_the_opening_of_a_match_game_is_shown_but_not_judged(tmp_path):
    from brandubh.records import OPENING_TAG, GameRecord

    game, losing, _ = _blunder_position()
    game.play(losing)
    assert analyse_game(game, budget=4000).moves[-1].mark == "??"
    path = tmp_path / "game.txt"
    path.write_text(GameRecord(game, tags={OPENING_TAG: str(game.ply)}).as_text())   # the blunder was random
    out = _run("analyse", str(path), "--budget", "4000", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["opening"] == game.ply and len(data["moves"]) == game.ply
    assert all(m["opening"] and m["mark"] == "" and m["lost"] == 0 for m in data["moves"])
    assert data["accuracy"] == {"attackers": None, "defenders": None}
    table = _run("analyse", str(path), "--budget", "4000").stdout
    assert "??" not in table and f"(moves 1 to {game.ply}: the opening, chosen by neither side, not judged)" in table
    # One move fewer of opening: the last move is judged again.
    path.write_text(GameRecord(game, tags={OPENING_TAG: str(game.ply - 1)}).as_text())
    data = json.loads(_run("analyse", str(path), "--budget", "4000", "--json").stdout)
    assert data["moves"][-1]["mark"] == "??" and not data["moves"][-1]["opening"]
    path.write_text(GameRecord(game, tags={OPENING_TAG: "x"}).as_text())
    bad = _run("analyse", str(path), "--budget", "4000")
    assert bad.returncode == 2 and f"the tag {OPENING_TAG}" in bad.stderr and "Traceback" not in bad.stderr


def test_the_command_refuses_a_bad_budget_and_an_unwritable_output(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("variant brandubh\nmoves d2c2\n")
    out = _run("analyse", str(path), "--budget", "0")
    assert out.returncode == 2 and "budget" in out.stderr and "Traceback" not in out.stderr
    out = _run("analyse", str(path), "--json", str(tmp_path / "no" / "such" / "r.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr and "r.json" in out.stderr


def _wait_until_busy(pid: int, cpu_seconds: float) -> None:
    """Wait until the process has used ``cpu_seconds`` of processor time
    (Linux's /proc; elsewhere a few seconds)."""
    from brandubh.arena.reaping import process_info

    if process_info(pid) is None:
        time.sleep(4.0)
        return
    end = time.monotonic() + 60
    while time.monotonic() < end:
        info = process_info(pid)
        if info is None or info.cpu_ticks / os.sysconf("SC_CLK_TCK") >= cpu_seconds:
            return
        time.sleep(0.1)


def test_ctrl_c_keeps_what_is_done(tmp_path):
    game = Game.replay(BLUNDER_LEAD).game
    path = tmp_path / "game.txt"
    path.write_text(game.as_text())
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from brandubh.cli import main; sys.exit(main())",
                             "analyse", str(path), "--budget", "100000000", "--json", str(tmp_path / "r.json")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_until_busy(proc.pid, cpu_seconds=1.5)  # past its start-up, deep in a search
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped by Ctrl-C after" in err and "Traceback" not in err
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["complete"] is False and data["total"] == game.ply and len(data["moves"]) < game.ply
    assert f"stopped after {len(data['moves'])} of {game.ply} moves" in out


def test_annotated_outputs_read_back_with_the_marks(tmp_path):
    # The annotated game text and the OpenTafl record carry the review's
    # marks and comments, and the one reader takes both back.
    from brandubh.records import read_record

    game, losing, _ = _blunder_position()
    game.play(losing)
    path = tmp_path / "games.txt"
    path.write_text("# first\n" + Game.replay(["d2c2"]).game.as_text() + "\n# the blunder\n" + game.as_text())
    out = _run("analyse", str(path), "--game", "2", "--budget", "4000", "--quiet",
               "--annotated", str(tmp_path / "marked.txt"), "--otn", str(tmp_path / "marked.otg"))
    assert out.returncode == 0, out.stderr
    review = analyse_game(game, budget=4000)
    marks = {m.ply: m.mark for m in review.moves if m.mark}
    assert marks[game.ply] == "??"
    for name in ("marked.txt", "marked.otg"):
        back = read_record((tmp_path / name).read_text())
        assert back.game.log == game.log and back.marks == marks, name
        assert back.comments[game.ply].startswith("blunder (")
    assert read_record((tmp_path / "marked.txt").read_text()).label == "the blunder"


def test_show_prints_the_readable_score(tmp_path):
    path = tmp_path / "g.txt"
    # The king on g2, one slide from g1 or g7: the defenders win at once.
    path.write_text("variant brandubh\nstart 7/7/7/7/a6/6k/7 d\nmoves\n")
    out = _run("show", str(path), "--score", "--ascii")
    assert out.returncode == 0, out.stderr
    assert "(the defenders win at once)" in out.stdout
    # The set-up: a centred score and a chance for the attackers, who lose most games.
    path.write_text("variant brandubh\nmoves\n")
    out = _run("show", str(path), "--score", "--ascii")
    found = [line for line in out.stdout.splitlines() if line.startswith("Best for the attackers:")]
    assert found and " for the attackers: a" in found[0] and "% chance" in out.stdout
    chance = int(out.stdout.split("% chance")[0].split()[-1])
    assert chance < 50
