"""Memory: games made and dropped are released, and the process does not grow."""

from __future__ import annotations

import gc
import os
import sys

import pytest

from conftest import scale

from brandubh import Game, Rules


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def churn(n: int) -> None:
    for i in range(n):
        game = Rules(variant="codingame" if i % 2 else None)
        if i % 3 == 0:
            game.play(game.moves()[i % 40])
            game.clone()
        if i % 1000 == 0:
            game.search(budget=200)
            Game().legal()


def test_live_returns_to_where_it_started():
    gc.collect()
    before = Rules.live()
    keep = [Rules() for _ in range(100)]
    assert Rules.live() == before + 100
    clones = [g.clone() for g in keep[:10]]
    assert Rules.live() == before + 110
    del keep, clones
    gc.collect()
    assert Rules.live() == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.skipif(bool(os.environ.get("BRANDUBH_SANITIZED")),
                    reason="AddressSanitizer holds freed memory in quarantine")
def test_memory_stays_flat():
    churn(scale(5_000, 20_000))  # warm up allocator pools and caches
    gc.collect()
    live, start = Rules.live(), rss_bytes()
    games = scale(25_000, 100_000)
    churn(games)
    gc.collect()
    grown = rss_bytes() - start
    assert Rules.live() == live
    # A leak of one history (64 records, 2.5 kB) per game would be 62 MB
    # (250 MB in the long run); any leak of more than 340 bytes a game
    # passes the bound (84 in the long run). The engine's own allocations
    # are also checked whole, under valgrind (tests/test_valgrind.py).
    assert grown < 8 * 1024 * 1024, f"the process grew by {grown} bytes over {games} games"
