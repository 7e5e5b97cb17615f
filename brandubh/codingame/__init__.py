"""The CodinGame puzzle "Brandubh": everything that speaks its protocol.

- :mod:`~brandubh.codingame.turns`: the turn format (a role, the last move,
  seven board lines; the answer grammar) and :class:`Tracker`, a game record
  kept from the boards;
- :mod:`~brandubh.codingame.bot`: the bot (``brandubh codingame``) under the
  puzzle's clock;
- :mod:`~brandubh.codingame.export`: the same bot as one C file to submit
  (``brandubh codingame --export``; ``main.c`` its turn loop,
  ``tables_init.c`` the tables it computes at start-up);
- :mod:`~brandubh.codingame.driver`: the arena's side, sending turns to a
  program and reading its answers (``brandubh referee``, ``brandubh match``);
- :mod:`~brandubh.codingame.referee`: two programs against each other, from
  Python.

``python -m brandubh.codingame`` is ``brandubh codingame``.
"""

from .bot import (
    ASSUMED_RATE, FIRST_MS, FIRST_SHARE, MARGIN_MS, MAX_LEVEL, TURN_MS, TURN_SHARE, bot_chooser, budgets, play,
    read_turn,
)

__all__ = ["ASSUMED_RATE", "FIRST_MS", "TURN_MS", "FIRST_SHARE", "TURN_SHARE", "MARGIN_MS", "MAX_LEVEL",
           "budgets", "bot_chooser", "read_turn", "play"]
