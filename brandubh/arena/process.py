"""A program as a player: a command started once a game, in a process
group (a session) of its own, spoken to over its standard input and output
in a wire protocol (the ``host`` module of a protocol's package, the CodinGame
puzzle's by default).

The program is kept for the whole game. What it writes on standard output
is read as it comes, whoever's turn it is, so nothing blocks; what it
writes on standard error is kept, up to a limit, with the game. It loses
the game at once when it crashes (or cannot start), answers late, answers
something that is not a move, or plays a move the rules refuse. When the
game ends its input is closed; a program not at fault has a moment to
leave by itself, and then its process group is killed and reaped.

On Linux, what a program leaves behind outside its group is found three
more ways and killed too: every process of the session it was started in;
every process that carries a mark in its environment; and, in a
process that is the arena's own (:func:`own_process`: the ``brandubh``
command and its worker processes), a child subreaper
(``prctl(PR_SET_CHILD_SUBREAPER)``), every process whose parent died,
which the kernel then hands to it instead of to init, with the session,
the process group and the descendants of each (:func:`sweep_orphans`). So
a program that runs ``setsid env -i sh -c '...' &`` or double-forks with
an empty environment is ended with its game. Elsewhere only the process
group is killed, and a program that leaves it may outlive its game.

>>> ProcessPlayer('python3 my_bot.py').argv
['python3', 'my_bot.py']
"""

from __future__ import annotations

import importlib
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from typing import Any, Optional, Sequence

from ..errors import BrandubhError, quote
from .player import Answer, Limits, Player, Seat, Table

__all__ = ["PROTOCOLS", "ProcessPlayer", "Registry", "split_command", "check_command", "protocol_session",
           "protocol_host", "rules_differ", "sweep_orphans", "become_subreaper",
           "own_process"]

DEFAULT_STDERR_LIMIT = 16384
END_GRACE = 0.05
"""Seconds a program has to leave by itself once its input is closed at the
end of a game, before its process group is killed."""

PROTOCOLS = ("codingame", "opentafl")
"""The wire protocols: each a package of that name with a ``host`` module."""

MARK = "BRANDUBH_ARENA_GAME"
"""The environment variable that marks every process of one game's program."""

_MAX_PENDING_OUTPUT = 1 << 16
_MAX_PENDING_LINES = 256


def split_command(command: str) -> list[str]:
    """A command split as a shell would (:func:`shlex.split`); BrandubhError
    when it cannot be, or is empty."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BrandubhError(f"cannot split the command {quote(command)}: {exc}") from None
    if not argv:
        raise BrandubhError("a bot command is empty")
    return argv


def check_command(argv: Sequence[str], cwd: Optional[str] = None) -> None:
    """BrandubhError when the program of a command cannot be found or run."""
    prog = argv[0]
    if os.sep in prog or (os.altsep and os.altsep in prog):
        path = prog if cwd is None or os.path.isabs(prog) else os.path.join(cwd, prog)
        if not os.path.isfile(path):
            raise BrandubhError(f"cannot run {quote(prog)}: no such file")
        if not os.access(path, os.X_OK):
            raise BrandubhError(f"cannot run {quote(prog)}: it is not executable "
                                f"(chmod +x, or name its interpreter: \"python3 {prog}\")")
    elif shutil.which(prog) is None:
        raise BrandubhError(f"cannot run {quote(prog)}: not found on PATH")


def protocol_host(name: str) -> Any:
    """The arena's side of the wire protocol ``name``: the module
    ``brandubh.<name>.host`` (each protocol is a package of its own)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", str(name)):
        raise BrandubhError(f"{quote(name)} is not the name of a wire protocol")
    try:
        module = importlib.import_module(f"brandubh.{name}.host")
    except ImportError:
        module = None
    if module is None or not hasattr(module, "Session"):
        raise BrandubhError(f"{quote(name)} is not a wire protocol this package speaks "
                            f"({', '.join(PROTOCOLS)})")
    return module


def protocol_session(name: str, variant: Any, seat: str) -> Any:
    """A ``Session`` of the wire protocol ``name`` (:func:`protocol_host`)."""
    return protocol_host(name).Session(variant, seat)


def rules_differ(plays: Any, variant: Any, judged: Sequence[str] = ()) -> list[str]:
    """The rule fields in which ``variant`` differs from ``plays``, those
    in ``judged`` (what the host alone judges) left out.

    >>> rules_differ('codingame', 'codingame repeat=5', ('repeat',)), rules_differ('brandubh', 'modern')[:2]
    ([], ['throne_reentry', 'king_capture'])
    """
    from dataclasses import fields

    from ..variant import as_variant

    a, b = as_variant(plays), as_variant(variant)
    return [f.name for f in fields(a) if f.compare and f.name not in judged
            and getattr(a, f.name) != getattr(b, f.name)]


