"""brandubh.session: the one table that brandubh play, serve and host all
drive. A person against the engine is tested through its front ends
(test_play.py, test_serve.py); here, what a table of seats adds: a bot
thinking with the lock released, a clock, the changes handed on, and the
game text written once a state."""

from __future__ import annotations

import threading

import pytest

from brandubh import ArgumentError, Game
from brandubh.session import Session

PATIENCE = 60.0


class Held:
    """A bot that chooses the first legal move, once let go."""

    level = 1

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()

    def choose(self, game):
        self.thinking.set()
        assert self.go.wait(PATIENCE)
        return game.legal()[0].move

    def accepts_draw(self, game, side):
        return False


class Clock:
    """A clock whose flag the test lets fall: only the defenders' runs."""

    def __init__(self) -> None:
        self.running = None
        self.fallen = False
        self.pressed = []

    def start(self, side, now):
        self.running = side

    def stop(self, now):
        self.running = None

    def press(self, side, now):
        self.pressed.append(side)
        self.running = "attackers" if side == "defenders" else "defenders"
        return True

    def flagged(self, now):
        return self.running if self.fallen else None


def test_a_bot_thinking_with_the_lock_released_does_not_play_into_a_table_that_moved_on():
    bot = Held()
    table = Session(Game(), seats={"attackers": bot, "defenders": None})
    answers = []
    thinker = threading.Thread(target=lambda: answers.append(table.reply("attackers", release=True)))
    thinker.start()
    assert bot.thinking.wait(PATIENCE)
    # The lock is free while the bot thinks: the other seat resigns meanwhile.
    assert not table.resign("defenders").refused
    bot.go.set()
    thinker.join(PATIENCE)
    assert answers == [None] and table.game.ply == 0 and table.game.result.how == "resign"


def test_a_bot_handed_its_turn_at_an_older_change_does_nothing():
    table = Session(Game(), seats={"attackers": None, "defenders": Held()})
    handed = table.changes
    table.move("d2c2", "attackers")
    table.offer_takeback("attackers")
    assert table.reply("defenders", since=handed) is None and table.takeback == "attackers"
    # Handed on at the last change, it answers the take-back (the package's bot allows it).
    assert str(table.reply("defenders", since=table.changes)) == "The defenders allow the take-back: 1 move taken back."


def test_a_fallen_flag_falls_before_what_a_request_asks_and_is_handed_on_once():
    clock = Clock()
    seen = []
    table = Session(Game(), seats={"attackers": None, "defenders": None}, clock=clock,
                    on_change=lambda s: seen.append((s.said, s.game.status)))
    table.move("d2c2", "attackers")                  # the first move starts the clocks
    assert clock.running == "defenders" and clock.pressed == []
    clock.fallen = True
    refused = table.move("d3c3", "defenders")
    assert refused.code == "game_over" and refused.text == ("the game is over: the defenders' time ran out, "
                                                            "the attackers won")
    assert seen == [("The attackers play d2-c2.", "active"), ("The defenders' time ran out.", "finished")]
    assert clock.running is None and table.game.result.how == "timeout"


def test_a_change_is_handed_on_before_it_is_answered_and_what_that_raises_is_the_requests():
    def refuse(session):
        raise RuntimeError("the store is full")

    table = Session(Game(), seats={"attackers": None, "defenders": None}, on_change=refuse)
    with pytest.raises(RuntimeError, match="full"):
        table.move("d2c2", "attackers")
    # The caller puts the table back as it kept it; a bot thinking meanwhile sees a change.
    before = table.changes
    table.resume(Game())
    assert table.game.ply == 0 and table.changes == before + 1


def test_the_game_text_is_written_once_a_state():
    table = Session(Game(), seats={"attackers": None, "defenders": None})
    first = table.text()
    assert table.text() is first
    table.move("d2c2", "attackers")
    assert table.text() is not first and table.text().split()[-1] == "d2c2"


def test_a_table_says_which_side_acts_and_who_may():
    seats = Session(Game(), seats={"attackers": None, "defenders": Held()})
    with pytest.raises(ArgumentError, match="say which side"):
        seats.move("d2c2")
    with pytest.raises(ArgumentError, match="bot's"):
        seats.move("d2c2", "defenders")
    with pytest.raises(ArgumentError, match="not a bot's seat"):
        seats.reply("attackers")
    with pytest.raises(ArgumentError, match="either"):
        Session(Game(), Held(), "attackers", seats={"attackers": None, "defenders": None})
