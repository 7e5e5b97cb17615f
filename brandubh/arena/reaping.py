"""Programs started so that they can be ended, and what they leave behind
found and ended: the arena's one reader of the system's process table.

A program is started (:func:`spawn`) in a session and process group of its
own, with a mark in its environment that every process it starts inherits.
When its game ends it is killed with its group (:func:`kill_program`). On
Linux, what it left outside its group is found three more ways and killed
too: every process of the session it was started in; every process that
carries its mark; and, in a process that is the arena's own
(:func:`own_process`: the ``brandubh`` command and its worker processes),
a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), every process whose
parent died, which the kernel then hands to it instead of to init, with
the session, the process group and the descendants of each
(:func:`sweep_orphans`). So a program that runs ``setsid env -i sh -c
'...' &`` or double-forks with an empty environment is ended with its
game. Elsewhere only the process group is killed, and a program that
leaves it may outlive its game.

The process table is read from ``/proc`` here and nowhere else in the
package (the tests read it through :func:`process_info`,
:func:`process_table` and :func:`process_file` too).

>>> me = process_info(os.getpid())
>>> me is None or (me.state != 'Z' and me.session == os.getsid(0))
True
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any, NamedTuple, Optional, Sequence

__all__ = ["MARK", "ProcessInfo", "Registry", "process_info", "process_table", "process_file", "marked", "spawn",
           "reaped", "kill_program", "own_process", "become_subreaper", "sweep_orphans"]

MARK = "BRANDUBH_ARENA_GAME"
"""The environment variable that marks every process of one game's program."""


# -- the process table -------------------------------------------------------


class ProcessInfo(NamedTuple):
    """One process as ``/proc/PID/stat`` says: its parent, process group and
    session, its state (``'R'``, ``'S'``, ``'Z'`` for a zombie...) and the
    processor time it has used, in clock ticks (``os.sysconf('SC_CLK_TCK')``
    a second)."""

    parent: int
    group: int
    session: int
    state: str
    cpu_ticks: int


def _pids() -> list[int]:
    """Every process's number (none where there is no /proc to read)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    return [int(entry) for entry in entries if entry.isdigit()]


def process_file(pid: int, name: str) -> Optional[bytes]:
    """``/proc/PID/NAME`` (``environ``, ``cmdline``...), or None for a
    process that is gone, not ours, or a system with no /proc."""
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read()
    except OSError:
        return None


def process_info(pid: int) -> Optional[ProcessInfo]:
    """What ``/proc/PID/stat`` says of a process; None when it is gone (a
    process that ends while it is read is gone too), or unreadable."""
    raw = process_file(pid, "stat")
    if raw is None:
        return None
    # The command's name, in parentheses, may hold anything: the fields
    # are those after its last ')'.
    fields = raw.rpartition(b")")[2].split()
    try:
        return ProcessInfo(int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode("ascii"),
                           int(fields[11]) + int(fields[12]))
    except (IndexError, ValueError, UnicodeDecodeError):
        return None


def process_table() -> dict[int, ProcessInfo]:
    """Every process of the system, by number (empty where there is no /proc)."""
    table = {}
    for pid in _pids():
        info = process_info(pid)
        if info is not None:
            table[pid] = info
    return table


def marked(*marks: str, name: str = MARK) -> list[int]:
    """The processes whose environment holds ``name=mark`` for one of the
    ``marks`` (Linux; an empty list where there is no /proc to read)."""
    needles = {f"{name}={mark}".encode() for mark in marks}
    return [pid for pid in _pids() if needles.intersection((process_file(pid, "environ") or b"").split(b"\0"))]


# -- starting and ending a program ---------------------------------------------

_SPAWN_LOCK = threading.Lock()
_STARTED: set = set()
"""The programs this process started and has not reaped (their numbers)."""


def spawn(argv: Sequence[str], cwd: Optional[str], mark: str) -> subprocess.Popen:
    """A program started in a session (and process group) of its own, its
    three standard streams pipes that never block, ``MARK=mark`` in its
    environment. It is started under the lock a sweep takes, so a program
    just started is never taken for something another left behind; say
    when it is reaped (:func:`reaped`). OSError or ValueError when it
    cannot be started."""
    with _SPAWN_LOCK:
        proc = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, cwd=cwd, start_new_session=True, close_fds=True, env={**os.environ, MARK: mark})
        _STARTED.add(proc.pid)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        assert pipe is not None
        os.set_blocking(pipe.fileno(), False)
    return proc


def reaped(pid: int) -> None:
    """The program ``pid`` is reaped: its number is no longer one of ours."""
    with _SPAWN_LOCK:
        _STARTED.discard(pid)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_program(pid: int, mark: str) -> None:
    """SIGKILL to a program's whole process group (it leads it), to every
    process of its session (it leads that too: a process may leave the
    group and stay in the session), and to every process that carries its
    mark (it may have left both). Call it before the program is reaped, so
    that neither number can belong to another by now."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for other in [p for p, info in process_table().items() if info.session == pid] + marked(mark):
        _kill(other)


