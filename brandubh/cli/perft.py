"""``brandubh perft``: the leaves of the move tree, the time and the rate."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, Iterator, Optional, TextIO, cast

from ..core import kernels
from ..core.position import move_text
from ..core.perft import PerftStats, divide, perft_stats
from ..core.rules import Rules
from ..notation import SETUP, move_split, position_cells, row_text, square_parse
from ..variant import as_variant

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add the ``perft`` command to the ``brandubh`` command's subparsers."""
    p = sub.add_parser("perft", help="count the leaves of the move tree",
                       description="Count the leaves of the move tree DEPTH moves deep, "
                       "and print the count, the time and the rate.")
    p.add_argument("depth", type=int, metavar="DEPTH", help="how many moves deep (0-20)")
    p.add_argument("--variant", default="brandubh",
                   help="a preset (brandubh, codingame, modern, opentafl) or a quoted "
                        "line of field=value pairs (default: brandubh)")
    p.add_argument("--position", default=SETUP, help="a position string (default: the set-up)")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("--slides", action="store_true",
                   help="count slides only: nothing is captured and nothing ends the game")
    p.add_argument("--full", action="store_true",
                   help="play every leaf instead of counting the last ply, and count "
                        "captures and endings there")
    p.set_defaults(run=run)


#: From this depth on perft counts move by move from the root, so that a
#: terminal sees its progress and --divide its lines as they come (a depth
#: below it takes milliseconds).
ROOT_BY_ROOT = 5


def root_counts(depth: int, position: str, variant: Any, full: bool,
                slides: bool = False) -> Iterator[tuple[str, PerftStats]]:
    """Perft below each move of ``position``, one root move at a time, in
    the order :func:`brandubh.divide` gives them (a move that ends the game
    before the last ply has nothing below it, as the engine counts). With
    ``slides``, every move is a slide: nothing is captured, nothing ends.

    >>> counts = {m: s.leaves for m, s in root_counts(2, SETUP, 'brandubh', False, slides=True)}
    >>> counts == divide(2, SETUP, 'brandubh', slides=True), counts['d1b1']
    (True, 24)
    """
    if slides:
        for text in divide(1, position, variant, slides=True):
            if depth == 1:
                yield text, PerftStats(1, 0, 0)
            else:
                yield text, perft_stats(depth - 1, slid(position, text), variant, slides=True, bulk=not full)
        return
    root = Rules(position, variant)
    for move, captured, outcome, _winner in root.legal():
        if depth == 1:
            yield move_text(move), PerftStats(1, int(bool(captured)), int(bool(outcome)))
            continue
        if outcome:
            # The game ends here: nothing below it reaches the last ply.
            yield move_text(move), PerftStats(0, 0, 0)
            continue
        child = root.clone()
        child.play(move)
        yield move_text(move), perft_stats(depth - 1, child.position, variant, bulk=not full)


def slid(position: str, move: str) -> str:
    """The position after ``move`` (``d1c1``) as a slide: the piece moved,
    nothing captured, the other side to move.

    >>> slid('7/7/7/3k3/7/7/a6 a', 'a1a5')
    '7/7/a6/3k3/7/7/7 d'
    """
    rows, side = cast("tuple[tuple[tuple[str, ...], ...], str]", position_cells(position))
    f0, r0, f1, r1 = (n for name in move_split(move) for n in cast("tuple[int, int]", square_parse(name)))
    cells = [list(row) for row in rows]
    cells[6 - r1][f1], cells[6 - r0][f0] = cells[6 - r0][f0], ""
    return "/".join(row_text(row) for row in cells) + (" d" if side == "a" else " a")


def _progress(stream: TextIO) -> Callable[[str], None]:
    """A line that rewrites itself on a terminal; nothing elsewhere."""
    on_terminal = stream.isatty()

    def show(text: str) -> None:
        if on_terminal:
            stream.write("\r" + text + "\x1b[K")
            stream.flush()

    return show


def run(args: argparse.Namespace) -> int:
    """Run ``brandubh perft`` with parsed arguments; the exit status."""
    variant = as_variant(args.variant)
    if args.depth >= ROOT_BY_ROOT:
        return _run_by_root(args, variant)
    return _run_at_once(args, variant)


def _run_by_root(args: argparse.Namespace, variant: Any) -> int:
    """Perft a root move at a time: progress on a terminal, --divide lines
    as they come, and a line saying how far it got on Ctrl-C."""
    show = _progress(sys.stderr)
    moves = (len(divide(1, args.position, variant, slides=True)) if args.slides
             else len(Rules(args.position, variant).moves()))
    leaves = captures = endings = done = 0
    t0 = time.perf_counter()
    try:
        for move, stats in root_counts(args.depth, args.position, variant, args.full, args.slides):
            done += 1
            leaves += stats.leaves
            captures += stats.captures
            endings += stats.endings
            if args.divide:
                show("")
                print(f"{move} {stats.leaves}", flush=True)
            show(f"perft {args.depth}: {done} of {moves} moves, {leaves:,} leaves so far")
    except KeyboardInterrupt:
        show("")
        print(f"perft {args.depth}: stopped after {done} of {moves} moves ({leaves:,} leaves counted so far)",
              file=sys.stderr, flush=True)
        raise
    show("")
    elapsed = time.perf_counter() - t0
    if args.divide:
        print(f"\nmoves {moves}")
    _summary(args, variant, leaves, elapsed, PerftStats(leaves, captures, endings))
    return 0


def _summary(args: argparse.Namespace, variant: Any, total: int, elapsed: float,
             stats: Optional[PerftStats]) -> None:
    rate = total / elapsed if elapsed > 0 else float("inf")
    print(f"perft {args.depth} ({variant.as_string()}{', slides' if args.slides else ''}): {total}")
    if args.full and not args.divide and stats is not None:
        print(f"captures {stats.captures}  endings {stats.endings}")
    print(f"time {elapsed:.3f} s  rate {rate / 1e6:.1f} M leaves/s  ({kernels.ACTIVE.name} build)")


def _run_at_once(args: argparse.Namespace, variant: Any) -> int:
    stats: Optional[PerftStats] = None
    if args.divide:
        t0 = time.perf_counter()
        counts = divide(args.depth, args.position, variant, args.slides)
        elapsed = time.perf_counter() - t0
        for mv, n in counts.items():
            print(f"{mv} {n}")
        total = sum(counts.values())
        print(f"\nmoves {len(counts)}")
    else:
        t0 = time.perf_counter()
        stats = perft_stats(args.depth, args.position, variant, args.slides, bulk=not args.full)
        elapsed = time.perf_counter() - t0
        total = stats.leaves
    _summary(args, variant, total, elapsed, stats)
    return 0
