"""The staged move picker gives exactly the order of keying every move and
picking from the whole list (tests/c/movepick_check.c): the stages only save
the listing. (The bench signature pins the search as a whole; this says
which part moved when it changes.)"""

import subprocess

import pytest

from conftest import CC, build_c_driver


@pytest.mark.skipif(CC is None, reason="needs a C compiler")
def test_picker_gives_the_whole_list_order(tmp_path):
    exe = build_c_driver("movepick_check", tmp_path)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.startswith("ok"), run.stdout + run.stderr
    checked, table, special, killer = (int(w.strip(",;")) for w in run.stdout.split() if w.strip(",;").isdigit())
    # Not vacuous: tens of thousands of positions, thousands of first moves
    # from each stage (and the rest from the list after them).
    assert checked > 40_000 and table > 5_000 and special > 5_000 and killer > 1_000
