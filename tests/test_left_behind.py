"""Nothing left behind: a program that leaves processes that escape its
process group, its session and the arena's environment mark (a new session
with an empty environment, a double fork) has them ended all the same when
its game ends, under ``brandubh match`` (in the run's own thread and in
worker processes) and ``brandubh referee``. Linux only: the arena finds
them as its own orphans (it is a child subreaper) and by their sessions."""

from __future__ import annotations

import os
import random
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from brandubh.arena.reaping import process_file, process_table

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
BOT = ROOT / "tests" / "bots" / "escape_bot.py"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not Path("/bin/sleep").exists()
                                or not Path("/proc/self/stat").exists(), reason="Linux only")


def left(mark: str) -> list[int]:
    """Live processes whose command line holds ``mark``, but not the bot's
    own nor the match's (they hold it too, as an argument)."""
    found = []
    for pid, info in process_table().items():
        argv = (process_file(pid, "cmdline") or b"").split(b"\0")
        if (pid != os.getpid() and info.state != "Z" and any(mark.encode() in a for a in argv)
                and not any(BOT.name.encode() in a for a in argv)):
            found.append(pid)
    return found


@pytest.fixture
def mark():
    """A sleep's length no other process has, and everything holding it
    killed afterwards whatever the test found."""
    seconds = f"{random.randint(100, 200)}.{random.randint(10**8, 10**9 - 1)}"
    yield seconds
    for pid in left(seconds):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def bot(how: str, seconds: str, *more: str) -> str:
    return " ".join(shlex.quote(a) for a in (sys.executable, "-S", str(BOT), "--how", how, "--sleep", seconds,
                                             *more))


# Each escape and each way of playing once by default; every pairing with BRANDUBH_SLOW=1.
_KEPT = {("shell", "match-workers"), ("shell", "referee"), ("fork", "match-thread"), ("fork", "match-threads")}


@pytest.mark.parametrize("how,where", [
    pytest.param(how, where, marks=() if (how, where) in _KEPT else pytest.mark.slow)
    for how in ("shell", "fork") for where in ("match-thread", "match-threads", "match-workers", "referee")])
def test_what_a_program_leaves_behind_ends_with_its_game(mark, how, where):
    if how == "shell" and not (Path("/usr/bin/setsid").exists() or Path("/bin/setsid").exists()):
        pytest.skip("no setsid command here")
    program = bot(how, mark)
    if where == "referee":
        argv = ["referee", program, program, "--games", "2", "--time-scale", "40", "--startup-ms", "10000"]
    else:
        argv = ["match", "budget=30", f"cmd={program}", "--games", "4", "--no-progress",
                "--jobs", "1" if where == "match-thread" else "2"] + (["--threads"] if where == "match-threads" else [])
    done = subprocess.run([sys.executable, "-m", "brandubh", *argv], capture_output=True, timeout=120,
                          cwd=ROOT, env=ENV)
    assert done.returncode == 0, done.stderr[-1000:]
    assert b"Traceback" not in done.stderr
    assert left(mark) == [], f"left behind: {left(mark)}"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_terminal_ends_the_match_and_all_it_started(mark, jobs):
    """SIGHUP to the whole process group, as a terminal that closes sends
    it: the match reports what it has and nothing is left."""
    import time

    program = bot("fork", mark, "--think", "0.05")
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "match", "budget=30", f"cmd={program}",
                             "--games", "40", "--no-progress", "--jobs", jobs],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(left(mark)) < int(jobs) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert len(left(mark)) >= int(jobs), "no game got under way"
        os.killpg(proc.pid, signal.SIGHUP)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err[-1000:]
    assert b"Traceback" not in err and out      # the summary of what was played
    assert left(mark) == [], f"left behind: {left(mark)}"
