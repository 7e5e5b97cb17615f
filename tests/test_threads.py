"""Threads: the search releases the GIL, games in different threads do not
disturb each other, and one game shared by two threads stays whole."""

from __future__ import annotations

import random
import threading

from brandubh import Rules
from brandubh.variant import PRESETS


def _games(n: int) -> list[Rules]:
    rng = random.Random(3)
    out = []
    for i in range(n):
        game = Rules(variant=list(PRESETS)[i % 4])
        for _ in range(rng.randint(0, 12)):
            game.play(rng.choice(game.moves()))
        out.append(game)
    return out


def test_threads_find_what_one_thread_finds():
    games = _games(8)
    alone = [g.search(budget=30_000, seed=5) for g in games]
    together: list = [None] * len(games)

    def work(i: int) -> None:
        together[i] = games[i].search(budget=30_000, seed=5)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(games))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


def test_search_releases_the_gil():
    game = Rules()
    done = threading.Event()

    def work() -> None:
        game.search(budget=1_500_000)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    spins = 0
    while not done.is_set():
        spins += 1
    t.join()
    # Holding the GIL, the search would leave this loop a handful of turns.
    assert spins > 10_000


def test_one_game_two_threads_stays_whole():
    game = Rules(variant="modern")
    errors: list = []

    def player(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(300):
                moves = game.moves()
                if moves and rng.random() < 0.6:
                    game.play(rng.choice(moves))  # may be refused: the other thread moved
                elif game.ply:
                    game.undo()
                if rng.random() < 0.05:
                    found = game.search(budget=500)
                    assert found is None or found.nodes <= 500
                _ = game.position, game.repeats, game.log()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=player, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # The record is whole: replaying its log from the start gives the same game.
    again = Rules(variant="modern")
    for m in game.log():
        assert again.play(m) == Rules.PLAY_OK
    assert again.position == game.position and again.repeats == game.repeats
    assert again.outcome == game.outcome
