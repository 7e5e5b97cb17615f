"""One game between two players: the one game loop of the package.

Every game of ``brandubh match`` and ``brandubh referee``, whatever its
players (an engine in this process, a program over a wire protocol), is
played here, over a :class:`~brandubh.Game`: the game holds the seats
(``p1`` and ``p2``), the sides, the record and every ending; a seat's
fault ends it by :meth:`Game.forfeit <brandubh.Game.forfeit>`, an ending of
its own in the game's text.

>>> from brandubh.arena import BotPlayer
>>> a = BotPlayer.from_text('budget=300', name='A')
>>> b = BotPlayer.from_text('budget=100', name='B')
>>> record = play_game(GameSpec(0, (a, b), 'p1', variant='codingame'))
>>> record.attackers, record.counted, record.reason in ('corner', 'capture', 'repetition',
...     'encircled', 'no_move', 'ply_cap', 'no_pieces')
('A', True, True)
"""

from __future__ import annotations

import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Optional

from ..notation import FAULTS
from ..variant import VariantLike, as_variant
from ..words import plural
from .openings import Opening
from .player import Limits, Player, Table

__all__ = ["GameSpec", "GameRecord", "play_game", "unplayed", "game_text", "NOT_COUNTED"]

NOT_COUNTED = ("aborted", "error")
"""The reasons of games that count for nobody: cut short by an interrupted
run, or failed in the arena itself."""


@dataclass(frozen=True)
class GameSpec:
    """Everything one game needs, and nothing live, so that it can be
    pickled: the game's number (``index``, from 0), its two ``players``
    (seat ``p1``, seat ``p2``), the seat that has the ``attackers``, the
    ``opening`` (and its number in the event), the rules, the clock."""

    index: int
    players: tuple[Player, Player]
    attackers: str = "p1"
    opening: Opening = Opening()
    opening_index: int = 0
    variant: VariantLike = "codingame"
    limits: Limits = Limits()
    pairing: int = 0


@dataclass
class GameRecord:
    """One game as it was played. Players are called by their names;
    ``seats`` maps ``p1`` and ``p2`` to them.

    ``reason`` is how the game ended: an outcome of the rules (``corner``,
    ``capture``, ``repetition``...), a fault of :data:`~brandubh.notation.FAULTS`
    (then ``fault`` is the player at fault), ``aborted`` for a game cut
    short by an interrupted run, or ``error`` for a game the arena itself
    failed (neither of the last two is counted). ``winner`` is a player's
    name (None for a draw) and ``winner_side`` its side. ``text`` is the
    game's text (:meth:`brandubh.Game.as_text`; after an opening, with a tag
    saying how many moves it was: :func:`game_text`)."""

    index: int
    seats: dict
    attackers: str
    defenders: str
    describe_players: dict
    variant: str
    start: str
    moves: list
    opening: int = 0
    opening_label: str = ""
    opening_plies: int = 0
    pairing: int = 0
    reason: str = "aborted"
    winner: Optional[str] = None
    winner_side: Optional[str] = None
    fault: Optional[str] = None
    detail: str = ""
    text: str = ""
    first_ms: dict = field(default_factory=dict)
    turn_ms: dict = field(default_factory=dict)
    late: dict = field(default_factory=dict)
    stderr: dict = field(default_factory=dict)
    pids: dict = field(default_factory=dict)
    exit_codes: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def counted(self) -> bool:
        """True unless the game was aborted or failed in the arena."""
        return self.reason not in NOT_COUNTED

    @property
    def plies(self) -> int:
        """Moves played in this game, the opening's not counted."""
        return len(self.moves) - self.opening_plies

    @property
    def players(self) -> tuple[str, str]:
        return self.seats["p1"], self.seats["p2"]

    def side_of(self, name: str) -> str:
        return "attackers" if name == self.attackers else "defenders"

    def describe(self) -> str:
        """One line: ``game 3: A attackers, B defenders: repetition; B wins (defenders), 9 moves``,
        the moves counted as the game's text holds them, an opening's
        among them (``28 moves (2 of the opening)``): the label of the game
        in a ``--games-out`` file."""
        head = f"game {self.index + 1}: {self.attackers} attackers, {self.defenders} defenders"
        why = f"{self.reason} by {self.fault} ({self.side_of(self.fault)})" if self.fault else self.reason
        if not self.counted:
            result = self.detail.splitlines()[-1] if self.detail else "not counted"
        elif self.winner is None:
            result = "draw"
        else:
            result = f"{self.winner} wins ({self.winner_side})"
        extra = f" - {self.detail}" if self.fault and self.detail else ""
        opening = f" ({self.opening_plies} of the opening)" if self.opening_plies else ""
        return f"{head}: {why}; {result}, {plural(len(self.moves), 'move')}{opening}{extra}"

    def as_dict(self, stderr: bool = True) -> dict:
        out = {
            "game": self.index + 1, "pairing": self.pairing + 1, "seats": dict(self.seats),
            "opening": self.opening + 1, "opening_label": self.opening_label,
            "attackers": self.attackers, "defenders": self.defenders,
            "reason": self.reason, "fault": self.fault, "winner": self.winner,
            "winner_side": self.winner_side, "detail": self.detail, "plies": self.plies,
            "text": self.text,
            "first_ms": {k: round(v, 3) for k, v in self.first_ms.items()},
            "turn_ms": {k: [round(x, 3) for x in v] for k, v in self.turn_ms.items()},
            "late": dict(self.late), "exit_codes": dict(self.exit_codes), "pids": dict(self.pids),
            "seconds": round(self.seconds, 3),
        }
        if stderr:
            out["stderr"] = dict(self.stderr)
            out["players"] = dict(self.describe_players)
        return out


