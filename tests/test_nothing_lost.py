"""What a hostile tester hit, each kept as a test that fails without its
fix: outputs that are not regular files, inputs without an end, wrong
exception types, an analysis that ignored goodbye, a clock sent before
play; a tuning run ended by a signal, a tuning state of the wrong shape, a
match's outputs on a full disk, perft --slides without progress, a program
under other rules than its match's; a standard output on a full disk or a
closed pipe, an earlier games file kept when the first game cannot be
written, serve --open with no browser. (What programs leave behind:
tests/test_left_behind.py.) (Files written whole: tests/test_files.py; the play command's save
and quit: tests/test_play.py; the server: tests/test_serve*.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from brandubh import Bot, Game, Position, Rules
from brandubh.codingame.turns import turn_input
from brandubh.errors import ArgumentError, MoveError
from brandubh.notation import SETUP
from brandubh.opentafl.bot import OpenTaflEngine

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def brandubh(*args: str, stdin: bytes = b"", timeout: float = 60, env: dict = ENV) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "brandubh", *args], input=stdin, capture_output=True,
                          timeout=timeout, cwd=ROOT, env=env)


# -- outputs -------------------------------------------------------------------


@pytest.mark.parametrize("where", ["/dev/full", "FOLDER", "MISSING"])
def test_the_export_to_what_is_not_a_file_is_a_sentence(tmp_path, where):
    target = {"FOLDER": str(tmp_path), "MISSING": str(tmp_path / "no" / "bot.c")}.get(where, where)
    if where == "/dev/full" and not Path(where).exists():
        pytest.skip("no /dev/full here")
    done = brandubh("codingame", "--export", target)
    assert done.returncode == 2, done.stderr
    assert b"Traceback" not in done.stderr and done.stderr.startswith(b"brandubh codingame: cannot write ")
    assert not (tmp_path / "no").exists()
    if where == "/dev/full":
        assert Path(where).is_char_device()


def test_write_ini_refuses_a_folder_that_is_not_there(tmp_path):
    done = brandubh("opentafl", "--write-ini", str(tmp_path / "engnies"))
    assert done.returncode == 2 and b"there is no folder" in done.stderr and b"Traceback" not in done.stderr
    assert not (tmp_path / "engnies").exists()
    done = brandubh("opentafl", "--write-ini", str(tmp_path), "--clock-only")
    assert done.returncode == 0
    assert "arguments=-m brandubh opentafl --clock-only" in (tmp_path / "brandubh.ini").read_text()


# -- inputs without an end -------------------------------------------------------


def test_the_codingame_bot_reads_bad_bytes_and_endless_lines_as_garbage():
    turn = turn_input("attackers", None, SETUP).encode()
    # A turn's nine lines of garbage (bytes that are not UTF-8, a line of
    # 300,000 characters), then a real turn.
    stdin = b"\xff\xfe\x80 not utf-8\n" + b"x" * 300_000 + b"\n" + b"?\n" * 7 + turn
    env = {**ENV, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    done = brandubh("codingame", "--budget", "500", stdin=stdin, env=env)
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]
    answers = done.stdout.decode().split()
    assert len(answers) == 2 and answers[-1] in {m.move for m in Game().legal()}, answers


def test_the_opentafl_engine_reads_past_an_endless_line():
    start = time.monotonic()
    done = brandubh("opentafl", stdin=b"x" * 3_000_000 + b"\ngoodbye\n")
    assert done.returncode == 0 and done.stdout.decode().split() == ["hello"]
    assert time.monotonic() - start < 30   # bounded work, not a split of a growing line per read


def test_goodbye_ends_an_analysis_asked_to_think_for_a_day():
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "opentafl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    try:
        assert proc.stdout.readline().strip() == b"hello"
        proc.stdin.write(b"rules dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: "
                         b"start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\nanalyze 1 86400\n")
        proc.stdin.flush()
        time.sleep(0.5)
        start = time.monotonic()
        proc.stdin.write(b"goodbye\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
        assert time.monotonic() - start < 10
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_end_of_the_input_ends_an_analysis_too():
    done = brandubh("opentafl", stdin=b"analyze 1 86400\n", timeout=60)
    assert done.returncode == 0 and b"Traceback" not in done.stderr


# -- OpenTafl's clock ----------------------------------------------------------------------


def test_a_clock_sent_before_play_is_this_moves_clock():
    engine = OpenTaflEngine(level=1)
    engine.feed("rules dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    engine.feed("clock 4000 4000 0 0 0")   # OpenTafl 0.4.8's order: the clock, then play
    engine.feed("play attackers")
    assert engine.clock_wait() == 0.0      # no wait for a clock that already came
    answer = engine.answer()
    assert answer[-1].startswith("move ") and engine.think_ms is not None and engine.think_ms > 100
    # The next play, with no clock since the answer, waits for one as the protocol says.
    engine.feed("opponent-move " + "d1-c1 /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".replace("d1-c1", "d7-c7"))
    engine.feed("play attackers")
    assert engine.clock_wait() > 0.0


def test_clock_only_lets_the_clock_decide():
    seen = []
    engine = OpenTaflEngine(level=1, clock_only=True)
    engine.bot.choose = lambda game: seen.append(engine.bot.budget) or game.moves()[0]
    engine.feed("clock 20000 20000 0 0 0")
    engine.feed("play attackers")
    engine.answer()
    assert seen and seen[0] > 10**9 and engine.bot.budget == 200   # no cap while it thought; the level's after


# -- wrong errors -------------------------------------------------------------------


def test_wrong_arguments_are_the_packages_errors():
    with pytest.raises(ArgumentError):
        Bot(1, off=5)
    with pytest.raises(ArgumentError):
        Rules().search(time_ms=10**400)
    with pytest.raises(ArgumentError):
        Rules().search(time_ms=float("inf"))
    with pytest.raises(MoveError):
        Position().preview("d4d4")
    assert Rules().preview("d4d4") is None


def test_the_moves_shown_are_read_under_the_games_lock():
    game = Game()
    stop = threading.Event()
    bad = []

    def churn() -> None:
        while not stop.is_set():
            game.play("d2c2")
            game.undo()

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        for _ in range(20_000):
            shown = game.shown
            if shown not in ([], ["d2-c2"]):
                bad.append(shown)
    finally:
        stop.set()
        worker.join()
    assert bad == []


# -- what a newcomer hit -------------------------------------------------------------


def test_bare_brandubh_prints_the_help():
    done = brandubh()
    assert done.returncode == 0 and done.stdout.startswith(b"usage: brandubh") and b"COMMAND" in done.stdout


def test_play_says_which_piece_is_which():
    import io

    from brandubh.cli.play import Terminal

    out = io.StringIO()
    Terminal(Game(), Bot(1, seed="t"), "attackers", out=out).begin()
    assert "A attackers, D defenders, K king." in out.getvalue()
    out = io.StringIO()
    Terminal(Game(), Bot(1, seed="t"), "attackers", out=out, unicode=True).begin()
    assert "● attackers, ○ defenders, ♔ king." in out.getvalue()


@pytest.mark.parametrize("position", [SETUP, "7/7/2aa3/3ka2/3a3/7/7 a", "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"])
@pytest.mark.parametrize("preset", ["brandubh", "codingame"])
def test_perft_root_by_root_counts_what_the_engine_counts(position, preset):
    from brandubh import divide, perft_stats
    from brandubh.cli.perft import root_counts
    from brandubh.variant import as_variant

    variant = as_variant(preset)
    for depth in (1, 2, 3):
        got = list(root_counts(depth, position, variant, full=True))
        want = perft_stats(depth, position, variant, bulk=False)
        assert sum(s.leaves for _, s in got) == want.leaves
        assert (sum(s.captures for _, s in got), sum(s.endings for _, s in got)) == (want.captures, want.endings)
        assert {m: s.leaves for m, s in got} == divide(depth, position, variant)


def test_perft_says_how_far_it_got_on_ctrl_c():
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "perft", "7", "--divide"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    try:
        first = proc.stdout.readline()          # the first move's line, as it comes
        assert first.split()[0] == b"d1b1" and int(first.split()[1]) > 0
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert b"perft 7: stopped after " in err and b"Traceback" not in err


def test_tune_refuses_an_output_it_could_not_write_before_it_runs(tmp_path):
    for out in (str(tmp_path), "/dev/full", str(tmp_path / "no" / "w.json")):
        if out == "/dev/full" and not Path(out).exists():
            continue
        start = time.monotonic()
        done = brandubh("tune", "--out", out, "--steps", "100000", "--budget", "1000")
        assert done.returncode == 2 and b"--out: cannot write" in done.stderr and b"Traceback" not in done.stderr
        assert time.monotonic() - start < 30
    assert not (tmp_path / "no").exists() and not list(tmp_path.glob("*.tmp*"))


def test_match_says_when_the_distinct_openings_run_out():
    done = brandubh("match", "budget=10", "budget=10", "--games", "120", "--random-plies", "1", "--jobs", "1",
                    "--no-progress", timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert b"distinct 1-move random openings were found" in done.stderr


# -- a tuning run ended by a signal ----------------------------------------------------


@pytest.mark.parametrize("signame,jobs", [("SIGTERM", "1"), ("SIGHUP", "1"), ("SIGTERM", "2")])
def test_tune_ended_by_a_signal_saves_its_state_and_weights(tmp_path, signame, jobs):
    import json
    import signal

    out, state = tmp_path / "w.json", tmp_path / "w.json.state.json"
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "tune", "--out", str(out), "--steps", "100000",
                             "--budget", "100", "--pairs", "1", "--jobs", jobs, "--every", "1",
                             "--params", "ring,freedom"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    try:
        seen = 0
        for line in proc.stderr:                # a line a step, as they come
            if line.startswith(b"step "):
                seen = int(line.split()[1].split(b"/")[0])
                if seen >= 2:
                    break
        assert seen >= 2
        proc.send_signal(getattr(signal, signame))
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err[-1000:]
    assert b"Traceback" not in err and b"state saved in" in err
    saved = json.loads(state.read_text())
    assert saved["step"] >= seen and f"interrupted at step {saved['step']}:".encode() in err
    weights = json.loads(out.read_text())
    assert weights["step"] == saved["step"] and not list(tmp_path.glob("*.tmp*"))


def _state_of(path) -> dict:
    """A tuning run's state file as the tuner writes it (step 0), read back."""
    import json

    from brandubh.arena.tune import SpsaTuner, TuneConfig

    SpsaTuner(TuneConfig(steps=10, budget=100, pairs=1, params=("ring", "freedom")), str(path)).save()
    return json.loads(path.read_text())


