"""The ``brandubh`` command.

    brandubh bench [--depth N] [--budget N] [--eval classical|learned] [--verbose]
    brandubh perft DEPTH [--variant NAME] [--position STR] [--divide] [--slides] [--full]
    brandubh match A B [--games N] [--jobs N] [--ray ADDRESS] ...
    brandubh tune --out FILE [--steps N] [--budget N] [--ray ADDRESS] ...
    brandubh selfplay --out FILE [--positions N] [--seed S] [--variant V] [--budget B]
    brandubh train DATA --out NET [--epochs N] [--blend L]
    brandubh codingame [--level N] [--budget N] [--seed N]
    brandubh opentafl [--level N] [--budget N] [--seed N] [--write-ini DIR]
    brandubh referee "BOT A" "BOT B" [--games N] [--jobs N] ...
    brandubh show GAME_FILE [--ply N] [--svg OUT]
    brandubh play [--level N] [--side attackers|defenders] [--variant V] [--load FILE]
    brandubh serve [--host H] [--port N]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Optional, Sequence

from .errors import BrandubhError


def _perft(args: argparse.Namespace) -> int:
    from . import kernels
    from .rules import divide, perft_stats
    from .variant import as_variant

    variant = as_variant(args.variant)
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
    rate = total / elapsed if elapsed > 0 else float("inf")
    print(f"perft {args.depth} ({variant.as_string()}{', slides' if args.slides else ''}): {total}")
    if args.full and not args.divide:
        print(f"captures {stats.captures}  endings {stats.endings}")
    print(f"time {elapsed:.3f} s  rate {rate / 1e6:.1f} M leaves/s  ({kernels.ACTIVE.name} build)")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from . import kernels
    from .bench import POSITIONS, run_bench

    result = run_bench(depth=args.depth, budget=args.budget,
                       weights=None if args.eval is None else {"eval": args.eval})
    if args.verbose:
        from .engine import move_text

        for (preset, position), move in zip(POSITIONS, result.moves):
            print(f"{preset:10} {position:40} {move_text(move)}")
    print(f"positions        : {len(POSITIONS)} (depth {args.depth}, at most {args.budget} nodes each)")
    print(f"total time       : {result.seconds * 1000:.0f} ms")
    print(f"nodes searched   : {result.nodes}")
    print(f"nodes per second : {result.nps:,.0f}")
    print(f"engine build     : {kernels.ACTIVE.name}")
    print(f"Bench: {result.nodes}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="brandubh",
        description="The Irish 7x7 tafl game: engine, perft and tools.",
    )
    parser.add_argument("--version", action="version", version=f"brandubh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("perft", help="count the leaves of the move tree",
                       description="Count the leaves of the move tree DEPTH moves deep, "
                       "and print the count, the time and the rate.")
    p.add_argument("depth", type=int, metavar="DEPTH", help="how many moves deep (0-20)")
    p.add_argument("--variant", default="brandubh",
                   help="a preset (brandubh, codingame, modern, opentafl) or a quoted "
                        "line of field=value pairs (default: brandubh)")
    p.add_argument("--position", default="3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",
                   help="a position string (default: the set-up)")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("--slides", action="store_true",
                   help="count slides only: nothing is captured and nothing ends the game")
    p.add_argument("--full", action="store_true",
                   help="play every leaf instead of counting the last ply, and count "
                        "captures and endings there")
    p.set_defaults(run=_perft)

    from .bench import DEFAULT_BUDGET, DEFAULT_DEPTH

    p = sub.add_parser("bench", help="search a fixed set of positions: speed and signature",
                       description="Search 16 fixed positions over the four presets to a fixed "
                       "depth and print the total nodes, the rate, and the signature line "
                       "'Bench: N' (the total node count: it changes whenever what the "
                       "search does changes).")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH,
                   help=f"how many moves ahead each search looks (default {DEFAULT_DEPTH})")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                   help=f"the most positions any one search may visit (default {DEFAULT_BUDGET})")
    p.add_argument("--verbose", "-v", action="store_true", help="print each position and its move")
    p.add_argument("--eval", choices=("classical", "learned"),
                   help="the evaluation to search with (default: the engine's default)")
    p.set_defaults(run=_bench)

    from . import codingame, match, opentafl, play, referee, selfplay, serve, show, train, tune

    match.register(sub)
    tune.register(sub)
    selfplay.register(sub)
    train.register(sub)
    codingame.register(sub)
    opentafl.register(sub)
    referee.register(sub)
    show.register(sub)
    play.register(sub)
    serve.register(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except BrandubhError as exc:
        print(f"brandubh {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (brandubh perft 6 --divide | head)
        sys.stderr.close()
        return 0
