"""Speed of brandubh.rl: random legal play with observations and masks.

    python -m pip install -e ".[rl]" chess pygame-ce   # chess: PettingZoo's chess environment
    python -m pytest bench/test_rl_speed.py --benchmark-only --benchmark-verbose
    python bench/test_rl_speed.py                        # the same figures as one table

(``pip install "pettingzoo[classic]"`` brings the chess environment too,
with much else.) Steps are moves: one game's move is one step, so a batch
of 1,024 games is 1,024 steps. Each benchmark stores its rate in
``extra_info``; nothing here asserts a time.

* ``VectorEnv`` at 1, 64, 1,024 and 8,192 games: ``step(random_actions())``.
* The PettingZoo wrapper (and the bare environment under PettingZoo's
  wrappers), and PettingZoo's own chess environment (a reference point,
  wrapped the same way), with the same loop: ``last()``, a random legal action
  from the mask, ``step``, a reset at each game's end.
* The package's random playouts (``Rules.playouts``): moves with no
  observation or mask written, the ceiling.
* ``VectorEnv.search``: positions searched per second (one search each,
  1,000 positions of budget).
"""

from __future__ import annotations

import time
from typing import Callable

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from brandubh import Rules  # noqa: E402
from brandubh.rl import VectorEnv  # noqa: E402
from brandubh.rl import pettingzoo as rl_pz  # noqa: E402

BATCHES = {1: 20_000, 64: 2_000, 1024: 200, 8192: 30}
AEC_STEPS = 5_000
SEARCH_GAMES, SEARCH_BUDGET = 64, 1_000


def vector_steps(games: int) -> Callable[[], int]:
    env = VectorEnv(games, seed=1)
    env.reset()

    def run() -> int:
        for _ in range(BATCHES[games]):
            env.step(env.random_actions())
        return BATCHES[games] * games

    return run


def aec_steps(make_env: Callable) -> Callable[[], int]:
    env = make_env()
    rng = np.random.default_rng(1)
    env.reset(seed=1)

    def run() -> int:
        for _ in range(AEC_STEPS):
            if not env.agents:
                env.reset()
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return AEC_STEPS

    return run


def chess_env():
    chess_v6 = pytest.importorskip("pettingzoo.classic.chess_v6", reason="pip install chess pygame-ce")
    return chess_v6.env()


def playouts() -> int:
    return Rules().playouts(20_000, seed=1).plies


def searches() -> Callable[[], int]:
    env = VectorEnv(SEARCH_GAMES, "codingame", seed=1)
    env.reset()
    for _ in range(10):
        env.step(env.random_actions())
    return lambda: (env.search(SEARCH_BUDGET), SEARCH_GAMES)[1]


def _rate(benchmark, count: int, unit: str = "steps") -> None:
    benchmark.extra_info[f"{unit}_per_second"] = f"{count / benchmark.stats.stats.min:,.0f} (best round)"


@pytest.mark.parametrize("games", list(BATCHES))
def test_vector_env_random_play(benchmark, flags, games):
    count = benchmark.pedantic(vector_steps(games), rounds=5, iterations=1)
    _rate(benchmark, count)


def test_pettingzoo_wrapper_random_play(benchmark, flags):
    count = benchmark.pedantic(aec_steps(rl_pz.env), rounds=3, iterations=1)
    _rate(benchmark, count)


def test_pettingzoo_bare_random_play(benchmark, flags):
    count = benchmark.pedantic(aec_steps(rl_pz.BrandubhAEC), rounds=3, iterations=1)
    _rate(benchmark, count)


def test_pettingzoo_chess_random_play(benchmark, flags):
    count = benchmark.pedantic(aec_steps(chess_env), rounds=3, iterations=1)
    _rate(benchmark, count)


def test_playouts_ceiling(benchmark, flags):
    count = benchmark.pedantic(playouts, rounds=5, iterations=1)
    _rate(benchmark, count)


def test_vector_env_search(benchmark, flags):
    count = benchmark.pedantic(searches(), rounds=3, iterations=1)
    _rate(benchmark, count, "positions_searched")


def _best(run: Callable[[], int], rounds: int = 3) -> float:
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        count = run()
        best = max(best, count / (time.perf_counter() - start))
    return best


def main() -> None:
    rows = [(f"VectorEnv, {games:,} games", _best(vector_steps(games))) for games in BATCHES]
    rows.append(("PettingZoo wrapper (brandubh.rl.pettingzoo.env)", _best(aec_steps(rl_pz.env))))
    rows.append(("  the same unwrapped (BrandubhAEC)", _best(aec_steps(rl_pz.BrandubhAEC))))
    try:
        from pettingzoo.classic import chess_v6
        rows.append(("PettingZoo chess_v6", _best(aec_steps(chess_v6.env))))
    except ImportError:
        print("(PettingZoo's chess needs: pip install chess pygame-ce)")
    rows.append(("random playouts (Rules.playouts), the ceiling", _best(playouts)))
    for name, rate in rows:
        print(f"{name:48} {rate:>14,.0f} steps/s")
    print(f"{'VectorEnv.search, budget 1,000':48} {_best(searches()):>14,.0f} positions searched/s")


if __name__ == "__main__":
    main()
