"""A run of the generator over many games, on every core, resumable
(``brandubh puzzles make``; docs/puzzles.md).

The games are tasks handed to worker processes (``spawn``: fresh
interpreters, one a core by default); each gives back its puzzles, which
this process appends to the set's file at once, a line at a time (flushed
and synced), leaving out any already there. The games done are recorded
in a progress file beside the set (``SET.done``, written whole after each
game): a run started again skips them and goes on with the next, so a set
grows across runs. Ctrl-C keeps every puzzle appended; the games in
flight are done again next time. A line torn by a crash mid-write (no
line break at the end of the file) is cut off at the start of the next
run, with a sentence.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional

from ..errors import ArgumentError
from ..files import check_writable, read_text, write_whole
from .make import GameResult, Settings, game_puzzles, selfplay_puzzles
from .puzzle import read_puzzles

__all__ = ["Run", "Tally", "done_keys", "write_done", "selfplay_tasks", "game_tasks"]


def done_keys(path: str) -> set[str]:
    """The games a progress file records as done (none when it is not
    there): ``selfplay brandubh 0-57,59`` stands for seeds 0 to 57 and 59."""
    if not os.path.exists(path):
        return set()
    keys: set[str] = set()
    for line in read_text(path, what="progress file").splitlines():
        head, _, tail = line.rpartition(" ")
        if not line.strip():
            continue
        if re.fullmatch(r"[0-9,-]+", tail) and head.startswith("selfplay "):
            for part in tail.split(","):
                low, _, high = part.partition("-")
                keys.update(f"{head} {n}" for n in range(int(low), int(high or low) + 1))
        else:
            keys.add(line)
    return keys


def write_done(path: str, keys: set[str]) -> None:
    """Write a progress file whole: self-play seeds as ranges, other games
    a line each."""
    seeds: dict[str, list[int]] = {}
    lines = []
    for key in keys:
        head, _, tail = key.rpartition(" ")
        if head.startswith("selfplay ") and tail.isdigit():
            seeds.setdefault(head, []).append(int(tail))
        else:
            lines.append(key)
    for head, numbers in sorted(seeds.items()):
        numbers.sort()
        parts: list[str] = []
        low = numbers[0]
        for at, n in enumerate(numbers):
            if at + 1 == len(numbers) or numbers[at + 1] != n + 1:
                parts.append(f"{low}" if low == n else f"{low}-{n}")
                if at + 1 < len(numbers):
                    low = numbers[at + 1]
        lines.append(f"{head} {','.join(parts)}")
    write_whole(path, "\n".join(sorted(lines)) + "\n")


#: prctl's option that asks for a signal when the parent goes (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _quiet_worker(parent: int) -> None:
    # A terminal's Ctrl-C goes to the whole group: the run alone decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A run that is killed (SIGTERM, SIGKILL) cannot end its workers: on
    # Linux the kernel kills each when its parent goes (PR_SET_PDEATHSIG);
    # elsewhere each watches for its parent to go, and leaves then. The
    # parent is named by the run, which may be gone before this runs.
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL) == 0:
                if os.getppid() != parent:  # gone before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watch below
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _task(kind: str, args: tuple, settings: Settings) -> GameResult:
    if kind == "selfplay":
        return selfplay_puzzles(args[0], args[1], settings)
    key, start, rules_name, moves = args
    return game_puzzles(key, start, rules_name, moves, settings)


@dataclass
class Tally:
    """How a run stands: ``games`` done in this run, ``puzzles`` added,
    ``total`` in the set, ``seconds`` since it began."""

    games: int = 0
    puzzles: int = 0
    total: int = 0
    seconds: float = 0.0

    def sentence(self) -> str:
        rate = self.puzzles / self.seconds * 60 if self.seconds else 0.0
        return (f"{self.puzzles:,} puzzles added from {self.games:,} games ({rate:.1f} a minute); "
                f"{self.total:,} in the set")


class Run:
    """One run of the generator: ``out`` the set's file (appended to),
    ``tasks`` the games (key, kind, args) in order, until ``count`` new
    puzzles, on ``jobs`` worker processes."""

    def __init__(self, out: str, tasks: Iterator[tuple[str, str, tuple]], count: Optional[int], jobs: int,
                 settings: Settings = Settings()) -> None:
        check_writable(out)
        self.out = out
        self.progress_path = out + ".done"
        check_writable(self.progress_path)
        self.tasks = tasks
        self.count = count
        self.jobs = jobs
        self.settings = settings
        self.done = done_keys(self.progress_path)
        self.note = self._mend()
        text = read_text(out, what="puzzle set") if os.path.exists(out) else ""
        self.ids = {p.id for p in read_puzzles(text, out)}
        self.tally = Tally(total=len(self.ids))

    def _mend(self) -> str:
        """Cut off a line torn by a crash; what was done, in a sentence."""
        if not os.path.exists(self.out):
            return ""
        with open(self.out, "rb+") as f:
            data = f.read()
            if not data or data.endswith(b"\n"):
                return ""
            keep = data.rfind(b"\n") + 1
            f.truncate(keep)
        return f"cut off a line left unfinished at the end of {self.out} ({len(data) - keep} bytes)"

    def _append(self, lines: list[str]) -> None:
        fd = os.open(self.out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            os.write(fd, "".join(line + "\n" for line in lines).encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def go(self, show: Callable[[Tally], None] = lambda tally: None) -> Tally:
        """Run until ``count`` puzzles are added or the games run out;
        KeyboardInterrupt goes on after the pool is ended, with everything
        finished kept."""
        start = time.monotonic()
        results: "queue.Queue[Any]" = queue.Queue()
        context = multiprocessing.get_context("spawn")
        pool = context.Pool(self.jobs, initializer=_quiet_worker, initargs=(os.getpid(),))
        out = 0
        try:
            while True:
                while out < 2 * self.jobs and not self._enough():
                    task = next((t for t in self.tasks if t[0] not in self.done), None)
                    if task is None:
                        break
                    pool.apply_async(_task, (task[1], task[2], self.settings), callback=results.put,
                                     error_callback=results.put)
                    out += 1
                if out == 0:
                    break
                try:
                    got = results.get(timeout=0.5)
                except queue.Empty:
                    self.tally.seconds = time.monotonic() - start
                    show(self.tally)
                    continue
                out -= 1
                if isinstance(got, BaseException):
                    raise got
                self._take(got)
                self.tally.seconds = time.monotonic() - start
                show(self.tally)
            pool.close()
        finally:
            pool.terminate()
            pool.join()
        return self.tally

    def _enough(self) -> bool:
        return self.count is not None and self.tally.puzzles >= self.count

    def _take(self, result: GameResult) -> None:
        # A game's puzzles are kept whole, past --count too: the game is
        # recorded as done, and would not be played again for them.
        new = list({p.id: p for p in result.puzzles if p.id not in self.ids}.values())
        if new:
            self._append([p.line() for p in new])
            self.ids.update(p.id for p in new)
            self.tally.puzzles += len(new)
            self.tally.total += len(new)
        self.done.add(result.key)
        write_done(self.progress_path, self.done)
        self.tally.games += 1


def selfplay_tasks(rules_name: str) -> Iterator[tuple[str, str, tuple]]:
    """Self-play games, seed after seed for ever."""
    seed = 0
    while True:
        yield f"selfplay {rules_name} {seed}", "selfplay", (rules_name, seed)
        seed += 1


def game_tasks(path: str, rules_name: Optional[str]) -> Iterator[tuple[str, str, tuple]]:
    """The games of a game file (those under ``rules_name`` when given)."""
    from ..records import read_game_file, read_records

    name = os.path.basename(path).replace(";", ",").replace(" ", "_")
    try:
        records = read_records(read_game_file(path))
    except ArgumentError as error:
        raise ArgumentError(f"{path}: {error}") from None
    for number, record in enumerate(records, 1):
        game = record.game
        rules = game.variant.as_string()
        if rules_name is not None and rules != rules_name:
            continue
        key = f"game {name} {number}"
        yield key, "game", (key, game.start, rules, tuple(game.log))
