"""Threads: the search releases the GIL, games in different threads do not
disturb each other, and one game shared by two threads stays whole."""

from __future__ import annotations

import random
import threading
import time

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
                    assert found is None or found.nodes <= 750  # 500, and half again on a root fail low
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


class _SlowRules:
    """A game's record that dawdles after one kind of look at it, to open
    wide the window in which another thread could play in between."""

    def __init__(self, rules: Rules, slow: str) -> None:
        self._inner, self._slow = rules, slow

    def __getattr__(self, name: str):
        value = getattr(self._inner, name)
        if name != self._slow:
            return value

        def slowly(*args, **kwargs):
            out = value(*args, **kwargs)
            time.sleep(0.05)
            return out

        return slowly


def _race(game, first, second) -> list:
    """Run ``first`` in a thread, ``second`` in another 10 ms later; the
    exceptions they raised."""
    errors: list = []

    def run(job) -> None:
        try:
            job()
        except Exception as exc:  # reported to the test
            errors.append(exc)

    a = threading.Thread(target=run, args=(first,))
    a.start()
    time.sleep(0.01)
    b = threading.Thread(target=run, args=(second,))
    b.start()
    a.join()
    b.join()
    return errors


def test_checking_and_playing_a_move_is_one_step():
    """Two threads play the same move of one Game: one plays it, the other
    is refused (before the game's lock, the second one's check passed and
    the rules then refused it: AssertionError)."""
    from brandubh import Game

    game = Game(variant="codingame")
    game._rules = _SlowRules(game._rules, "why_not")
    results: list = []
    errors = _race(game, lambda: results.append(game.play("d2c2")),
                   lambda: results.append(game.play("d2c2")))
    assert not errors, errors
    assert sorted(map(str, results))[0] == "None" and len(results) == 2
    assert sum(r is None for r in results) == 1
    assert game.log == ["d2c2"]


def test_a_bots_choice_is_one_step():
    """A bot chooses while another thread plays the winning move: the move
    waits for the choice (before the game's lock, the bot saw moves, the
    game ended, and its search found none: AttributeError)."""
    from brandubh import Bot, Game

    game = Game(position="7/7/7/7/a6/6k/7 d")
    game._rules = _SlowRules(game._rules, "moves")
    chosen: list = []
    errors = _race(game, lambda: chosen.append(Bot(budget=2000, seed=1).choose(game)),
                   lambda: game.play("g2g1"))
    assert not errors, errors
    assert chosen and str(chosen[0]) in {"g2g1", "g2g7"}
    assert game.status == "finished"
