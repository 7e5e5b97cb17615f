"""Players for the tests of the executors, importable by a Ray worker (the
tests put this folder on the workers' path) and by a worker process (which
starts with this process's path).

``DyingPlayer`` plays exactly as the engine setting it wraps, and is
described the same way, so a run with it has the same games and the same
report as a run with the plain engine; but at its ``at``-th answer of game
``game`` it kills the process it runs in (SIGKILL, as a lost machine would
end it), once: the first to get there creates ``marker``, and the game played
again finds it and plays on.

``PidPlayer`` plays as the engine setting it wraps, and says in each game's
record (``pids``) which process played its side."""

from __future__ import annotations

import os
import signal
from typing import Any

from brandubh.arena import BotPlayer
from brandubh.arena.player import Seat


class DyingPlayer(BotPlayer):
    def __init__(self, text: str, name: str, game: int, at: int, marker: str) -> None:
        super().__init__(BotPlayer.from_text(text).setting, text, name)
        self.game, self.at, self.marker = game, at, marker

    def sit(self, table: Any, seat: str, game_index: int, variant: Any) -> Seat:
        inner = super().sit(table, seat, game_index, variant)
        if game_index != self.game:
            return inner
        return _DyingSeat(inner, self.at, self.marker)


class _DyingSeat(Seat):
    def __init__(self, inner: Seat, at: int, marker: str) -> None:
        self.inner, self.at, self.marker = inner, at, marker
        self.name = inner.name
        self.answers = 0

    def answer(self, game, last, limits, first):
        self.answers += 1
        if self.answers == self.at:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass  # killed once already: this is the game played again
            else:
                with open(self.marker + ".pid", "w") as f:
                    f.write(str(os.getpid()))
                os.kill(os.getpid(), signal.SIGKILL)
        return self.inner.answer(game, last, limits, first)


class PidPlayer(BotPlayer):
    def __init__(self, text: str, name: str) -> None:
        super().__init__(BotPlayer.from_text(text).setting, text, name)

    def sit(self, table: Any, seat: str, game_index: int, variant: Any) -> Seat:
        return _PidSeat(super().sit(table, seat, game_index, variant))


class _PidSeat(Seat):
    def __init__(self, inner: Seat) -> None:
        self.inner = inner
        self.name = inner.name

    def answer(self, game, last, limits, first):
        return self.inner.answer(game, last, limits, first)

    def report(self):
        return {"pid": os.getpid()}
