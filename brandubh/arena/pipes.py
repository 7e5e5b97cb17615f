"""A program's process for one game and its pipes: what it writes on
standard output read as it comes, whoever's turn it is, so nothing blocks;
what it writes on standard error kept, up to a limit.

>>> log = CappedLog(8)
>>> log.add(b'0123456789abcdef')
>>> log.text()
'0123\\n[... 8 bytes left out ...]\\ncdef'
"""

from __future__ import annotations

import os
import selectors
import subprocess
import threading
import time
import uuid
from collections import deque
from typing import Optional, Sequence

from ..errors import quote
from .reaping import kill_program, reaped, spawn

__all__ = ["CappedLog", "ProgramProcess", "Pipes", "ABORTED"]

_MAX_PENDING_OUTPUT = 1 << 16
_MAX_PENDING_LINES = 256


class CappedLog:
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


class ProgramProcess:
    """One program's process for one game, its pipes and what it wrote."""

    def __init__(self, name: str, argv: Sequence[str], cwd: Optional[str], stderr_limit: int) -> None:
        self.name = name
        self.argv = list(argv)
        self.lines: deque = deque()  # (text, arrival time)
        self.partial = bytearray()
        self.out_closed = False
        self.err_closed = False
        self.flood = False
        self.stderr = CappedLog(stderr_limit)
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
            self.proc = spawn(self.argv, cwd, self.mark)
        except (OSError, ValueError) as exc:
            self.spawn_error = f"could not start {quote(self.argv[0])}: {exc}"
            self.out_closed = self.err_closed = True
            return
        self.started = time.monotonic()
        for kind, pipe in (("in", self.proc.stdin), ("out", self.proc.stdout), ("err", self.proc.stderr)):
            assert pipe is not None
            self.fds[kind] = pipe.fileno()

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
        """The program killed with all it started (:func:`kill_program`),
        once; it is not reaped yet."""
        if self.proc is None or self.killed:
            return
        self.killed = True
        kill_program(self.proc.pid, self.mark)

    def reaped(self) -> None:
        """The program is reaped: its number is no longer one of ours."""
        if self.proc is not None:
            reaped(self.proc.pid)

    def close_input(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass


ABORTED = object()


class Pipes:
    """The pipes of one game's programs, read together: while one thinks,
    what the other writes is kept, so that nothing blocks."""

    def __init__(self, abort: threading.Event) -> None:
        self.sel = selectors.DefaultSelector()
        self.abort = abort
        self.open = 0

    def add(self, bot: ProgramProcess) -> None:
        if bot.proc is None:
            return
        self.sel.register(bot.fds["out"], selectors.EVENT_READ, (bot, "out"))
        self.sel.register(bot.fds["err"], selectors.EVENT_READ, (bot, "err"))
        self.open += 2

    def send(self, bot: ProgramProcess, text: str) -> None:
        bot.pending += text.encode("ascii")
        self._flush(bot)

    def _flush(self, bot: ProgramProcess) -> None:
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

    def read_line(self, bot: ProgramProcess, deadline: float):
        """The bot's next line and when it came, None when its output ends
        or the deadline passes first, ``ABORTED`` when the run stops."""
        while True:
            if self.abort.is_set():
                return ABORTED
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
