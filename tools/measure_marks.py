"""How the review's marks fall on games between a strong and a weak engine:
the figures behind the thresholds of brandubh/review.py (docs/review.md).

    python tools/measure_marks.py --games 16 --strong 5 --weak 1 --budget 48000

Plays the games (colours alternating, a few random opening moves from the
seed so they differ), reviews each at the budget, and prints each side's
chance lost per move in buckets, the marks at the thresholds in force, and
the mean accuracy of the strong and the weak engine.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brandubh import Bot, Game  # noqa: E402
from brandubh.review import MARKS, analyse_game  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=16)
    p.add_argument("--strong", type=int, default=5)
    p.add_argument("--weak", type=int, default=1)
    p.add_argument("--budget", type=int, default=48_000)
    p.add_argument("--variant", default="brandubh")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    lost = {"strong": [], "weak": []}
    acc = {"strong": [], "weak": []}
    for i in range(args.games):
        game = Game(variant=args.variant)
        for _ in range(rng.randint(1, 4)):
            game.play(rng.choice(game.legal()).move)
        strong_side = "attackers" if i % 2 == 0 else "defenders"
        bots = {strong_side: Bot(args.strong, seed=f"s{i}"),
                ("defenders" if strong_side == "attackers" else "attackers"): Bot(args.weak, seed=f"w{i}")}
        opening = game.ply
        while game.status == "active":
            game.play(bots[str(game.side_to_move)].choose(game))
        review = analyse_game(game, budget=args.budget)
        for m in review.moves[opening:]:
            who = "strong" if m.side == strong_side else "weak"
            lost[who].append(m.lost)
            acc[who].append(m.accuracy)
        print(f"game {i + 1}: {game.ply} moves, {game.result_sentence}", file=sys.stderr)
    edges = [0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15, 0.20, 0.30, 1.01]
    print(f"chance lost per move, {args.games} games, level {args.strong} against level {args.weak}, "
          f"{args.variant} rules, reviewed at {args.budget:,}")
    for who in ("strong", "weak"):
        counts = [sum(1 for x in lost[who] if lo <= x < hi) for lo, hi in zip(edges, edges[1:])]
        n = len(lost[who])
        print(f"{who:6} {n:5} moves  accuracy {sum(acc[who]) / max(1, n):5.1f}%  " + "  ".join(
            f"[{lo:.2f},{hi:.2f}):{c}" for lo, hi, c in zip(edges, edges[1:], counts)))
        print("        marks: " + ", ".join(
            f"{mark} {sum(1 for x in lost[who] if x >= least)}" for mark, least, _ in MARKS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
