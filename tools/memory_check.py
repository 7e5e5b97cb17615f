"""Make and drop many games; print Rules.live() and the process's memory
(resident set, from /proc) before and after. Linux.

    python tools/memory_check.py [GAMES]      # default 1,000,000
"""

import gc
import os
import sys
import time

from brandubh import Rules


def rss_mib() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    for _ in range(20_000):  # let the allocators reach their working size
        Rules().play("d2c2")
    gc.collect()
    live0, rss0, t0 = Rules.live(), rss_mib(), time.perf_counter()
    for i in range(games):
        game = Rules(variant="codingame" if i % 2 else None)
        game.play(game.moves()[i % 40])
        if i % 4 == 0:
            game.clone()
    del game
    gc.collect()
    print(f"games made and dropped: {games:,} in {time.perf_counter() - t0:.1f} s")
    print(f"Rules.live(): {live0} before, {Rules.live()} after")
    print(f"resident memory: {rss0:.1f} MiB before, {rss_mib():.1f} MiB after")


if __name__ == "__main__":
    main()
