"""Games in worker processes (``--jobs N``): the same games and the same
table as one job, games really played in other processes, a worker killed
mid-game costing only its game (played again, counted once, its programs
killed with it), an abort and Ctrl-C reporting the games finished, and no
process left behind however the run ends.

The games are small (a few hundred positions a move); a process is taken to
be gone when /proc says so within a generous bound (a loaded machine)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from brandubh.arena import BotPlayer, Event, GameSpec, ProcessExecutor, ProcessPlayer, run_event
from brandubh.arena.openings import random_openings
from brandubh.arena.reaping import marked, process_table
from brandubh.arena.workers import WORKER_MARK
from brandubh.cli import main

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "tests" / "helpers"
BOTS = ROOT / "tests" / "bots"
sys.path.insert(0, str(HELPERS))

from cluster_players import DyingPlayer, PidPlayer  # noqa: E402
from conftest import running  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find processes")

A, B = "budget=400", "budget=250,ring=45"


def bot(name, *args):
    return " ".join([shlex.quote(sys.executable), "-S", shlex.quote(str(BOTS / name)),
                     *(shlex.quote(str(a)) for a in args)])


RANDOM = bot("random_bot.py")
SLEEPER = bot("sleep_bot.py", "--at", "1", "--seconds", "60", "--child")


def event(players=None, games=8, jobs=2, **kw):
    players = players or [BotPlayer.from_text(A, "A"), BotPlayer.from_text(B, "B")]
    return Event(players, games=games, variant="brandubh", jobs=jobs,
                 openings=random_openings((games + 1) // 2, 3, seed=5, variant="brandubh", distinct=True),
                 **kw)


def table(result):
    """The result without what the clock or the machine says."""
    out = result.as_dict() if hasattr(result, "as_dict") else dict(result)
    for key in ("seconds", "times_ms", "replayed"):
        out.pop(key, None)
    out["games"] = [{k: v for k, v in g.items() if k not in ("first_ms", "turn_ms", "seconds", "pids")}
                    for g in out["games"]]
    return out


def gone_soon(pids, seconds=10.0):
    deadline = time.monotonic() + seconds
    while any(running(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def descendants(root):
    """Every live process under ``root`` (by parent ids in /proc)."""
    parent = {pid: info.parent for pid, info in process_table().items() if info.state != "Z"}
    out, frontier = set(), {root}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - out
        out |= frontier
    return out


def test_two_workers_play_the_same_games_and_table_as_one_job():
    here = run_event(event(jobs=1))
    players = [PidPlayer(A, "A"), PidPlayer(B, "B")]
    with ProcessExecutor(2) as pool:
        workers = set(pool.pids)
        there = run_event(event(players), executor=pool)
    assert there.replayed == 0 and len(there.counted) == 8
    # Played in the workers, both of them, not here.
    played_in = {pid for g in there.games for pid in g.pids.values()}
    assert played_in == workers and os.getpid() not in played_in
    assert table(there) == table(here)
    assert [g.text for g in there.games] == [g.text for g in here.games]
    assert gone_soon(workers)


def test_the_command_gives_the_same_records_and_table_with_one_job_and_two(capsys):
    argv = ["match", A, B, "--games", "10", "--random-plies", "3", "--seed", "7", "--json"]
    out = {}
    for jobs in ("1", "2"):
        assert main([*argv, "--jobs", jobs]) == 0
        out[jobs] = json.loads(capsys.readouterr().out)
    assert out["1"]["games_played"] == 10
    assert table(out["1"]) == table(out["2"])


def test_a_worker_killed_mid_game_costs_only_that_game(tmp_path):
    marker = str(tmp_path / "killed")
    dying = [DyingPlayer(A, "A", game=2, at=3, marker=marker), BotPlayer.from_text(B, "B")]
    with ProcessExecutor(2) as pool:
        first = set(pool.pids)
        result = run_event(event(dying), executor=pool)
        assert pool.started == 3  # one more worker in the dead one's place
    assert os.path.exists(marker), "no worker was killed"
    assert int(Path(marker + ".pid").read_text()) in first
    assert result.replayed == 1 and "played again" in result.summary()
    assert sorted(g.index for g in result.games) == list(range(8)), "a game lost or counted twice"
    assert table(result) == table(run_event(event(jobs=1)))


def test_a_worker_killed_from_outside_takes_its_programs_with_it():
    spec = GameSpec(0, (ProcessPlayer(SLEEPER, "A"), ProcessPlayer(RANDOM, "B")), variant="codingame")
    with ProcessExecutor(1) as pool:
        victim = pool.pids[0]
        pool.submit(spec)
        deadline = time.monotonic() + 30
        programs = []
        while len(programs) < 3 and time.monotonic() < deadline:  # two bots and the sleeper's child
            programs = marked(*pool.marks, name=WORKER_MARK)
            time.sleep(0.05)
        assert len(programs) >= 3, programs
        os.kill(victim, signal.SIGKILL)
        back = []
        while not back and time.monotonic() < deadline:
            back = pool.finished(timeout=1)
        assert back == [(spec, None)] and pool.replayed == 1  # to be played again
        assert gone_soon(programs), "a killed worker's programs live on"
        # The slot gets a new worker, which plays the next game to its end.
        quick = GameSpec(1, (BotPlayer.from_text("budget=100", "A"), BotPlayer.from_text("budget=50", "B")))
        pool.submit(quick)
        back = []
        while not back and time.monotonic() < deadline:
            back = pool.finished(timeout=1)
        assert back[0][1].counted and victim not in pool.pids


def test_an_abort_stops_the_games_in_the_workers_and_leaves_nothing():
    players = [ProcessPlayer(SLEEPER, "A"), ProcessPlayer(SLEEPER, "B")]
    abort = threading.Event()
    with ProcessExecutor(2) as pool:
        def abort_once_both_play() -> None:
            # Both workers in a game (its two bots started), however slowly
            # they came up: the two games waiting behind them never begin.
            deadline = time.monotonic() + 60
            while len(marked(*pool.marks, name=WORKER_MARK)) < 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)
            abort.set()

        threading.Thread(target=abort_once_both_play, daemon=True).start()
        t0 = time.monotonic()
        result = run_event(Event(players, games=4, variant="codingame", jobs=2), abort=abort, executor=pool)
        assert time.monotonic() - t0 < 30
        marks = pool.marks
        workers = pool.pids
    assert result.interrupted and result.tally.games == 0
    assert len(result.games) == 2 and all(g.reason == "aborted" for g in result.games)
    assert all(g.text.startswith("variant codingame") for g in result.games)
    bots = [pid for g in result.games for pid in g.pids.values()]
    assert len(bots) == 4 and gone_soon(bots + workers)
    assert marked(*marks, name=WORKER_MARK) == []


def test_an_exception_in_the_run_leaves_no_process():
    # Game 1 (A against B) ends soon, while game 2 (A against the sleeper)
    # has its programs running in the other worker.
    players = [BotPlayer.from_text("budget=200", "A"), BotPlayer.from_text("budget=100", "B"),
               ProcessPlayer(SLEEPER, "C")]

    seen = []

    def fail(game, so_far):
        deadline = time.monotonic() + 20
        while len(seen) < 2 and time.monotonic() < deadline:  # the sleeper and its child
            seen[:] = marked(*marks, name=WORKER_MARK)
            time.sleep(0.05)
        raise RuntimeError("the caller failed")

    with pytest.raises(RuntimeError, match="the caller failed"):
        with ProcessExecutor(2) as pool:
            workers, marks = pool.pids, pool.marks
            run_event(Event(players, games=4, variant="codingame", jobs=2), on_game=fail, executor=pool)
    assert len(seen) >= 2, seen
    assert gone_soon(workers + seen)
    assert marked(*marks, name=WORKER_MARK) == []


def test_ctrl_c_at_a_terminal_reports_the_games_and_leaves_no_process(tmp_path):
    """SIGINT to the whole process group, as a terminal sends it: the
    workers leave it to the run, which reports what was finished, exits
    130, and leaves no worker, program or program's child."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "brandubh", "match", "level=3", f"cmd={SLEEPER}", "budget=300",
         "--games", "40", "--jobs", "2", "--verbose", "--variant", "codingame",
         "--hang-ms", "100000", "--save", str(tmp_path)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        first = proc.stderr.readline()  # --verbose: a line a finished game (A against C)
        assert first.startswith("game "), first + proc.stderr.read()
        time.sleep(1.0)  # the sleeper's games are under way, its child started
        seen = descendants(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert "(120 asked; interrupted)" in stdout.splitlines()[0], stdout
    assert "Traceback" not in stderr
    assert len(seen) >= 4, seen  # two workers, a sleeper bot and its child at least
    assert gone_soon(seen), [p for p in seen if running(p)]
    records = [json.loads(p.read_text()) for p in tmp_path.glob("game-*.json")]
    assert any(r["reason"] == "aborted" for r in records)
    assert sum(r["reason"] not in ("aborted", "error") for r in records) == int(stdout.split()[0])


def test_a_killed_run_leaves_no_worker_and_no_program(tmp_path):
    """The command SIGKILLed (nothing of it runs to clean up): each worker
    sees its pipe close, kills its programs and leaves."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "brandubh", "match", "level=3", f"cmd={SLEEPER}", "budget=300",
         "--games", "40", "--jobs", "2", "--verbose", "--variant", "codingame", "--hang-ms", "100000"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
        assert first.startswith("game "), first + proc.stderr.read()
        time.sleep(1.0)
        seen = descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert len(seen) >= 4, seen  # two workers, a sleeper bot and its child at least
    assert gone_soon(seen), [p for p in seen if running(p)]


@pytest.mark.parametrize("kw, words", [({"start_method": "fork"}, "spawn or forkserver"),
                                       ({"slots": 0}, "at least one worker")])
def test_bad_settings_are_refused_before_any_process_starts(kw, words):
    before = descendants(os.getpid())
    with pytest.raises(ValueError, match=words):
        ProcessExecutor(**kw)
    assert descendants(os.getpid()) <= before


def test_tune_with_two_jobs_writes_the_same_log(tmp_path, capsys):
    argv = ["tune", "--steps", "3", "--budget", "150", "--pairs", "2", "--params", "ring,freedom"]
    logs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"w{jobs}.json"
        assert main([*argv, "--out", str(out), "--jobs", jobs]) == 0
        logs.append(json.loads(Path(f"{out}.state.json").read_text())["log"])
    assert "worker processes" in capsys.readouterr().err
    assert logs[0] == logs[1] and len(logs[0]) == 3


def test_a_script_without_a_main_guard_gets_a_clear_error(tmp_path):
    """Each worker imports the script's main module: one that makes an
    executor at the top level cannot start a worker, and says why, rather
    than losing every game."""
    script = tmp_path / "script.py"
    script.write_text(
        "from brandubh.arena import BotPlayer, Event, ProcessExecutor, run_event\n"
        "event = Event([BotPlayer.from_text('budget=100'), BotPlayer.from_text('budget=50')], games=4)\n"
        "with ProcessExecutor(2) as pool:\n"
        "    run_event(event, executor=pool)\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode != 0
    assert "WorkerError" in run.stderr and "if __name__" in run.stderr.splitlines()[-1]


def test_the_command_line_picks_processes_for_more_than_one_job_and_threads_on_request():
    from brandubh.arena.command import event_from_args, make_executor, parse_player
    from brandubh.arena.event import default_jobs
    from brandubh.cli import build_parser

    parser = build_parser()

    def executor(*extra):
        args = parser.parse_args(["match", A, B, "--games", "4", *extra])
        players = [parse_player(t, n) for t, n in zip(args.players, "AB")]
        return make_executor(args, event_from_args(args, players))

    assert executor("--jobs", "1") is None
    assert executor("--jobs", "2", "--threads") is None
    pool = executor("--jobs", "2")
    try:
        assert isinstance(pool, ProcessExecutor) == (default_jobs() > 1)
    finally:
        if pool is not None:
            pool.close()
