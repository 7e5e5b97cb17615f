"""What each evaluation costs the search: the nodes-a-second figures of
docs/learned.md ("Speed") and docs/searching.md. A script, not a test: nothing
here asserts a time.

    python bench/evals.py rate [--rounds 5] [--depth D]   # nodes a second, the kinds taking turns
    python bench/evals.py callgrind [--depth D]           # instructions a node, under valgrind
    python bench/evals.py rate --kinds nnue,classical     # some of the kinds (an engine before
                                                          # off=incremental has no nnue-refresh)

Each kind searches the sixteen positions of ``brandubh bench`` to a fixed
depth (the bench's own unless ``--depth`` says otherwise; seed 1, as the
bench does), with one evaluation:

- ``nnue``: the NNUE, its first layer's sums carried from move to move (the
  default);
- ``nnue-refresh``: the same NNUE, the sums built afresh at every evaluation
  (``off=incremental``), as before they were carried: the same nodes;
- ``learned`` and ``classical``: the other two.

``rate`` times them by the wall clock and by the process's processor time
(what other work on a busy machine takes from it counts less there), each
round every kind once in turn, so that a machine whose load changes treats
them alike, and prints each round and the medians, with the load average
before and after.
``callgrind`` counts the instructions each search runs under valgrind
(``--toggle-collect`` on the search's entry point, so Python's own work is
left out): the same count on a busy machine as on an idle one.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from brandubh import Rules  # noqa: E402
from brandubh.cli.bench import DEFAULT_BUDGET, DEFAULT_DEPTH, POSITIONS  # noqa: E402
from brandubh.core import kernels  # noqa: E402
from brandubh.core.search import features_off  # noqa: E402
from brandubh.variant import PRESETS  # noqa: E402

#: Each kind: its evaluation and the search features it turns off.
KINDS = {
    "nnue": ("nnue", ()),
    "nnue-refresh": ("nnue", ("incremental",)),
    "learned": ("learned", ()),
    "classical": ("classical", ()),
}


def search_all(kind: str, depth: int) -> tuple[int, float, float]:
    """Search every bench position to ``depth`` with one kind: (nodes, wall
    seconds, processor seconds of the process: a deep search runs in the
    engine's worker thread, not this one)."""
    evaluation, off = KINDS[kind]
    weights: Any = {"eval": evaluation}  # the weights' type says numbers; eval also takes its name
    games = [Rules(position, PRESETS[preset]) for preset, position in POSITIONS]
    nodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    for game in games:
        found = game.search(budget=DEFAULT_BUDGET, depth=depth, seed=1, weights=weights,
                            _off=features_off(off))
        assert found is not None
        nodes += found.nodes
    return nodes, time.perf_counter() - start, time.process_time() - cpu


def rate(kinds: list[str], rounds: int, depth: int) -> None:
    before = os.getloadavg()[0]
    nodes: dict[str, int] = {}
    rates: dict[str, list[float]] = {kind: [] for kind in kinds}
    cpu_rates: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind in kinds:
            count, seconds, cpu = search_all(kind, depth)
            nodes[kind] = count
            rates[kind].append(count / seconds / 1e6)
            cpu_rates[kind].append(count / cpu / 1e6)
    after = os.getloadavg()[0]
    print(f"{kernels.ACTIVE.name} build, depth {depth}, {rounds} rounds; load {before:.2f} -> {after:.2f}")
    for clock, table in (("wall clock", rates), ("processor time", cpu_rates)):
        print(f"{'kind':14} {'nodes':>9} {'median M/s':>10} {'of classical':>12}  each round (M/s), by the {clock}")
        classical = statistics.median(table["classical"])
        for kind, values in table.items():
            median = statistics.median(values)
            print(f"{kind:14} {nodes[kind]:>9,} {median:>10.2f} {median / classical:>12.2f}  "
                  + " ".join(f"{x:.1f}" for x in values))


def instructions(kind: str, depth: int) -> int:
    """The instructions that the searches of one kind run, counted by
    callgrind in a process of their own."""
    entry = "bd_popcnt_search" if kernels.ACTIVE.name == "popcnt" else "bd_search"
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--toggle-collect={entry}",
                          "--callgrind-out-file=/dev/null", sys.executable, __file__, "one", kind,
                          "--depth", str(depth)], capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"no count from callgrind:\n{run.stderr[-2000:]}")
    return int(found[1])


def callgrind(kinds: list[str], depth: int) -> None:
    counted: dict[str, tuple[int, int]] = {}
    for kind in kinds:
        nodes = search_all(kind, depth)[0]
        counted[kind] = (nodes, instructions(kind, depth))
    print(f"{kernels.ACTIVE.name} build, depth {depth}, instructions counted by callgrind")
    print(f"{'kind':14} {'nodes':>9} {'instructions':>14} {'a node':>7} {'nodes a second, of classical':>29}")
    classical = counted["classical"][1] / counted["classical"][0]
    for kind, (nodes, count) in counted.items():
        print(f"{kind:14} {nodes:>9,} {count:>14,} {count / nodes:>7.0f} {classical / (count / nodes):>29.2f}")


def kinds_of(text: str) -> list[str]:
    """The kinds a --kinds list names, classical last, always."""
    kinds = [kind for kind in text.split(",") if kind and kind != "classical"]
    for kind in kinds:
        if kind not in KINDS:
            raise argparse.ArgumentTypeError(f"no kind named {kind!r}; they are {', '.join(KINDS)}")
    return [*kinds, "classical"]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("rate", help="nodes a second by the wall clock, the kinds taking turns")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    p = sub.add_parser("callgrind", help="instructions a node, counted by callgrind")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    p = sub.add_parser("one", help="one kind's searches (what callgrind runs)")
    p.add_argument("kind", choices=KINDS)
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    for name in ("rate", "callgrind"):
        sub.choices[name].add_argument("--kinds", type=kinds_of, default=list(KINDS),
                                       help=f"a comma-separated list of {', '.join(KINDS)} (all of them; "
                                            "classical, which the others are compared with, is always added)")
    args = parser.parse_args(argv)
    if args.what == "rate":
        rate(args.kinds, args.rounds, args.depth)
    elif args.what == "callgrind":
        callgrind(args.kinds, args.depth)
    else:
        search_all(args.kind, args.depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
