"""Game.search and the Bot: Move values, salts, levels, determinism."""

import pytest

from brandubh import BrandubhError, Bot, Game, Move, Rules, Stop
from brandubh.errors import ArgumentError
from brandubh.bot import LEVELS


def test_game_search_gives_moves_that_print_as_stored():
    game = Game(variant="codingame")
    found = game.search(budget=10_000, salt="me")
    assert isinstance(found.move, Move) and str(found.move) in {m.move for m in game.legal()}
    assert all(isinstance(m, Move) and len(str(m)) == 4 for m in found.pv)
    assert game.ply == 0  # the game is not changed
    # The same value from the rules: the engine's number, with its text.
    rules = Rules(variant="codingame")
    assert rules.search(budget=10_000, seed=game.search_seed("me")) == found
    assert found.move in rules.moves() and game.play(found.move) is None and game.log == [str(found.move)]


#: The learned tables, whose symmetric scores give the set-up exact ties.
TABLES = {"eval": "learned"}


def test_game_search_salt_is_stable_and_matters():
    game = Game()
    a = game.search(budget=3_000, salt="alpha")
    assert a == game.search(budget=3_000, salt=b"alpha")
    # Moves scored exactly alike (the learned tables' mirrored moves at the
    # set-up) are chosen among by the salt.
    moves = {game.search(budget=3_000, salt=f"s{i}", weights=TABLES).move for i in range(12)}
    assert len(moves) > 1


def test_game_search_uses_the_game_seed():
    seeds = [bytes([i]) * 32 for i in range(10)]
    moves = {Game(seed=s).search(budget=3_000, weights=TABLES).move for s in seeds}
    assert len(moves) > 1
    assert Game(seed=seeds[3]).search(budget=3_000) == Game(seed=seeds[3]).search(budget=3_000)


def test_finished_game_search_is_none():
    game = Game()
    game.resign("p1")
    assert game.search(budget=100) is None
    assert Bot(3).choose(game) is None


def test_bot_on_game_and_rules():
    assert Game().bot is Bot
    game, rules = Game(), Rules()
    bot = Bot(3, seed=42)
    assert str(bot.choose(game)) in {m.move for m in game.legal()}
    assert bot.choose(rules) in rules.moves()
    assert bot.choose(game) == Bot(3, seed=42).choose(Game())
    # A blunder too is a Move (level 1 plays a random move a quarter of the time).
    chosen = {Bot(1, seed=n).choose(game) for n in range(12)} | {Bot(1, seed=n).choose(rules) for n in range(12)}
    assert all(isinstance(m, Move) for m in chosen)


def test_levels_grow():
    budgets = [LEVELS[level][0] for level in sorted(LEVELS)]
    assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)
    assert LEVELS[1][1] > 0 and LEVELS[max(LEVELS)][1] == 0


def test_a_bot_game_finishes():
    game = Game(variant="modern", seed=bytes(32))
    bots = {"p1": Bot(1), "p2": Bot(2)}
    while game.status == "active":
        assert game.play(bots[game.turn].choose(game)) is None
    assert game.result is not None and game.seed == bytes(32)


@pytest.mark.parametrize("kwargs", [{"level": 0}, {"level": 9}, {"level": "3"}, {"level": 3, "seed": 1.5},
                                    {"level": 3, "budget": 0}, {"level": 3, "off": ("nothing",)}])
def test_bad_bot_arguments(kwargs):
    with pytest.raises(BrandubhError):
        Bot(**kwargs)


@pytest.mark.parametrize("game", [None, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a", 7, Bot(1)])
def test_choose_takes_a_game_or_rules_and_says_so(game):
    for call in (lambda: Bot(1).choose(game), lambda: Bot(1).accepts_draw(game, "attackers")):
        with pytest.raises(ArgumentError, match=r"^Bot\.\w+ takes a brandubh\.Game or a brandubh\.Rules, "
                                                rf"not {type(game).__name__}$"):
            call()


def test_a_stop_ends_the_bots_search_with_a_legal_move():
    bot = Bot(budget=10**12)
    bot.stop = Stop()
    bot.stop.set()   # set before the search: a budget of a trillion positions ends at once
    for game, legal in ((Game(), {Move(m.move) for m in Game().legal()}), (Rules(), set(Rules().moves()))):
        assert bot.choose(game) in legal
    # Not a draw's judgement, whose answer does not depend on when it was
    # asked to stop: stopped at once, this search would see no loss coming.
    bot = Bot(2)
    bot.stop = Stop()
    bot.stop.set()
    assert bot.accepts_draw(Game(position="7/7/7/3k3/7/7/a6 a"), "attackers") is True
