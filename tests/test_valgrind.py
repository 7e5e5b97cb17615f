"""The engine under valgrind's memcheck: no invalid access, no use of
uninitialised memory, no leak (tests/c/engine_check.c)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (shutil.which("valgrind") and shutil.which("gcc")), reason="needs valgrind and gcc")
def test_memcheck_clean(tmp_path):
    exe = tmp_path / "engine_check"
    sources = [str(p) for p in sorted((ROOT / "csrc").glob("*.c"))]
    subprocess.run(["gcc", "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'csrc'}",
                    *sources, str(ROOT / "tests" / "c" / "engine_check.c"), "-o", str(exe)], check=True)
    # Not under the sanitizers' preloaded runtime (tools/sanitize.sh): valgrind
    # and ASan cannot share a process.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    run = subprocess.run(["valgrind", "--error-exitcode=9", "--leak-check=full",
                          "--errors-for-leak-kinds=definite,indirect,possible", str(exe)],
                         capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert "ok" in run.stdout.splitlines()
    assert "ERROR SUMMARY: 0 errors" in run.stderr
