"""``brandubh match``: two engine settings play each other.

Each opening is played twice, once with each setting on each side, in
parallel processes. The score and the Elo difference (with its 95% interval)
say what a change to the search or the evaluation is worth:

    brandubh match "level=5" "level=4" --games 200 --jobs 2
    brandubh match "budget=20000,ring=45" "budget=20000" --games 400

A setting is comma-separated ``key=value`` pairs: ``level`` (1-6),
``budget`` (positions per move), ``depth``, any evaluation weight
(``attacker``, ``defender``, ``lane_one``, ``lane_two``, ``freedom``,
``corner_guard``, ``ring``), and ``off=`` search features to turn off, joined
by ``+`` (``tt``, ``killers``, ``history``, ``pvs``, ``threats``,
``qsearch``, ``blocks``, ``lmr``): ``"budget=5000,off=killers+history"``.

>>> parse_setting('budget=5000,ring=40')
{'budget': 5000, 'weights': {'ring': 40}}
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
from dataclasses import dataclass
from typing import Any, Optional

from .errors import ArgumentError, quote
from .search import FEATURES, WEIGHT_NAMES
from .variant import Variant, as_variant

SETUP = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"


def parse_setting(text: str) -> dict:
    """A setting's text as the keyword arguments of :class:`~brandubh.Bot`."""
    out: dict = {}
    weights: dict = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if key == "off" and eq:
            out["off"] = tuple(filter(None, raw.strip().split("+")))
            continue
        raw = raw.strip()
        if not eq or not re.fullmatch(r"-?[0-9]{1,12}", raw):
            raise ArgumentError(f"{quote(part)} in {quote(text)} is not key=whole-number (at most 12 digits)")
        value = int(raw)
        if key in ("level", "budget", "depth"):
            out[key] = value
        elif key in WEIGHT_NAMES:
            weights[key] = value
        else:
            raise ArgumentError(
                f"{quote(key)} is not a setting: use level, budget, depth, off or a weight ({', '.join(WEIGHT_NAMES)})"
            )
    if weights:
        out["weights"] = weights
    if not out:
        raise ArgumentError(f"{quote(text)} sets nothing: give e.g. level=4 or budget=20000")
    return out


def make_bot(setting: dict, seed: str):
    from .bot import Bot

    kwargs = dict(setting)
    return Bot(kwargs.pop("level", 4), seed=seed, **kwargs)


def openings(count: int, variant: Variant, seed: int = 1) -> list[str]:
    """``count`` distinct starting positions: the set-up, then positions two
    random moves (one each) from it, chosen by a seeded generator."""
    from .rules import Rules

    rng = random.Random(seed)
    seen = [SETUP]
    tries = 0
    while len(seen) < count and tries < 100 * count:
        tries += 1
        game = Rules(variant=variant)
        for _ in range(2):
            game.play(rng.choice(game.moves()))
        if not game.is_over() and game.position not in seen:
            seen.append(game.position)
    return seen[:count]


@dataclass(frozen=True)
class GameSpec:
    index: int
    opening: str
    a_attacks: bool
    variant: str
    a: dict
    b: dict


def play_game(spec: GameSpec) -> tuple[int, bool, Optional[str], str, int]:
    """Play one game; returns (index, a_attacks, winner 'A'/'B'/None, how, plies)."""
    from .rules import Rules, outcome_name

    game = Rules(spec.opening, spec.variant)
    a = make_bot(spec.a, seed=f"A{spec.index}")
    b = make_bot(spec.b, seed=f"B{spec.index}")
    while not game.is_over():
        attackers_move = game.side == "attackers"
        bot = a if attackers_move == spec.a_attacks else b
        game.play(bot.choose(game))
    winner_side = game.winner
    if winner_side is None:
        winner = None
    else:
        winner = "A" if (winner_side == "attackers") == spec.a_attacks else "B"
    return spec.index, spec.a_attacks, winner, outcome_name(game.outcome) or "", game.ply


