"""The search on several threads (lazy SMP, csrc/search.c) and the batched
environments' threads (csrc/vecenv.c): one thread is the search as it always
was; more give legal moves, stop when told, and leave no thread behind;
tests/c/threads_check.c checks the same in C, also under ThreadSanitizer."""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from brandubh import Bot, Game, Rules, Stop
from brandubh.errors import ArgumentError
from brandubh._engine import ffi, lib
from conftest import ROOT, build_c_driver

POSITION = "3a3/1a1k3/2d4/a1d1daa/1a1d3/3a3/3a3 a"


def c_search(rules: Rules, threads: int, budget: int = 60_000, depth: int = 0, seed: int = 1, lockstep: int = 0):
    """The engine's search called directly: (move, score, depth, nodes,
    stopped, the calling thread's own nodes)."""
    limits = ffi.new("bd_search_limits *")
    limits.budget, limits.depth, limits.seed, limits.threads = budget, depth, seed, threads
    limits.lockstep = lockstep
    out = ffi.new("bd_search_result *")
    w = ffi.new("bd_weights *")
    lib.bd_default_weights(w)
    assert lib.bd_search(rules._g, limits, w, out) == 0
    return out.move, out.score, out.depth, out.nodes, out.stopped, out.own_nodes


def _tasks() -> int:
    return len(os.listdir("/proc/self/task"))


def _alone(test):
    """Run the test in a pytest process of its own: it counts the process's
    threads, and in a test worker other tests' threads (servers, executors)
    come and go while it counts."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        if os.environ.get("BRANDUBH_ALONE"):
            return test(*args, **kwargs)
        nodeid = os.environ["PYTEST_CURRENT_TEST"].rsplit(" ", 1)[0]
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-n", "0", "-s", nodeid],
            cwd=ROOT, env={**os.environ, "BRANDUBH_ALONE": "1"}, capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
        assert "1 passed" in done.stdout, done.stdout[-4000:]

    return run


# -- the engine's interface ----------------------------------------------------


@pytest.mark.parametrize("variant", ["brandubh", "codingame"])
def test_one_thread_is_the_search_without_threads(variant):
    """threads 0 (the field left alone) and 1 are the same search: move,
    score, depth and node count."""
    rules = Rules(POSITION, variant)
    assert c_search(rules, 1) == c_search(rules, 0)
    assert c_search(rules, 1, depth=5) == c_search(rules, 0, depth=5)


def test_threads_count_their_positions_against_one_budget():
    rules = Rules(POSITION, "codingame")
    move, _, depth, nodes, _, _ = c_search(rules, 3, budget=150_000)
    assert move in rules.moves()
    # Every thread's positions together: no more than the budget (and half
    # again when the first root move fails low), but more than one thread's
    # share.
    assert 150_000 // 3 < nodes <= 225_000
    assert depth >= 1


def test_a_search_on_threads_reaches_the_depth_asked():
    rules = Rules(POSITION)
    move, _, depth, _, stopped, _ = c_search(rules, 2, budget=1 << 40, depth=6)
    assert move in rules.moves() and depth == 6 and not stopped


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_in_lockstep_are_deterministic_and_each_searches(threads):
    """lockstep=True: the threads take turns, so a search on several is the
    same every time; the calling thread visits its turns' share of the
    positions, and the helpers the rest. (Its answer may be the one-thread
    search's, as it is here on two threads since the countermove.)"""
    rules = Rules(POSITION, "codingame")
    found = [rules.search(budget=120_000, seed=3, threads=threads, lockstep=True) for _ in range(3)]
    assert found[0] == found[1] == found[2] and found[0].move in rules.moves()
    _, _, _, nodes, _, own = c_search(rules, threads, budget=120_000, seed=3, lockstep=1)
    assert nodes == found[0].nodes and abs(own - nodes / threads) <= 1024 * 2
    bot = Bot(budget=60_000, seed=5, threads=threads, lockstep=True)
    assert bot.choose(Game()) == bot.choose(Game())


def test_lockstep_stops_under_a_clock():
    rules = Rules(POSITION)
    found = rules.search(time_ms=100, threads=3, lockstep=True)
    assert found.move in rules.moves() and found.stopped and found.depth >= 1


@pytest.mark.parametrize("bad", [1, 0, None, "yes"])
def test_bad_lockstep_is_refused(bad):
    with pytest.raises(ArgumentError, match="lockstep must be True or False"):
        Rules().search(budget=100, threads=2, lockstep=bad)
    with pytest.raises(ArgumentError, match="lockstep must be True or False"):
        Game().search(budget=100, lockstep=bad)
    with pytest.raises(ArgumentError, match="lockstep must be True or False"):
        Bot(budget=100, lockstep=bad)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
@_alone
def test_no_engine_thread_outlives_its_search():
    rules = Rules(POSITION)
    before = _tasks()
    for threads in (2, 4, 8):
        c_search(rules, threads, budget=100_000)
        assert _tasks() == before, threads
        rules.search(budget=100_000, threads=threads, lockstep=True)
        assert _tasks() == before, (threads, "lockstep")


# -- the C driver, plain and under ThreadSanitizer -------------------------------


def _has_tsan() -> bool:
    if sys.platform != "linux" or not shutil.which("gcc"):
        return False
    lib_path = subprocess.run(["gcc", "-print-file-name=libtsan.so"], capture_output=True, text=True).stdout.strip()
    return os.path.isabs(lib_path) and os.path.exists(lib_path)


@pytest.mark.skipif(sys.platform == "win32" or not shutil.which("gcc"), reason="needs gcc and POSIX")
def test_threads_driver(tmp_path):
    """The driver's own checks, without ThreadSanitizer (a second of a core,
    where its build and run under TSan take ten: that one runs under
    BRANDUBH_SLOW=1, as tools/setup-tests' longer checks run it)."""
    exe = build_c_driver("threads_check", tmp_path)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1] == "all ok" and not [line for line in lines if line.startswith("FAIL")]