class _CappedLog:
    """Bytes kept up to a limit: the first half and the last half, with a
    count of what was left out between them."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def add(self, data: bytes) -> None:
        half = self.limit // 2
        room = half - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if not data:
            return
        self.tail += data
        keep = self.limit - half
        if len(self.tail) > keep:
            cut = len(self.tail) - keep
            self.dropped += cut
            del self.tail[:cut]

    def text(self) -> str:
        middle = f"\n[... {self.dropped} bytes left out ...]\n" if self.dropped else ""
        return (bytes(self.head).decode("utf-8", "replace") + middle
                + bytes(self.tail).decode("utf-8", "replace"))


class _Process:
    """One program's process for one game, its pipes and what it wrote."""

    def __init__(self, name: str, argv: Sequence[str], cwd: Optional[str], stderr_limit: int) -> None:
        self.name = name
        self.argv = list(argv)
        self.lines: deque = deque()  # (text, arrival time)
        self.partial = bytearray()
        self.out_closed = False
        self.err_closed = False
        self.flood = False
        self.stderr = _CappedLog(stderr_limit)
        self.pending = b""
        self.in_broken = False
        self.in_registered = False
        self.killed = False
        self.returncode: Optional[int] = None
        self.spawn_error: Optional[str] = None
        self.proc: Optional[subprocess.Popen] = None
        self.fds: dict = {}  # "in", "out", "err" -> file descriptor
        # Every process the program starts inherits the mark, so that one
        # that leaves the process group can still be found and ended.
        self.mark = uuid.uuid4().hex
        self.started = time.monotonic()
        try:
            # Under the lock a sweep takes: a program just started is never
            # taken for something another left behind.
            with _SPAWN_LOCK:
                self.proc = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    bufsize=0, cwd=cwd, start_new_session=True, close_fds=True,
                    env={**os.environ, MARK: self.mark})
                _STARTED.add(self.proc.pid)
        except (OSError, ValueError) as exc:
            self.spawn_error = f"could not start {quote(self.argv[0])}: {exc}"
            self.out_closed = self.err_closed = True
            return
        self.started = time.monotonic()
        for kind, pipe in (("in", self.proc.stdin), ("out", self.proc.stdout), ("err", self.proc.stderr)):
            assert pipe is not None
            self.fds[kind] = pipe.fileno()
            os.set_blocking(self.fds[kind], False)

    @property
    def pid(self) -> Optional[int]:
        return None if self.proc is None else self.proc.pid

    def feed(self, data: bytes, now: float) -> None:
        if self.flood:
            return
        self.partial += data
        while True:
            cut = self.partial.find(b"\n")
            if cut < 0:
                break
            line = bytes(self.partial[:cut])
            del self.partial[:cut + 1]
            self.lines.append((line.decode("utf-8", "replace"), now))
        if len(self.partial) > _MAX_PENDING_OUTPUT or len(self.lines) > _MAX_PENDING_LINES:
            self.flood = True
            self.partial.clear()

    def close_output(self, now: float) -> None:
        """Standard output ended: what is left without a line end is a line."""
        self.out_closed = True
        if self.partial and not self.flood:
            self.lines.append((bytes(self.partial).decode("utf-8", "replace"), now))
        self.partial.clear()

    def exited(self) -> Optional[int]:
        """The exit status if the process has ended (it is not reaped
        here, so its process group cannot be reused before it is killed)."""
        if self.proc is None:
            return None
        if self.returncode is not None:
            return self.returncode
        if not hasattr(os, "waitid"):  # macOS: poll, which reaps (the group is rarely reused so soon)
            return self.proc.poll()
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.proc.returncode
        if info is None:
            return None
        code = info.si_status
        return -code if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else code

    def kill_group(self) -> None:
        """SIGKILL to the program's whole process group (it leads it), to
        every process of its session (it leads that too: a process may
        leave the group and stay in the session), and to every process that
        carries its mark (it may have left both). The program is not reaped
        yet, so neither number can belong to another by now."""
        if self.proc is None or self.killed:
            return
        self.killed = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        session = [pid for pid, (_ppid, _pgid, sid, _state) in _table().items() if sid == self.proc.pid]
        for pid in session + marked(self.mark):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def reaped(self) -> None:
        """The program is reaped: its number is no longer one of ours."""
        if self.proc is not None:
            with _SPAWN_LOCK:
                _STARTED.discard(self.proc.pid)

    def close_input(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass


def marked(*marks: str, name: str = MARK) -> list[int]:
    """The processes whose environment holds ``name=mark`` for one of the
    ``marks`` (Linux; an empty list where there is no /proc to read)."""
    needles = {f"{name}={mark}".encode() for mark in marks}
    out: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read()
        except OSError:  # gone, or not ours
            continue
        if needles.intersection(env.split(b"\0")):
            out.append(int(entry))
    return out


# -- what programs leave behind ---------------------------------------------------

_SPAWN_LOCK = threading.Lock()
_STARTED: set = set()
"""The programs this process started and has not reaped (their numbers)."""
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


def _table() -> dict:
    """Every process of the system: its number -> (parent, process group,
    session, state), read from /proc (empty where there is none)."""
    out: dict = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
            out[int(entry)] = (int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode("ascii"))
        except (OSError, IndexError, ValueError, UnicodeDecodeError):
            continue  # gone, or unreadable
    return out


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
            table = _table()
            orphans = [pid for pid, (ppid, _g, sid, _s) in table.items()
                       if ppid == me and sid != own_session]
            if not orphans:
                return killed
            sessions = {table[pid][2] for pid in orphans} - {own_session}
            groups = {table[pid][1] for pid in orphans} - {own_group}
            doomed = set(orphans)
            children: dict = {}
            for pid, (ppid, group, sid, _s) in table.items():
                children.setdefault(ppid, []).append(pid)
                if sid in sessions or group in groups:
                    doomed.add(pid)
            stack = list(doomed)
            while stack:
                for child in children.get(stack.pop(), ()):
                    if child not in doomed:
                        doomed.add(child)
                        stack.append(child)
            doomed.discard(me)
            for pid in doomed:
                if table[pid][3] == "Z":
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


class Registry:
    """Every program alive in a run, so that an interrupted run kills them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bots: set = set()

    def add(self, bot: _Process) -> None:
        with self._lock:
            self._bots.add(bot)

    def remove(self, bot: _Process) -> None:
        with self._lock:
            self._bots.discard(bot)

    def kill_all(self) -> None:
        with self._lock:
            bots = list(self._bots)
        for bot in bots:
            bot.kill_group()


_ABORTED = object()


class _Pipes:
    """The pipes of one game's programs, read together: while one thinks,
    what the other writes is kept, so that nothing blocks."""

    def __init__(self, abort: threading.Event) -> None:
        self.sel = selectors.DefaultSelector()
        self.abort = abort
        self.open = 0

    def add(self, bot: _Process) -> None:
        if bot.proc is None:
            return
        self.sel.register(bot.fds["out"], selectors.EVENT_READ, (bot, "out"))
        self.sel.register(bot.fds["err"], selectors.EVENT_READ, (bot, "err"))
        self.open += 2

    def send(self, bot: _Process, text: str) -> None:
        bot.pending += text.encode("ascii")
        self._flush(bot)

    def _flush(self, bot: _Process) -> None:
        if bot.proc is None or bot.in_broken:
            bot.pending = b""
            return
        fd = bot.fds["in"]
        try:
            while bot.pending:
                n = os.write(fd, bot.pending)
                bot.pending = bot.pending[n:]
        except BlockingIOError:
            pass
        except OSError:  # the bot is gone, or closed its input
            bot.pending = b""
            bot.in_broken = True
        if bot.pending and not bot.in_registered:
            self.sel.register(fd, selectors.EVENT_WRITE, (bot, "in"))
            bot.in_registered = True
        elif not bot.pending and bot.in_registered:
            self.sel.unregister(fd)
            bot.in_registered = False

    def _pump(self, timeout: float) -> None:
        try:
            events = self.sel.select(max(0.0, timeout))
        except (OSError, ValueError):
            return
        now = time.monotonic()
        for key, _mask in events:
            bot, kind = key.data
            if kind == "in":
                self._flush(bot)
                continue
            try:
                data = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                if kind == "out":
                    bot.feed(data, now)
                else:
                    bot.stderr.add(data)
                continue
            self.sel.unregister(key.fd)
            self.open -= 1
            if kind == "out":
                bot.close_output(now)
            else:
                bot.err_closed = True

    def read_line(self, bot: _Process, deadline: float):
        """The bot's next line and when it came, None when its output ends
        or the deadline passes first, ``_ABORTED`` when the run stops."""
        while True:
            if self.abort.is_set():
                return _ABORTED
            if bot.flood:
                return None
            if bot.lines:
                return bot.lines.popleft()
            if bot.out_closed:
                return None
            now = time.monotonic()
            if now >= deadline:
                return None
            self._pump(min(deadline - now, 0.1))

    def drain(self, seconds: float) -> None:
        """Read until every pipe is closed or the time is up."""
        end = time.monotonic() + seconds
        while self.open > 0:
            now = time.monotonic()
            if now >= end:
                break
            self._pump(min(end - now, 0.05))

    def close(self) -> None:
        self.sel.close()


class _Processes:
    """The programs of one game (kept on its :class:`Table`): their pipes,
    and how they end."""

    def __init__(self, table: Table) -> None:
        self.pipes = _Pipes(table.abort)
        self.registry = table.registry if table.registry is not None else Registry()
        self.bots: list = []

    def start(self, name: str, argv: Sequence[str], cwd: Optional[str], stderr_limit: int) -> _Process:
        bot = _Process(name, argv, cwd, stderr_limit)
        self.bots.append(bot)
        self.registry.add(bot)
        self.pipes.add(bot)
        return bot

    def close(self, fault: Optional[str]) -> None:
        """End every program: close their input, give one not at fault a
        moment to leave, kill each process group, keep the rest of what
        they wrote, and reap them."""
        live = [b for b in self.bots if b.proc is not None]
        for bot in live:
            bot.close_input()
        end = time.monotonic() + END_GRACE
        for bot in live:
            if bot.name == fault:
                continue
            while bot.exited() is None and time.monotonic() < end:
                time.sleep(0.002)
        for bot in live:
            bot.kill_group()
        self.pipes.drain(0.5)
        self.pipes.close()
        for bot in live:
            try:
                bot.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL was sent
                pass
            else:
                bot.reaped()
            bot.returncode = bot.proc.returncode
            for pipe in (bot.proc.stdout, bot.proc.stderr):
                try:
                    pipe.close()
                except OSError:
                    pass
        for bot in self.bots:
            self.registry.remove(bot)
        sweep_orphans()  # what left the group and the session, handed to this process


class ProcessPlayer(Player):
    """A program: ``command`` (split as a shell would), started once a game
    in ``cwd``, speaking the wire ``protocol`` (a module of
    :mod:`brandubh.arena`). It lives under the clock of
    :class:`~brandubh.arena.player.Limits`; at most ``stderr_limit`` bytes
    of its standard error are kept a game (the first and the last halves).

    A protocol that cannot tell a program the rules (the CodinGame
    puzzle's) has the program play the protocol's own (its host's
    ``RULES``) unless ``rules`` says which it plays; an event under other
    rules refuses it (:meth:`agree`). A protocol that tells the rules
    (OpenTafl's) needs no ``rules``."""

    def __init__(self, command: str, name: str = "", protocol: str = "codingame",
                 cwd: Optional[str] = None, stderr_limit: int = DEFAULT_STDERR_LIMIT,
                 rules: Any = None) -> None:
        self.command = command
        self.argv = split_command(command)
        self.name = name
        self.protocol = protocol
        self.cwd = cwd
        self.stderr_limit = stderr_limit
        host = protocol_host(protocol)  # refuse an unknown protocol now
        if rules is not None:
            from ..variant import as_variant

            rules = as_variant(rules)
        self.rules = rules
        self.told = getattr(host, "RULES", None) is None
        self.judged: tuple = tuple(getattr(host, "JUDGED_BY_THE_HOST", ()))

    @property
    def plays(self) -> Any:
        """The rules the program plays when its protocol cannot tell it
        others: ``rules``, or the protocol's own; None when the protocol
        tells it the event's."""
        if self.told:
            return self.rules
        return self.rules if self.rules is not None else protocol_host(self.protocol).RULES

    def agree(self, variant: Any) -> None:
        """BrandubhError with a sentence when the program plays other rules
        than ``variant`` (apart from what the host alone judges)."""
        plays = self.plays
        if plays is None:
            return
        from ..variant import as_variant

        variant = as_variant(variant)
        differ = rules_differ(plays, variant, self.judged)
        if not differ:
            return
        plays_name = as_variant(plays).name or as_variant(plays).as_string()
        event = variant.name or variant.as_string()
        command = quote(self.command, 60)
        if self.rules is None:
            raise BrandubhError(
                f"{command} speaks the {getattr(protocol_host(self.protocol), 'TITLE', self.protocol)} "
                f"protocol, which cannot tell a program the rules: it is "
                f"taken to play the {plays_name} rules, and these rules ({event}) differ in "
                f"{', '.join(differ)}; play with --variant {plays_name}, or, if the program plays "
                f"these rules, say so: \"rules={event},cmd=...\"")
        raise BrandubhError(f"{command} plays the {plays_name} rules (rules=), and these rules ({event}) "
                            f"differ in {', '.join(differ)}: give the rules it plays with --variant")

    def describe(self) -> str:
        return self.command if self.protocol == "codingame" else f"{self.protocol}: {self.command}"

    @property
    def timed(self) -> bool:
        return True

    def check(self, variant: Any = None) -> None:
        """BrandubhError when the program cannot be found or run, or (given
        the event's ``variant``) when its protocol cannot tell it those rules."""
        check_command(self.argv, self.cwd)
        if variant is not None:
            try:
                protocol_session(self.protocol, variant, "p1")
            except BrandubhError as exc:
                raise BrandubhError(f"{quote(self.command, 60)} speaks the {self.protocol} protocol, "
                                    f"which cannot tell it these rules: {exc}") from None

    def sit(self, table: Table, seat: str, game_index: int, variant: Any) -> Seat:
        processes = table.shared("processes", lambda: _Processes(table))
        bot = processes.start(self.name, self.argv, self.cwd, self.stderr_limit)
        return _ProcessSeat(self.name, bot, processes.pipes, protocol_session(self.protocol, variant, seat))

    def __repr__(self) -> str:
        return f"ProcessPlayer({self.command!r}, name={self.name!r})"


class _ProcessSeat(Seat):
    def __init__(self, name: str, bot: _Process, pipes: _Pipes, session: Any) -> None:
        self.name = name
        self.bot = bot
        self.pipes = pipes
        self.session = session
        self.started = False

    def _send(self, text: str) -> None:
        if text:
            self.pipes.send(self.bot, text)

    def answer(self, game: Any, last: Optional[str], limits: Limits, first: bool) -> Answer:
        bot, pipes = self.bot, self.pipes
        if bot.spawn_error:
            return Answer(fault="crash", detail=bot.spawn_error)
        if not self.started:
            self.started = True
            self._send(self.session.start(game))
        # A protocol that tells a program its time (OpenTafl's clock line)
        # has a clock(seconds) method; the CodinGame puzzle's does not.
        tell_time = getattr(self.session, "clock", None)
        self._send(self.session.turn(game, last) + (tell_time(limits.limit(first)) if tell_time else ""))
        sent = time.monotonic()
        # Starting a process is not a turn: the first clock starts when the
        # start-up time is over, or when the input is written if later.
        clock = max(sent, bot.started + limits.startup_ms / 1000.0) if first else sent
        limit = limits.limit(first)
        allowed = limits.allowed(first)
        while True:
            got = pipes.read_line(bot, clock + allowed)
            if got is _ABORTED or pipes.abort.is_set():  # an ended run kills the programs: no fault
                return Answer(aborted=True, detail="the run was interrupted")
            if got is None:
                return self._silent(first, allowed)
            line, arrival = got
            move, error = self.session.read(line)
            if move is None and error is None:  # a line that is not an answer
                reply = getattr(self.session, "reply", None)  # a question the protocol answers
                if reply is not None:
                    self._send(reply(line))
                continue
            took = max(0.0, arrival - sent)
            late = limit is not None and arrival - clock > limit
            if error is not None:
                return Answer(fault="garbage", detail=error, seconds=took, late=late)
            return Answer(move=move, seconds=took, late=late)

    def _silent(self, first: bool, allowed: float) -> Answer:
        """Why no answer came: a flood, an exit, or the clock."""
        bot = self.bot
        if bot.flood:
            return Answer(fault="garbage", detail="wrote too much on standard output without a move")
        code = bot.exited()
        if bot.out_closed and code is None:  # its output ended: it is probably leaving
            end = time.monotonic() + 0.2
            while code is None and time.monotonic() < end:
                time.sleep(0.002)
                code = bot.exited()
        if bot.out_closed or code is not None:
            how = f"exited with code {code}" if code is not None else "closed its standard output"
            return Answer(fault="crash", detail=f"{how} before answering")
        shown = f"{allowed * 1000:g} ms" + (" (the first turn)" if first else "")
        return Answer(fault="timeout", detail=f"no answer within {shown}")

    def end(self, game: Any) -> None:
        self._send(self.session.end(game))

    def report(self) -> dict:
        bot = self.bot
        if bot.proc is None:
            return {"stderr": bot.spawn_error or "", "pid": None, "exit_code": None}
        return {"stderr": bot.stderr.text(), "pid": bot.pid, "exit_code": bot.returncode}
