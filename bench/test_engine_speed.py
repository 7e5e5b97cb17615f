"""Speed of the engine: perft, playouts, moves from Python, the search."""

from brandubh import Rules, perft_stats
from brandubh.cli.bench import run_bench


def _rate(benchmark, flags, key, count):
    benchmark.extra_info[key] = f"{count / benchmark.stats.stats.min / 1e6:.1f} M/s (best round)"


def test_perft_bulk_depth6(benchmark, flags):
    stats = benchmark.pedantic(perft_stats, args=(6,), rounds=5, iterations=1)
    _rate(benchmark, flags, "leaves_per_second", stats.leaves)


def test_perft_full_depth5(benchmark, flags):
    stats = benchmark.pedantic(perft_stats, args=(5,), kwargs={"bulk": False}, rounds=5, iterations=1)
    _rate(benchmark, flags, "leaves_per_second", stats.leaves)


def test_playouts(benchmark, flags):
    game = Rules()
    stats = benchmark.pedantic(game.playouts, args=(20_000,), kwargs={"seed": 1}, rounds=5, iterations=1)
    _rate(benchmark, flags, "moves_per_second", stats.plies)


def test_moves_at_setup(benchmark, flags):
    game = Rules()
    benchmark(game.moves)
    benchmark.extra_info["microseconds"] = f"{benchmark.stats.stats.median * 1e6:.2f} median"


def test_search_1m_nodes_from_setup(benchmark, flags):
    game = Rules()
    found = benchmark.pedantic(game.search, kwargs={"budget": 1_000_000}, rounds=5, iterations=1)
    _rate(benchmark, flags, "nodes_per_second", found.nodes)


def test_search_budget_1_round_trip(benchmark, flags):
    game = Rules()
    benchmark(game.search, budget=1)
    benchmark.extra_info["microseconds"] = f"{benchmark.stats.stats.median * 1e6:.2f} median"


def test_bench_command(benchmark, flags):
    result = benchmark.pedantic(run_bench, rounds=1, iterations=1)
    _rate(benchmark, flags, "nodes_per_second", result.nodes)


def test_game_legal_at_setup(benchmark, flags):
    """What a Python bot pays each turn for Game.legal(): the first call
    after a move builds the list (later calls copy it)."""
    from brandubh import Game

    game = Game()

    def fresh() -> list:
        game._legal = None  # as after a move
        return game.legal()

    moves = benchmark(fresh)
    assert len(moves) == 40
    benchmark.extra_info["microseconds"] = f"{benchmark.stats.stats.median * 1e6:.2f} median"
