"""The table a caller keeps from search to search (bd_table, csrc/brandubh.h):
the exported CodinGame bot keeps one for its whole game."""

from __future__ import annotations

from brandubh import Outcome, Rules
from brandubh._engine import ffi, lib

POSITION = "3a3/1a1k3/2d4/a1d1daa/1a1d3/3a3/3a3 a"


def search(rules: Rules, table=None, depth: int = 0, budget: int = 60_000, tt_bytes: int = 1 << 20,
           engine=lib.bd_search):
    limits = ffi.new("bd_search_limits *")
    limits.budget, limits.depth, limits.seed = budget, depth, 1
    limits.tt_bytes = tt_bytes
    limits.table = table if table is not None else ffi.NULL
    out = ffi.new("bd_search_result *")
    assert engine(rules._g, limits, _weights(), out) == 0
    return out.move, out.score, out.depth, out.nodes, out.stopped


def _weights():
    w = ffi.new("bd_weights *")
    lib.bd_default_weights(w)
    return w


def new_table(nbytes: int = 1 << 20):
    return ffi.gc(lib.bd_table_new(nbytes), lib.bd_table_free)


def test_a_cleared_table_searches_as_a_table_of_the_searchs_own():
    rules = Rules(variant="codingame", position=POSITION)
    own = search(rules)
    table = new_table()
    assert search(rules, table) == own          # a new table is empty
    search(Rules(variant="codingame"), table)   # fill it with another game
    lib.bd_table_clear(table)
    assert search(rules, table) == own


def test_what_a_table_holds_is_used_and_the_same_searches_give_the_same_results():
    rules = Rules(variant="codingame", position=POSITION)
    first = search(rules, depth=5, budget=10**7)
    runs = []
    for _ in range(2):
        table = new_table()
        runs.append((search(rules, table, depth=5, budget=10**7), search(rules, table, depth=5, budget=10**7)))
    assert runs[0] == runs[1]
    filled, again = runs[0]
    assert filled == first
    # the second look at the same position finds the first one's results
    assert again[0] == first[0] and again[2] == 5 and again[3] < first[3] // 2


def test_a_table_kept_through_a_game_plays_it_out():
    rules = Rules(variant="codingame")
    table = new_table(1 << 16)                  # small: entries are overwritten
    while rules.outcome == Outcome.ONGOING and rules.ply < 40:
        move = search(rules, table, budget=5_000)[0]
        assert move in rules.moves()
        rules.play(move)
    assert rules.ply > 10


HUGE_PAGES_CHECK = r"""
import resource, sys
sys.path.insert(0, sys.argv[1])
from brandubh import Rules
from brandubh._engine import lib
from test_table import POSITION, search

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

# The counter and the system's small pages first: 16 MiB of fresh memory
# filled (bytearray's zeros) costs a fault a page.
before = faults()
block = bytearray(16 << 20)
control = faults() - before

rules = Rules(POSITION)
counts = []
for engine in (lib.bd_search, lib.bd_popcnt_search):
    before = faults()
    nodes = search(rules, budget=200_000, tt_bytes=32 << 20, engine=engine)[3]
    counts.append(faults() - before)
    assert nodes > 100_000
print(control, *counts)
"""


def test_a_large_table_is_given_in_huge_pages_where_the_system_offers_them():
    """A 32 MiB table searched through costs tens of page faults, not the
    eight thousand of 4 KiB pages (csrc/memory.c), in the portable build and
    the popcount build alike: the flags it needs are not C99's, and a build
    without them falls back to calloc silently."""
    import subprocess
    import sys
    from pathlib import Path

    import pytest

    setting = Path("/sys/kernel/mm/transparent_hugepage/enabled")
    if not sys.platform.startswith("linux") or not setting.exists() or "[never]" in setting.read_text():
        pytest.skip("the system offers no huge pages")
    tests = str(Path(__file__).resolve().parent)
    done = subprocess.run([sys.executable, "-c", HUGE_PAGES_CHECK, tests], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    control, portable, popcnt = map(int, done.stdout.split())
    if control < 2000:
        pytest.skip(f"small pages are not counted a fault each here ({control} faults for 16 MiB)")
    # Small pages: some 8,000 to 16,000 (the popcount build without the
    # flags gave 15,667). Huge pages: tens, and a thousand or so more for the
    # sanitizers' shadow memory under tools/sanitize.sh.
    assert portable < 3000 and popcnt < 3000, (control, portable, popcnt)
