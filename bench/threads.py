"""What threads are worth: the figures of docs/searching.md ("Threads") and
docs/rl.md ("Speed"). A script, not a test: nothing here asserts a time.

    python bench/threads.py depth [--threads 1,2] [--rounds 3] [--book book.txt]  # time to depth
    python bench/threads.py match --ms 100 --pairs 150            # 2 threads against 1
    python bench/threads.py env [--threads 1,2] [--rounds 3]      # VectorEnv steps a second
    python bench/threads.py openings --variant modern --count 300 > book.txt
                                                   # balanced openings for `brandubh match`

Every figure is printed with the load average (1 minute) seen while it ran.
On a machine whose cores are busy with other work, threads cannot win by
the wall clock; so the time to depth is also given in the CPU time of the
calling thread (what the helpers do is not counted in it: the time the
search would take if each helper had a core of its own), and the match
stops each search by that CPU time, not by the wall clock.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brandubh import Rules  # noqa: E402
from brandubh.core import kernels  # noqa: E402
from brandubh._engine import ffi, lib  # noqa: E402
from brandubh.cli.bench import POSITIONS, SETUP  # noqa: E402
from brandubh.core.weights import c_weights  # noqa: E402
from brandubh.arena.stats import elo_estimate  # noqa: E402
from brandubh.variant import PRESETS  # noqa: E402

WEIGHTS = c_weights(None)


def load() -> float:
    """The load average over the last minute."""
    return os.getloadavg()[0]


def limits_of(threads: int, depth: int = 0, seed: int = 1) -> Any:
    limits = ffi.new("bd_search_limits *")
    limits.budget, limits.depth, limits.seed, limits.threads = 1 << 40, depth, seed, threads
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


def depth_report(threads: list[int], rounds: int, book: str | None, variant: str) -> None:
    sets = {
        "set-up, depth 9": ([Rules(SETUP, PRESETS[p]) for p in ("brandubh", "codingame", "modern", "opentafl")], 9),
        "bench, depth 7": ([Rules(pos, PRESETS[p]) for p, pos in POSITIONS], 7),
    }
    if book:
        sets[f"{book}, 40 openings, depth 9"] = (book_games(book, variant, 40), 9)
    for name, (games, depth) in sets.items():
        runs: dict[int, list[tuple[float, float, int, float]]] = {t: [] for t in threads}
        loads = []
        for _ in range(rounds):
            for t in threads:
                loads.append(load())
                runs[t].append(to_depth(games, depth, t))
        loads.append(load())
        base = statistics.median(r[1] for r in runs[threads[0]])
        for t in threads:
            wall, cpu, nodes, process = (statistics.median(r[i] for r in runs[t]) for i in range(4))
            print(f"{name}, {t} thread(s): wall {wall:.3f} s, calling thread's CPU {cpu:.3f} s "
                  f"({base / cpu:.2f} times {threads[0]} thread's), the process's CPU {process:.3f} s, "
                  f"nodes {nodes / 1e6:.2f} M, {nodes / wall / 1e6:.2f} M a second of wall clock")
        print(f"  load {min(loads):.2f} to {max(loads):.2f}")


# -- two threads against one, at equal CPU time of the searching thread --------------


def cpu_timed_search(rules: Rules, ms: float, threads: int, seed: int) -> int:
    """The search's move, stopped when the thread that runs it has used
    ``ms`` milliseconds of CPU time (its helpers not counted)."""
    limits = limits_of(threads, seed=seed)
    flag = ffi.new("int *")
    limits.stop = flag
    out = ffi.new("bd_search_result *")
    game = ffi.gc(lib.bd_game_clone(rules._g), lib.bd_game_free)
    worker = threading.Thread(target=lambda: kernels.ACTIVE.search(game, limits, WEIGHTS, out))
    worker.start()
    try:
        clock = time.pthread_getcpuclockid(worker.ident)  # type: ignore[arg-type]
        start = time.clock_gettime(clock)
        while worker.is_alive() and time.clock_gettime(clock) - start < ms / 1000.0:
            time.sleep(0.001)
    except OSError:  # the search is over already (a lone move, a quick win)
        pass
    flag[0] = 1
    worker.join()
    return int(out.move)


def play(opening: list[int], a_attacks: bool, ms: float, seed: int, variant: str) -> float:
    """One game, A on two threads: A's score."""
    rules = Rules(variant=variant)
    for m in opening:
        rules.play(m)
    while not rules.is_over():
        a_to_move = (rules.side == "attackers") == a_attacks
        rules.play(cpu_timed_search(rules, ms, 2 if a_to_move else 1, seed + rules.ply))
    if rules.winner is None:
        return 0.5
    return 1.0 if (rules.winner == "attackers") == a_attacks else 0.0


