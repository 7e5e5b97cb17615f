"""The search on several threads (lazy SMP, csrc/search.c) and the batched
environments' threads (csrc/vecenv.c): one thread is the search as it always
was; more give legal moves, stop when told, and leave no thread behind;
tests/c/threads_check.c checks the same in C, also under ThreadSanitizer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from brandubh import Rules
from brandubh._engine import ffi, lib
from conftest import ROOT, build_c_driver

POSITION = "3a3/1a1k3/2d4/a1d1daa/1a1d3/3a3/3a3 a"


def c_search(rules: Rules, threads: int, budget: int = 60_000, depth: int = 0, seed: int = 1):
    limits = ffi.new("bd_search_limits *")
    limits.budget, limits.depth, limits.seed, limits.threads = budget, depth, seed, threads
    out = ffi.new("bd_search_result *")
    w = ffi.new("bd_weights *")
    lib.bd_default_weights(w)
    assert lib.bd_search(rules._g, limits, w, out) == 0
    return out.move, out.score, out.depth, out.nodes, out.stopped


def _tasks() -> int:
    return len(os.listdir("/proc/self/task"))


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
    move, _, depth, nodes, _ = c_search(rules, 3, budget=150_000)
    assert move in rules.moves()
    # Every thread's positions together: no more than the budget (and half
    # again when the first root move fails low), but more than one thread's
    # share.
    assert 150_000 // 3 < nodes <= 225_000
    assert depth >= 1


def test_a_search_on_threads_reaches_the_depth_asked():
    rules = Rules(POSITION)
    move, _, depth, _, stopped = c_search(rules, 2, budget=1 << 40, depth=6)
    assert move in rules.moves() and depth == 6 and not stopped


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
def test_no_engine_thread_outlives_its_search():
    rules = Rules(POSITION)
    before = _tasks()
    for threads in (2, 4, 8):
        c_search(rules, threads, budget=100_000)
        assert _tasks() == before


# -- the C driver, plain and under ThreadSanitizer -------------------------------


@pytest.mark.skipif(sys.platform == "win32" or not shutil.which("gcc"), reason="needs gcc and POSIX")
def test_threads_driver(tmp_path):
    exe = build_c_driver("threads_check", tmp_path, "-O2", "-Werror")
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1] == "all ok" and not [line for line in lines if line.startswith("FAIL")]


def _has_tsan() -> bool:
    if sys.platform != "linux" or not shutil.which("gcc"):
        return False
    lib_path = subprocess.run(["gcc", "-print-file-name=libtsan.so"], capture_output=True, text=True).stdout.strip()
    return os.path.isabs(lib_path) and os.path.exists(lib_path)


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