def _deep(data: dict, where: str, value) -> dict:
    """``data`` with the value at ``where`` (keys joined by dots) replaced."""
    import copy

    out = copy.deepcopy(data)
    keys = where.split(".")
    node = out
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    return out


BAD_STATES = [  # (the change, a word the sentence must hold)
    ("theta", [], "theta"),
    ("theta", {"ring": 1.0}, "theta"),
    ("theta", {"ring": 1.0, "freedom": "x"}, "theta"),
    ("theta.ring", float("nan"), "theta"),
    ("theta.ring", float("inf"), "theta"),
    ("theta.ring", 1e300, "theta"),
    ("step", -100, "step"),
    ("step", 11, "step"),
    ("step", 2.5, "step"),
    ("step", True, "step"),
    ("games", -1, "games"),
    ("games", "many", "games"),
    ("log", {}, "log"),
    ("config", [], "config"),
    ("config", {"steps": 10, "budget": 100, "pairs": 1, "params": 5}, "config"),
    ("config.params", {"ring": 1}, "config"),
    ("config.start", [1, 2, 3], "config"),
    ("config.start", {"ring": "high"}, "config"),
    ("config.start", {"ring": 1e300}, "config"),
    ("config.c_end", "x", "config"),
    ("config.variant", ["brandubh"], "config"),
]


