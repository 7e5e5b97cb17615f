#!/usr/bin/env python3
"""Build the set of forced wins the solver is tested and measured on
(tests/data/forced_wins.txt; docs/proofs.md has the figures).

    PYTHONPATH=. python tools/forced_wins.py --games 30 --out tests/data/forced_wins.txt
    PYTHONPATH=. python tools/forced_wins.py --time tests/data/forced_wins.txt

Games of the search against itself, from the set-up after a few random
moves, under each preset; in each game, the first position where the
search (--search positions a move) sees a forced win of 3 to 15 plies is kept, with
the game that led to it (its history counts). The solver then proves each
(the shortest win, within --budget positions) and the line records its
result: the set holds only what the solver proved shortest, each with the
search's claim beside the solver's. Deterministic: the same --seed and
--games give the same file.

--time FILE proves every position of a set again and prints the time of
each, the average and the positions a second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from brandubh.core.position import move_text
from brandubh.core.rules import Rules
from brandubh.core.solve import solve_rules

PRESETS = ("brandubh", "codingame", "modern", "opentafl")
HEAD = """\
# Forced wins for the solver's tests and figures, written by tools/forced_wins.py
# (docs/proofs.md). One a line: the rules | the start | the moves before the
# position | the winner | the shortest win in plies, as the solver proved it |
# the search's own claim, in plies.
"""


def read_set(path: Path) -> list[dict]:
    """The cases of a set file, as dicts (variant, start, moves, winner,
    plies, search)."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, start, moves, winner, plies, search = (part.strip() for part in line.split("|"))
        cases.append({"variant": variant, "start": start, "moves": moves.split(), "winner": winner,
                      "plies": int(plies), "search": int(search)})
    return cases


def rules_of(case: dict) -> Rules:
    rules = Rules(case["start"], case["variant"])
    for move in case["moves"]:
        rules.play(move)
    return rules


def find(preset: str, rng: random.Random, budget: int, search: int) -> dict | None:
    """One game of the search against itself, to the first forced win it
    sees; the case, or None (a game with none, or one the solver did not
    prove the shortest within the budget: said on standard error)."""
    rules = Rules(variant=preset)
    for _ in range(rng.randint(2, 8)):
        rules.play(rng.choice(rules.moves()))
        if rules.is_over():
            return None
    while not rules.is_over() and rules.ply < 150:
        found = rules.search(budget=search, seed=rng.randrange(1 << 30))
        if found.mate_in is not None and 3 <= found.mate_in <= 15:
            solved = solve_rules(rules, budget, hash_mb=64)
            if solved.outcome != "win" or not solved.shortest:
                print(f"dropped ({solved.outcome}, shortest {solved.shortest}): {preset} {rules.position} "
                      f"search {found.mate_in}", file=sys.stderr)
                return None
            return {"variant": preset, "start": rules.start, "moves": [move_text(m) for m in rules.log()],
                    "winner": solved.winner, "plies": solved.plies, "search": found.mate_in}
        move = found.move if rng.random() > 0.15 else rng.choice(rules.moves())
        rules.play(move)
    return None


def build(games: int, seed: int, budget: int, search: int) -> str:
    rng = random.Random(seed)
    lines = [HEAD.rstrip("\n")]
    for preset in PRESETS:
        for _ in range(games):
            case = find(preset, rng, budget, search)
            if case is not None:
                lines.append(" | ".join([case["variant"], case["start"], " ".join(case["moves"]), case["winner"],
                                         str(case["plies"]), str(case["search"])]))
                print(lines[-1][:100], file=sys.stderr)
    return "\n".join(lines) + "\n"


def measure(path: Path, budget: int) -> None:
    total = nodes = 0.0
    cases = read_set(path)
    for case in cases:
        rules = rules_of(case)
        t0 = time.perf_counter()
        solved = solve_rules(rules, budget, hash_mb=64)
        seconds = time.perf_counter() - t0
        total += seconds
        nodes += solved.nodes
        print(f"{case['variant']:9} {case['winner']:9} plies {case['plies']:2} (search {case['search']:2}): "
              f"{solved.outcome} {solved.plies} {'shortest' if solved.shortest else ''} "
              f"{solved.nodes:9,} positions {seconds:6.3f} s")
    print(f"{len(cases)} positions: {total / len(cases):.3f} s on average, {nodes / total:,.0f} positions a second")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=5_000_000, help="the solver's positions a case")
    parser.add_argument("--search", type=int, default=60_000, help="the search's positions a move")
    parser.add_argument("--out", type=Path, default=None, help="write the set here (else standard output)")
    parser.add_argument("--time", type=Path, default=None, metavar="FILE", help="time the solver on a set")
    args = parser.parse_args()
    if args.time is not None:
        measure(args.time, args.budget)
        return 0
    text = build(args.games, args.seed, args.budget, args.search)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
