"""The engine under valgrind's memcheck: no invalid access, no use of
uninitialised memory, no leak (tests/c/engine_check.c).

memcheck reads every instruction (about 7 s of a core): it runs under
BRANDUBH_SLOW=1, which tools/setup-tests' longer checks (so CI) run; the
default suite runs the same driver without it, its own checks only."""

import os
import shutil
import subprocess

import pytest

from conftest import build_c_driver


@pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
def test_the_engine_driver_passes(tmp_path):
    run = subprocess.run([str(build_c_driver("engine_check", tmp_path))], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert "ok" in run.stdout.splitlines()


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("valgrind") and shutil.which("gcc")), reason="needs valgrind and gcc")
def test_memcheck_clean(tmp_path):
    # Built -O2 -g (conftest's DRIVER_FLAGS): memcheck reads every
    # instruction, and the NNUE's loops at -O1 were 84% of them (9 s under
    # memcheck against 5.5 s); -g keeps the reports' lines.
    exe = build_c_driver("engine_check", tmp_path)
    # Not under the sanitizers' preloaded runtime (tools/sanitize.sh): valgrind
    # and ASan cannot share a process.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    run = subprocess.run(["valgrind", "--error-exitcode=9", "--leak-check=full",
                          "--errors-for-leak-kinds=definite,indirect,possible", str(exe)],
                         capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert "ok" in run.stdout.splitlines()
    assert "ERROR SUMMARY: 0 errors" in run.stderr
