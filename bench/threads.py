"""What threads are worth: the figures of docs/searching.md ("Threads") and
docs/rl.md ("Speed"). A script, not a test: nothing here asserts a time.

    python bench/threads.py depth [--threads 1,2] [--rounds 3] [--book book.txt] [--depth 9]  # time to depth
    python bench/threads.py match --ms 25,50 --pairs 100 [--write]
                         # 2 threads against 1, and twice the time, on the balanced book
    python bench/threads.py env [--threads 1,2] [--rounds 3]      # VectorEnv steps a second, and the ratio
    python bench/threads.py lockstep [--budgets 25000,50000] [--pairs 1000] [--depth-threads 2,4,8,16] [--write]
                         # the same two measures, the threads taking turns: in positions, deterministic

The balanced books it plays (bench/book-PRESET.txt) are made by
tools/make-books.

Every figure is printed with the load average (1 minute) seen while it ran.
On a machine whose cores are busy with other work, threads cannot win by
the wall clock; so the time to depth is also given in the CPU time of the
calling thread (what the helpers do is not counted in it: the time the
search would take if each helper had a core of its own). The matches are
measured as engines are, by the wall clock (``time_ms=``), in
``brandubh match``'s arena: on a busy machine they say little, and say so
by the load printed beside them.

``lockstep`` measures what the helpers are worth apart from the machine:
the threads take turns of about a thousand positions (``lockstep=1``), so
each search is what equal cores running at once would do, told in
positions, and deterministic. Time is then the calling thread's positions
(``own_nodes``): the time to depth is one thread's positions over the
calling thread's, and "two threads at equal time" is two threads with
twice the budget against one thread with the budget, beside one thread
with twice the budget. The figures hold on any machine under any load;
what they leave out is what running at once costs in memory and caches
(measured above by the wall clock).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brandubh import Rules  # noqa: E402
from brandubh.core import kernels  # noqa: E402
from brandubh._engine import ffi  # noqa: E402
from brandubh.cli.bench import POSITIONS, SETUP  # noqa: E402
from brandubh.core.weights import c_weights  # noqa: E402
from brandubh.variant import PRESETS  # noqa: E402

WEIGHTS = c_weights(None)


def load() -> float:
    """The load average over the last minute."""
    return os.getloadavg()[0]


def limits_of(threads: int, depth: int = 0, seed: int = 1, lockstep: bool = False) -> Any:
    limits = ffi.new("bd_search_limits *")
    limits.budget, limits.depth, limits.seed, limits.threads = 1 << 40, depth, seed, threads
    limits.lockstep = lockstep
    return limits


# -- time to depth -----------------------------------------------------------------


def to_depth(games: list[Rules], depth: int, threads: int) -> tuple[float, float, int, float]:
    """Search each game to ``depth`` in this thread: (wall seconds, this
    thread's CPU seconds, nodes of all threads, the process's CPU seconds)."""
    out = ffi.new("bd_search_result *")
    nodes = 0
    wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
    for game in games:
        assert kernels.ACTIVE.search(game._g, limits_of(threads, depth), WEIGHTS, out) == 0
        nodes += out.nodes
    return time.perf_counter() - wall, time.thread_time() - cpu, nodes, time.process_time() - process


def book_games(path: str, variant: str, count: int) -> list[Rules]:
    """The first ``count`` openings of a book that ``openings`` wrote, played out."""
    from brandubh.arena.openings import load_openings

    games = []
    for opening in load_openings(path, variant)[:count]:
        rules = Rules(opening.start, variant)
        for move in opening.moves:
            rules.play(move)
        games.append(rules)
    return games


def depth_report(threads: list[int], rounds: int, book: str | None, variant: str, book_depth: int) -> None:
    sets = {
        "set-up, depth 9": ([Rules(SETUP, PRESETS[p]) for p in ("brandubh", "codingame", "modern", "opentafl")], 9),
        "bench, depth 7": ([Rules(pos, PRESETS[p]) for p, pos in POSITIONS], 7),
    }
    if book:
        sets[f"{book}, 40 openings, depth {book_depth}"] = (book_games(book, variant, 40), book_depth)
    for name, (games, depth) in sets.items():
        runs: dict[int, list[tuple[float, float, int, float]]] = {t: [] for t in threads}
        loads = []
        for _ in range(rounds):
            for t in threads:
                loads.append(load())
                runs[t].append(to_depth(games, depth, t))
        loads.append(load())
        base = statistics.median(r[1] for r in runs[threads[0]])
        base_wall = statistics.median(r[0] for r in runs[threads[0]])
        for t in threads:
            wall, cpu, nodes, process = (statistics.median(r[i] for r in runs[t]) for i in range(4))
            print(f"{name}, {t} thread(s): wall {wall:.3f} s ({base_wall / wall:.2f} times {threads[0]} thread's), "
                  f"calling thread's CPU {cpu:.3f} s "
                  f"({base / cpu:.2f} times {threads[0]} thread's), the process's CPU {process:.3f} s, "
                  f"nodes {nodes / 1e6:.2f} M, {nodes / wall / 1e6:.2f} M a second of wall clock")
        print(f"  load {min(loads):.2f} to {max(loads):.2f}")


# -- two threads against one, on the balanced book, as engines are measured ------


DOCS = Path(__file__).resolve().parent.parent / "docs" / "searching.md"


def write_block(name: str, table: str) -> None:
    """Put ``table`` into docs/searching.md between the markers
    ``<!-- bench/threads.py NAME: begin -->`` and ``... end -->``."""
    begin, end = f"<!-- bench/threads.py {name}: begin -->", f"<!-- bench/threads.py {name}: end -->"
    text = DOCS.read_text(encoding="utf-8")
    head, _, rest = text.partition(begin)
    _, sep, tail = rest.partition(end)
    assert sep, f"docs/searching.md has no {begin} ... {end} block"
    DOCS.write_text(f"{head}{begin}\n{table}\n{end}{tail}", encoding="utf-8")
    print(f"wrote the {name} table into {DOCS.name}", file=sys.stderr)


def match_report(ms_list: list[float], pairs: int, variant: str, chunk: int, write: bool) -> None:
    """At each time a move in ``ms_list``: two threads against one at equal
    time, and one thread with twice the time against one, each ``pairs``
    pairs of games from the rules' balanced book (an opening twice, the
    sides swapped), counted as pairs (the pentanomial). The two matches are
    played ``chunk`` pairs at a time in turn, one game at a time by the
    wall clock, so that both meet the machine's load alike. With ``write``
    the table goes into docs/searching.md between its markers."""
    from brandubh.arena import BotPlayer, Event, run_event
    from brandubh.arena.openings import balanced_book, load_openings
    from brandubh.arena.stats import Pentanomial

    book = balanced_book(variant)
    assert book is not None, f"no balanced book for {variant}"
    openings = load_openings(str(book), variant)
    rows = []
    for ms in ms_list:
        first = {"2 threads": f"time_ms={ms:g},threads=2", "1 thread, twice the time": f"time_ms={2 * ms:g}"}
        counts = {name: [0] * 5 for name in first}
        loads = [load()]
        started = time.monotonic()
        for at in range(0, pairs, chunk):
            part = [openings[(at + i) % len(openings)] for i in range(min(chunk, pairs - at))]
            for name, setting in first.items():
                event = Event([BotPlayer.from_text(setting), BotPlayer.from_text(f"time_ms={ms:g}")],
                              games=2 * len(part), variant=variant, openings=part, jobs=1)
                penta = run_event(event).pentanomial()
                counts[name] = [x + y for x, y in zip(counts[name], penta.counts)]
                loads.append(load())
            done = {name: Pentanomial(tuple(c)).elo() for name, c in counts.items()}  # type: ignore[arg-type]
            print(f"{ms:g} ms, {at + len(part)} pairs: " + "; ".join(
                f"{name} {e.text()}" for name, e in done.items()) + f"; load {min(loads):.1f} to {max(loads):.1f}",
                  file=sys.stderr, flush=True)
        minutes = (time.monotonic() - started) / 60
        elo = {name: Pentanomial(tuple(c)).elo() for name, c in counts.items()}  # type: ignore[arg-type]
        for name in first:
            e = elo[name]
            rows.append(f"| {first[name]} against time_ms={ms:g} | {2 * pairs} ({pairs} pairs) | "
                        f"{' '.join(str(c) for c in counts[name])} | {e.text()} |")
        twice = elo["1 thread, twice the time"].elo
        share = (f"{elo['2 threads'].elo / twice:.2f}" if twice and elo["2 threads"].elo is not None
                 else "-")
        rows.append(f"| two threads' Elo over twice the time's, {ms:g} ms | | | {share} "
                    f"(load {min(loads):.1f} to {max(loads):.1f}, {minutes:.0f} minutes) |")
    table = "\n".join([
        f"| match, `{variant}` rules, the balanced book | games | pairs 0, 1/2, 1, 3/2, 2 | Elo of the first (95%, from pairs) |",
        "|---|---:|---|---|", *rows])
    print(table)
    if write:
        write_block("match", table)


# -- in lockstep: the helpers' worth in positions, deterministic ------------------


def lockstep_depth(games: list[Rules], depth: int, threads: int) -> int:
    """Each game searched to ``depth`` on ``threads`` threads in lockstep:
    the calling thread's positions, summed (its time)."""
    out = ffi.new("bd_search_result *")
    own = 0
    for game in games:
        assert kernels.ACTIVE.search(game._g, limits_of(threads, depth, lockstep=True), WEIGHTS, out) == 0
        own += out.own_nodes
    return own


