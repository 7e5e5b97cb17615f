"""OpenTafl's engine protocol, as the arena speaks it to a program: the
arena's driver of an OpenTafl engine (the arena is what OpenTafl calls the
host, the program an engine).

When the game starts the program is sent ``rules`` (the variant and the
start as a rules record, :class:`brandubh.opentafl.notation.RulesRecord`). Each turn it is
sent the confirmation of its own last move (``move`` and the board after
it), the opponent's move (``opponent-move d2-c2`` and the board after it),
``play attackers`` or ``play defenders``, and, when the answer has a time
limit, ``clock``: the limit as what is left of an overtime period, for
both sides. It answers ``move d2-c2``. When the game is over it is sent
``finish`` (after the confirmation of its last move, when the other side
ended the game) and ``goodbye``. As in OpenTafl, the move that ends a
game is never confirmed and never sent to the other side.

Lines that are not answers are read past (``status``, ``error 0``,
``hello``...), and a program that asks for the board (``position``) is
sent it. ``error -1`` (the program cannot play on) loses the game as
``garbage``; so does a ``move`` line that is not a move. An illegal move
loses as in every other protocol of the arena, with no second try.

A rules record carries what it can of the variant; the rest (the ending of
a side with no move, the caps, whether the start counts towards a
repetition) is judged by the arena, and the program learns it only when
the game ends. Variants a record cannot describe (``king_capture =
four_two``, a ``repeat`` other than 3) are refused before the first game.
The record's start is the position before the last move of the game's
opening, if it has one, so that the program is told that move as the
opponent's: a program's record starts there.

>>> d = Driver('opentafl', 'p1')
>>> d.read('move d2-c2'), d.read('status thinking'), d.read('move to the left')[0]
(('d2c2', None), (None, None), None)
>>> d.clock(0.25)
'clock 250* 250* 1 1 1\\n'
"""

from __future__ import annotations

import math
from typing import Any, Optional

from ..errors import quote
from .notation import RulesRecord, position_record, read_move, simple_move

__all__ = ["Driver"]


class Driver:
    """The protocol for one program in one game. ``variant`` is the game's
    (None when the protocol is only being looked up); a variant no rules
    record can describe raises an :class:`~brandubh.opentafl.notation.OpenTaflError`."""

    def __init__(self, variant: Any, seat: str) -> None:
        self.variant = variant
        self.seat = seat
        if variant is not None:
            from ..notation import SETUP

            RulesRecord.of(variant, SETUP)  # refuse now what no record can say
        self._record: Any = None  # a brandubh.Rules: the game as this program has been told it
        self._told = 0  # moves of the game's log on that record

    def start(self, game: Any) -> str:
        """``rules``: the record of the variant, starting before the last
        move played (which the first turn tells as the opponent's)."""
        from ..core.rules import Rules

        log = game.log
        self._told = max(0, len(log) - 1)
        record = Rules(game.start, game.variant)
        for move in log[:self._told]:
            record.play(move)
        start = record.position
        self._record = Rules(start, game.variant)
        return f"rules {RulesRecord.of(game.variant, start).text}\n"

    def turn(self, game: Any, last: Optional[str]) -> str:
        """The moves since the program's last turn (its own confirmed with
        ``move``, the opponent's sent with ``opponent-move``), then ``play``."""
        mine = game.side_of(self.seat)
        lines = []
        for move in game.log[self._told:]:
            mover = self._record.side
            self._record.play(move)
            board = position_record(self._record.position)
            lines.append(f"move {board}" if mover == mine else f"opponent-move {simple_move(move)} {board}")
        self._told = len(game.log)
        lines.append(f"play {mine}")
        return "\n".join(lines) + "\n"

    def clock(self, seconds: Optional[float]) -> str:
        """``clock`` after ``play`` when the answer has a limit (``seconds``):
        both sides in overtime, the limit what is left of the period, one
        period each; nothing when there is no limit."""
        if seconds is None:
            return ""
        ms = max(1, int(seconds * 1000))
        period = max(1, math.ceil(seconds))
        return f"clock {ms}* {ms}* {period} 1 1\n"

    def read(self, line: str) -> tuple[Optional[str], Optional[str]]:
        """``(move, None)`` for ``move d2-c2`` (in simple or full notation),
        ``(None, sentence)`` for ``error -1`` or a ``move`` line that holds
        no move, ``(None, None)`` for any other line."""
        words = line.split()
        if not words:
            return None, None
        if words[0] == "move":
            text = line.strip()[4:].strip()
            move = read_move(text)
            if move is None:
                shown = text if len(text) <= 60 else text[:60] + "..."
                return None, f"answered move {quote(shown)}, which is not a move like d2-c2"
            return move, None
        if words[0] == "error" and len(words) > 1 and words[1] == "-1":
            why = " ".join(words[2:])
            return None, f"gave up with error -1: {why[:200]}" if why else "gave up with error -1"
        return None, None

    def reply(self, line: str) -> str:
        """What to write back to a line that is not an answer: the board,
        when the program asks for it with ``position``."""
        if line.strip() == "position" and self._record is not None:
            return f"position {position_record(self._record.position)}\n"
        return ""

    def end(self, game: Any) -> str:
        """The confirmation of the program's last move, unless that move
        ended the game; ``finish`` with the result (0 no result, 1 a draw,
        2 the attackers won, 3 the defenders); ``goodbye``."""
        from ..notation import FAULTS

        result = None if game is None else game.result
        lines = []
        if game is not None and self._record is not None:
            log = game.log
            by_rules = result is not None and result.how not in (*FAULTS, "resign", "agreed")
            mine = game.side_of(self.seat)
            for i in range(self._told, len(log)):
                mover = self._record.side
                if self._record.play(log[i]) != 0 or mover != mine or (by_rules and i == len(log) - 1):
                    break
                lines.append(f"move {position_record(self._record.position)}")
            self._told = len(log)
        if result is None:
            code = 0
        elif result.side is None:
            code = 1
        else:
            code = 2 if result.side == "attackers" else 3
        return "".join(line + "\n" for line in lines) + f"finish {code}\ngoodbye\n"