class Registry:
    """Every program alive in a run (anything with a ``kill_group()``
    method), so that an interrupted run kills them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bots: set = set()

    def add(self, bot: Any) -> None:
        with self._lock:
            self._bots.add(bot)

    def remove(self, bot: Any) -> None:
        with self._lock:
            self._bots.discard(bot)

    def kill_all(self) -> None:
        with self._lock:
            bots = list(self._bots)
        for bot in bots:
            bot.kill_group()


# -- what programs leave behind ---------------------------------------------------

_SUBREAPER = [0]
"""The process made a child subreaper (0: none): a worker process started
by ``spawn`` begins again with its own."""
_OWNED = [0]
"""The process declared the arena's own by :func:`own_process` (0: none)."""
_PR_SET_CHILD_SUBREAPER = 36


def own_process() -> bool:
    """Declare this process the arena's own (the ``brandubh`` command's
    ``match``, ``referee`` and ``tune``, and every worker process): it
    becomes a child subreaper (:func:`become_subreaper`), and
    :func:`sweep_orphans` may end every child of it in another session
    that it did not start as a program, since nothing else here starts
    one. A Python program that plays programs in its own process is not
    declared so (a child it started itself in a session of its own would
    be taken for one left behind): it has the process group, the session
    and the environment mark, and may call this to have the rest. True
    where the system has child subreapers (Linux).

    >>> isinstance(own_process, object)
    True
    """
    _OWNED[0] = os.getpid()
    return become_subreaper()


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux 3.4 and later), once: a
    process whose parent dies is then handed to it, not to init, so that
    what a program leaves behind can be found and ended. False where the
    system has no such thing. (:func:`own_process` calls it.)"""
    if _SUBREAPER[0] == os.getpid():
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError, TypeError):
        return False
    if done:
        _SUBREAPER[0] = os.getpid()
    return done


def sweep_orphans(seconds: float = 2.0) -> int:
    """Kill and reap what programs left behind in this process (a child
    subreaper: see :func:`become_subreaper`): every child of it that it did
    not start and that lives in another session than its own (a program's
    descendant never shares it: programs start in sessions of their own;
    what this process started itself in its session is left alone), with
    the session, the process group and the descendants of each, again
    until none is left or ``seconds`` have passed. Nothing while a program
    started here is still running (it may be a live game's, whose helpers
    are its own until its game ends), or in a process not declared the
    arena's own (:func:`own_process`) or that is no subreaper. The number
    of processes killed.

    >>> sweep_orphans() >= 0
    True
    """
    if _SUBREAPER[0] != os.getpid() or _OWNED[0] != os.getpid():
        return 0
    me = os.getpid()
    try:
        own_session, own_group = os.getsid(0), os.getpgid(0)
    except OSError:  # pragma: no cover
        return 0
    killed = 0
    end = time.monotonic() + seconds
    while True:
        with _SPAWN_LOCK:
            if _STARTED:
                return killed
            table = process_table()
            orphans = [pid for pid, info in table.items() if info.parent == me and info.session != own_session]
            if not orphans:
                return killed
            sessions = {table[pid].session for pid in orphans} - {own_session}
            groups = {table[pid].group for pid in orphans} - {own_group}
            doomed = set(orphans)
            children: dict = {}
            for pid, info in table.items():
                children.setdefault(info.parent, []).append(pid)
                if info.session in sessions or info.group in groups:
                    doomed.add(pid)
            stack = list(doomed)
            while stack:
                for child in children.get(stack.pop(), ()):
                    if child not in doomed:
                        doomed.add(child)
                        stack.append(child)
            doomed.discard(me)
            for pid in doomed:
                if table[pid].state == "Z":
                    continue
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except OSError:
                    pass
            for pid in orphans:  # reaped, the killed ones once they are gone
                try:
                    os.waitpid(pid, os.WNOHANG)
                except OSError:
                    pass
        if time.monotonic() > end:
            return killed
        time.sleep(0.005)
