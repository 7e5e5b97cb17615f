"""``brandubh referee``: two bots play each other over the CodinGame
protocol, on this machine, as the puzzle's referee would have them play.

    brandubh referee "python3 bot_a.py" "./bot_b" --games 200 --jobs 2

Each bot is a command (split like a shell would, with :func:`shlex.split`),
started once per game in a process group of its own and kept for the whole
game; it reads a turn (:mod:`brandubh.protocol`) and answers a move. The
game record is a :class:`~brandubh.rules.Rules` under the ``codingame``
preset (or ``--variant``), so every ending, repetition included, is the
rule set's. A bot that crashes, answers late, answers something that is not
a move, or plays an illegal move loses the game at once; its process group
is killed and reaped. Colours alternate: game 1 has the first bot (``A``)
attacking, game 2 the second (``B``), both from the same opening.

Timing. A bot's first answer is due ``--first-ms`` (100) after its input is
written, and every later one ``--turn-ms`` (50) after its input. Starting a
process is not a turn: a bot has ``--startup-ms`` (1000) from its start to
get ready, and its first turn's clock starts when that time is over or when
the input is written, whichever is later. ``--time-scale`` multiplies the
two turn limits; with ``--lenient`` a late answer is only counted, and a
bot loses by timeout only after ``--hang-ms``.

The run prints, for each bot, wins, draws and losses in all and by side,
the score, the Elo difference with a 95% interval, how each game ended,
each bot's answer times, and optionally a sequential probability ratio test
(``--sprt elo0,elo1``) that stops the run once it decides. ``--json`` prints
the same as JSON; ``--save DIR`` keeps every game (its text, how it ended,
what each bot wrote on standard error); ``--games-out FILE`` writes the game
texts to one file.

>>> opening = parse_openings('moves d2c2 d3c3')[0]
>>> opening.start == SETUP, [move_text(m) for m in opening.moves]
(True, ['d2c2', 'd3c3'])
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter, deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, TextIO

from . import notation
from .argtypes import real, whole
from .engine import move_text, parse_move
from .errors import BrandubhError, quote
from .protocol import MOVE_RE, turn_input
from .rules import PLAY_OK, Rules, outcome_name
from .stats import Progress, Tally, format_elo, parse_sprt
from .variant import Variant, VariantLike, as_variant

__all__ = [
    "SETUP",
    "FAULTS",
    "Opening",
    "Config",
    "GameResult",
    "MatchResult",
    "parse_openings",
    "load_openings",
    "random_openings",
    "check_command",
    "play_game",
    "run_match",
    "games_text",
    "save_games",
    "register",
    "run",
    "main",
]

SETUP = notation.SETUP
SEATS = ("A", "B")
FAULTS = ("timeout", "crash", "garbage", "illegal")
"""The ways a bot loses a game by itself, as the reason a game ended."""

DEFAULT_FIRST_MS = 100.0
DEFAULT_TURN_MS = 50.0
DEFAULT_STARTUP_MS = 1000.0
DEFAULT_HANG_MS = 2000.0
DEFAULT_STDERR_LIMIT = 16384
END_GRACE = 0.05
"""Seconds a bot has to leave by itself once its input is closed at the end
of a game, before its process group is killed."""

_MAX_PENDING_OUTPUT = 1 << 16
_MAX_PENDING_LINES = 256


# -- openings ------------------------------------------------------------------


@dataclass(frozen=True)
class Opening:
    """Where a game starts: a position, and moves already played from it
    (they are part of the game record, and the first bot to answer is told
    the last of them)."""

    start: str = SETUP
    moves: tuple[int, ...] = ()
    label: str = "set-up"

    def text(self) -> str:
        """The opening as one line: a position, or ``moves ...`` (with the
        start position first when it is not the set-up)."""
        if not self.moves:
            return self.start
        played = " ".join(move_text(m) for m in self.moves)
        if self.start == SETUP:
            return f"moves {played}"
        return f"start {self.start} / moves {played}"


def _check_opening(opening: Opening, variant: Variant, where: str) -> Opening:
    try:
        r = Rules(opening.start, variant)
    except BrandubhError as exc:
        raise BrandubhError(f"{where}: {exc}") from None
    if r.is_over():
        raise BrandubhError(f"{where}: the game is over before any move ({outcome_name(r.outcome)})")
    for m in opening.moves:
        if r.play(m) != PLAY_OK:
            raise BrandubhError(f"{where}: {move_text(m)} is not legal in {r.position}")
        if r.is_over():
            raise BrandubhError(f"{where}: the game is over after {move_text(m)} "
                                f"({outcome_name(r.outcome)})")
    return opening


_GAME_WORDS = ("variant", "start", "moves", "result")


def parse_openings(text: str, variant: VariantLike = "codingame", source: str = "openings") -> list[Opening]:
    """Openings from text: one position string per line, or games in seed
    001's format (``variant``/``start``/``moves``/``result`` lines; a bare
    ``moves d2c2 d3c3`` line is a game from the set-up). A blank line ends a
    game; lines starting with ``#`` are comments. A game's own variant line
    is ignored (the games are played under ``variant``), and so is its
    result. Every opening is checked: legal moves, and not over.

    >>> [o.label for o in parse_openings('# two\\n7/7/7/3k3/7/7/a6 d\\nmoves d2c2\\n')]
    ['line 2', 'line 3']
    """
    v = as_variant(variant)
    out: list[Opening] = []
    block: list[str] = []
    block_line = 0

    def flush() -> None:
        nonlocal block
        if not block:
            return
        words = {line.split()[0] for line in block}
        lines = list(block)
        if "variant" not in words:
            lines.insert(0, "variant " + v.as_string())
        game = notation.game_parse("\n".join(lines))
        where = f"{source}, line {block_line}"
        if game is None:
            raise BrandubhError(f"{where}: not a game (variant, start, moves and result lines, "
                                "with moves like d2d4)")
        opening = Opening(game["start"], tuple(parse_move(m) for m in game["moves"]),
                          f"line {block_line}")
        out.append(_check_opening(opening, v, where))
        block = []

    for number, raw in enumerate(str(text).splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            continue
        if notation.position_ok(line):
            flush()
            out.append(_check_opening(Opening(line, (), f"line {number}"), v, f"{source}, line {number}"))
            continue
        word = line.split()[0]
        if word not in _GAME_WORDS:
            raise BrandubhError(f"{source}, line {number}: {quote(line[:40])} is neither a position "
                                "nor a line of a game (variant, start, moves, result)")
        if any(b.split()[0] == word for b in block):
            flush()
        if not block:
            block_line = number
        block.append(line)
    flush()
    return out


def load_openings(path: str, variant: VariantLike = "codingame") -> list[Opening]:
    """:func:`parse_openings` of a file; BrandubhError when it cannot be read
    or holds no opening."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BrandubhError(f"cannot read the openings file {quote(path)}: {exc}") from None
    out = parse_openings(text, variant, source=path)
    if not out:
        raise BrandubhError(f"the openings file {quote(path)} holds no opening")
    return out