def lockstep_report(budgets: list[int], pairs: int, threads: int, depth_threads: list[int], book: str,
                    variant: str, jobs: int, write: bool) -> None:
    """Time to depth on each of ``depth_threads`` threads, and the matches
    on ``threads`` (none with ``pairs`` 0), in lockstep (the module's text)."""
    from brandubh.arena import BotPlayer, Event, run_event
    from brandubh.arena.openings import balanced_book, load_openings

    rows = ["| time to depth: one thread's positions over the calling thread's | 1 thread, positions | "
            + " | ".join(f"{t} threads" for t in depth_threads) + " |",
            "|---|---:|" + "---:|" * len(depth_threads)]
    sets = {
        "the set-up under the four presets, depth 10":
            ([Rules(SETUP, PRESETS[p]) for p in ("brandubh", "codingame", "modern", "opentafl")], 10),
        "the bench positions, depth 9": ([Rules(pos, PRESETS[p]) for p, pos in POSITIONS], 9),
        f"the first 40 openings of the `{variant}` balanced book, depth 9": (book_games(book, variant, 40), 9),
    }
    for name, (games, depth) in sets.items():
        one = lockstep_depth(games, depth, 1)
        cells = [f"{one / lockstep_depth(games, depth, t):.2f}" for t in depth_threads]
        rows.append(f"| {name} | {one:,} | " + " | ".join(cells) + " |")
        print(rows[-1], file=sys.stderr, flush=True)
    depth_table = "\n".join(rows)
    print(depth_table)
    if write:
        write_block("lockstep depth", depth_table)
    if not pairs:
        return
    openings = load_openings(str(balanced_book(variant)), variant)
    rows = [f"| match, `{variant}` rules, the balanced book | pairs | pairs 0, 1/2, 1, 3/2, 2 | "
            "Elo of the first (95%, from pairs) |", "|---|---:|---|---|"]
    for budget in budgets:
        first = {f"{threads} threads": f"budget={threads * budget},threads={threads},lockstep=1",
                 f"1 thread, {threads} times the budget": f"budget={threads * budget}"}
        elo = {}
        for name, setting in first.items():
            part = [openings[i % len(openings)] for i in range(pairs)]
            event = Event([BotPlayer.from_text(setting), BotPlayer.from_text(f"budget={budget}")],
                          games=2 * pairs, variant=variant, openings=part, jobs=jobs)
            penta = run_event(event).pentanomial()
            elo[name] = penta.elo()
            rows.append(f"| {setting} against budget={budget} | {pairs} | {' '.join(map(str, penta.counts))} | "
                        f"{elo[name].text()} |")
            print(rows[-1], file=sys.stderr, flush=True)
        more, helped = elo[f"1 thread, {threads} times the budget"].elo, elo[f"{threads} threads"].elo
        share = f"{helped / more:.2f}" if more and helped is not None else "-"
        rows.append(f"| {threads} threads' Elo over {threads} times the budget's, {budget:,} a thread | | | {share} |")
    table = "\n".join(rows)
    print(table)
    if write:
        write_block("lockstep", table)


