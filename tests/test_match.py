"""``brandubh match``: engine settings and programs in one event, two
players or a round robin, and what a user meets at the command line.

The report is checked against the games it reports: every count is
recounted here from the game records (and each record's text replayed by
the rules), not read back from the report's own figures.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest

from brandubh import Game
from brandubh.cli import build_parser, main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANDOM_BOT = " ".join([shlex.quote(sys.executable), "-S",
                       shlex.quote(os.path.join(ROOT, "tests", "bots", "random_bot.py"))])


def run_json(capsys, *argv):
    code = main(["match", *argv, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def recount(games, name):
    """(wins, draws, losses) of a player, from the game records."""
    w = d = l = 0
    for g in games:
        if name not in (g["attackers"], g["defenders"]):
            continue
        if g["winner"] is None:
            d += 1
        elif g["winner"] == name:
            w += 1
        else:
            l += 1
    return w, d, l


def test_a_round_robin_of_three_with_its_crosstable(capsys):
    summary = run_json(capsys, "level=2", "level=1", "budget=5000", "--games", "4", "--jobs", "2")
    games = summary["games"]
    assert summary["players"] == {"A": "level=2", "B": "level=1", "C": "budget=5000"}
    assert len(games) == 12 and summary["schedule"] == "round robin"
    pairs = {}
    for g in games:
        assert set(g["seats"]) == {"p1", "p2"}
        pairs.setdefault(frozenset(g["seats"].values()), []).append(g)
        # The game text is the record: the rules replay it to its ending.
        replayed = Game.from_text(g["text"])
        assert replayed.ok and replayed.game.status == "finished"
        result = replayed.game.result
        assert result.how == g["reason"] and result.side == g["winner_side"]
    assert sorted(map(sorted, pairs)) == [["A", "B"], ["A", "C"], ["B", "C"]]
    for pair_games in pairs.values():
        assert len(pair_games) == 4
        # Colours alternate within a pairing, each opening twice.
        attackers = [g["attackers"] for g in sorted(pair_games, key=lambda g: g["game"])]
        assert attackers[0] != attackers[1] and attackers[:2] == attackers[2:]
    for row in summary["standings"]:
        assert (row["wins"], row["draws"], row["losses"]) == recount(games, row["name"])
    for a, line in summary["crosstable"].items():
        for b, cell in line.items():
            between = [g for g in games if set(g["seats"].values()) == {a, b}]
            assert (cell["wins"], cell["draws"], cell["losses"]) == recount(between, a)
    # The same settings give the same games: the engine is held by its budget.
    again = run_json(capsys, "level=2", "level=1", "budget=5000", "--games", "4", "--jobs", "1")
    assert [g["text"] for g in again["games"]] == [g["text"] for g in games]


def test_the_text_report_of_a_round_robin(capsys):
    assert main(["match", "budget=300", "budget=100", "budget=30", "--games", "2",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    for words in ("6 games under brandubh", "A = budget=300", "C = budget=30", "crosstable",
                  "Elo of each against the field", "endings:", "faults: none"):
        assert words in text, text


def test_every_player_of_a_round_robin_has_an_elo_interval():
    from brandubh.arena.loop import GameRecord
    from brandubh.arena.report import EventResult

    # A beats B four times and C twice in four, B beats C twice in four: 6-0-2, 2-0-6, 4-0-4.
    results = [("A", "B", "A")] * 4 + [("A", "C", "A"), ("A", "C", "A"), ("C", "A", "C"), ("C", "A", "C")] \
        + [("B", "C", "B"), ("B", "C", "B"), ("C", "B", "C"), ("C", "B", "C")]
    games = [GameRecord(index, {"p1": att, "p2": dfn}, att, dfn, {}, "brandubh", "", [], reason="corner",
                        winner=winner, winner_side="attackers" if winner == att else "defenders")
             for index, (att, dfn, winner) in enumerate(results)]
    report = EventResult([("A", "a"), ("B", "b"), ("C", "c")], games, games_requested=12).summary()
    rows = {line.split()[0]: line for line in report.splitlines() if line[2:3] in "ABC" and "%" in line}
    assert sorted(rows) == ["A", "B", "C"]
    assert rows["A"].endswith("+190.8 (-35 to +inf)") and rows["B"].endswith("-190.8 (-inf to +35)")
    assert rows["C"].endswith("+0.0 ± 297")


def test_a_gauntlet_plays_the_first_against_each_other(capsys):
    summary = run_json(capsys, "budget=300", "budget=100", "budget=30", "--games", "2", "--gauntlet")
    pairs = {frozenset(g["seats"].values()) for g in summary["games"]}
    assert pairs == {frozenset("AB"), frozenset("AC")} and summary["schedule"] == "gauntlet"


def test_engine_and_program_in_one_match(capsys):
    summary = run_json(capsys, "budget=2000", f"cmd={RANDOM_BOT} --seed 4", "--games", "2",
                       "--variant", "codingame", "--jobs", "2")
    assert summary["players"]["B"].endswith("--seed 4")
    assert summary["games_played"] == 2 and not summary["faults"]["B"]
    assert summary["results"]["A"]["wins"] == 2  # a search beats random moves
    assert all(g["pids"].get("B") for g in summary["games"]) and not summary["games"][0]["pids"].get("A")


def test_two_players_keep_the_old_report(capsys):
    assert main(["match", "budget=500", "budget=100", "--games", "4", "--no-progress"]) == 0
    text = capsys.readouterr().out
    for words in ("4 games under brandubh", "Elo A - B:", "as attackers", "95%:"):
        assert words in text


@pytest.mark.parametrize("argv, words", [
    (["level=1", "level=2", "--sprt", "5"], "elo0,elo1"),
    (["level=1", "level=2", "--jobs", "0"], "--jobs"),
    (["level=1", "level=2", "--games", "0"], "--games"),
    (["level=1"], "at least two players"),
    (["level=9", "level=1"], "level must be"),
    (["budget=x", "level=1"], "key=whole-number"),
    (["level=1,off=nothing", "level=1"], "not a search feature"),
    (["level=1", "cmd=/no/such/bot"], "cannot run"),
    (["level=1", "level=2", "--openings", "/no/such/file"], "cannot read the openings file"),
    (["level=1", "level=2", "--variant", "brandubh repeat=x"], "repeat"),
    (["level=1", "level=2", "--games-out", "/no/such/dir/games.txt"], "cannot write"),
    (["level=1", "level=2", "level=3", "--sprt", "0,10"], "compares two players"),
    (["level=1", "level=2", "--openings", "balanced", "--variant", "codingame quiet_cap=60"],
     "no balanced book for the rules"),
])
def test_bad_input_is_a_sentence_not_a_traceback(capsys, argv, words):
    try:
        code = main(["match", *argv])
    except SystemExit as exc:  # argparse's own refusal
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and words in err, err
    assert "Traceback" not in err


def test_an_output_that_cannot_be_written_is_refused_before_any_game(capsys, tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("")
    t0 = time.monotonic()
    assert main(["match", "level=6", "level=6", "--save", str(a_file / "sub")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert time.monotonic() - t0 < 5  # level 6 would take minutes a game


def test_too_many_jobs_are_capped(capsys):
    summary_code = main(["match", "budget=100", "budget=50", "--games", "2", "--jobs", "1000",
                         "--no-progress"])
    err = capsys.readouterr().err
    assert summary_code == 0 and "--jobs 1000: playing 2 games at once" in err


def test_every_help_says_95_percent_once():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, p in sub.choices.items():
        text = p.format_help()
        assert "%%" not in text, name
    assert "95%" in sub.choices["match"].format_help()


def test_games_are_written_as_they_finish_and_ctrl_c_reports(tmp_path):
    """Interrupted, a match still says what it found: the games finished so
    far are in the games file, and the report says it was interrupted."""
    out = tmp_path / "games.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "brandubh", "match", "level=4", "level=4", "--games", "400",
         "--jobs", "1", "--verbose", "--games-out", str(out)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()  # --verbose: a line a finished game
        assert first.startswith("game 1:"), first
        assert "# game 1:" in out.read_text()  # written before the run ends
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    assert "(400 asked; interrupted)" in stdout.splitlines()[0], stdout
    assert stdout.rstrip().endswith("the games finished before the stop")
    assert "Traceback" not in stderr
    played = int(stdout.split()[0])
    assert 1 <= played < 400 and out.read_text().count("# game ") >= played


class OutOfOrder:
    """An executor whose games finish in the order it is given (game
    numbers from 0), one a call, whatever order they started in; it notes
    the labels the games file holds each time it is asked."""

    def __init__(self, order, path):
        self.order, self.path = list(order), path
        self.specs: dict = {}
        self.seen: list = []

    capacity = 100

    @property
    def running(self):
        return len(self.specs)

    def submit(self, spec):
        self.specs[spec.index] = spec

    def finished(self, timeout):
        from brandubh.arena.loop import play_game

        self.seen.append(_labels(self.path))
        while self.order and self.order[0] in self.specs:
            spec = self.specs.pop(self.order.pop(0))
            return [(spec, play_game(spec))]
        return []

    def stop(self):
        pass

    def interrupt(self):
        return []

    def close(self):
        pass

    def describe(self):
        return "out of order"


def _labels(path):
    if not os.path.exists(path):
        return []
    return [int(line.split()[2].rstrip(":")) for line in open(path) if line.startswith("# game ")]


def test_the_games_file_holds_the_games_in_their_order_each_once_those_before_it_are_done(tmp_path, capsys):
    from brandubh.arena.command import event_from_args, run_command

    out = tmp_path / "games.txt"
    args = build_parser().parse_args(["match", "budget=30", "budget=20", "--games", "6", "--jobs", "2",
                                      "--no-progress", "--random-plies", "2", "--games-out", str(out)])
    event = event_from_args(args, _players(args))
    executor = OutOfOrder([1, 0, 3, 2, 5, 4], str(out))
    assert run_command(event, args, prestarted=[executor]) == 0
    assert _labels(out) == [1, 2, 3, 4, 5, 6]
    # Each game says that its first two moves were the random opening (brandubh analyse leaves them unjudged).
    assert out.read_text().count("\ntag opening-moves 2\n") == 6
    # Asked before each game came: game 2 waited for game 1, then both were on the disk.
    assert executor.seen == [[], [], [1, 2], [1, 2], [1, 2, 3, 4], [1, 2, 3, 4]]
    # So --game N is the game labelled game N.
    fifth = tmp_path / "fifth.txt"
    fifth.write_text(out.read_text().split("# game 5:")[1].split("\n# ")[0].split("\n", 1)[1])
    capsys.readouterr()
    assert main(["show", str(out), "--game", "5", "--ascii"]) == 0
    from_file = capsys.readouterr().out
    assert main(["show", str(fifth), "--ascii"]) == 0
    assert from_file == capsys.readouterr().out


def _players(args):
    from brandubh.arena.command import parse_player

    return [parse_player(text, name) for text, name in zip(args.players, "AB")]


def test_an_aborted_run_stops_engine_games_between_moves():
    """Engines answer at once, so the loop itself must see the stop: a run
    of slow engine games stopped after a moment ends within a move or two."""
    import threading

    from brandubh.arena import BotPlayer, Event, run_event

    abort = threading.Event()
    threading.Timer(0.5, abort.set).start()
    t0 = time.monotonic()
    event = Event([BotPlayer.from_text("budget=4000000"), BotPlayer.from_text("budget=4000000")],
                  games=2, variant="brandubh", jobs=2)
    result = run_event(event, abort=abort)
    assert result.interrupted and all(g.reason == "aborted" for g in result.games)
    assert all(g.text.startswith("variant brandubh") for g in result.games)
    assert time.monotonic() - t0 < 10


def test_the_sprt_plays_the_balanced_book_unless_told_otherwise(capsys):
    from brandubh.arena.openings import balanced_book, load_openings

    book = balanced_book("codingame")
    first = load_openings(str(book), "codingame")[0]
    argv = ["match", "budget=200", "budget=100", "--games", "2", "--jobs", "1", "--variant", "codingame",
            "--json", "--no-progress"]
    assert main(argv + ["--sprt", "0,300"]) == 0
    out = capsys.readouterr()
    assert "the balanced book bench/book-codingame.txt" in out.err
    games = json.loads(out.out)["games"]
    # Both games of the pair start from the book's first opening, no random ply added.
    opening = " ".join(first.moves)
    assert all(f"\nmoves {opening} " in g["text"] and f"opening-moves {len(first.moves)}\n" in g["text"]
               for g in games)
    assert all(g["opening_label"] == first.label for g in games)
    # --openings balanced names the same book without a test; --random-plies keeps the old way.
    assert main(argv + ["--openings", "balanced"]) == 0
    assert [g["opening_label"] for g in json.loads(capsys.readouterr().out)["games"]] == [first.label] * 2
    assert main(argv + ["--sprt", "0,300", "--random-plies", "2"]) == 0
    out = capsys.readouterr()
    assert "balanced book" not in out.err
    assert json.loads(out.out)["games"][0]["opening_label"] == "set-up + 2 random"
