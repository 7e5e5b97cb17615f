"""Two nets, or two builds, against each other: the matches of
docs/learned.md ("A third round"). A script, not a test.

The engine compiles its net in (csrc/nnue_weights.c), so two nets are two
builds, and one process holds one build. So each side is a program: a
frozen copy of a source tree with its extension built, playing `brandubh
codingame` under the match's rules, started by `brandubh match` from this
tree (its arena, its balanced books).

    python bench/nets.py make /tmp/base --rev main                   # a revision as it is
    python bench/nets.py make /tmp/cand --net net.json [--hidden 32]  # HEAD with another net
    python bench/nets.py match /tmp/cand /tmp/base --budget 20000 --games 200 --openings balanced
    python bench/nets.py match /tmp/cand /tmp/base --clock --sprt 0,5 --games 6000 --jobs 2 \\
        --games-out sprt.games
    python bench/nets.py tally sprt.games [more.games] --sprt 0,5     # where a run stands

``make`` copies the revision's files (``git archive``), sets the hidden
layer's width in csrc/nnue.h, writes the net's weights (tools/gen_nnue.py),
builds the extension (tools/build-inplace) and prints the copy's `brandubh
bench`. ``match`` gives each side ``--budget`` positions a move (the same
games on any machine) or ``--clock``: the CodinGame bot's own clock,
``--margin 0``, each search stopped at 50 ms (100 ms the first move of a
game: the puzzle's limits); the other options go to `brandubh match`
as they are. ``tally`` counts a ``--games-out`` file's pairs (games 2k-1 and
2k, one opening, the sides swapped) as the arena's SPRT does: for a run
stopped before it decided, or one still going, or one continued in
further files.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from brandubh.arena.stats import elo_estimate_pairs, parse_sprt, sprt_pairs  # noqa: E402

#: A --games-out label: the game's number, who attacked, and who won (none: a draw).
LABEL = re.compile(r"# game (\d+): (\w+) attackers, (\w+) defenders: [^;]*; (?:(\w+) wins|draw)")


def make(tree: Path, rev: str, net: Optional[Path], hidden: Optional[int]) -> None:
    """A copy of ``rev``'s files in ``tree`` with its extension built and,
    given ``net``, that net's weights compiled in at ``hidden`` units."""
    tree.mkdir(parents=True, exist_ok=False)
    with tempfile.TemporaryFile() as tar:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev], stdout=tar, check=True)
        tar.seek(0)
        with tarfile.open(fileobj=tar) as archive:
            archive.extractall(tree, filter="data")
    if hidden is not None:
        header = tree / "csrc" / "nnue.h"
        text, n = re.subn(r"#define BD_NNUE_HIDDEN \d+", f"#define BD_NNUE_HIDDEN {hidden}",
                          header.read_text(encoding="utf-8"))
        if n != 1:
            raise SystemExit(f"{header}: no BD_NNUE_HIDDEN to set")
        header.write_text(text, encoding="utf-8")
    if net is not None:
        (tree / "nets" / "nnue.json").write_bytes(net.read_bytes())
        subprocess.run([sys.executable, "tools/gen_nnue.py", "nets/nnue.json"], cwd=tree, check=True)
    subprocess.run([sys.executable, "tools/build-inplace"], cwd=tree, check=True)
    subprocess.run([sys.executable, "-m", "brandubh", "bench"], cwd=tree, check=True)


def player(tree: Path, variant: str, budget: Optional[int]) -> str:
    """The arena's setting for the CodinGame bot of ``tree`` under ``variant``:
    ``budget`` positions a move, or None: the puzzle's clock."""
    # env -C: `python -m` puts the working folder first on the path, so the
    # program must start in its own tree to import its own build.
    cmd = ["env", "-C", str(tree), f"PYTHONPATH={tree}", sys.executable, "-m", "brandubh", "codingame",
           "--variant", variant]
    cmd += ["--budget", str(budget), "--first-budget", str(budget)] if budget is not None else ["--margin", "0"]
    return f"rules={variant},cmd={shlex.join(cmd)}"


def tally(paths: list[Path], bounds: tuple[float, float]) -> None:
    """Print the pairs, Elo and SPRT of --games-out files, and each side's
    results. Several files are one run continued: a test stopped before it
    decided goes on in a new match and a new file, and the pairs of all of
    them count together (a sequential test may take more pairs at any time)."""
    counts = [0] * 5
    sides: dict[str, list[int]] = {"A": [0, 0, 0], "B": [0, 0, 0]}  # attacking: wins, draws, losses
    games = 0
    for path in paths:
        points: dict[int, float] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            found = LABEL.match(line)
            if found is None:
                continue
            game, attacker, winner = int(found[1]), found[2], found[4]
            points[game] = 0.5 if winner is None else float(winner == "A")
            sides[attacker][1 if winner is None else 0 if winner == attacker else 2] += 1
        games += len(points)
        for k in range(1, max(points, default=0) // 2 + 1):
            if 2 * k - 1 in points and 2 * k in points:
                counts[round(2 * (points[2 * k - 1] + points[2 * k]))] += 1
    elo, test = elo_estimate_pairs(counts), sprt_pairs(counts, *bounds)
    print(f"{games} games, {sum(counts)} pairs; A's points of 2 (0, 1/2, 1, 3/2, 2): {counts}")
    print(f"attacking, wins-draws-losses: A {'-'.join(map(str, sides['A']))}, B {'-'.join(map(str, sides['B']))}")
    print(f"Elo A - B: {elo.elo:+.1f} (95%: {elo.low:+.1f} to {elo.high:+.1f})")
    print(f"SPRT {bounds[0]:g},{bounds[1]:g}: LLR {test.llr:.2f} ({test.lower:.2f}, {test.upper:.2f}), "
          f"{test.decision or 'no decision yet'}")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make", help="a frozen copy of a revision, its extension built")
    p.add_argument("tree", type=Path)
    p.add_argument("--rev", default="HEAD", help="the revision to copy (default HEAD)")
    p.add_argument("--net", type=Path, help="a net file (tools/train_nnue.py) to compile in")
    p.add_argument("--hidden", type=int, help="the hidden layer's width, when the net's differs")
    p = sub.add_parser("match", help="two trees' bots against each other (the rest goes to brandubh match)")
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    p.add_argument("--variant", default="brandubh")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--budget", type=int, help="positions a move")
    limit.add_argument("--clock", action="store_true",
                       help="the CodinGame puzzle's clock: 100 ms the first move, 50 ms each later one")
    p = sub.add_parser("tally", help="a --games-out file's pairs and SPRT")
    p.add_argument("games", type=Path, nargs="+", help="one run's files, in any order")
    p.add_argument("--sprt", type=parse_sprt, default=(0.0, 5.0))
    args, rest = parser.parse_known_args(argv)
    if args.command != "match" and rest:
        parser.error(f"unknown arguments: {' '.join(rest)}")
    if args.command == "make":
        make(args.tree.resolve(), args.rev, args.net, args.hidden)
    elif args.command == "tally":
        tally(args.games, args.sprt)
    else:
        sides = [player(t.resolve(), args.variant, args.budget) for t in (args.a, args.b)]
        return subprocess.run([sys.executable, "-m", "brandubh", "match", *sides, "--variant", args.variant, *rest],
                              cwd=ROOT).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