@pytest.mark.parametrize("where,value,word", BAD_STATES)
def test_a_tune_state_of_the_wrong_shape_is_a_sentence(tmp_path, where, value, word):
    import json

    from brandubh.arena.tune import SpsaTuner, TuneConfig, TuneError

    path = tmp_path / "state.json"
    good = _state_of(path)
    text = json.dumps(_deep(good, where, value))
    path.write_text(text)
    config = TuneConfig(steps=10, budget=100, pairs=1, params=("ring", "freedom"))
    with pytest.raises(TuneError, match=word):
        SpsaTuner(config, str(path))
    assert path.read_text() == text


@pytest.mark.parametrize("body", ["[" * 100_000, '{"version": 1, "config": ' + "[" * 100_000,
                                  "[1, 2]", '{"version": 1}', "null", '"text"', "\0" * 10],
                         ids=["deep", "deep-config", "list", "version-only", "null", "text", "nul"])
def test_a_tune_state_that_is_not_one_is_a_sentence(tmp_path, body):
    from brandubh.arena.tune import SpsaTuner, TuneConfig, TuneError

    path = tmp_path / "state.json"
    path.write_text(body)
    with pytest.raises(TuneError, match="state file"):
        SpsaTuner(TuneConfig(steps=10, budget=100, pairs=1, params=("ring",)), str(path))
    assert path.read_text() == body