def run_match(a: dict, b: dict, games: int, variant: Variant, jobs: int = 1,
              opening_list: Optional[list[str]] = None, progress: bool = True,
              sprt_bounds: Optional[tuple[float, float]] = None):
    """Play ``games`` games (rounded up to an even number) and return the
    tally and the list of per-game records."""
    from .stats import Progress, Tally

    pairs = (games + 1) // 2
    if opening_list is None:
        opening_list = openings(pairs, variant)
    specs: list[GameSpec] = []
    for i in range(pairs):
        opening = opening_list[i % len(opening_list)]
        for a_attacks in (True, False):
            specs.append(GameSpec(len(specs), opening, a_attacks, variant.as_string(), a, b))
    tally = Tally("A", "B")
    records: list[dict[str, Any]] = []
    bar = Progress(len(specs), enabled=None if progress else False)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(max(1, jobs)) as pool:
        for done, (index, a_attacks, winner, how, plies) in enumerate(
                pool.imap_unordered(play_game, specs), start=1):
            tally.add("A" if a_attacks else "B", "B" if a_attacks else "A", winner)
            records.append({"game": index, "a_attacks": a_attacks, "winner": winner,
                            "how": how, "plies": plies})
            w, d, l = tally.counts()
            bar.update(done, f"A {w}-{d}-{l}  {tally.elo().text()}")
            if sprt_bounds is not None and tally.sprt(*sprt_bounds).decision is not None:
                pool.terminate()
                break
    bar.update(len(records), force=True)
    bar.close()
    records.sort(key=lambda r: r["game"])
    return tally, records


def _run(args: argparse.Namespace) -> int:
    from .stats import parse_sprt

    a, b = parse_setting(args.a), parse_setting(args.b)
    make_bot(a, "check"), make_bot(b, "check")  # refuse bad settings before any process starts
    variant = as_variant(args.variant)
    if args.games < 1:
        raise ArgumentError(f"--games must be at least 1, not {args.games}")
    opening_list = None
    if args.openings:
        with open(args.openings, encoding="utf-8") as fh:
            opening_list = [line.strip() for line in fh if line.strip() and not line.startswith("#")]
        from .engine import c_position

        for position in opening_list:
            c_position(position)
    bounds = parse_sprt(args.sprt) if args.sprt else None
    tally, records = run_match(a, b, args.games, variant, args.jobs, opening_list,
                               progress=not args.json, sprt_bounds=bounds)
    if args.json:
        out = {"a": args.a, "b": args.b, "variant": variant.as_string(), "tally": tally.as_dict(),
               "elo": tally.elo().as_dict(), "games": records}
        if bounds:
            out["sprt"] = tally.sprt(*bounds).as_dict()
        print(json.dumps(out, indent=2))
        return 0
    w, d, l = tally.counts()
    att, draws, dfn = tally.side_wins()
    print(f"A: {args.a}\nB: {args.b}\nvariant: {variant.as_string()}")
    print(f"games {tally.games}: A won {w}, drew {d}, lost {l}; score {tally.score():.3f}")
    for name in ("A", "B"):
        for side in ("attackers", "defenders"):
            print(f"  {name} as {side:9}: {'-'.join(map(str, tally.by_side(name, side)))} (won-drawn-lost)")
    print(f"attackers won {att}, defenders won {dfn}, drawn {draws}")
    print(f"Elo A - B: {tally.elo().text()}")
    if bounds:
        print(f"SPRT: {tally.sprt(*bounds).text()}")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "match", help="two engine settings play each other",
        description="Two engine settings play each other over opening positions with colours "
        "swapped, in parallel processes; prints the score and the Elo difference of A over B "
        "with its 95%% interval. A setting is key=value pairs: level, budget, depth, a "
        "weight (" + ", ".join(WEIGHT_NAMES) + "), or off=FEATURE+FEATURE to turn search "
        "features off (" + ", ".join(FEATURES) + ").")
    p.add_argument("a", metavar="A", help='the first setting, e.g. "level=5"')
    p.add_argument("b", metavar="B", help='the second setting, e.g. "level=4"')
    p.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    p.add_argument("--jobs", type=int, default=max(1, (multiprocessing.cpu_count() or 1)),
                   help="games played at once (default: the number of cores)")
    p.add_argument("--variant", default="brandubh", help="a preset or field=value line (default brandubh)")
    p.add_argument("--openings", metavar="FILE", help="a file of position strings, one a line")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop early when a sequential test decides")
    p.add_argument("--json", action="store_true", help="print a machine-readable summary")
    p.set_defaults(run=_run)

