"""A program as a player: a command started once a game, in a process
group (a session) of its own, spoken to over its standard input and output
in a wire protocol (:mod:`brandubh.arena.protocols`: the ``driver`` module
of a protocol's package, the CodinGame puzzle's by default).

The program is kept for the whole game. What it writes on standard output
is read as it comes, whoever's turn it is, so nothing blocks; what it
writes on standard error is kept, up to a limit, with the game. It loses
the game at once when it crashes (or cannot start), answers late, answers
something that is not a move, or plays a move the rules refuse. When the
game ends its input is closed; a program not at fault has a moment to
leave by itself, and then its process group is killed and reaped, with
what it left behind (:mod:`brandubh.arena.reaping`). Its pipes are
:mod:`brandubh.arena.pipes`.

>>> ProcessPlayer('python3 my_bot.py').argv
['python3', 'my_bot.py']
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from typing import Any, Optional, Sequence

from ..errors import BrandubhError, quote
from .pipes import ABORTED, Pipes, ProgramProcess
from .player import Answer, Limits, Player, Seat, Table
from .protocols import driver_module, new_driver, rules_differ
from .reaping import Registry, sweep_orphans

__all__ = ["ProcessPlayer", "split_command", "check_command", "DEFAULT_STDERR_LIMIT", "END_GRACE"]

DEFAULT_STDERR_LIMIT = 16384
END_GRACE = 0.05
"""Seconds a program has to leave by itself once its input is closed at the
end of a game, before its process group is killed."""


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


class _Processes:
    """The programs of one game (kept on its :class:`Table`): their pipes,
    and how they end."""

    def __init__(self, table: Table) -> None:
        self.pipes = Pipes(table.abort)
        self.registry = table.registry if table.registry is not None else Registry()
        self.bots: list = []

    def start(self, name: str, argv: Sequence[str], cwd: Optional[str], stderr_limit: int) -> ProgramProcess:
        bot = ProgramProcess(name, argv, cwd, stderr_limit)
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
    puzzle's) has the program play the protocol's own (its driver's
    ``RULES``) unless ``rules`` says which it plays; an event under other
    rules refuses it (:meth:`agree`). A protocol that tells the rules
    (OpenTafl's) needs no ``rules``."""

    def __init__(self, command: str, name: str = "", protocol: str = "codingame",
                 cwd: Optional[str] = None, stderr_limit: int = DEFAULT_STDERR_LIMIT,
                 rules: Any = None) -> None:
        # What can be refused is refused before anything is kept.
        self.argv = split_command(command)
        driver = driver_module(protocol)
        if rules is not None:
            from ..variant import as_variant

            rules = as_variant(rules)
        self.command, self.name, self.protocol, self.cwd = command, name, protocol, cwd
        self.stderr_limit, self.rules = stderr_limit, rules
        self.told = getattr(driver, "RULES", None) is None
        self.judged: tuple = tuple(getattr(driver, "JUDGED_BY_THE_ARENA", ()))

    @property
    def plays(self) -> Any:
        """The rules the program plays when its protocol cannot tell it
        others: ``rules``, or the protocol's own; None when the protocol
        tells it the event's."""
        if self.told:
            return self.rules
        return self.rules if self.rules is not None else driver_module(self.protocol).RULES

    def agree(self, variant: Any) -> None:
        """BrandubhError with a sentence when the program plays other rules
        than ``variant`` (apart from what the arena alone judges)."""
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
                f"{command} speaks the {getattr(driver_module(self.protocol), 'TITLE', self.protocol)} "
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
                new_driver(self.protocol, variant, "p1")
            except BrandubhError as exc:
                raise BrandubhError(f"{quote(self.command, 60)} speaks the {self.protocol} protocol, "
                                    f"which cannot tell it these rules: {exc}") from None

    def sit(self, table: Table, seat: str, game_index: int, variant: Any) -> Seat:
        processes = table.shared("processes", lambda: _Processes(table))
        bot = processes.start(self.name, self.argv, self.cwd, self.stderr_limit)
        return _ProcessSeat(self.name, bot, processes.pipes, new_driver(self.protocol, variant, seat))

    def __repr__(self) -> str:
        return f"ProcessPlayer({self.command!r}, name={self.name!r})"


class _ProcessSeat(Seat):
    def __init__(self, name: str, bot: ProgramProcess, pipes: Pipes, driver: Any) -> None:
        self.name = name
        self.bot = bot
        self.pipes = pipes
        self.driver = driver
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
            self._send(self.driver.start(game))
        # A protocol that tells a program its time (OpenTafl's clock line)
        # has a clock(seconds) method; the CodinGame puzzle's does not.
        tell_time = getattr(self.driver, "clock", None)
        self._send(self.driver.turn(game, last) + (tell_time(limits.limit(first)) if tell_time else ""))
        sent = time.monotonic()
        # Starting a process is not a turn: the first clock starts when the
        # start-up time is over, or when the input is written if later.
        clock = max(sent, bot.started + limits.startup_ms / 1000.0) if first else sent
        limit = limits.limit(first)
        allowed = limits.allowed(first)
        while True:
            got = pipes.read_line(bot, clock + allowed)
            if got is ABORTED or pipes.abort.is_set():  # an ended run kills the programs: no fault
                return Answer(aborted=True, detail="the run was interrupted")
            if got is None:
                return self._silent(first, allowed)
            line, arrival = got
            move, error = self.driver.read(line)
            if move is None and error is None:  # a line that is not an answer
                reply = getattr(self.driver, "reply", None)  # a question the protocol answers
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
        self._send(self.driver.end(game))

    def report(self) -> dict:
        bot = self.bot
        if bot.proc is None:
            return {"stderr": bot.spawn_error or "", "pid": None, "exit_code": None}
        return {"stderr": bot.stderr.text(), "pid": bot.pid, "exit_code": bot.returncode}
