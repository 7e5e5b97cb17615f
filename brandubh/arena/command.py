"""What the two front doors to the arena share: their options, the players
written on the command line, and a run that reports as the games finish.

``brandubh match`` (engine settings and programs, any number, no clock by
default) and ``brandubh referee`` (two programs under the CodinGame
puzzle's clock) differ only in their defaults; both end here.

>>> parse_player('level=3').describe(), parse_player('cmd=./my_bot --fast').describe()
('level=3', './my_bot --fast')
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator, Optional, Sequence, TextIO

from ..argtypes import real, whole
from ..errors import ArgumentError, BrandubhError, quote
from ..files import WholeFile, check_writable, write_whole
from .stats import SPRT_BY, Progress, parse_sprt
from ..variant import Variant, as_variant
from .bot_player import BotPlayer
from .event import Event, default_jobs, run_event
from .executor import Executor
from .loop import GameRecord
from .openings import BALANCED, Opening, balanced_book, load_openings, random_openings
from .player import Limits, Player
from .process_player import DEFAULT_STDERR_LIMIT, ProcessPlayer
from .report import EventResult
from .workers import ProcessExecutor, local_executor

__all__ = ["parse_player", "add_event_arguments", "event_from_args", "play_from_args", "run_command", "games_text",
           "save_game", "save_summary", "make_executor", "signals_interrupt", "GamesFile"]


def parse_player(text: str, name: str = "") -> Player:
    """A player written on the command line: an engine setting
    (``level=3``, ``budget=20000,ring=45,off=tt``), or a program,
    ``cmd=COMMAND`` (the rest of the text is the command), speaking the
    CodinGame protocol unless ``protocol=NAME,`` comes before it;
    ``rules=RULES,`` before it says which rules a program plays that its
    protocol cannot tell it (by default the CodinGame puzzle's).

    >>> parse_player('rules=brandubh,protocol=codingame,cmd=./bot').rules.name
    'brandubh'
    """
    whole = text = str(text).strip()
    options: dict = {}
    while text.startswith(("protocol=", "rules=")):
        head, sep, rest = text.partition(",")
        key, _, value = head.partition("=")
        if not sep or not rest.strip().startswith(("cmd=", "protocol=", "rules=")):
            raise BrandubhError(f"{quote(whole)}: {key}=... is followed by ,cmd=COMMAND")
        if key in options:
            raise BrandubhError(f"{quote(whole)}: {key}= is given twice")
        options[key], text = value.strip(), rest.strip()
    if options and not text.startswith("cmd="):
        raise BrandubhError(f"{quote(whole)}: protocol= and rules= are followed by ,cmd=COMMAND")
    if text.startswith("cmd="):
        command = text[4:].strip()
        if not command:
            raise BrandubhError("cmd= names no command")
        return ProcessPlayer(command, name=name, protocol=options.get("protocol", "codingame"),
                             rules=options.get("rules"))
    return BotPlayer.from_text(text, name)


def _sprt_arg(text: str) -> tuple[float, float]:
    try:
        return parse_sprt(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_event_arguments(p: argparse.ArgumentParser, *, games: int, jobs: Optional[int], variant: Optional[str],
                        first_ms: Optional[float], turn_ms: Optional[float], random_plies: int) -> None:
    """The options both front doors take, with their own defaults."""
    g = p.add_argument_group("games")
    g.add_argument("--games", "-n", type=whole(1), default=games, metavar="N",
                   help=f"games of each pairing of players (default {games}); colours alternate "
                        "and each opening is played twice, once each way")
    jobs_default = "the number of cores" if jobs is None else str(jobs)
    g.add_argument("--jobs", "-j", type=whole(1), default=jobs, metavar="N",
                   help=f"games played at once (default {jobs_default}; at most the games and "
                        "the cores; more than the cores would slow the programs' answers), each "
                        "in a worker process of its own")
    g.add_argument("--threads", action="store_true",
                   help="play the --jobs games in threads of this process instead of worker "
                        "processes (no start-up; slower for fast games, whose Python holds the "
                        "interpreter's lock)")
    g.add_argument("--ray", metavar="ADDRESS",
                   help="play the games as tasks on a Ray cluster: auto (the one started on this "
                        "machine by 'ray start --head', or RAY_ADDRESS), local (one started for "
                        "this run, --jobs workers), or HOST:PORT; --jobs then defaults to the "
                        "cluster's CPUs (needs pip install brandubh[cluster]; docs/cluster.md)")
    shown = variant or ("brandubh; codingame when a program speaks the CodinGame protocol, "
                        "which cannot tell it other rules")
    g.add_argument("--variant", default=variant, metavar="RULES",
                   help="the rule set: a preset (brandubh, codingame, modern, opentafl) or a "
                        f"quoted line of field=value pairs (default: {shown})")
    g.add_argument("--openings", metavar="FILE",
                   help="start the games from these openings, each played twice with colours "
                        "swapped: position strings, game texts, or bare 'moves d2c2 d3c3' lines; "
                        "'#' starts a label (a --games-out file reads back); or a referee record "
                        f"or an OpenTafl game record (docs/records.md); '{BALANCED}': the rules' "
                        "balanced book (bench/book-PRESET.txt of the source tree, openings the engine "
                        "gives either side 40%% to 60%%), the default with --sprt")
    g.add_argument("--random-plies", type=whole(0), default=None, metavar="N",
                   help="add N random legal moves to each opening (a different opening for "
                        f"each pair of games; default {random_plies}, or 0 with --sprt and the balanced book)")
    p.set_defaults(default_random_plies=random_plies)
    g.add_argument("--seed", type=int, default=1, metavar="N",
                   help="the seed of the random openings (default 1)")
    g.add_argument("--gauntlet", action="store_true",
                   help="with more than two players, the first plays each of the others "
                        "(instead of every pair meeting)")
    t = p.add_argument_group("time (for programs; an engine setting is held by its budget)")
    t.add_argument("--first-ms", type=real(0, open_low=True), default=first_ms, metavar="MS",
                   help="the limit for a program's first answer (default "
                        + ("none" if first_ms is None else f"{first_ms:g}") + ")")
    t.add_argument("--turn-ms", type=real(0, open_low=True), default=turn_ms, metavar="MS",
                   help="the limit for every later answer (default "
                        + ("none" if turn_ms is None else f"{turn_ms:g}") + ")")
    t.add_argument("--startup-ms", type=real(0), default=1000.0, metavar="MS",
                   help="time a program has after its start before its first turn's clock "
                        "runs (default 1000)")
    t.add_argument("--time-scale", type=real(0, open_low=True), default=1.0, metavar="X",
                   help="multiply the two turn limits by X (a slow machine, a debug build)")
    t.add_argument("--lenient", action="store_true",
                   help="a late answer is counted, not lost; a program loses by timeout only "
                        "when it has not answered after --hang-ms")
    hang = 2000.0 if first_ms is not None else 60_000.0
    t.add_argument("--hang-ms", type=real(0, open_low=True), default=hang, metavar="MS",
                   help=f"when a program is taken to hang: with --lenient, or without limits "
                        f"(default {hang:g})")
    s = p.add_argument_group("statistics")
    s.add_argument("--sprt", type=_sprt_arg, metavar="ELO0,ELO1",
                   help="with two players, a sequential probability ratio test of 'A is at most "
                        "ELO0 stronger' against 'at least ELO1'; the run stops when it decides")
    s.add_argument("--sprt-by", choices=SPRT_BY, default=SPRT_BY[0],
                   help="what the SPRT counts: pairs of games (one opening, the sides swapped: "
                        "five counts, as fishtest does; the default) or games one by one")
    s.add_argument("--alpha", type=real(0, 0.5, open_low=True, open_high=True), default=0.05, metavar="P",
                   help="the SPRT's false positive rate (default 0.05)")
    s.add_argument("--beta", type=real(0, 0.5, open_low=True, open_high=True), default=0.05, metavar="P",
                   help="the SPRT's false negative rate (default 0.05)")
    o = p.add_argument_group("output")
    o.add_argument("--json", action="store_true",
                   help="print the summary as JSON on standard output (every game included, "
                        "without the programs' standard error)")
    o.add_argument("--save", metavar="DIR",
                   help="write each game's text and record (with what programs wrote on "
                        "standard error) into DIR as it finishes, and the summary at the end")
    o.add_argument("--games-out", metavar="FILE",
                   help="write every game's text to FILE in the games' order, each after a '#' line "
                        "saying how it ended, as soon as it and every game before it have finished "
                        "(so --game N of show and analyse is the game labelled 'game N')")
    o.add_argument("--stderr-limit", type=whole(0), default=DEFAULT_STDERR_LIMIT, metavar="BYTES",
                   help="keep at most this much of each program's standard error a game: the "
                        f"first and the last halves (default {DEFAULT_STDERR_LIMIT})")
    o.add_argument("--verbose", "-v", action="store_true",
                   help="print a line for every game on standard error (faults and arena "
                        "errors are always printed)")
    o.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is none anyway unless standard error is a terminal)")


def event_from_args(args: argparse.Namespace, players: Sequence[Player],
                    executor_out: Optional[list] = None) -> Event:
    """The event the options ask for; BrandubhError for what cannot be
    played (a program that cannot run, an openings file that cannot be read).
    Given a list as ``executor_out``, the run's local executor is started
    before the random openings are drawn and appended to it (None for the
    run's own threads), for :func:`run_command`'s ``executor``."""
    if args.variant is None:
        # The rules the programs play when their protocol cannot tell them
        # (the CodinGame puzzle's), else this package's own.
        plays = [p.plays for p in players if isinstance(p, ProcessPlayer) and p.plays is not None]
        args.variant = plays[0] if plays else "brandubh"
    variant = as_variant(args.variant)
    for player in players:
        if isinstance(player, ProcessPlayer):
            player.stderr_limit = args.stderr_limit
            player.check(variant)
    _choose_openings(args, variant)
    bases: Sequence[Opening] = (Opening(),)
    if args.openings:
        bases = load_openings(args.openings, variant)
    pairs = (args.games + 1) // 2
    jobs = default_jobs() if args.jobs is None else args.jobs

    def exhausted(found: int) -> None:
        # Said at once: the run goes on, and later openings repeat.
        print(f"brandubh: only {found} distinct {args.random_plies}-move random openings were found; "
              "the others repeat them", file=sys.stderr, flush=True)

    if executor_out is not None and not getattr(args, "ray", None):
        # The worker processes start now, while the openings are drawn:
        # their interpreters load beside this one's work, not before the first game.
        provisional = Event(players, games=args.games, variant=variant, jobs=jobs, gauntlet=args.gauntlet)
        executor_out.append(local_executor(provisional.jobs_used(), threads=getattr(args, "threads", False)))
    if args.random_plies and pairs > 10_000:
        print(f"brandubh: drawing {pairs:,} random openings before the first game...", file=sys.stderr, flush=True)
    openings = (random_openings(pairs, args.random_plies, args.seed, variant, bases, distinct=True,
                                on_exhausted=exhausted)
                if args.random_plies else list(bases))
    limits = Limits(first_ms=args.first_ms, turn_ms=args.turn_ms, startup_ms=args.startup_ms,
                    time_scale=args.time_scale, lenient=args.lenient, hang_ms=args.hang_ms)
    return Event(players, games=args.games, variant=variant, openings=openings, limits=limits,
                 jobs=jobs, gauntlet=args.gauntlet, sprt=args.sprt, alpha=args.alpha, beta=args.beta,
                 sprt_by=getattr(args, "sprt_by", SPRT_BY[0]))


def _choose_openings(args: argparse.Namespace, variant: Variant) -> None:
    """Settle ``args.openings`` and ``args.random_plies``: ``--openings
    balanced`` is the rules' balanced book; with ``--sprt`` and neither
    option given, that book with no random plies, where there is one (a
    strength claim is made on it: docs/arena.md); else the front door's
    default plies. BrandubhError for ``balanced`` where there is no book."""
    plies_given = getattr(args, "random_plies", None) is not None
    if args.openings == BALANCED:
        book = balanced_book(variant)
        if book is None:
            raise BrandubhError(f"--openings {BALANCED}: there is no balanced book for the rules "
                                f"{quote(variant.as_string(), 80)} here (the source tree's bench/ holds one "
                                "a preset: give --openings FILE)")
        args.openings = str(book)
        if not plies_given:
            args.random_plies = 0
    elif args.openings is None and getattr(args, "sprt", None) is not None and not plies_given:
        book = balanced_book(variant)
        if book is not None:
            args.openings, args.random_plies = str(book), 0
            print(f"brandubh: --sprt plays the balanced book {book.parent.name}/{book.name} (give --openings "
                  "or --random-plies for others)", file=sys.stderr, flush=True)
    if getattr(args, "random_plies", None) is None:
        args.random_plies = getattr(args, "default_random_plies", 0)


# -- writing games ---------------------------------------------------------------


def games_text(games: Sequence[GameRecord]) -> str:
    """Every game's text, each after a ``#`` line that says who played and
    how it ended, separated by blank lines (``--openings`` reads it back)."""
    return "\n".join(f"# {g.describe()}\n{g.text}" for g in games)


def _check_writable(save: Optional[str], games_out: Optional[str]) -> Optional["GamesFile"]:
    """Refuse, before the first game, an output that cannot be written; the
    games file (made when its first game is written)."""
    if save:
        try:
            os.makedirs(save, exist_ok=True)
            probe = os.path.join(save, ".brandubh-write-check")
            with open(probe, "w", encoding="utf-8"):
                pass
            os.remove(probe)
        except OSError as exc:
            raise BrandubhError(f"cannot write into {quote(save)} (--save): {exc.strerror or exc}") from None
    if games_out:
        return GamesFile(games_out)
    return None


class GamesFile:
    """A ``--games-out`` file: the games in their numbered order, each
    written as soon as every game before it is (a game that finishes early
    waits in memory for those before it), each whole or not at all. The
    first game goes in whole (:class:`brandubh.files.WholeFile`: written
    beside the old file, which it then replaces, through a link to its
    target); the others are appended. A game that cannot be written (a full
    disk) cuts the file back to the games before it, or, for the first,
    leaves the old file as it was; :meth:`add` then raises ArgumentError
    with a sentence. Refused at once (ArgumentError) where
    :func:`brandubh.files.check_writable` refuses: a device such as
    ``/dev/full``, a folder, a pipe, a missing folder.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), 'games.txt')
    >>> out = GamesFile(path)
    >>> out.add('variant brandubh\\nmoves d2c2 d3c3\\n', 'game 2', index=1)
    >>> out.count, os.path.exists(path)      # game 2 waits for game 1
    (0, False)
    >>> out.add('variant brandubh\\nmoves d2c2\\n', 'game 1', index=0)
    >>> out.close(); out.count, open(path).read().count('# game')
    (2, 2)
    """

    def __init__(self, path: str) -> None:
        try:
            check_writable(path)
        except ArgumentError as error:
            raise ArgumentError(f"--games-out: {error}") from None
        self.path = path
        self.file: Optional[WholeFile] = None
        self.size = 0
        self.count = 0
        self.next = 0
        self.waiting: dict[int, tuple[str, str]] = {}

    def add(self, text: str, head: str, index: Optional[int] = None) -> None:
        """Game number ``index`` (from 0; by default the next), after a
        ``#`` line holding ``head``: written now with every game after it
        that was waiting for it, or kept until the games before it come."""
        self.waiting[self.next if index is None else index] = (text, head)
        while self.next in self.waiting:
            self._append(*self.waiting.pop(self.next))
            self.next += 1

    def drain(self) -> None:
        """Write the games still waiting, in their order: a game before
        them never came (a run that stopped early)."""
        for index in sorted(self.waiting):
            self._append(*self.waiting.pop(index))

    def _append(self, text: str, head: str) -> None:
        data = (("\n" if self.count else "") + f"# {head}\n{text}").encode("utf-8")
        try:
            if self.file is None:
                new = WholeFile(self.path)
                try:
                    new.file.write(data)
                    new.file.flush()
                    os.fsync(new.file.fileno())
                except BaseException:
                    new.discard()
                    raise
                new.commit()
                self.file = new
            else:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.file.file.fileno(), view):]
        except BaseException as error:  # a full disk, or Ctrl-C in the middle: no half game
            kept = self._cut()
            if isinstance(error, ArgumentError):
                raise ArgumentError(f"{error} (--games-out)") from None
            if not isinstance(error, OSError):
                raise
            raise ArgumentError(f"cannot write {quote(self.path, 200)} (--games-out): "
                                f"{error.strerror or error}; " + kept) from None
        self.size += len(data)
        self.count += 1

    def _cut(self) -> str:
        """Back to the whole games written; what the file holds, in words."""
        if self.file is None:
            return "no game was written whole, and the file is as it was"
        try:
            os.ftruncate(self.file.file.fileno(), self.size)
        except OSError:
            pass
        return f"it holds the {self.count} game{'s' if self.count != 1 else ''} before, each whole"

    def close(self) -> None:
        if self.file is not None:
            file, self.file = self.file, None
            file.close()


def save_game(directory: str, game: GameRecord) -> None:
    """``game-0001.txt`` (the game text) and ``game-0001.json`` (everything,
    what programs wrote on standard error included), each written whole or
    not at all (:func:`brandubh.files.write_whole`)."""
    stem = os.path.join(directory, f"game-{game.index + 1:04d}")
    write_whole(stem + ".txt", game.text)
    write_whole(stem + ".json", json.dumps(game.as_dict(stderr=True), indent=1) + "\n")


def save_summary(directory: str, result: EventResult) -> None:
    """``summary.json`` and ``summary.txt``, each whole or not at all."""
    write_whole(os.path.join(directory, "summary.json"), json.dumps(result.as_dict(), indent=1) + "\n")
    write_whole(os.path.join(directory, "summary.txt"), result.summary() + "\n")


# -- a run -------------------------------------------------------------------------


@contextlib.contextmanager
def signals_interrupt(names: Sequence[str] = ("SIGTERM", "SIGHUP")) -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP (where the system has them, and
    their handlers are the default) are Ctrl-C: a KeyboardInterrupt, raised
    once in the main thread, so that a run ended by ``kill`` or a closed
    terminal ends as one interrupted (its programs ended, what it has
    saved). A second signal while that is done is ignored. Outside the
    main thread, nothing changes.

    >>> saved = signal.signal(signal.SIGTERM, signal.SIG_DFL)   # the default, as in a fresh process
    >>> with signals_interrupt():
    ...     signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    False
    >>> signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    True
    >>> _ = signal.signal(signal.SIGTERM, saved)
    """
    raised = [False]

    def stop(signum: int, frame: Any) -> None:
        if not raised[0]:
            raised[0] = True
            raise KeyboardInterrupt

    saved = {}
    if threading.current_thread() is threading.main_thread():
        for name in names:
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
                saved[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


def play_from_args(args: argparse.Namespace, players: Sequence[Player], stdout: Optional[TextIO] = None,
                   stderr: Optional[TextIO] = None) -> int:
    """:func:`event_from_args` and :func:`run_command` together, as
    ``brandubh match`` and ``referee`` run: the worker processes start
    while the random openings are drawn, and are closed if the event
    cannot be made."""
    started: list = []
    try:
        event = event_from_args(args, players, started)
    except BaseException:
        for executor in started:
            if executor is not None:
                executor.close()
        raise
    return run_command(event, args, stdout, stderr, prestarted=started)


def run_command(event: Event, args: argparse.Namespace, stdout: Optional[TextIO] = None,
                stderr: Optional[TextIO] = None, prestarted: Optional[list] = None) -> int:
    """Play the event, writing each game as it finishes, and report. The
    exit status: 0, 1 when the arena itself failed a game, 130 when
    interrupted (the partial result is reported first). ``prestarted``:
    the list :func:`event_from_args` started the executor in (closed
    here, as one made here is)."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    started = prestarted[0] if prestarted else None
    try:
        games_file = _check_writable(args.save, args.games_out)
    except BaseException:
        if started is not None:
            started.close()
        raise
    total = len(event.specs())
    executor = started if prestarted else make_executor(args, event)
    try:
        return _run(event, executor, args, games_file, total, stdout, stderr)
    finally:
        if executor is not None:
            executor.close()


def make_executor(args: argparse.Namespace, event: Event) -> Optional[Executor]:
    """The executor the options ask for: with ``--ray`` a
    :class:`~brandubh.arena.cluster.RayExecutor` (``--jobs`` at once or the
    cluster's CPUs); for more than one game at once a
    :class:`~brandubh.arena.workers.ProcessExecutor` (its workers started
    here, once for the run), or with ``--threads`` None, as for one game at
    once: the run's own threads."""
    address = getattr(args, "ray", None)
    if not address:
        return local_executor(event.jobs_used(), threads=getattr(args, "threads", False))
    from .cluster import RayExecutor

    return RayExecutor(address, jobs=getattr(args, "jobs", None))


def _run(event: Event, executor: Optional[Executor], args: argparse.Namespace,
         games_file: Optional[GamesFile], total: int, stdout: TextIO, stderr: TextIO) -> int:
    if executor is not None and not isinstance(executor, ProcessExecutor):
        print(f"playing {executor.describe()}", file=stderr)
    else:
        jobs = event.jobs_used(total)
        if event.jobs > jobs:
            print(f"--jobs {event.jobs}: playing {jobs} games at once (the "
                  + ("games" if total <= default_jobs() else "cores") + " there are)", file=stderr)
    progress = Progress(total, stream=stderr, enabled=False if args.no_progress or args.json else None)
    done = [0]
    drawn = [0.0]
    written: set = set()
    # An output that cannot be written (a full disk) stops the run: no
    # game is played that would not be kept; the summary still comes.
    abort = threading.Event()
    failed: list = []
    command = getattr(args, "command", None) or "match"

    def kept(write_it: Callable[[], None]) -> None:
        """Write, or say that the output failed and stop the run."""
        if failed:
            return
        try:
            write_it()
        except ArgumentError as error:
            failed.append(str(error))
            abort.set()
            progress.close()
            print(f"brandubh {command}: {error}; the {command} stops here (the games played so far "
                  "are reported)", file=stderr, flush=True)

    def write(game: GameRecord) -> None:
        written.add(game.index)

        def write_it() -> None:
            if args.save:
                try:
                    save_game(args.save, game)
                except ArgumentError as error:
                    raise ArgumentError(f"--save: {error}") from None
            if games_file is not None:
                games_file.add(game.text, game.describe(), game.index)

        kept(write_it)

    def on_game(game: GameRecord, so_far: EventResult) -> None:
        done[0] += 1
        write(game)
        if args.verbose or game.fault or game.reason == "error":
            progress.close()
            print(game.describe(), file=stderr)
            if game.reason == "error":
                print(game.detail.rstrip(), file=stderr)
            elif game.fault and game.stderr.get(game.fault):
                for line in game.stderr[game.fault].rstrip().splitlines()[-5:]:
                    print(f"    {game.fault}> {line}", file=stderr)
        # The bar's text counts every game so far: made only when it is
        # drawn (a terminal, at most ten times a second), so that a fast
        # run's report costs this process little while its workers play.
        now = time.monotonic()
        if progress.enabled and (now - drawn[0] >= 0.1 or done[0] == total):
            drawn[0] = now
            progress.update(done[0], so_far.progress_text(), force=True)

    # A terminated run ends its programs first: they run in sessions of
    # their own, and nothing else would stop one that hangs.
    try:
        with signals_interrupt():
            result = run_event(event, on_game=on_game, abort=abort, executor=executor)
            for game in result.games:  # those cut short by an interrupt
                if game.index not in written:
                    write(game)
            if games_file is not None:
                kept(games_file.drain)
    finally:
        if games_file is not None:
            games_file.close()
    progress.close()
    if args.save and not failed:
        try:
            save_summary(args.save, result)
        except ArgumentError as error:
            failed.append(str(error))
            print(f"brandubh {command}: --save: {error}", file=stderr, flush=True)
    if args.json:
        json.dump(result.as_dict(), stdout, indent=1)
        stdout.write("\n")
    else:
        print(result.summary(), file=stdout)
    stdout.flush()
    if failed:
        return 1
    if result.interrupted:
        return 130
    return 1 if result.errors else 0