@pytest.mark.slow
@pytest.mark.skipif(not _has_tsan(), reason="needs gcc with ThreadSanitizer's runtime (Linux)")
def test_threads_driver_under_thread_sanitizer():
    """tools/tsan.sh: the driver built with -fsanitize=thread; a data race
    (or any other report) ends it with exit code 66."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    run = subprocess.run(["bash", str(ROOT / "tools" / "tsan.sh")], capture_output=True, text=True,
                         timeout=600, env=env)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    assert "WARNING: ThreadSanitizer" not in run.stderr
    assert run.stdout.splitlines()[-1] == "all ok"


# -- the Python interface --------------------------------------------------------


def _settle(before: int, seconds: float = 5.0) -> int:
    """The thread count, once it is back to `before` (or after `seconds`)."""
    end = time.monotonic() + seconds
    while _tasks() != before and time.monotonic() < end:
        time.sleep(0.01)
    return _tasks()


def test_threads_1_is_the_default_search():
    rules = Rules(POSITION, "codingame")
    assert rules.search(budget=40_000, seed=3, threads=1) == rules.search(budget=40_000, seed=3)
    game = Game(variant="codingame")
    assert game.search(budget=20_000, salt="a", threads=1) == game.search(budget=20_000, salt="a")


def test_two_threads_play_legal_moves():
    rules = Rules(POSITION)
    found = rules.search(budget=100_000, threads=2)
    assert found.move in rules.moves() and found.pv[0] == found.move and found.nodes <= 150_000
    game = Game()
    assert str(game.search(budget=20_000, threads=2).move) in {m.move for m in game.legal()}
    bot = Bot(budget=20_000, seed=4, threads=2)
    assert str(bot.choose(game)) in {m.move for m in game.legal()}
    assert Bot(2, threads=2).choose(rules) in rules.moves()


def test_two_threads_under_a_clock():
    rules = Rules(POSITION)
    found = rules.search(time_ms=100, threads=2)
    assert found.move in rules.moves() and found.stopped and found.depth >= 1


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
@pytest.mark.parametrize("make", [Stop, threading.Event])
@_alone
def test_stop_ends_every_thread(make):
    rules = Rules(POSITION, "codingame")
    rules.search(budget=600_000, threads=2)  # the main thread's worker, kept (brandubh/core/stopping.py)
    before = _tasks()
    stop = make()
    box: dict = {}
    worker = threading.Thread(target=lambda: box.update(found=rules.search(budget=2**40, stop=stop, threads=4)))
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()
    t0 = time.monotonic()
    stop.set()
    worker.join(10)
    assert not worker.is_alive(), "the search did not stop"
    print(f"stopped {1000 * (time.monotonic() - t0):.1f} ms after stop.set()")
    found = box["found"]
    assert found.stopped and found.move in rules.moves() and 0 < found.nodes < 2**40
    assert _settle(before) == before


@pytest.mark.skipif(not (hasattr(signal, "setitimer") and Path("/proc/self/task").is_dir()),
                    reason="POSIX alarms, threads counted in /proc")
@_alone
def test_a_signal_ends_a_threaded_search_and_its_threads():
    """As Ctrl-C does: a handler that raises in the main thread, which waits
    for the search (brandubh/core/stopping.py): the flag stops every thread."""
    rules = Rules(POSITION)
    rules.search(budget=600_000, threads=2)
    before = _tasks()

    def handler(signum, frame):
        raise TimeoutError

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        t0 = time.monotonic()
        with pytest.raises(TimeoutError):
            rules.search(budget=2**40, threads=3)
        took = time.monotonic() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert took < 10, took
    assert _settle(before) == before


@pytest.mark.parametrize("bad", [0, 65, -1, True, 2.0, "2"])
def test_bad_threads_are_refused(bad):
    rules = Rules()
    with pytest.raises(ArgumentError, match="threads"):
        rules.search(budget=100, threads=bad)
    with pytest.raises(ArgumentError, match="threads"):
        Game().search(budget=100, threads=bad)
    with pytest.raises(ArgumentError, match="threads"):
        Bot(2, threads=bad)
    assert rules.ply == 0


@pytest.mark.parametrize("text", ["threads=0", "threads=65", "time_ms=0", "lockstep=2", "lockstep=-1"])
def test_bad_engine_settings_are_refused(text):
    from brandubh.arena.bot_player import BotPlayer

    with pytest.raises(ArgumentError):
        BotPlayer.from_text(text)


def test_the_engine_setting_takes_a_clock_and_threads():
    from brandubh.arena.bot_player import make_bot, parse_setting
    from brandubh.core.search import MAX_BUDGET

    bot = make_bot(parse_setting("time_ms=100,threads=2"), "x")
    assert (bot.time_ms, bot.threads, bot.budget) == (100.0, 2, MAX_BUDGET)
    bot = make_bot(parse_setting("level=3,time_ms=50"), "x")
    assert (bot.time_ms, bot.threads, bot.budget) == (50.0, None, Bot(3).budget)


def test_command_line_threads(capsys):
    from brandubh.cli import build_parser, main

    assert main(["bench", "--depth", "3", "--threads", "2"]) == 0
    out = capsys.readouterr().out
    assert "Bench:" not in out and "threads          : 2" in out
    parser = build_parser()
    assert parser.parse_args(["opentafl", "--threads", "3"]).threads == 3
    assert parser.parse_args(["codingame", "--threads", "2"]).threads == 2
    for command in (["bench"], ["opentafl"], ["codingame"]):
        with pytest.raises(SystemExit):
            parser.parse_args([*command, "--threads", "0"])


# -- batched environments ----------------------------------------------------------

def _run_env(threads: int, steps: int, games: int = 70):
    from brandubh.rl import VectorEnv

    env = VectorEnv(games, variant="codingame", seed=9, max_plies=50, threads=threads)
    seen = [tuple(a.copy() for a in env.reset())]
    for step in range(steps):
        if step % 4 == 0:
            actions, scores = env.search(budget=300, seed=2, scores=True)
            seen.append((actions, scores))
        else:
            actions = env.random_actions()
            seen.append((actions,))
        out = env.step(actions)
        seen.append(tuple(a.copy() for a in out) + (env.final_observations.copy(), env.outcomes.copy(),
                                                     env.winners.copy()))
    return seen


@pytest.mark.parametrize("threads", [2, 3])
def test_env_threads_write_the_arrays_of_one_thread(threads):
    np = pytest.importorskip("numpy")
    one, more = _run_env(1, 160), _run_env(threads, 160)
    assert len(one) == len(more)
    for a, b in zip(one, more):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    # The steps did something: games ended, by several endings.
    ended = sum(int(row[1].any()) for row in one if len(row) == 8)
    assert ended > 10


def test_env_threads_are_checked():
    pytest.importorskip("numpy")
    from brandubh.rl import VectorEnv

    for bad in (0, 65, 1.5, True):
        with pytest.raises(ArgumentError, match="threads"):
            VectorEnv(4, threads=bad)
    assert VectorEnv(4, threads=3).threads == 3


def test_env_refuses_an_illegal_action_in_any_slice():
    np = pytest.importorskip("numpy")
    from brandubh.errors import MoveError
    from brandubh.rl import VectorEnv

    env = VectorEnv(100, threads=3, seed=1)
    env.reset()
    actions = env.random_actions()
    before = env.observations.copy()
    actions[80] = 0
    actions[70] = 0
    with pytest.raises(MoveError, match="game 70"):
        env.step(actions)
    assert np.array_equal(env.observations, before)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
@_alone
def test_env_threads_are_kept_from_step_to_step_and_end_with_it():
    """An environment on three threads keeps two workers (csrc/thread.h's
    pool) from call to call, instead of starting threads in every call, and
    they end when it goes; a fork's copy has none, and still steps."""
    np = pytest.importorskip("numpy")
    import gc
    from brandubh.rl import VectorEnv

    def engine_threads() -> set:
        # The process's threads but Python's own (the package's may come
        # and go: brandubh/core/stopping.py's worker).
        python = {t.native_id for t in threading.enumerate()}
        tasks = set(os.listdir("/proc/self/task"))
        python |= {t.native_id for t in threading.enumerate()}
        return tasks - {str(n) for n in python}

    before = engine_threads()
    env = VectorEnv(200, seed=1, threads=3)
    env.reset()
    workers = engine_threads() - before
    assert len(workers) == 2
    for _ in range(20):
        env.step(env.random_actions())
        assert engine_threads() - before == workers
    # A child forked now gets the calling thread alone: the same games
    # follow there, on no worker.
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        env.step(env.random_actions())
        os.write(write, env.observations.tobytes()[:4096])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        theirs = pipe.read()
    assert os.waitpid(pid, 0)[1] == 0
    env.step(env.random_actions())
    assert theirs == env.observations.tobytes()[:4096]
    assert np.any(env.observations)
    del env
    gc.collect()
    assert not engine_threads() - before
