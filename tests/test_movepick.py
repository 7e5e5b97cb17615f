"""The staged move picker gives exactly the order of keying every move and
picking from the whole list (tests/c/movepick_check.c): the stages only save
the listing. (The bench signature pins the search as a whole; this says
which part moved when it changes.)"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CC = shutil.which("gcc") or shutil.which("cc")


@pytest.mark.skipif(CC is None, reason="needs a C compiler")
def test_picker_gives_the_whole_list_order(tmp_path):
    exe = tmp_path / "movepick_check"
    sources = [str(p) for p in sorted((ROOT / "csrc").glob("*.c"))]
    subprocess.run([CC, "-std=c99", "-O2", "-Wall", "-Wextra", f"-I{ROOT / 'csrc'}", *sources,
                    str(ROOT / "tests" / "c" / "movepick_check.c"), "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.startswith("ok"), run.stdout + run.stderr
    checked, table, special, killer = (int(w.strip(",;")) for w in run.stdout.split() if w.strip(",;").isdigit())
    # Not vacuous: tens of thousands of positions, thousands of first moves
    # from each stage (and the rest from the list after them).
    assert checked > 40_000 and table > 5_000 and special > 5_000 and killer > 1_000