def random_openings(count: int, plies: int, seed: int = 1, variant: VariantLike = "codingame",
                    bases: Sequence[Opening] = (Opening(),)) -> list[Opening]:
    """``count`` openings, each ``plies`` random legal moves played after a
    base opening (the bases taken in turn), none of them over. The same
    arguments give the same openings.

    >>> a = random_openings(3, 4, seed=5)
    >>> a == random_openings(3, 4, seed=5), [len(o.moves) for o in a]
    (True, [4, 4, 4])
    """
    v = as_variant(variant)
    rng = random.Random(f"brandubh referee openings {seed}")
    out = []
    for i in range(count):
        base = bases[i % len(bases)]
        for _attempt in range(1000):
            r = Rules(base.start, v)
            for m in base.moves:
                r.play(m)
            extra: list[int] = []
            while len(extra) < plies and not r.is_over():
                m = rng.choice(r.moves())
                r.play(m)
                extra.append(m)
            if not r.is_over():
                break
        else:
            raise BrandubhError(f"no {plies}-move random opening from {base.label} that is not over")
        label = base.label if plies == 0 else f"{base.label} + {plies} random"
        out.append(Opening(base.start, base.moves + tuple(extra), label))
    return out


# -- the configuration -----------------------------------------------------------


@dataclass
class Config:
    """What a run plays: two bot commands, how many games, the rules, the
    time limits (milliseconds) and the openings."""

    commands: tuple[str, str]
    games: int = 2
    jobs: int = 1
    variant: Variant = field(default_factory=lambda: as_variant("codingame"))
    first_ms: float = DEFAULT_FIRST_MS
    turn_ms: float = DEFAULT_TURN_MS
    startup_ms: float = DEFAULT_STARTUP_MS
    time_scale: float = 1.0
    lenient: bool = False
    hang_ms: float = DEFAULT_HANG_MS
    openings: Sequence[Opening] = (Opening(),)
    sprt: Optional[tuple[float, float]] = None
    alpha: float = 0.05
    beta: float = 0.05
    stderr_limit: int = DEFAULT_STDERR_LIMIT
    cwd: Optional[str] = None

    def __post_init__(self) -> None:
        if len(self.commands) != 2:
            raise BrandubhError("the referee takes two bot commands")
        self.variant = as_variant(self.variant)  # type: ignore[arg-type]
        self.argvs = tuple(_split_command(c) for c in self.commands)
        if not isinstance(self.games, int) or self.games < 1:
            raise BrandubhError(f"--games must be at least 1, not {quote(self.games)}")
        if not isinstance(self.jobs, int) or self.jobs < 1:
            raise BrandubhError(f"--jobs must be at least 1, not {quote(self.jobs)}")
        for name in ("first_ms", "turn_ms", "time_scale", "hang_ms"):
            if not getattr(self, name) > 0:
                raise BrandubhError(f"{name.replace('_', '-')} must be positive, not {quote(getattr(self, name))}")
        if not self.startup_ms >= 0:
            raise BrandubhError(f"startup-ms must not be negative, not {quote(self.startup_ms)}")
        if not self.openings:
            raise BrandubhError("no openings to play")
        self.openings = tuple(self.openings)

    def first_limit(self) -> float:
        """The first turn's limit in seconds."""
        return self.first_ms * self.time_scale / 1000.0

    def turn_limit(self) -> float:
        """A later turn's limit in seconds."""
        return self.turn_ms * self.time_scale / 1000.0

    def opening_of(self, index: int) -> tuple[int, Opening]:
        """Game ``index`` (from 0) plays opening ``index // 2``: each
        opening twice, colours swapped."""
        k = (index // 2) % len(self.openings)
        return k, self.openings[k]

    def limits_dict(self) -> dict:
        return {"first_ms": self.first_ms * self.time_scale, "turn_ms": self.turn_ms * self.time_scale,
                "startup_ms": self.startup_ms, "lenient": self.lenient,
                "hang_ms": self.hang_ms if self.lenient else None}


def _split_command(command: str) -> list[str]:
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


# -- a bot's process --------------------------------------------------------------


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


class _Bot:
    """One bot's process for one game, its pipes and what it wrote."""

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
        self.started = time.monotonic()
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, cwd=cwd, start_new_session=True, close_fds=True)
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
        """SIGKILL to the bot's whole process group (it leads it)."""
        if self.proc is None or self.killed:
            return
        self.killed = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close_input(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass


class _Registry:
    """Every bot alive in a run, so that an interrupted run kills them all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bots: set = set()

    def add(self, bot: _Bot) -> None:
        with self._lock:
            self._bots.add(bot)

    def remove(self, bot: _Bot) -> None:
        with self._lock:
            self._bots.discard(bot)

    def kill_all(self) -> None:
        with self._lock:
            bots = list(self._bots)
        for bot in bots:
            bot.kill_group()


_ABORTED = object()


class _Pipes:
    """The pipes of one game's two bots, read together: while one bot
    thinks, what the other writes is kept, so that nothing blocks."""

    def __init__(self, bots: Sequence[_Bot], abort: threading.Event) -> None:
        self.sel = selectors.DefaultSelector()
        self.abort = abort
        self.open = 0
        for bot in bots:
            if bot.proc is None:
                continue
            self.sel.register(bot.fds["out"], selectors.EVENT_READ, (bot, "out"))
            self.sel.register(bot.fds["err"], selectors.EVENT_READ, (bot, "err"))
            self.open += 2

    def send(self, bot: _Bot, text: str) -> None:
        bot.pending += text.encode("ascii")
        self._flush(bot)

    def _flush(self, bot: _Bot) -> None:
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

    def read_line(self, bot: _Bot, deadline: float):
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


# -- one game ----------------------------------------------------------------------


@dataclass
class GameResult:
    """One game: who played which side, the game text, and how it ended.

    ``reason`` is an outcome name of the rules (``corner``, ``capture``,
    ``repetition``, ``encircled``, ``no_move``, ``ply_cap``...), or a fault
    (``timeout``, ``crash``, ``garbage``, ``illegal``) with ``fault`` the bot
    at fault; ``aborted`` for a game cut short by an interrupted run and
    ``error`` for a game the referee itself failed (neither is counted)."""

    index: int
    opening: int
    opening_label: str
    attackers: str
    defenders: str
    commands: dict
    variant: str
    start: str
    moves: list
    opening_plies: int
    reason: str = "aborted"
    winner: Optional[str] = None
    winner_side: Optional[str] = None
    fault: Optional[str] = None
    detail: str = ""
    text: str = ""
    first_ms: dict = field(default_factory=dict)
    turn_ms: dict = field(default_factory=lambda: {"A": [], "B": []})
    late: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    stderr: dict = field(default_factory=lambda: {"A": "", "B": ""})
    pids: dict = field(default_factory=dict)
    exit_codes: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def counted(self) -> bool:
        """True unless the game was aborted or failed in the referee."""
        return self.reason not in ("aborted", "error")

    @property
    def plies(self) -> int:
        """Moves played in this game, the opening's not counted."""
        return len(self.moves) - self.opening_plies

    def side_of(self, seat: str) -> str:
        return "attackers" if seat == self.attackers else "defenders"

    def describe(self) -> str:
        """One line: ``game 3: A attackers, B defenders: repetition; B wins (defenders), 9 moves``."""
        head = f"game {self.index + 1}: {self.attackers} attackers, {self.defenders} defenders"
        if self.fault:
            why = f"{self.reason} by {self.fault} ({self.side_of(self.fault)})"
        else:
            why = self.reason
        if not self.counted:
            result = self.detail.splitlines()[-1] if self.detail else "not counted"
        elif self.winner is None:
            result = "draw"
        else:
            result = f"{self.winner} wins ({self.winner_side})"
        extra = f" - {self.detail}" if self.fault and self.detail else ""
        return f"{head}: {why}; {result}, {self.plies} moves{extra}"

    def as_dict(self, stderr: bool = True) -> dict:
        out = {
            "game": self.index + 1, "opening": self.opening + 1, "opening_label": self.opening_label,
            "attackers": self.attackers, "defenders": self.defenders,
            "reason": self.reason, "fault": self.fault, "winner": self.winner,
            "winner_side": self.winner_side, "detail": self.detail, "plies": self.plies,
            "text": self.text,
            "first_ms": {k: round(v, 3) for k, v in self.first_ms.items()},
            "turn_ms": {k: [round(x, 3) for x in v] for k, v in self.turn_ms.items()},
            "late": dict(self.late), "exit_codes": dict(self.exit_codes), "pids": dict(self.pids),
            "seconds": round(self.seconds, 3),
        }
        if stderr:
            out["stderr"] = dict(self.stderr)
            out["commands"] = dict(self.commands)
        return out


def _game_text(result: GameResult, variant: Variant) -> str:
    outcome = None
    if result.fault is not None:
        outcome = {"how": "resign", "by": result.side_of(result.fault)}
    text = notation.game_string(variant=variant.as_string(), start=result.start,
                                moves=result.moves, result=outcome)
    return text or ""


def play_game(config: Config, index: int, abort: Optional[threading.Event] = None,
              registry: Optional[_Registry] = None) -> GameResult:
    """Play game ``index`` (from 0) of a run: its opening and colours follow
    from the index (:meth:`Config.opening_of`; ``A`` attacks in even games).
    Never raises for anything a bot does; the bots' processes are gone when
    it returns."""
    abort = abort or threading.Event()
    registry = registry or _Registry()
    k, opening = config.opening_of(index)
    att, dfn = ("A", "B") if index % 2 == 0 else ("B", "A")
    result = GameResult(
        index=index, opening=k, opening_label=opening.label, attackers=att, defenders=dfn,
        commands=dict(zip(SEATS, config.commands)), variant=config.variant.as_string(),
        start=opening.start, moves=[move_text(m) for m in opening.moves],
        opening_plies=len(opening.moves))
    t0 = time.monotonic()
    bots: dict = {}
    pipes: Optional[_Pipes] = None
    try:
        rules = Rules(opening.start, config.variant)
        for m in opening.moves:
            rules.play(m)
        for seat, argv in zip(SEATS, config.argvs):
            bot = _Bot(seat, argv, config.cwd, config.stderr_limit)
            bots[seat] = bot
            registry.add(bot)
            if bot.pid is not None:
                result.pids[seat] = bot.pid
        pipes = _Pipes(list(bots.values()), abort)
        _play(config, rules, result, bots, pipes, att, dfn)
    except Exception:  # a failure of the referee itself: say so, count nothing
        result.reason = "error"
        result.winner = result.winner_side = result.fault = None
        result.detail = traceback.format_exc()
    finally:
        _finish(bots, pipes, result, registry)
        result.seconds = time.monotonic() - t0
    result.text = _game_text(result, config.variant)
    return result


def _play(config: Config, rules: Rules, result: GameResult, bots: dict, pipes: _Pipes,
          att: str, dfn: str) -> None:
    seat_of = {"attackers": att, "defenders": dfn}
    last = result.moves[-1] if result.moves else None
    first = {"A": True, "B": True}

    def fault(seat: str, reason: str, detail: str) -> None:
        result.reason, result.fault, result.detail = reason, seat, detail
        other = dfn if seat == att else att
        result.winner, result.winner_side = other, result.side_of(other)

    while not rules.is_over():
        side = rules.side
        seat = seat_of[side]
        bot = bots[seat]
        if bot.spawn_error:
            fault(seat, "crash", bot.spawn_error)
            return
        pipes.send(bot, turn_input(side, last, rules.position))
        sent = time.monotonic()
        if first[seat]:
            limit = config.first_limit()
            clock = max(sent, bot.started + config.startup_ms / 1000.0)
        else:
            limit = config.turn_limit()
            clock = sent
        allowed = max(limit, config.hang_ms / 1000.0) if config.lenient else limit
        got = pipes.read_line(bot, clock + allowed)
        if got is _ABORTED or pipes.abort.is_set():  # an ended run kills the bots: no fault
            result.reason, result.detail = "aborted", "the run was interrupted"
            return
        if got is None:
            if bot.flood:
                fault(seat, "garbage", "wrote too much on standard output without a move")
                return
            code = bot.exited()
            if bot.out_closed and code is None:  # its output ended: it is probably leaving
                end = time.monotonic() + 0.2
                while code is None and time.monotonic() < end:
                    time.sleep(0.002)
                    code = bot.exited()
            if bot.out_closed or code is not None:
                how = f"exited with code {code}" if code is not None else "closed its standard output"
                fault(seat, "crash", f"{how} before answering")
            else:
                shown = f"{allowed * 1000:g} ms" + (" (the first turn)" if first[seat] else "")
                fault(seat, "timeout", f"no answer within {shown}")
            return
        line, arrival = got
        took = max(0.0, arrival - sent) * 1000.0
        if first[seat]:
            result.first_ms[seat] = took
        else:
            result.turn_ms[seat].append(took)
        if arrival - clock > limit:
            result.late[seat] += 1
        first[seat] = False
        answer = line.strip()
        if not MOVE_RE.fullmatch(answer):
            shown = answer if len(answer) <= 60 else answer[:60] + "..."
            fault(seat, "garbage", f"answered {quote(shown)}, which is not a move like d2d4")
            return
        mv = parse_move(answer)
        if rules.play(mv) != PLAY_OK:
            why = rules.why_not(mv >> 6, mv & 63).name.lower()
            fault(seat, "illegal", f"played {answer}, which is not legal here ({why}) "
                                   f"in {rules.position}")
            return
        result.moves.append(answer)
        last = answer
    result.reason = outcome_name(rules.outcome) or "error"
    result.winner_side = rules.winner
    result.winner = None if rules.winner is None else seat_of[rules.winner]


def _finish(bots: dict, pipes: Optional[_Pipes], result: GameResult, registry: _Registry) -> None:
    """End both bots: close their input, give a bot not at fault a moment to
    leave, kill each process group, keep the rest of what they wrote, and
    reap them."""
    live = [b for b in bots.values() if b.proc is not None]
    for bot in live:
        bot.close_input()
    end = time.monotonic() + END_GRACE
    for bot in live:
        if bot.name == result.fault:
            continue
        while bot.exited() is None and time.monotonic() < end:
            time.sleep(0.002)
    for bot in live:
        bot.kill_group()
    if pipes is not None:
        pipes.drain(0.5)
        pipes.close()
    for bot in live:
        try:
            bot.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL was sent
            pass
        bot.returncode = bot.proc.returncode
        for pipe in (bot.proc.stdout, bot.proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass
        result.exit_codes[bot.name] = bot.returncode
    for bot in bots.values():
        result.stderr[bot.name] = bot.stderr.text() if bot.proc is not None else (bot.spawn_error or "")
        registry.remove(bot)


# -- a run -------------------------------------------------------------------------


@dataclass
class MatchResult:
    """A run: every game in order, the tally of the counted ones, and whether
    the run stopped early (SPRT) or was interrupted."""

    config: Config
    games: list
    tally: Tally
    stopped_early: bool = False
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def counted(self) -> list:
        return [g for g in self.games if g.counted]

    @property
    def errors(self) -> list:
        return [g for g in self.games if g.reason == "error"]

    def sprt(self):
        if self.config.sprt is None:
            return None
        elo0, elo1 = self.config.sprt
        return self.tally.sprt(elo0, elo1, self.config.alpha, self.config.beta)

    def endings(self) -> Counter:
        return Counter(g.reason for g in self.counted)

    def repeats(self) -> int:
        """Games that repeated an earlier one move for move, with the same bot
        on each side: what two bots that always answer alike play from the
        same opening. They add nothing to the score's information."""
        seen = set()
        count = 0
        for g in self.counted:
            key = (g.attackers, g.start, tuple(g.moves))
            count += key in seen
            seen.add(key)
        return count

    def faults(self) -> dict:
        out: dict = {seat: Counter() for seat in SEATS}
        for g in self.counted:
            if g.fault:
                out[g.fault][g.reason] += 1
        return out

    def times(self, seat: str) -> dict:
        """Answer times of a bot in milliseconds: its first turns and its
        later turns, each with the count, median and worst."""
        firsts = [g.first_ms[seat] for g in self.counted if seat in g.first_ms]
        later = [t for g in self.counted for t in g.turn_ms.get(seat, [])]
        return {"first": _spread(firsts), "later": _spread(later),
                "late": sum(g.late.get(seat, 0) for g in self.counted)}

    def as_dict(self) -> dict:
        c = self.config
        sprt = self.sprt()
        return {
            "variant": c.variant.as_string(),
            "commands": dict(zip(SEATS, c.commands)),
            "limits": c.limits_dict(),
            "games_requested": c.games,
            "games_played": len(self.counted),
            "stopped_early": self.stopped_early,
            "interrupted": self.interrupted,
            "errors": len(self.errors),
            "openings": len(c.openings),
            "results": self.tally.as_dict(),
            "sides": dict(zip(("attackers", "draws", "defenders"), self.tally.side_wins())),
            "score": self.tally.score("A"),
            "elo": self.tally.elo().as_dict(),
            "sprt": None if sprt is None else sprt.as_dict(),
            "endings": dict(sorted(self.endings().items())),
            "repeats": self.repeats(),
            "faults": {seat: dict(v) for seat, v in self.faults().items()},
            "times_ms": {seat: self.times(seat) for seat in SEATS},
            "seconds": round(self.seconds, 3),
            "games": [g.as_dict(stderr=False) for g in self.games],
        }

    def summary(self) -> str:
        """The report a person reads."""
        c = self.config
        t = self.tally
        lines = []
        limits = f"{c.first_ms * c.time_scale:g} ms first turn, {c.turn_ms * c.time_scale:g} ms after"
        if c.lenient:
            limits += f" (lenient: late answers counted, a bot hangs after {c.hang_ms:g} ms)"
        head = f"{len(self.counted)} games under {c.variant.as_string()}, {limits}"
        if len(self.counted) < c.games:
            why = ("stopped by the SPRT" if self.stopped_early else
                   "interrupted" if self.interrupted else "some games were not counted")
            head += f" ({c.games} asked; {why})"
        lines.append(head)
        for seat, command in zip(SEATS, c.commands):
            lines.append(f"  {seat} = {command}")
        lines.append("")
        lines.append(f"  {'':4}{'wins':>6}{'draws':>7}{'losses':>8}{'score':>8}"
                     f"   {'as attackers':>14}   {'as defenders':>14}")
        for seat in SEATS:
            w, d, l = t.counts(seat)
            score = t.score(seat)
            pct = "-" if score is None else f"{100 * score:.1f}%"
            sides = ["{}-{}-{}".format(*t.by_side(seat, side)) for side in ("attackers", "defenders")]
            lines.append(f"  {seat:4}{w:>6}{d:>7}{l:>8}{pct:>8}   {sides[0]:>14}   {sides[1]:>14}")
        lines.append("  (by side: wins-draws-losses)")
        att, draws, dfn = t.side_wins()
        lines.append(f"  attackers won {att}, defenders won {dfn}, drawn {draws}")
        lines.append("")
        lines.append(f"Elo A - B: {t.elo().text()}")
        sprt = self.sprt()
        if sprt is not None:
            lines.append(f"SPRT: {sprt.text()}")
        endings = self.endings()
        if endings:
            lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
        repeats = self.repeats()
        if repeats:
            lines.append(f"repeats: {repeats} of {len(self.counted)} games repeated an earlier game move "
                         "for move (the bots answer alike from the same opening; --random-plies N "
                         "gives each pair of games an opening of its own)")
        faults = self.faults()
        shown = []
        for seat in SEATS:
            if faults[seat]:
                shown.append(f"{seat} " + ", ".join(f"{k} {v}" for k, v in sorted(faults[seat].items())))
        lines.append("faults: " + ("; ".join(shown) if shown else "none"))
        if self.errors:
            lines.append(f"referee errors: {len(self.errors)} games (not counted)")
        lines.append("answer times in ms, median / worst (a first answer is timed from its "
                     "input, and may hold the bot's start-up):")
        for seat in SEATS:
            tm = self.times(seat)
            f, later = tm["first"], tm["later"]
            text = (f"  {seat}  first answer {_fmt(f)} (limit {c.first_ms * c.time_scale:g})"
                    f"   later answers {_fmt(later)} (limit {c.turn_ms * c.time_scale:g})")
            if c.lenient:
                text += f"   late {tm['late']}"
            lines.append(text)
        lines.append(f"time {self.seconds:.1f} s")
        return "\n".join(lines)


def _spread(values: list) -> dict:
    if not values:
        return {"count": 0, "median": None, "max": None}
    return {"count": len(values), "median": round(statistics.median(values), 3),
            "max": round(max(values), 3)}


def _fmt(spread: dict) -> str:
    if not spread["count"]:
        return "-"
    return f"{spread['median']:.1f} / {spread['max']:.1f}"


def run_match(config: Config, on_game: Optional[Callable[[GameResult, Tally], None]] = None,
              abort: Optional[threading.Event] = None) -> MatchResult:
    """Play the run: up to ``config.jobs`` games at once, each in a thread
    of its own (a game waits on its bots, so threads are enough), until
    ``config.games`` are played, the SPRT decides, or ``abort`` is set (a
    KeyboardInterrupt sets it too). ``on_game`` is called in this thread
    after each game with the game and the tally so far."""
    abort = abort or threading.Event()
    registry = _Registry()
    tally = Tally("A", "B")
    games: list = []
    stopped = interrupted = False
    t0 = time.monotonic()
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(min(old_interval, 0.001))  # less waiting for the GIL, truer times
    pool = ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="brandubh-referee")
    running: dict = {}
    try:
        next_index = 0
        while running or (next_index < config.games and not stopped and not abort.is_set()):
            while (next_index < config.games and len(running) < config.jobs
                   and not stopped and not abort.is_set()):
                fut = pool.submit(play_game, config, next_index, abort, registry)
                running[fut] = next_index
                next_index += 1
            done, _ = wait(list(running), timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in done:
                running.pop(fut)
                game = fut.result()
                games.append(game)
                if game.counted:
                    tally.add(game.attackers, game.defenders, game.winner)
                    if config.sprt is not None and not stopped:
                        s = tally.sprt(config.sprt[0], config.sprt[1], config.alpha, config.beta)
                        stopped = s.decision is not None
                if on_game is not None:
                    on_game(game, tally)
    except KeyboardInterrupt:
        interrupted = True
        abort.set()
        registry.kill_all()
        for fut in list(running):
            try:
                games.append(fut.result())
            except Exception:  # pragma: no cover
                pass
    finally:
        pool.shutdown(wait=True)
        registry.kill_all()
        sys.setswitchinterval(old_interval)
    if abort.is_set():
        interrupted = True
    games.sort(key=lambda g: g.index)
    # The tally counts games in the order they finished; recount in order.
    tally = Tally("A", "B")
    for g in games:
        if g.counted:
            tally.add(g.attackers, g.defenders, g.winner)
    return MatchResult(config, games, tally, stopped_early=stopped, interrupted=interrupted,
                       seconds=time.monotonic() - t0)


# -- writing games ---------------------------------------------------------------------


def games_text(games: Sequence[GameResult]) -> str:
    """Every game's text, each after a ``#`` line that says who played and
    how it ended, separated by blank lines (``--openings`` reads it back)."""
    out = []
    for g in games:
        out.append(f"# {g.describe()}\n{g.text}")
    return "\n".join(out)


def save_games(directory: str, match: MatchResult) -> None:
    """``game-0001.txt`` (the game text) and ``game-0001.json`` (everything,
    what the bots wrote on standard error included) for each game, and
    ``summary.json`` and ``summary.txt``."""
    os.makedirs(directory, exist_ok=True)
    for g in match.games:
        stem = os.path.join(directory, f"game-{g.index + 1:04d}")
        with open(stem + ".txt", "w", encoding="utf-8") as f:
            f.write(g.text)
        with open(stem + ".json", "w", encoding="utf-8") as f:
            json.dump(g.as_dict(stderr=True), f, indent=1)
            f.write("\n")
    with open(os.path.join(directory, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(match.as_dict(), f, indent=1)
        f.write("\n")
    with open(os.path.join(directory, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(match.summary() + "\n")


# -- the command -----------------------------------------------------------------------

_DESCRIPTION = """\
Play two bots against each other over the protocol of the CodinGame puzzle
"Brandubh", as the puzzle's referee would, with the time limits enforced.

Each BOT is a command, quoted as one argument ("python3 my_bot.py",
"./my_bot --depth 3"). Each game starts a process for each bot, in a
process group of its own, and keeps it for the whole game. The bot that
crashes, answers late, answers something that is not a move, or plays an
illegal move loses that game at once; its processes are killed. What each
bot wrote on standard error is kept with the game (--save).

The rules are the codingame preset unless --variant says otherwise; every
ending, repetition included, is the rule set's. Colours alternate: A (the
first BOT) attacks in games 1, 3, 5..., B in games 2, 4, 6..., and each
opening is played twice, once each way.

Time: a bot's first answer is due 100 ms after its input (--first-ms), each
later answer 50 ms after its input (--turn-ms). Starting a process is not a
turn: a bot has --startup-ms (1000) after its start to get ready before its
first turn's clock runs."""

_EPILOG = """\
examples:
  brandubh referee "python3 bot_a.py" "./bot_b" --games 200 --jobs 2
  brandubh referee "brandubh codingame" "python3 my_bot.py" --games 100 --sprt 0,50
  brandubh referee "python3 new.py" "python3 old.py" --random-plies 4 --save runs/1
  brandubh referee "./bot_v2" "./bot_v1" --openings openings.txt --json > result.json

The summary gives each bot's wins, draws and losses, in all and by side, the
score, the Elo difference A - B with a 95% interval, how the games ended,
the faults, and each bot's answer times (median and worst). Exit status: 0,
1 when the referee itself failed a game, 2 for bad arguments, 130 when
interrupted."""


def _sprt_arg(text: str) -> tuple[float, float]:
    try:
        return parse_sprt(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers) -> None:
    """Add the ``referee`` command to the ``brandubh`` command's
    subparsers."""
    p = subparsers.add_parser(
        "referee", help="play two bots against each other over the CodinGame protocol",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bot_a", metavar="BOT_A", help="the first bot's command (A), quoted")
    p.add_argument("bot_b", metavar="BOT_B", help="the second bot's command (B), quoted")
    g = p.add_argument_group("games")
    g.add_argument("--games", "-n", type=whole(1), default=2, metavar="N",
                   help="how many games (default 2: one with each bot attacking)")
    g.add_argument("--jobs", "-j", type=whole(1), default=1, metavar="N",
                   help="games played at once (default 1; keep it at most the number of cores, "
                        "or the bots' times suffer)")
    g.add_argument("--variant", default="codingame", metavar="NAME",
                   help="the rule set: a preset (codingame, brandubh, modern, opentafl) or a "
                        "quoted line of field=value pairs (default: codingame)")
    g.add_argument("--openings", metavar="FILE",
                   help="start the games from these openings, each played twice with colours "
                        "swapped: one position string per line, or games in the package's game "
                        "format (variant, start and moves lines; a bare 'moves d2c2 d3c3' line "
                        "too); '#' starts a comment")
    g.add_argument("--random-plies", type=whole(0), default=0, metavar="N",
                   help="add N random legal moves to each opening (a different opening for "
                        "each pair of games; default 0)")
    g.add_argument("--seed", type=int, default=1, metavar="N",
                   help="the seed of the random openings (default 1)")
    t = p.add_argument_group("time")
    t.add_argument("--first-ms", type=real(0), default=DEFAULT_FIRST_MS, metavar="MS",
                   help=f"the limit for a bot's first answer (default {DEFAULT_FIRST_MS:g})")
    t.add_argument("--turn-ms", type=real(0), default=DEFAULT_TURN_MS, metavar="MS",
                   help=f"the limit for every later answer (default {DEFAULT_TURN_MS:g})")
    t.add_argument("--startup-ms", type=real(0), default=DEFAULT_STARTUP_MS, metavar="MS",
                   help="time a bot has after its process starts before its first turn's "
                        f"clock runs (default {DEFAULT_STARTUP_MS:g})")
    t.add_argument("--time-scale", type=real(0, open_low=True), default=1.0, metavar="X",
                   help="multiply the two turn limits by X (a slow machine, a debug build)")
    t.add_argument("--lenient", action="store_true",
                   help="a late answer is counted, not lost; a bot loses by timeout only "
                        "when it has not answered after --hang-ms")
    t.add_argument("--hang-ms", type=real(0), default=DEFAULT_HANG_MS, metavar="MS",
                   help=f"with --lenient, when a bot is taken to hang (default {DEFAULT_HANG_MS:g})")
    s = p.add_argument_group("statistics")
    s.add_argument("--sprt", type=_sprt_arg, metavar="ELO0,ELO1",
                   help="run a sequential probability ratio test of 'A is at most ELO0 "
                        "stronger' against 'at least ELO1' and stop when it decides")
    s.add_argument("--alpha", type=real(0, 0.5, open_low=True, open_high=True), default=0.05, metavar="P",
                   help="the SPRT's false positive rate (default 0.05)")
    s.add_argument("--beta", type=real(0, 0.5, open_low=True, open_high=True), default=0.05, metavar="P",
                   help="the SPRT's false negative rate (default 0.05)")
    o = p.add_argument_group("output")
    o.add_argument("--json", action="store_true",
                   help="print the summary as JSON on standard output (every game included, "
                        "without the bots' standard error)")
    o.add_argument("--save", metavar="DIR",
                   help="write each game's text and record (with what the bots wrote on "
                        "standard error) and the summary into DIR")
    o.add_argument("--games-out", metavar="FILE",
                   help="write every game's text to FILE, each after a '#' line saying how "
                        "it ended")
    o.add_argument("--stderr-limit", type=whole(0), default=DEFAULT_STDERR_LIMIT, metavar="BYTES",
                   help="keep at most this much of each bot's standard error per game: the "
                        f"first and the last halves (default {DEFAULT_STDERR_LIMIT})")
    o.add_argument("--verbose", "-v", action="store_true",
                   help="print a line for every game on standard error (faults and referee "
                        "errors are always printed)")
    o.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is none anyway unless standard error is a terminal)")
    p.set_defaults(run=run)


def config_from_args(args: argparse.Namespace) -> Config:
    variant = as_variant(args.variant)
    bases: Sequence[Opening] = (Opening(),)
    if args.openings:
        bases = load_openings(args.openings, variant)
    pairs = (args.games + 1) // 2
    if args.random_plies:
        openings = random_openings(pairs, args.random_plies, args.seed, variant, bases)
    else:
        openings = list(bases)
    config = Config(
        commands=(args.bot_a, args.bot_b), games=args.games, jobs=args.jobs, variant=variant,
        first_ms=args.first_ms, turn_ms=args.turn_ms, startup_ms=args.startup_ms,
        time_scale=args.time_scale, lenient=args.lenient, hang_ms=args.hang_ms,
        openings=openings, sprt=args.sprt, alpha=args.alpha, beta=args.beta,
        stderr_limit=args.stderr_limit)
    for argv in config.argvs:
        check_command(argv)
    return config


def run(args: argparse.Namespace, stdout: Optional[TextIO] = None,
        stderr: Optional[TextIO] = None) -> int:
    """Run ``brandubh referee`` with parsed arguments; the exit status."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    config = config_from_args(args)
    progress = Progress(config.games, stream=stderr, enabled=False if args.no_progress else None)
    done = [0]

    def on_game(game: GameResult, tally: Tally) -> None:
        done[0] += 1
        if args.verbose or game.fault or game.reason == "error":
            progress.close()
            print(game.describe(), file=stderr)
            if game.reason == "error":
                print(game.detail.rstrip(), file=stderr)
            elif game.fault and game.stderr.get(game.fault):
                tail = game.stderr[game.fault].rstrip().splitlines()[-5:]
                for line in tail:
                    print(f"    {game.fault}> {line}", file=stderr)
        w, d, l = tally.counts("A")
        score = tally.score("A")
        text = f"A {w}-{d}-{l}"
        if score is not None:
            elo = tally.elo()
            margin = elo.margin
            text += f" ({100 * score:.1f}%) Elo {format_elo(elo.elo)}"
            if margin is not None:
                text += f" ± {margin:.0f}"
        if config.sprt is not None:
            text += f" LLR {tally.sprt(*config.sprt, config.alpha, config.beta).llr:.2f}"
        progress.update(done[0], text)

    # A terminated referee ends its bots first: they run in sessions of
    # their own, and nothing else would stop one that hangs.
    def stop(signum, frame):
        raise KeyboardInterrupt

    saved = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
                saved[signum] = signal.signal(signum, stop)
    try:
        match = run_match(config, on_game=on_game)
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
    progress.close()
    if args.save:
        save_games(args.save, match)
    if args.games_out:
        with open(args.games_out, "w", encoding="utf-8") as f:
            f.write(games_text(match.games))
    if args.json:
        json.dump(match.as_dict(), stdout, indent=1)
        stdout.write("\n")
    else:
        print(match.summary(), file=stdout)
    stdout.flush()
    if match.interrupted:
        return 130
    return 1 if match.errors else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``brandubh referee`` on its own: ``main(['python3 a.py', './b', '--games', '4'])``."""
    from .cli import main as brandubh_main

    return brandubh_main(["referee", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