def test_tune_refuses_a_bad_state_at_the_command_with_nothing_written(tmp_path):
    import json

    state = tmp_path / "s.json"
    good = _state_of(state)
    for where, value in (("step", -100), ("theta.ring", float("nan")), ("theta", [])):
        text = json.dumps(_deep(good, where, value))
        state.write_text(text)
        done = brandubh("tune", "--out", str(tmp_path / "w.json"), "--state", str(state), "--steps", "10",
                        "--budget", "100", "--pairs", "1", "--params", "ring,freedom", "--jobs", "1")
        assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr[-800:]
        assert done.stderr.startswith(b"brandubh tune: ") and where.split(".")[0].encode() in done.stderr
        assert state.read_text() == text and not (tmp_path / "w.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_weights_file_nested_too_deep_is_the_packages_error(tmp_path):
    from brandubh.core.weights import load_weights
    from brandubh.errors import WeightsError

    for body in ("[" * 100_000, '{"weights": ' + "{" * 100_000):
        (tmp_path / "w.json").write_text(body)
        with pytest.raises(WeightsError):
            load_weights(tmp_path / "w.json")
    done = brandubh("match", f"budget=10,weights={tmp_path / 'w.json'}", "budget=10", "--games", "2")
    assert done.returncode == 2 and b"Traceback" not in done.stderr and b"weights file" in done.stderr


# -- the standard output on a full disk, or a closed pipe ---------------------------------

GAME = "variant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1 a1a2 d1g1\n"
PRINTING = {"show": ("show", "GAME"), "show --svg -": ("show", "GAME", "--svg", "-"),
            "analyse": ("analyse", "GAME", "--budget", "200"), "perft": ("perft", "3", "--divide"),
            "perft by root": ("perft", "5", "--divide", "--slides")}


def _printing(name: str, tmp_path: Path) -> list[str]:
    game = tmp_path / "game.txt"
    game.write_text(GAME)
    return [str(game) if arg == "GAME" else arg for arg in PRINTING[name]]


@pytest.mark.parametrize("name", PRINTING)
def test_a_full_standard_output_is_a_sentence(tmp_path, name):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "brandubh", *_printing(name, tmp_path)], stdout=full,
                              stderr=subprocess.PIPE, timeout=60, cwd=ROOT, env=ENV)
    command = PRINTING[name][0]
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr[-800:]
    assert done.stderr == f"brandubh {command}: cannot write the output: No space left on device\n".encode()


@pytest.mark.parametrize("name", PRINTING)
def test_a_closed_pipe_ends_the_command_quietly(tmp_path, name):
    reader, writer = os.pipe()
    os.close(reader)            # the reader is gone before the first byte: every write meets a closed pipe
    try:
        done = subprocess.run([sys.executable, "-m", "brandubh", *_printing(name, tmp_path)], stdout=writer,
                              stderr=subprocess.PIPE, timeout=60, cwd=ROOT, env=ENV)
    finally:
        os.close(writer)
    from brandubh.cli import CLOSED_PIPE

    assert done.returncode == CLOSED_PIPE and done.stderr == b"", done.stderr[-800:]


# -- a match's outputs on a full disk ------------------------------------------------------

