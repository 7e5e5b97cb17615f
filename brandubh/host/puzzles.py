"""The puzzles of ``brandubh host``'s club: the page's puzzle mode
(:class:`~brandubh.serve.puzzles.PuzzleRoom`, the room ``brandubh serve``
has: each move judged on the server by :class:`brandubh.puzzles.Attempt`)
with the ratings kept in the club's store, and a daily puzzle.

- A logged-in account is given the next puzzle near its own puzzle rating
  among those it has not tried; a guest solves too, near the rating its
  browser sends, unrated (neither its rating nor the puzzle's moves).
- An account's attempt is rated once it ends: the account's puzzle rating
  and the puzzle's own, one Glicko-2 rating period each
  (:func:`brandubh.puzzles.rate`, :mod:`brandubh.ratings`), written in one
  transaction before the answer. One attempt per account and puzzle is
  rated, the first to end; another is judged and shown, not rated.
- Only the account that opened an attempt may act on it (a guest's, anyone
  with its id).
- The daily puzzle: the same for everyone on a UTC day, from the brandubh
  set (:meth:`ClubPuzzles.daily`).

>>> from .store import Store
>>> from brandubh.puzzles import Puzzle
>>> easy = Puzzle.make('brandubh', '3aa2/7/1dd4/a4aa/a2k3/3d3/7 d', ['d3g3', 'a3a2', 'g3g1'])
>>> room = ClubPuzzles(Store(':memory:'), {'brandubh': [easy]})
>>> state = room.new({})
>>> state['club']['said']
'A guest solves unrated: log in at the club to keep a puzzle rating.'
>>> room.daily(datetime.date(2026, 12, 6)).id == easy.id
True
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import threading
import time
from typing import Any, Optional

from ..errors import quote
from ..ratings import DEFAULT, Rating
from ..serve.api import RequestError
from ..serve.puzzles import PuzzleRefusal, PuzzleRoom, PuzzleTable, task_sentence
from .accounts import Account, _not_stored
from .store import Store, StoreError

__all__ = ["ClubPuzzles", "POOL", "DAILY_RULES", "MAX_CLUB_ATTEMPTS"]

#: The name of the puzzle rating among a player's ratings (its graph's ``?pool=``).
POOL = "puzzles"
#: The rule set the daily puzzle is drawn from.
DAILY_RULES = "brandubh"
#: Attempts kept in memory at once, every solver together (the one used longest ago closed first).
MAX_CLUB_ATTEMPTS = 10_000
_ID_SHAPE = "ten hexadecimal digits"


def _rating(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility}


def _text(rating: Rating) -> str:
    return f"{round(rating.rating)} ± {round(rating.deviation)}"


class ClubPuzzles(PuzzleRoom):
    """The club's puzzle room over its :class:`~.store.Store`: the
    accounts' puzzle ratings and the puzzles' own in the store (tables
    ``puzzle_attempts`` and ``puzzle_ratings``); ``puzzles`` as
    :class:`~brandubh.serve.puzzles.PuzzleRoom`'s (the shipped sets by
    default). ``who`` is the :class:`~.accounts.Account` asking, or None
    for a guest."""

    FIELDS = (*PuzzleRoom.FIELDS, "puzzle")

    def __init__(self, store: Store, puzzles: Optional[dict[str, list]] = None, seed: Optional[str] = None,
                 max_attempts: int = MAX_CLUB_ATTEMPTS) -> None:
        super().__init__(puzzles, seed=seed, max_attempts=max_attempts)
        self.store = store
        self._by_id: Optional[dict[str, Any]] = None
        self._daily: Optional[tuple[str, Any]] = None
        self._daily_lock = threading.Lock()

    # -- ratings ------------------------------------------------------------------------------------

    def rating_of(self, puzzle: Any) -> Rating:
        """A puzzle's rating as the club's solves have moved it (the set's before any)."""
        rows = self.store.query("SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle = ?",
                                (puzzle.id,))
        return Rating(*rows[0]) if rows else puzzle.rating

    def player(self, account: int) -> tuple[Rating, int]:
        """An account's puzzle rating (a newcomer's before its first rated
        attempt) and how many of its attempts were rated."""
        rows = self.store.query("SELECT rating, deviation, volatility, (SELECT COUNT(*) FROM puzzle_attempts "
                                "WHERE account = ?) FROM puzzle_attempts WHERE account = ? ORDER BY at DESC, "
                                "rowid DESC LIMIT 1", (account, account))
        return (Rating(*rows[0][:3]), int(rows[0][3])) if rows else (DEFAULT, 0)

    def history(self, account: int) -> list[tuple[float, float, float]]:
        """An account's puzzle rating after each rated attempt: when, rating, deviation."""
        return [tuple(row) for row in self.store.query(
            "SELECT at, rating, deviation FROM puzzle_attempts WHERE account = ? ORDER BY at, rowid", (account,))]

    def _tried(self, account: int, puzzle: Optional[str] = None) -> list[str]:
        """The puzzles an account has had a rated attempt at (or only ``puzzle``, if it has)."""
        if puzzle is not None:
            return [row[0] for row in self.store.query(
                "SELECT puzzle FROM puzzle_attempts WHERE account = ? AND puzzle = ?", (account, puzzle))]
        return [row[0] for row in self.store.query("SELECT puzzle FROM puzzle_attempts WHERE account = ?",
                                                   (account,))]

    # -- which puzzle -------------------------------------------------------------------------------

    def find(self, puzzle_id: Any) -> Any:
        """The puzzle with this id, of any rule set: a 400 for an id out of
        shape, a 404 for one not in the set."""
        if not isinstance(puzzle_id, str) or len(puzzle_id) != 10 or any(c not in "0123456789abcdef"
                                                                         for c in puzzle_id):
            raise PuzzleRefusal(f"puzzle must be a puzzle's id ({_ID_SHAPE}), not {quote(puzzle_id)}")
        if self._by_id is None:
            from ..puzzles import shipped

            every = [p for found in self._sets.values() for p in found] if self._sets is not None else shipped()
            self._by_id = {p.id: p for p in every}
        found = self._by_id.get(puzzle_id)
        if found is None:
            raise PuzzleRefusal(f"no puzzle {quote(puzzle_id)} here: it is in none of the server's sets", 404)
        return found

    def daily(self, day: Optional[datetime.date] = None) -> Any:
        """The puzzle of a UTC day (today's by default), the same for
        everyone: of the :data:`DAILY_RULES` set, the puzzle whose id,
        after the day (``2026-12-06 ID``), has the smallest SHA-256. A
        puzzle added to the set changes a day's only by being that day's
        smallest itself, and no clock or order of the set counts."""
        key = (day or datetime.datetime.now(datetime.timezone.utc).date()).isoformat()
        with self._daily_lock:
            if self._daily is not None and self._daily[0] == key:
                return self._daily[1]
        found = min(self.puzzles(DAILY_RULES),
                    key=lambda p: hashlib.sha256(f"{key} {p.id}".encode("ascii")).digest())
        with self._daily_lock:
            self._daily = (key, found)
        return found

    def daily_shown(self) -> dict[str, Any]:
        """Today's puzzle as the lobby shows it: the day, the puzzle's id,
        rules, task, themes and rating, and the page's link to it."""
        day = datetime.datetime.now(datetime.timezone.utc).date()
        puzzle = self.daily(day)
        return {"date": day.isoformat(), "id": puzzle.id, "rules": puzzle.rules, "task": task_sentence(puzzle),
                "themes": list(puzzle.themes), "rating": _rating(self.rating_of(puzzle)),
                "link": f"/#puzzle={puzzle.id}"}

    # -- the room's requests, for an account ---------------------------------------------------------

    def new(self, fields: dict, who: Any = None) -> dict:
        """The next puzzle: ``puzzle`` (an id: that one, the daily's for
        instance), or the one nearest the solver's rating not yet tried (an
        account's own rating and tried puzzles; a guest's as its browser
        sends them, ``player`` and ``seen``)."""
        variant, player, seen = self.asked(fields)
        account = who if isinstance(who, Account) else None
        if account is not None:
            player = self.player(account.id)[0]
            seen = [*seen, *self._tried(account.id)]
        wanted = fields.get("puzzle")
        puzzle = self.find(wanted) if wanted is not None else self._near(variant, player.rating, seen)
        table = self.open(puzzle, player)
        table.owner = account
        with table.lock:
            return self.state(table)

    def _near(self, variant: str, rating: float, seen: list[str]) -> Any:
        """The room's choice near ``rating``, by the puzzles' ratings as the
        club's solves have moved them (the set's for the others)."""
        found = self.puzzles(variant)
        moved = {row[0]: Rating(*row[1:]) for row in self.store.query(
            "SELECT puzzle, rating, deviation, volatility FROM puzzle_ratings")}
        if not moved:
            return self.near(found, rating, seen)
        chosen = self.near([dataclasses.replace(p, rating=moved[p.id]) if p.id in moved else p for p in found],
                           rating, seen)
        return next(p for p in found if p.id == chosen.id)   # the set's own puzzle, as every attempt has it

    def attempt(self, table_id: str, who: Any = None) -> PuzzleTable:
        """The attempt with this id; a 403 for an account's attempt asked
        for by anyone else."""
        table = super().attempt(table_id, who)
        owner = table.owner
        if owner is not None and (not isinstance(who, Account) or who.id != owner.id):
            raise PuzzleRefusal(f"this puzzle attempt is {owner.name}'s: log in as {owner.name} to go on with it, "
                                "or open a puzzle of your own", 403)
        return table

    def move(self, table: PuzzleTable, fields: dict) -> dict:
        """The room's move; the attempt put back as it was when the result
        cannot be stored (a 503: nothing changed)."""
        return self._undone_unless_stored(table, lambda: super(ClubPuzzles, self).move(table, fields))

    def give_up(self, table: PuzzleTable, fields: dict) -> dict:
        """The room's give-up; the attempt put back as it was when the
        result cannot be stored (a 503: nothing changed)."""
        return self._undone_unless_stored(table, lambda: super(ClubPuzzles, self).give_up(table, fields))

    def give_hint(self, table: PuzzleTable, fields: dict) -> dict:
        """The room's hint; in an account's attempt, the attempt rated a
        miss at once (a solve after a hint is one: rated now, an attempt
        abandoned after its hint cannot leave the puzzle unrated for a
        fresh one). Put back as it was when that cannot be stored."""
        def hinted() -> dict:
            super(ClubPuzzles, self).give_hint(table, fields)
            self._rate(table, 0.0)
            return self.state(table)

        return self._undone_unless_stored(table, hinted)

    @staticmethod
    def _undone_unless_stored(table: PuzzleTable, change: Any) -> dict:
        from ..puzzles import Attempt

        kept = (list(table.moves), table.verdict, table.said, table.hint, table.attempt.hinted, table.attempt.score,
                table.rated)
        try:
            return change()
        except RequestError:   # the store's refusal (a 503): the attempt as it was before the request
            moves, table.verdict, table.said, table.hint, hinted, score, table.rated = kept
            attempt = Attempt(table.puzzle)
            for move in moves[0::2]:   # the solver's moves: each right one brings its reply
                attempt.play(move)
            attempt.hinted, attempt.score = hinted, score
            table.attempt, table.moves = attempt, moves
            raise

    def _finish(self, table: PuzzleTable) -> None:
        """An account's attempt over: rated (unless it was at its hint)."""
        assert table.attempt.score is not None
        self._rate(table, table.attempt.score)

    def _rate(self, table: PuzzleTable, score: float) -> None:
        """An account's attempt rated ``score``, unless it or another of
        its attempts at this puzzle was: both new ratings and the attempt
        stored in one transaction (a 503 when they cannot be). A guest's:
        nothing moved."""
        from ..puzzles import rate

        account = table.owner
        if account is None or table.rated is not None:
            return
        try:
            with self.store.transaction() as db:
                if db.execute("SELECT 1 FROM puzzle_attempts WHERE account = ? AND puzzle = ?",
                              (account.id, table.puzzle.id)).fetchone():
                    return
                row = db.execute("SELECT rating, deviation, volatility FROM puzzle_attempts WHERE account = ? "
                                 "ORDER BY at DESC, rowid DESC LIMIT 1", (account.id,)).fetchone()
                mine_before = Rating(*row) if row else DEFAULT
                row = db.execute("SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle = ?",
                                 (table.puzzle.id,)).fetchone()
                its_before = Rating(*row) if row else table.puzzle.rating
                mine, its = rate(mine_before, its_before, score)
                db.execute("INSERT INTO puzzle_attempts (account, puzzle, at, score, rating, deviation, volatility) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)", (account.id, table.puzzle.id, time.time(), score, *mine))
                db.execute("INSERT INTO puzzle_ratings (puzzle, rating, deviation, volatility, attempts) VALUES "
                           "(?, ?, ?, ?, 1) ON CONFLICT(puzzle) DO UPDATE SET rating = excluded.rating, "
                           "deviation = excluded.deviation, volatility = excluded.volatility, "
                           "attempts = attempts + 1", (table.puzzle.id, *its))
        except StoreError as error:
            raise _not_stored(error) from None
        table.rated = {"score": score, "player": _rating(mine), "player_before": _rating(mine_before),
                       "puzzle": _rating(its), "puzzle_before": _rating(its_before)}

    def state(self, table: PuzzleTable) -> dict:
        """The room's state of an attempt, with ``club``: the account's
        ``name`` (None for a guest), whether the attempt is ``rated`` (or,
        over, was), the account's puzzle ``rating`` now, and a sentence
        saying so (no move of the solver's marked or named as winning at
        once: the room's state, serve's too)."""
        shown = super().state(table)
        account = table.owner
        if account is None:
            shown["club"] = {"name": None, "rated": False, "rating": None,
                             "said": "A guest solves unrated: log in at the club to keep a puzzle rating."}
            return shown
        rating = self.player(account.id)[0]
        if table.rated is not None:
            rated = True
            said = (f"Your puzzle rating: {_text(Rating(**table.rated['player_before']))} → "
                    f"{_text(Rating(**table.rated['player']))}; the puzzle's: "
                    f"{_text(Rating(**table.rated['puzzle']))}.")
        else:
            rated = not self._tried(account.id, table.puzzle.id)
            said = f"Your puzzle rating: {_text(rating)}" + (
                "." if rated else "; an attempt of yours at this puzzle was rated already, so this one is not.")
        shown["club"] = {"name": account.name, "rated": rated, "rating": _rating(rating), "said": said}
        return shown
