"""Puzzles (docs/puzzles.md): the one-line format, the generator, the
shipped set checked by the proof checker and (on a sample) for a second
winning move, solving from Python and at the terminal through a
pseudo-terminal."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest

from conftest import SLOW, scale
from brandubh.cli import main
from brandubh.core.position import move_text
from brandubh.core.solve import solve_rules
from brandubh.errors import BrandubhError, MoveError
from brandubh.proof_check import check_proof
from brandubh.puzzles import (Attempt, Player, Puzzle, PuzzleError, THEMES, load_puzzles, pick, puzzle_id,
                              rate, read_puzzles, shipped)
from brandubh.puzzles.batch import Run, done_keys, game_tasks, selfplay_tasks
from brandubh.puzzles.make import MAX_MOVES, MIN_MOVES, Settings, puzzle_at, themes_of
from brandubh.puzzles.shipped import CHECKED, digest, shipped_files
from brandubh.ratings import Rating
from brandubh.solve import solve

# Self-play seed 5 under brandubh: the king on d3 has one way home, by g3
# (e3 and the others are met), and after a3-a2 one corner left, g1.
POSITION = "3aa2/7/1dd4/a4aa/a2k3/3d3/7 d"
SOLUTION = ("d3g3", "a3a2", "g3g1")
LINE = f"dfa4333721;brandubh;{POSITION};{' '.join(SOLUTION)};escape;1150 300 0.06;selfplay brandubh 5 23"


# -- the format ----------------------------------------------------------------


def test_a_line_is_read_and_written_back_the_same():
    puzzle = Puzzle.from_line(LINE)
    assert (puzzle.id, puzzle.rules, puzzle.position, puzzle.solution, puzzle.themes) == (
        "dfa4333721", "brandubh", POSITION, SOLUTION, ("escape",))
    assert puzzle.rating == Rating(1150, 300, 0.06) and puzzle.origin == "selfplay brandubh 5 23"
    assert puzzle.winner == "defenders" and puzzle.winner_moves == 2
    assert puzzle.line() == LINE and Puzzle.from_line(puzzle.line()) == puzzle
    assert puzzle.id == puzzle_id("brandubh", POSITION)


@pytest.mark.parametrize("change, says", [
    (lambda f: f[:6], "7 fields parted by ';'"),
    (lambda f: ["dfa4333722", *f[1:]], "is not this puzzle's (dfa4333721): the line is damaged"),
    (lambda f: ["xyz", *f[1:]], "ten hexadecimal digits"),
    (lambda f: [*f[:3], "d3g3 a3a2", *f[4:]], "odd number of moves"),
    (lambda f: [*f[:3], "d3g3 a3a2 g3g2", *f[4:]], "does not end in the defenders' win"),
    (lambda f: [*f[:3], "d3d7 a3a2 g3g1", *f[4:]], "move 1 of the solution, 'd3d7', is not a legal move"),
    (lambda f: [*f[:3], "d3g3 a3a2 g3g1 a2a3 g1g2", *f[4:]], "the game is over before move 4"),
    (lambda f: [*f[:4], "escape,luck", *f[5:]], "'luck' is not a theme"),
    (lambda f: [*f[:5], "1150 -3 0.06", f[6]], "out of range"),
    (lambda f: [*f[:5], "strong", f[6]], "three numbers"),
    (lambda f: [f[0], "chess", *f[2:]], "the rules:"),
])
def test_a_line_that_is_not_right_is_refused_with_a_sentence(change, says):
    fields = LINE.split(";")
    with pytest.raises(PuzzleError, match=says.replace("(", r"\(").replace(")", r"\)")) as caught:
        Puzzle.from_line(";".join(change(fields)))
    assert isinstance(caught.value, BrandubhError) and isinstance(caught.value, ValueError)


def test_a_set_names_the_line_that_is_wrong_and_reads_each_puzzle_once():
    text = f"# a set\n\n{LINE}\n{LINE}\n"
    assert [p.id for p in read_puzzles(text)] == ["dfa4333721"]
    assert read_puzzles(text, rules="codingame") == []
    with pytest.raises(PuzzleError, match=r"^mine, line 3: a puzzle's line has 7 fields"):
        read_puzzles(f"# a set\n{LINE}\nnot a puzzle\n", "mine")


# -- the generator ---------------------------------------------------------------


def test_the_generator_finds_the_one_move_and_the_best_defence():
    found = puzzle_at(POSITION, "brandubh", origin="here")
    assert found.puzzle is not None, found.reason
    assert found.puzzle.solution == SOLUTION and found.puzzle.themes == ("escape",)
    assert found.puzzle.origin == "here" and found.puzzle.rating.deviation == 300


@pytest.mark.slow
def test_the_attackers_have_puzzles_too():
    # A forced win of the solver's set (tests/data/forced_wins.txt), under
    # modern rules: the king on d4 is taken in three plies, one way only.
    # Slow: sixty solves, some seconds (each other move of the attackers'
    # shown not to win as fast).
    found = puzzle_at("3a3/1a1ad2/3d3/a2k1a1/3d2a/3a3/3a3 a", "modern")
    assert found.puzzle is not None, found.reason
    assert found.puzzle.winner == "attackers" and found.puzzle.solution == ("f4e4", "d3a3", "a4c4")
    assert found.puzzle.themes == ("king-capture",)


def test_a_position_with_two_winning_moves_is_no_puzzle():
    # The king on d4 of an empty board goes home by d1 or by a4 (or ...).
    found = puzzle_at("7/7/7/3k3/7/7/a6 d", "brandubh")
    assert found.puzzle is None and found.reason == "the search sees d4a4 win within 3 plies too, beside d4d1"
    # Past the search's sieve, the proof: after d4-a4 the defenders win within
    # two more plies (proven False), and not within one (proven True).
    from brandubh.core.rules import Rules
    from brandubh.puzzles.make import _not_within, _Work

    after = Rules("7/7/7/3k3/7/7/a6 d", "brandubh")
    after.play("d4a4")
    work = _Work("brandubh", Settings())
    assert _not_within(work, after, "defenders", 2) is False
    assert _not_within(work, after, "defenders", 1) is True
    # A side without a win makes none either.
    assert "no win proven" in puzzle_at("7/7/7/3k3/7/7/a6 a", "brandubh", settings=Settings(root=5_000)).reason


def test_themes_are_found_from_the_solution():
    assert themes_of(POSITION, "brandubh", SOLUTION) == ("escape",)
    # Before a3-a2 the king on g3 threatens both g1 and g7? g4 is the attackers': one threat only.
    assert "double-threat" not in themes_of(POSITION, "brandubh", SOLUTION)
    assert set(THEMES) >= {"escape", "king-capture", "double-threat", "sacrifice", "blocked-corner", "encirclement"}


def _game_file(tmp_path, n=2):
    path = tmp_path / "games.txt"
    games = [f"# game {i}\nvariant brandubh\nstart {POSITION}\nmoves\n" for i in range(n)]
    path.write_text("\n".join(games))
    return str(path)


def test_a_run_appends_records_its_games_and_resumes(tmp_path):
    out = str(tmp_path / "set.txt")
    games = _game_file(tmp_path)
    tally = Run(out, game_tasks(games, None), None, 1).go()
    assert (tally.games, tally.puzzles, tally.total) == (2, 1, 1)  # the second game's is the same puzzle
    assert [p.solution for p in load_puzzles(out)] == [SOLUTION]
    assert done_keys(out + ".done") == {"game games.txt 1", "game games.txt 2"}
    # Again: every game done, nothing more to do, the set as it was.
    before = open(out).read()
    again = Run(out, game_tasks(games, None), None, 1)
    assert again.go().games == 0 and open(out).read() == before
    # A line torn by a crash is cut off at the next start, with a sentence.
    with open(out, "a") as f:
        f.write("0123456789;brandubh;3a")
    mended = Run(out, game_tasks(games, None), None, 1)
    assert "cut off a line left unfinished" in mended.note and open(out).read() == before


def test_the_progress_file_holds_seeds_as_ranges(tmp_path):
    from brandubh.puzzles.batch import write_done

    path = str(tmp_path / "x.done")
    keys = {f"selfplay brandubh {n}" for n in (0, 1, 2, 3, 5, 7, 8, 9)} | {"game g.txt 3"}
    write_done(path, keys)
    assert open(path).read() == "game g.txt 3\nselfplay brandubh 0-3,5,7-9\n"
    assert done_keys(path) == keys
    first = next(t for t in selfplay_tasks("codingame"))
    assert first == ("selfplay codingame 0", "selfplay", ("codingame", 0))


def test_make_refuses_what_it_cannot_do(capsys, tmp_path):
    assert main(["puzzles", "make", "--from", "selfplay", "--out", str(tmp_path / "s.txt"), "--jobs", "0"]) == 2
    assert "--jobs must be 1 or more" in capsys.readouterr().err
    assert main(["puzzles", "make", "--from", "selfplay", "--out", "/dev/null"]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert main(["puzzles", "make", "--from", str(tmp_path / "none.txt"), "--out", str(tmp_path / "s.txt")]) == 2
    assert "cannot read the game file" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "s.txt")


# -- the shipped set ---------------------------------------------------------------


SHIPPED = shipped()


def test_a_set_ships():
    assert SHIPPED and shipped_files()
    lines = [line for path in shipped_files() for line in path.read_text().splitlines() if line and line[0] != "#"]
    assert len(lines) == len(SHIPPED)  # no puzzle given twice
    assert {p.rules for p in SHIPPED} <= {"brandubh", "codingame"}
    for p in SHIPPED:
        assert MIN_MOVES <= p.winner_moves <= MAX_MOVES


def test_every_shipped_puzzle_is_checked_whole_and_the_digests_are_the_checked_files():
    # The one place the shipped sets are played through puzzle by puzzle:
    # a read trusts a file whose digest CHECKED holds, so the digests must
    # be of files that pass the whole check, and read the same either way.
    texts = {path.name: path.read_text(encoding="utf-8") for path in shipped_files()}
    checked = [p for name, text in texts.items() for p in read_puzzles(text, name)]
    assert checked == SHIPPED
    found = {name: digest(text) for name, text in texts.items()}
    assert found == CHECKED, f"a shipped set changed: brandubh.puzzles.shipped.CHECKED = {found}"


def test_a_shipped_set_not_as_checked_is_checked_whole_and_a_damaged_line_refused(tmp_path, monkeypatch):
    import importlib

    module = importlib.import_module("brandubh.puzzles.shipped")   # the package's name `shipped` is the function
    lines = (module.DATA / "codingame.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    ident, rules, position, solution, rest = lines[2].split(";", 4)
    moves = solution.split()
    moves[-1] = moves[-1][:2] + ("a1" if moves[-1][2:] != "a1" else "a2")   # the winner's last move, elsewhere
    lines[2] = ";".join((ident, rules, position, " ".join(moves), rest))
    (tmp_path / "codingame.txt").write_text("".join(lines), encoding="utf-8")
    monkeypatch.setattr(module, "DATA", tmp_path)
    module._read.cache_clear()
    try:
        said = r"^codingame.txt, line 3: move 3 of the solution, '\w+', is not a legal move there$"
        with pytest.raises(PuzzleError, match=said):
            shipped("codingame")
        # The same file under the damaged text's own digest is trusted: what the digest is for.
        monkeypatch.setattr(module, "CHECKED", {"codingame.txt": digest("".join(lines))})
        module._read.cache_clear()
        assert len(shipped("codingame")) == len([p for p in SHIPPED if p.rules == "codingame"])
    finally:
        module._read.cache_clear()


#: How many of the shipped proofs the checker walks again by default (it
#: walks some 4,000 positions a second here, and the proofs run to
#: thousands): the generator checked every one as it made the set, and
#: BRANDUBH_SLOW=1 checks them all again.
CHECKED_BY_DEFAULT = 20
#: How many the solver proves again by default (a few ms each): every
#: one under BRANDUBH_SLOW=1. Every one is read and played through, its
#: solution legal and ending in the winner's win, by the test of CHECKED above.
SOLVED_BY_DEFAULT = 150


def test_every_shipped_solution_is_proven_and_its_proof_verified_by_the_checker():
    rng = random.Random(38)
    solved = set(rng.sample(range(len(SHIPPED)), min(len(SHIPPED), SOLVED_BY_DEFAULT)))
    checked = set(rng.sample(sorted(solved), min(len(solved), CHECKED_BY_DEFAULT)))
    for number, p in enumerate(SHIPPED):
        if not SLOW and number not in solved:
            continue
        found = solve(p.position, p.rules, budget=2_000_000, hash_mb=4)
        assert found.winner == p.winner and found.shortest, p.id
        assert found.plies == len(p.solution) and found.first_move == p.solution[0], p.id
        if SLOW or number in checked:
            verdict = check_proof(found.proof_text())
            assert verdict.ok, (p.id, verdict.sentence())


def _second_winning_move(p: Puzzle, budget: int) -> str:
    """A move of the winner's, other than the solution's, not shown to miss
    the win within the plies left by the solver with ``budget``: '' if none.
    Each is asked alone (``side=``, ``within=``) of the game as the puzzle
    is played: from its position, the line so far and the move its history."""
    game = p.rules_at(0)
    for ply in range(0, len(p.solution), 2):
        left = len(p.solution) - ply
        for move in game.moves():
            text = move_text(move)
            if text == p.solution[ply]:
                continue
            child = game.clone()
            child.play(move)
            if child.is_over():
                if child.winner == p.winner:
                    return f"{p.id}: {text} wins too, at once"
                continue
            if left == 1:
                continue
            # A small table first (most are answered in a few thousand
            # positions, and a table's pages are zeroed as they are touched).
            for step, mb in ((budget // 40, 4), (budget, 64)):
                found = solve_rules(child, step, hash_mb=mb, side=p.winner, within=left - 1)
                if found.outcome != "open":
                    break
            if found.outcome == "no_win":
                continue
            after = f"{p.id}: after {' '.join(p.solution[:ply]) or 'nothing'}, {text}"
            if found.outcome == "win":
                return f"{after} wins within {left} plies too"
            return f"{after} is not shown to miss the win"
        game.play(p.solution[ply])
        if ply + 1 < len(p.solution):
            game.play(p.solution[ply + 1])
    return ""


def _wins_within(game, winner: str, plies: int) -> bool:
    """Whether ``winner`` forces a win within ``plies`` from ``game``, by
    playing every line out: exact, for a few plies."""
    if game.is_over():
        return game.winner == winner
    if plies == 0:
        return False
    results = []
    for move in game.moves():
        child = game.clone()
        child.play(move)
        results.append(_wins_within(child, winner, plies - 1))
        if game.side == winner and results[-1]:
            return True
        if game.side != winner and not results[-1]:
            return False
    return game.side != winner


def _second_by_play(p: Puzzle) -> str:
    """:func:`_second_winning_move` of a puzzle of two winner's moves, by
    playing every line of three plies out."""
    game = p.rules_at(0)
    for move in game.moves():
        text = move_text(move)
        child = game.clone()
        child.play(move)
        if text != p.solution[0] and _wins_within(child, p.winner, 2):
            return f"{p.id}: {text} wins within 3 plies too"
    return ""


def test_a_sample_of_the_shipped_set_has_no_second_winning_move():
    # Two puzzles of two moves played out line by line (exact, no solver);
    # then each other move of the winner's asked alone of the solver, with
    # a larger budget than the generator's: by default 30 puzzles, with
    # BRANDUBH_SLOW=1 1,000 (some 50 ms a puzzle).
    rng = random.Random(38)
    short = [p for p in SHIPPED if p.winner_moves == 2]
    played = rng.sample(short, min(len(short), 2))
    assert played and [s for s in (_second_by_play(p) for p in played) if s] == []
    asked = rng.sample(SHIPPED, min(len(SHIPPED), 1_000 if SLOW else 30))
    assert [s for s in (_second_winning_move(p, 4_000_000) for p in asked) if s] == []


def test_the_second_winning_move_check_finds_one_and_passes_a_puzzle():
    # The king on d4 of an empty board goes home by d1 or by a4 (or ...):
    # "d4d1 ... d1g1" has a second winning move, and the check names it.
    two = Puzzle.make("brandubh", "7/7/7/3k3/7/7/a6 d", ("d4d1", "a1b1", "d1g1"))
    assert _second_winning_move(two, 10_000).startswith(f"{two.id}: after nothing, d4")
    assert _second_winning_move(Puzzle.from_line(LINE), 10_000) == ""


def test_list_prints_every_shipped_puzzle_as_json(capsys):
    assert main(["puzzles", "list", "--variant", "brandubh", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    brandubh = [p for p in SHIPPED if p.rules == "brandubh"]
    assert [d["id"] for d in data] == [p.id for p in brandubh]
    first = data[0]
    assert set(first) >= {"id", "rules", "position", "solution", "themes"}
    assert first["solution"] == list(brandubh[0].solution) and first["position"] == brandubh[0].position


# -- solving, from Python ------------------------------------------------------------


def test_an_attempt_is_judged_move_by_move():
    puzzle = Puzzle.from_line(LINE)
    attempt = Attempt(puzzle)
    with pytest.raises(MoveError, match="not a legal move of the defenders"):
        attempt.play("d3d7")
    assert attempt.game.ply == 0 and not attempt.over
    step = attempt.play("Kd3-g3")
    assert (step.verdict, step.reply) == ("right", "a3a2") and attempt.game.ply == 2
    step = attempt.play("g3g1")
    assert step.verdict == "solved" and attempt.score == 1.0
    with pytest.raises(MoveError, match="the attempt is over"):
        attempt.play("g1g2")
    wrong = Attempt(puzzle)
    step = wrong.play("d3e3")
    assert (step.verdict, step.expected, wrong.score) == ("wrong", "d3g3", 0.0)
    helped = Attempt(puzzle)
    assert helped.hint() == "move the king on d3"
    helped.play("d3g3")
    assert helped.play("g3g1").verdict == "solved" and helped.score == 0.0  # a hint: not solved alone


def test_the_next_puzzle_is_the_nearest_not_seen():
    low = Puzzle.from_line(LINE)
    high = Puzzle.make("brandubh", "7/7/7/3k3/7/7/a6 d", ["d4d1", "a1b1", "d1g1"], rating=Rating(1800, 300, 0.06))
    assert pick([low, high], 1700) == high and pick([low, high], 1200) == low
    assert pick([low, high], 1700, seen=[high.id]) == low and pick([low, high], 1700, [low.id, high.id]) is None


def test_ratings_move_both_ways_and_are_kept(tmp_path):
    me, it = rate(Rating(1500, 200, 0.06), Rating(1500, 200, 0.06), 1.0)
    assert me.rating > 1500 > it.rating and me.deviation < 200
    me, it = rate(Rating(1500, 200, 0.06), Rating(1500, 200, 0.06), 0.0)
    assert me.rating < 1500 < it.rating
    path = tmp_path / "sub" / "me.json"
    player = Player.load(path)
    assert player.rating == Rating()
    puzzle = Puzzle.from_line(LINE)
    player.record(puzzle, 1.0)
    player.save(path)
    again = Player.load(path)
    assert again == player and again.seen == [puzzle.id] and again.rating_of(puzzle) != puzzle.rating
    path.write_text("{not json")
    with pytest.raises(PuzzleError, match="is not a rating file"):
        Player.load(path)


# -- at the terminal ---------------------------------------------------------------------


pty_only = pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform == "win32",
                              reason="needs a pseudo-terminal (POSIX)")


class Pty:
    """A command in a pseudo-terminal: typed lines in, all it writes out."""

    def __init__(self, args):
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm", NO_COLOR="1")
        master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "brandubh", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.fd, self.data, self.at = master, b"", 0

    def read_until(self, mark: str, timeout: float = 60) -> str:
        import select

        deadline = time.monotonic() + timeout
        while (i := self.data.find(mark.encode(), self.at)) < 0:
            left = deadline - time.monotonic()
            assert left > 0, f"waited for {mark!r}; the program wrote {self.data[self.at:]!r}"
            if select.select([self.fd], [], [], left)[0]:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"the program ended while {mark!r} was awaited: {self.data[self.at:]!r}"
                self.data += chunk
        end = i + len(mark.encode())
        text, self.at = self.data[self.at:end], end
        return text.decode("utf-8").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def finish(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.fd)
        return code


@pty_only
def test_puzzles_solved_and_missed_at_a_terminal(tmp_path):
    other = Puzzle.make("brandubh", "3aa2/7/1dd4/a4aa/a2k3/3d3/7 d", SOLUTION, rating=Rating(1100, 300, 0.06))
    harder = Puzzle.make("brandubh", "7/7/7/3k3/7/7/a6 d", ["d4d1", "a1b1", "d1g1"], rating=Rating(2000, 300, 0.06))
    path = tmp_path / "set.txt"
    path.write_text(other.line() + "\n" + harder.line() + "\n")
    me = tmp_path / "me.json"
    term = Pty(["puzzle", "--file", str(path), "--rating-file", str(me)])
    said = term.read_until("your move (hint, solution, quit): ")
    assert f"your rating: 1500 ± 350 (kept in {me};" in said
    assert "puzzle dfa4333721 (brandubh, rated 1100): the defenders to move and win in 2 moves" in said
    term.type("d3d7")
    assert "'d3d7' is not a legal move of the defenders here" in term.read_until("quit): ")
    term.type("d3-g3")
    said = term.read_until("quit): ")
    assert "right. The attackers answer a3a2" in said and "last move a3-a2" in said
    term.type("g3g1")
    said = term.read_until("next puzzle? (Enter, or quit) ")
    assert "solved!" in said
    first = Player.load(me).rating
    assert first.rating > 1500 and f"your rating: 1500 -> {first}" in said
    term.type("")
    said = term.read_until("quit): ")
    assert "puzzle 058b8a4254" in said
    term.type("hint")
    assert "move the king on d4" in term.read_until("quit): ")
    term.type("d4a4")
    said = term.read_until("next puzzle? (Enter, or quit) ")
    assert "wrong: the move was d4d1; the solution: d4d1 a1b1 d1g1" in said
    assert Player.load(me).rating.rating < first.rating
    term.type("")
    assert "you have seen every puzzle of the set" in term.read_until("set")
    assert term.finish() == 0


def test_the_puzzles_page_runs():
    # docs/puzzles.md's Python, as a reader would run it.
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "puzzles.md").read_text(encoding="utf-8")
    namespace: dict = {}
    for block in re.findall(r"```python\n(.*?)```", page, re.S):
        exec(compile(block, "docs/puzzles.md", "exec"), namespace)
    assert namespace["step"].verdict in ("right", "solved")
    # The page's picture is the puzzle it names, drawn by the package.
    from brandubh.views.svg import board

    named = next(p for p in SHIPPED if p.id == "87db9e3d08")
    assert (Path(__file__).resolve().parent.parent / "docs" / "puzzle.svg").read_text() == board(named.position,
                                                                                                  size=360)


def test_ctrl_c_keeps_what_a_run_has_done_and_the_next_run_goes_on(tmp_path):
    import signal

    from conftest import wait_until

    games = _game_file(tmp_path, 200)
    out = tmp_path / "set.txt"
    args = [sys.executable, "-m", "brandubh", "puzzles", "make", "--from", games, "--out", str(out), "--jobs", "1",
            "--quiet"]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: os.path.exists(str(out) + ".done"))
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "stopped by Ctrl-C" in err and f"kept in {out}" in err
    assert [p.solution for p in load_puzzles(str(out))] == [SOLUTION]
    done = done_keys(str(out) + ".done")
    assert 1 <= len(done) < 200
    # The next run skips what is done.
    run = Run(str(out), game_tasks(games, None), None, 1)
    assert run.done == done and next(t for t in game_tasks(games, None) if t[0] not in run.done)


def test_a_killed_run_leaves_no_worker_behind(tmp_path):
    import signal
    import uuid

    from conftest import wait_until
    from brandubh.arena.reaping import marked

    def workers() -> list:
        return marked(mark, name="PUZZLE_RUN")

    mark = uuid.uuid4().hex
    out = tmp_path / "set.txt"
    env = dict(os.environ, PUZZLE_RUN=mark)
    # Self-play games under codingame take many seconds each (the
    # generator's solving included): far longer than the workers may take
    # to leave. (Without their watch, this waits for their games: it fails.)
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "puzzles", "make", "--from", "selfplay", "--variant",
                             "codingame", "--out", str(out), "--jobs", "2", "--quiet"], env=env,
                            stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: len(workers()) >= 3)  # the run and its two workers
        time.sleep(1.0)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        # The workers see their parent gone and leave, mid-game.
        assert wait_until(lambda: workers() == [], 10)
    finally:
        proc.kill()
        for pid in workers():
            os.kill(pid, signal.SIGKILL)


def test_a_game_past_the_count_keeps_its_puzzles(tmp_path):
    # Two games, each a puzzle, and a count of 1: both games are handed out
    # at once (two a worker), the first's puzzle reaches the count, and the
    # second's, its game recorded as done, must be kept, not lost.
    other = "1a1a3/3a3/3d3/a1d1kda/3d1a1/3a3/2a4 d"   # the king's e4-e7, then home
    path = tmp_path / "games.txt"
    path.write_text(f"variant brandubh\nstart {POSITION}\nmoves\n\nvariant brandubh\nstart {other}\nmoves\n")
    out = str(tmp_path / "set.txt")
    tally = Run(out, game_tasks(str(path), None), 1, 1).go()
    assert done_keys(out + ".done") == {"game games.txt 1", "game games.txt 2"}
    assert tally.puzzles == 2 and {p.position for p in load_puzzles(out)} == {POSITION, other}


def test_a_game_that_finds_one_puzzle_twice_appends_it_once(tmp_path):
    # A game that came back to a puzzle's position (self-play seed 2358
    # under brandubh did) gave its puzzle twice: one line.
    from brandubh.puzzles.make import GameResult

    out = str(tmp_path / "set.txt")
    run = Run(out, iter(()), None, 1)
    puzzle = Puzzle.from_line(LINE)
    twice = Puzzle.from_line(LINE.replace("selfplay brandubh 5 23", "selfplay brandubh 5 27"))
    run._take(GameResult("selfplay brandubh 5", [puzzle, twice]))
    assert open(out).read().count(puzzle.id) == 1 and run.tally.puzzles == 1