def unplayed(spec: GameSpec, reason: str = "aborted", detail: str = "") -> GameRecord:
    """The record of a game before its first move: who sits where, the
    rules, the opening; ``reason`` and ``detail`` as given (a game that an
    executor could not play is recorded so, with reason ``error``)."""
    p1, p2 = spec.players
    names = {"p1": p1.name, "p2": p2.name}
    def_seat = "p2" if spec.attackers == "p1" else "p1"
    return GameRecord(
        index=spec.index, seats=names, attackers=names[spec.attackers], defenders=names[def_seat],
        describe_players={p1.name: p1.describe(), p2.name: p2.describe()},
        variant=as_variant(spec.variant).as_string(), start=spec.opening.start,
        moves=list(spec.opening.moves), opening=spec.opening_index, opening_label=spec.opening.label,
        opening_plies=len(spec.opening.moves), pairing=spec.pairing,
        turn_ms={p1.name: [], p2.name: []}, late={p1.name: 0, p2.name: 0},
        reason=reason, detail=detail)


def play_game(spec: GameSpec, abort: Optional[threading.Event] = None, registry: Any = None) -> GameRecord:
    """Play one game. Never raises for anything a player does (a fault is
    an ending); a failure of the arena itself gives a record with reason
    ``error`` and the traceback as its detail. Every process a player
    started is gone when it returns."""
    variant = as_variant(spec.variant)
    p1, p2 = spec.players
    att_seat = spec.attackers
    record = unplayed(spec)
    table = Table(abort, registry)
    seats: dict = {}
    game = None
    t0 = time.monotonic()
    try:
        game = spec.opening.game(variant, att_seat)
        for seat, player in (("p1", p1), ("p2", p2)):
            seats[seat] = player.sit(table, seat, spec.index, variant)
            pid = seats[seat].report().get("pid")
            if pid is not None:
                record.pids[player.name] = pid
        _play(game, seats, spec, record, table.abort)
    except Exception:  # a failure of the arena itself: say so, count nothing
        record.reason, record.winner, record.winner_side, record.fault = "error", None, None, None
        record.detail = traceback.format_exc()
    finally:
        for seat in seats.values():
            try:
                seat.end(game)
            except Exception:  # pragma: no cover - ending must not hide the game
                pass
        table.close(record.fault)
        for seat in seats.values():
            kept = seat.report()
            if "stderr" in kept:
                record.stderr[seat.name] = kept["stderr"]
            if "exit_code" in kept:
                record.exit_codes[seat.name] = kept.get("exit_code")
        record.seconds = time.monotonic() - t0
    if game is not None and record.reason != "error":
        record.text = game_text(game, record.opening_plies)
    return record


def game_text(game: Any, opening: int) -> str:
    """The game's text; after an opening of ``opening`` moves, which
    neither player chose, with the tag that says so
    (:data:`brandubh.records.OPENING_TAG`), so that a review of the game
    does not judge them."""
    if not opening:
        return str(game.as_text())
    from ..records import OPENING_TAG, GameRecord as Record

    return Record(game, tags={OPENING_TAG: str(opening)}).as_text()


def _play(game: Any, seats: dict, spec: GameSpec, record: GameRecord, abort: threading.Event) -> None:
    """The loop: ask the seat whose turn it is, play its answer, until the
    game ends, a seat fails, or the run is stopped."""
    last = spec.opening.moves[-1] if spec.opening.moves else None
    first = {"p1": True, "p2": True}
    while game.status == "active":
        if abort.is_set():
            record.reason, record.detail = "aborted", "the run was interrupted"
            return
        seat = game.turn
        player = seats[seat]
        name = player.name
        answer = player.answer(game, last, spec.limits, first[seat])
        if answer.aborted:
            record.reason, record.detail = "aborted", answer.detail or "the run was interrupted"
            return
        if answer.seconds is not None:
            ms = answer.seconds * 1000.0
            if first[seat]:
                record.first_ms[name] = ms
            else:
                record.turn_ms[name].append(ms)
        first[seat] = False
        record.late[name] += answer.late
        if answer.fault is None:
            assert answer.move is not None
            refused = game.play(answer.move, seat)
            if refused is None:
                record.moves.append(answer.move)
                last = answer.move
                continue
            answer.fault = "illegal"
            answer.detail = f"played {answer.move}, which is not legal here ({refused}) in {game.position}"
        assert answer.fault in FAULTS
        game.forfeit(seat, answer.fault)
        record.fault, record.detail = name, answer.detail
        break
    result = game.result
    record.reason = result.how
    record.winner_side = result.side
    record.winner = None if result.winner is None else seats[result.winner].name
