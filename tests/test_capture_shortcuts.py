"""The search's shortcuts to what a move captures (bd_may_capture,
bd_capture_lines, bd_king_takers) agree with playing the move out, on random
placements under random rule sets (tests/c/capture_check.c)."""

import subprocess

import pytest

from conftest import CC, build_c_driver


@pytest.mark.skipif(CC is None, reason="needs a C compiler")
def test_capture_shortcuts_agree_with_playing_out(tmp_path):
    exe = build_c_driver("capture_check", tmp_path)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.startswith("ok"), run.stdout + run.stderr
    checked, counted, odd, beside_king = (int(w.strip("(")) for w in run.stdout.split() if w.strip("(").isdigit())
    # Not vacuous: millions of moves, most counted from the lines, many of them
    # leaving the throne or a corner, many beside the king.
    assert checked > 1_000_000 and counted > checked // 2 and odd > 100_000 and beside_king > 10_000