# -- VectorEnv ---------------------------------------------------------------------


def env_rate(games: int, threads: int, batches: int) -> tuple[float, float]:
    """Steps a second of ``step(random_actions())``, and the calling thread's
    CPU time a step."""
    from brandubh.rl import VectorEnv

    env = VectorEnv(games, seed=1, threads=threads)
    env.reset()
    for _ in range(3):
        env.step(env.random_actions())
    wall, cpu = time.perf_counter(), time.thread_time()
    for _ in range(batches):
        env.step(env.random_actions())
    return batches * games / (time.perf_counter() - wall), (time.thread_time() - cpu) / batches


def env_report(threads: list[int], rounds: int) -> None:
    for games, batches in ((1024, 1000), (8192, 120)):
        runs: dict[int, list[tuple[float, float]]] = {t: [] for t in threads}
        loads = []
        for _ in range(rounds):
            for t in threads:
                loads.append(load())
                runs[t].append(env_rate(games, t, batches))
        loads.append(load())
        for t in threads:
            rate = max(r[0] for r in runs[t])
            cpu = statistics.median(r[1] for r in runs[t])
            # Each round's rate over the first count's in the same round:
            # the two ran a moment apart, so a machine that grew slower or
            # faster between rounds moves both (the best of each may come
            # from different rounds).
            ratio = statistics.median(r[0] / f[0] for r, f in zip(runs[t], runs[threads[0]]))
            print(f"VectorEnv({games}), {t} thread(s): {rate:,.0f} steps a second (best of {rounds}), "
                  f"the calling thread's CPU {cpu * 1e3:.3f} ms a step"
                  + (f", {ratio:.2f} times {threads[0]} thread(s) (the median round)" if t != threads[0] else ""))
        print(f"  load {min(loads):.2f} to {max(loads):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("depth", "env"):
        p = sub.add_parser(name)
        p.add_argument("--threads", default="1,2")
        p.add_argument("--rounds", type=int, default=3)
        if name == "depth":
            p.add_argument("--book", help="also the first 40 openings of this book (tools/make-books)")
            p.add_argument("--variant", default="modern", help="the book's rules")
            p.add_argument("--depth", type=int, default=9, help="the depth the book's openings are searched to")
    p = sub.add_parser("match")
    p.add_argument("--ms", default="25,50", help="times a move, milliseconds, comma-separated")
    p.add_argument("--pairs", type=int, default=100, help="pairs of games of each match")
    p.add_argument("--variant", default="brandubh")
    p.add_argument("--chunk", type=int, default=10, help="pairs of one match before the other's")
    p.add_argument("--write", action="store_true", help="put the table into docs/searching.md")
    p = sub.add_parser("lockstep")
    p.add_argument("--budgets", default="25000,50000", help="positions a move of the one thread, comma-separated")
    p.add_argument("--pairs", type=int, default=1000, help="pairs of games of each match (0: none)")
    p.add_argument("--threads", type=int, default=2, help="the threads of the matches")
    p.add_argument("--depth-threads", default="2,4,8,16", help="the threads of the time to depth, comma-separated")
    p.add_argument("--variant", default="brandubh")
    p.add_argument("--book", help="the openings of the time to depth (default: the rules' balanced book)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games at once (the results do not change)")
    p.add_argument("--write", action="store_true", help="put the tables into docs/searching.md")
    args = parser.parse_args()
    run: Callable[[], None]
    if args.what == "lockstep":
        from brandubh.arena.openings import balanced_book

        book = args.book or str(balanced_book(args.variant))
        run = lambda: lockstep_report([int(b) for b in args.budgets.split(",")], args.pairs,  # noqa: E731
                                      args.threads, [int(t) for t in args.depth_threads.split(",")],
                                      book, args.variant, args.jobs, args.write)
    elif args.what == "match":
        ms = [float(x) for x in args.ms.split(",")]
        run = lambda: match_report(ms, args.pairs, args.variant, args.chunk, args.write)  # noqa: E731
    else:
        threads = [int(t) for t in args.threads.split(",")]
        if args.what == "depth":
            run = lambda: depth_report(threads, args.rounds, args.book, args.variant, args.depth)  # noqa: E731
        else:
            run = lambda: env_report(threads, args.rounds)  # noqa: E731
    run()


if __name__ == "__main__":
    main()