MATCH = ("match", "budget=30", "budget=20", "--games", "8", "--jobs", "1", "--no-progress", "--random-plies", "2")


def _limited(limit: int):
    """A child's files limited to ``limit`` bytes (a disk that fills: a write past it fails)."""
    import resource

    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def test_games_out_to_a_device_is_refused_before_the_first_game():
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    done = brandubh(*MATCH, "--games-out", "/dev/full")
    assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr[-800:]
    assert done.stderr.startswith(b"brandubh match: --games-out: cannot write '/dev/full'") and not done.stdout


def test_a_games_file_that_fills_stops_the_match_with_its_summary_and_whole_games(tmp_path):
    whole = tmp_path / "all.txt"
    done = brandubh(*MATCH, "--games-out", str(whole))
    assert done.returncode == 0, done.stderr[-800:]
    full = whole.read_bytes()
    cut = full.index(b"\n# ", len(full) // 3) + 1          # the end of a game some way in
    out = tmp_path / "games.txt"
    done = subprocess.run([sys.executable, "-m", "brandubh", *MATCH, "--games-out", str(out)],
                          capture_output=True, timeout=120, cwd=ROOT, env=ENV, preexec_fn=_limited(cut + 40))
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr[-800:]
    assert b"cannot write" in done.stderr and b"the match stops" in done.stderr
    written = out.read_bytes()
    assert full.startswith(written) and written.endswith(b"\n") and len(written) <= cut + 40
    kept = written.count(b"# ")
    assert kept >= 1 and (len(written) == len(full) or full[len(written):].startswith(b"\n# "))
    assert b"Games played" in done.stdout or b"games" in done.stdout.lower()   # the summary
    assert f"holds the {kept} game".encode() in done.stderr


def test_the_first_game_that_cannot_be_written_leaves_no_file(tmp_path):
    out = tmp_path / "games.txt"
    done = subprocess.run([sys.executable, "-m", "brandubh", *MATCH, "--games-out", str(out)],
                          capture_output=True, timeout=120, cwd=ROOT, env=ENV, preexec_fn=_limited(20))
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr[-800:]
    assert b"cannot write" in done.stderr and done.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_first_game_that_cannot_be_written_keeps_the_old_games_file(tmp_path):
    out = tmp_path / "games.txt"
    out.write_text("# the games of an earlier run\n")
    done = subprocess.run([sys.executable, "-m", "brandubh", *MATCH, "--games-out", str(out)],
                          capture_output=True, timeout=120, cwd=ROOT, env=ENV, preexec_fn=_limited(40))
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr[-800:]
    assert b"no game was written whole, and the file is as it was" in done.stderr
    assert out.read_text() == "# the games of an earlier run\n" and list(tmp_path.iterdir()) == [out]


def test_save_on_a_full_disk_leaves_whole_files_and_a_sentence(tmp_path):
    import json

    save = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "brandubh", *MATCH, "--save", str(save)],
                          capture_output=True, timeout=120, cwd=ROOT, env=ENV, preexec_fn=_limited(900))
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr[-800:]
    assert b"cannot write" in done.stderr and done.stdout
    for path in save.iterdir():
        assert not path.name.startswith(".") and path.stat().st_size > 0, path.name
        if path.suffix == ".json":
            json.loads(path.read_text())


# -- perft --slides, as plain perft -----------------------------------------------------


@pytest.mark.parametrize("position", [SETUP, "k6/7/7/7/7/7/a6 a", "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"])
def test_perft_slides_root_by_root_counts_what_the_engine_counts(position):
    from brandubh import divide
    from brandubh.cli.perft import root_counts

    for depth in (1, 2, 3):
        got = list(root_counts(depth, position, "brandubh", full=False, slides=True))
        assert got and [m for m, _ in got] == list(divide(depth, position, "brandubh", slides=True))
        assert {m: s.leaves for m, s in got} == divide(depth, position, "brandubh", slides=True)
        assert all(s.captures == s.endings == 0 for _, s in got)


def test_perft_slides_shows_its_progress_on_a_terminal(monkeypatch, capsys):
    import io

    from brandubh.cli import main

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["perft", "6", "--slides"]) == 0
    assert "\rperft 6: 1 of 40 moves, " in err.getvalue() and "40 of 40 moves" in err.getvalue()
    assert "perft 6 (brandubh, slides): 1119817632" in capsys.readouterr().out