def match_report(ms: float, pairs: int, variant: str, every: int, seed: int) -> None:
    rng = random.Random(seed)
    score = {1.0: 0, 0.5: 0, 0.0: 0}
    loads = [load()]
    for i in range(pairs):
        rules = Rules(variant=variant)
        opening = []
        for _ in range(2):
            opening.append(rng.choice(rules.moves()))
            rules.play(opening[-1])
        for a_attacks in (True, False):
            score[play(opening, a_attacks, ms, 1000 * i, variant)] += 1
        loads.append(load())
        if (i + 1) % every == 0 or i + 1 == pairs:
            e = elo_estimate(score[1.0], score[0.5], score[0.0])
            print(f"{2 * (i + 1)} games, 2 threads against 1 at {ms:g} ms of CPU a move: "
                  f"+{score[1.0]} ={score[0.5]} -{score[0.0]}, Elo {e.elo:+.1f} ({e.low:+.1f} to {e.high:+.1f}); "
                  f"load {min(loads):.2f} to {max(loads):.2f}", flush=True)


# -- balanced openings ------------------------------------------------------------


def openings_report(variant: str, count: int, budget: int, low: float, seed: int) -> None:
    """Print ``count`` openings for `brandubh match --openings` whose result is
    open: 4 to 8 random plies from the set-up, kept when a search of ``budget``
    positions gives the attackers a chance between ``low`` and ``1 - low``.
    From random plies alone most games are decided by the side (at 100 ms a
    move the attackers won 80% of the modern games), and a match then says
    little of which player is stronger: only the games that either side could
    win tell players apart, as engine testers' balanced books do for chess."""
    from brandubh.chances import Outlook
    from brandubh.core.position import move_text

    rng = random.Random(seed)
    seen: set[str] = set()
    tried = 0
    print(f"{count} openings, {variant} rules: 4 to 8 random plies from the set-up (seed {seed}), kept "
          f"when a search of {budget:,} positions gives the attackers {low:.0%} to {1 - low:.0%}",
          file=sys.stderr)
    while len(seen) < count:
        tried += 1
        rules, played = Rules(variant=variant), []
        for _ in range(rng.randint(4, 8)):
            if rules.is_over():
                break
            played.append(rng.choice(rules.moves()))
            rules.play(played[-1])
        if rules.is_over() or rules.position in seen:
            continue
        found = rules.search(budget=budget, seed=1)
        assert found is not None
        outlook = Outlook.of(found.score, found.mate_in, side_to_move=rules.side, viewer="attackers",
                             variant=variant)
        if low <= outlook.chance <= 1 - low:
            seen.add(rules.position)
            print(f"# attackers {outlook}\nmoves {' '.join(move_text(m) for m in played)}", flush=True)
    print(f"# {count} kept of {tried} tried", file=sys.stderr)


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
    for games, batches in ((1024, 300), (8192, 40)):
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
            print(f"VectorEnv({games}), {t} thread(s): {rate:,.0f} steps a second (best of {rounds}), "
                  f"the calling thread's CPU {cpu * 1e3:.3f} ms a step")
        print(f"  load {min(loads):.2f} to {max(loads):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("depth", "env"):
        p = sub.add_parser(name)
        p.add_argument("--threads", default="1,2")
        p.add_argument("--rounds", type=int, default=3)
        if name == "depth":
            p.add_argument("--book", help="also the first 40 openings of this book (openings, below)")
            p.add_argument("--variant", default="modern", help="the book's rules")
    p = sub.add_parser("match")
    p.add_argument("--ms", type=float, default=100.0)
    p.add_argument("--pairs", type=int, default=150)
    p.add_argument("--variant", default="modern")
    p.add_argument("--every", type=int, default=10)
    p.add_argument("--seed", type=int, default=1, help="the seed of the random openings")
    p = sub.add_parser("openings")
    p.add_argument("--variant", default="modern")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--budget", type=int, default=200_000)
    p.add_argument("--low", type=float, default=0.3, help="the least chance kept, for either side")
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run: Callable[[], None]
    if args.what == "openings":
        run = lambda: openings_report(args.variant, args.count, args.budget, args.low, args.seed)  # noqa: E731
    elif args.what == "match":
        run = lambda: match_report(args.ms, args.pairs, args.variant, args.every, args.seed)  # noqa: E731
    else:
        threads = [int(t) for t in args.threads.split(",")]
        run = (lambda: depth_report(threads, args.rounds, args.book, args.variant)) if args.what == "depth" else \
            (lambda: env_report(threads, args.rounds))
    run()


if __name__ == "__main__":
    main()
