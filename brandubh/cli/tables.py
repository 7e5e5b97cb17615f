"""``brandubh tables``: endgame tables built, probed and checked
(docs/proofs.md, "Endgame tables").

    brandubh tables build --pieces 3 --variant brandubh --out tables/
    brandubh tables probe "7/7/7/3k3/7/7/1a5 d" --dir tables/
    brandubh tables check --dir tables/ --pieces 2

A build writes each table to its own file as soon as it is done; Ctrl-C
stops it, and the same command goes on from the tables already written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Optional, TextIO

from ..errors import ArgumentError

__all__ = ["register", "run"]

_DESCRIPTION = """\
Endgame tables: every position with the king and up to N soldiers beside
him (attackers and defenders in any split), won, drawn or lost for the side
to move and in how many plies, found by retrograde analysis over the
engine's own rules on every core. `build` writes one file a material
signature into a folder; `probe` says what a position comes to; `check`
works every position's value out again from its moves."""

_EPILOG = """\
examples:
  brandubh tables build --pieces 3 --out tables/
  brandubh tables build --pieces 4 --variant codingame --out tables/
  brandubh tables probe "7/7/7/3k3/7/7/1a5 d" --dir tables/
  brandubh tables check --dir tables/ --pieces 2

Exit status: 0 done (probe: found in the tables, or not); check: 1 when a
position disagrees; 2 for something that cannot be read or written; 130
when stopped by Ctrl-C."""


def register(subparsers: Any) -> None:
    """Add the ``tables`` command to the ``brandubh`` command's subparsers."""
    p = subparsers.add_parser("tables", help="endgame tables: build, probe, check",
                              description=_DESCRIPTION, epilog=_EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("build", "probe", "check"), help="what to do")
    p.add_argument("position", nargs="?", metavar="POSITION",
                   help="probe: a position string (quoted: '7/7/7/3k3/7/7/1a5 d')")
    p.add_argument("--pieces", type=int, default=None, metavar="N",
                   help="soldiers beside the king, at most (build: required; check: default every table there)")
    p.add_argument("--variant", default="brandubh",
                   help="the rules: a preset (brandubh, codingame, modern, opentafl) or a quoted line of "
                        "field=value pairs (default: brandubh)")
    p.add_argument("--out", "--dir", dest="folder", default=None, metavar="DIR",
                   help="the folder of the tables (build writes there; probe and check read there)")
    p.add_argument("--threads", type=int, default=None, metavar="N", help="threads (default: every core)")
    p.add_argument("--quiet", action="store_true", help="no line a table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """Run ``brandubh tables`` with parsed arguments; the exit status."""
    stream = sys.stdout if out is None else out
    if args.folder is None:
        raise ArgumentError(f"give the tables' folder: --{'out' if args.action == 'build' else 'dir'} DIR")
    if args.action != "probe" and args.position is not None:
        raise ArgumentError(f"tables {args.action} takes no position")
    if args.action == "build":
        return _build(args, stream)
    if args.action == "probe":
        return _probe(args, stream)
    return _check(args, stream)


def _build(args: argparse.Namespace, stream: TextIO) -> int:
    from ..core.endgame import TableStats
    from ..endgame import build_tables, table_path

    if args.pieces is None:
        raise ArgumentError("give the most soldiers beside the king: --pieces N")
    # The clock and the processor time (every thread's): on a shared
    # machine the second is the build's own work, the first what it got.
    t0, cpu0 = time.perf_counter(), time.process_time()
    last = [t0, cpu0]
    total = [0, 0]

    def progress(stats: TableStats, read: bool) -> None:
        now, cpu = time.perf_counter(), time.process_time()
        seconds, worked = now - last[0], cpu - last[1]
        last[:] = [now, cpu]
        size = os.path.getsize(table_path(args.folder, args.variant, stats.attackers, stats.defenders))
        total[0] += stats.positions
        total[1] += size
        if args.quiet:
            return
        how = "read from its file" if read else f"built in {seconds:.2f} s"
        if not read and seconds >= 0.5:
            how += f" ({stats.entries / seconds:,.0f} positions a second"
            if worked > 0:
                how += f"; {worked:.2f} s of processor time, {stats.entries / worked:,.0f} positions a second of it"
            how += ")"
        stream.write(f"king + {stats.attackers} attackers + {stats.defenders} defenders: {stats.positions:,} "
                     f"positions ({stats.wins:,} won, {stats.draws:,} drawn, {stats.losses:,} lost for the side "
                     f"to move; the longest {stats.longest} plies), {size:,} bytes, {how}\n")
        stream.flush()

    try:
        build_tables(args.pieces, args.variant, args.folder, threads=args.threads, progress=progress)
    except KeyboardInterrupt:
        print("stopped by Ctrl-C: the tables written are kept, and the same command goes on from them",
              file=sys.stderr, flush=True)
        return 130
    seconds, worked = time.perf_counter() - t0, time.process_time() - cpu0
    stream.write(f"tables up to {args.pieces} soldiers: {total[0]:,} positions, {total[1]:,} bytes in "
                 f"{args.folder}, {seconds:.1f} s ({worked:.1f} s of processor time)\n")
    return 0


def _probe(args: argparse.Namespace, stream: TextIO) -> int:
    from ..endgame import load_tables, probe

    if args.position is None:
        raise ArgumentError("give the position to probe (a position string, quoted)")
    tables = load_tables(args.folder, args.variant, args.pieces)
    found = probe(args.position, tables)
    if found is None:
        stream.write(f"not in the tables (they hold the king with up to {tables.soldiers} soldiers, "
                     "and no position already over)\n")
    else:
        stream.write(found.sentence() + "\n")
    return 0


def _check(args: argparse.Namespace, stream: TextIO) -> int:
    from ..core.endgame import every_core
    from ..endgame import load_tables

    tables = load_tables(args.folder, args.variant, args.pieces)
    wrong_total = 0
    for (attackers, defenders) in sorted(tables.tables, key=lambda s: (sum(s), s[0])):
        wrong, first = tables.check(attackers, defenders, threads=every_core(args.threads))
        wrong_total += wrong
        verdict = "every position agrees with its moves" if not wrong else \
            f"{wrong:,} positions disagree with their moves, the first {first}"
        stream.write(f"king + {attackers} attackers + {defenders} defenders: {verdict}\n")
    return 1 if wrong_total else 0