def test_perft_slides_says_how_far_it_got_on_ctrl_c():
    import select
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "perft", "7", "--slides", "--divide"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no --divide line came as it was counted"
        first = proc.stdout.readline()
        assert first.split()[0] == b"d1b1" and int(first.split()[1]) > 0
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert b"perft 7: stopped after " in err and b"Traceback" not in err


# -- a program under other rules --------------------------------------------------------

CG_BOT = f"{sys.executable} -m brandubh codingame --budget 50"


def test_a_codingame_program_plays_the_rules_it_knows_by_default():
    import json

    done = brandubh("match", "budget=50", f"cmd={CG_BOT}", "--games", "2", "--jobs", "1", "--json",
                    "--random-plies", "4", timeout=180)
    assert done.returncode == 0, done.stderr[-800:]
    summary = json.loads(done.stdout)
    assert summary["variant"] == "codingame"
    assert [g["fault"] for g in summary["games"]] == [None] * 2


def test_a_codingame_program_under_other_rules_is_refused_with_a_sentence():
    done = brandubh("match", "level=3", f"cmd={CG_BOT}", "--variant", "brandubh", "--games", "2")
    assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr[-800:]
    err = done.stderr.decode()
    assert err.startswith("brandubh match: ") and "CodinGame protocol" in err and "rules=" in err
    assert "--variant codingame" in err and not done.stdout


def test_a_program_said_to_play_the_events_rules_plays_them():
    import json

    bot = f"{CG_BOT} --variant brandubh"
    done = brandubh("match", "budget=50", f"rules=brandubh,cmd={bot}", "--variant", "brandubh", "--games", "2",
                    "--jobs", "1", "--json", "--random-plies", "4", timeout=180)
    assert done.returncode == 0, done.stderr[-800:]
    summary = json.loads(done.stdout)
    assert summary["variant"] == "brandubh" and [g["fault"] for g in summary["games"]] == [None] * 2
    # Said to play other rules than the event's: refused too.
    done = brandubh("match", "budget=50", f"rules=modern,cmd={bot}", "--variant", "brandubh", "--games", "2")
    assert done.returncode == 2 and b"modern" in done.stderr and b"Traceback" not in done.stderr


def test_an_event_refuses_a_program_that_plays_other_rules():
    from brandubh.arena import BotPlayer, Event
    from brandubh.arena.process_player import ProcessPlayer
    from brandubh.errors import BrandubhError

    with pytest.raises(BrandubhError, match="CodinGame protocol"):
        Event([BotPlayer({"budget": 10}), ProcessPlayer(CG_BOT)], variant="brandubh")
    # What only the referee counts (repetitions, the ply cap) a program never needs to know.
    Event([BotPlayer({"budget": 10}), ProcessPlayer(CG_BOT)], variant="codingame repeat=1000 ply_cap=300")
    Event([BotPlayer({"budget": 10}), ProcessPlayer(CG_BOT, rules="brandubh")], variant="brandubh")
    Event([BotPlayer({"budget": 10}), ProcessPlayer(CG_BOT, protocol="opentafl")], variant="brandubh")


def test_serve_open_without_a_browser_says_where_to_go(tmp_path):
    import select
    import signal

    # No browser to be found: none on the PATH, no screen, and BROWSER a program that is not there.
    env = {key: value for key, value in ENV.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PATH=str(tmp_path), BROWSER=str(tmp_path / "no-such-browser"))
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "serve", "--port", "0", "--open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        first = proc.stdout.readline().decode()
        assert first.startswith("brandubh serve: the board is at http://127.0.0.1:"), first
        url = first.split(" is at ")[1].split()[0]
        ready, _, _ = select.select([proc.stderr], [], [], 30)
        said = proc.stderr.readline().decode() if ready else ""
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert said == f"brandubh serve: --open: no browser could be started here; open {url} by hand\n"


def test_the_server_listens_on_this_machine_only_by_default():
    from brandubh.cli import build_parser
    from brandubh.serve import Server

    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"
    server = Server(port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()
