"""The page's puzzle mode at ``brandubh serve``: the next puzzle near the
player's rating, each move judged by :class:`brandubh.puzzles.Attempt`
(the one judge, the terminal's too), a hint, the solution, and the
ratings moved by the result (docs/puzzles.md, "In the page").

The player's rating is the browser's (it sends it with each new puzzle and
keeps what comes back); the puzzles' ratings are kept here, in memory, from
the set's own. Attempts are kept by id, at most :data:`MAX_ATTEMPTS`, the
one used longest ago going first.

=====================================  ======================================
``POST /api/puzzles``                  the next puzzle: ``variant``, ``player``, ``seen``
``GET /api/puzzles/ID``                the attempt as it stands
``POST /api/puzzles/ID/move``          a move: ``move`` (``d1d3`` or ``d1-d3``)
``POST /api/puzzles/ID/hint``          the piece to move (the solve then counts as a miss)
``POST /api/puzzles/ID/solution``      give up: the solution shown
=====================================  ======================================

>>> room = PuzzleRoom()
>>> state = room.new({'variant': 'brandubh', 'player': {'rating': 1500, 'deviation': 350, 'volatility': 0.06}})
>>> state['mode'], state['task'].startswith('The ' + state['to_move'] + ' to move and win in')
('puzzle', True)
>>> attempt = room.attempt(state['id'])
>>> try:
...     room.move(attempt, {'move': 'zz'})
... except PuzzleRefusal as error:
...     print(error.status, str(error) == f"'zz' is not a legal move of the {state['to_move']} here")
400 True
"""

from __future__ import annotations

import math
import random
import re
import secrets
import threading
import time
from typing import Any, Optional

from ..errors import BrandubhError, quote
from ..ratings import DEFAULT, Rating
from ..session import table_state

__all__ = ["PuzzleRoom", "PuzzleTable", "PuzzleRefusal", "MAX_ATTEMPTS", "MAX_SEEN", "task_sentence", "status_line",
           "read_player", "read_sets_ahead"]

#: The most puzzle attempts kept at once; past it the one used longest ago goes.
MAX_ATTEMPTS = 100
#: The most puzzle ids a request may say the player has seen.
MAX_SEEN = 100_000
#: The highest rating a player may send (Glicko-2 ratings stay far below it).
MAX_RATING = 5000.0
_ID = re.compile(r"[0-9a-f]{12}")
ACTIONS = ("move", "hint", "solution")


class PuzzleRefusal(BrandubhError):
    """A puzzle request refused: ``status`` is the HTTP status (400 for
    one out of shape, 404 for no such attempt, 409 for one too late), the
    text a sentence; :class:`brandubh.serve.api.Api` answers it as its own
    refusals (this module stays below the interface, which routes to it).

    >>> PuzzleRefusal('no puzzle here', 404).status
    404
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def read_sets_ahead() -> threading.Thread:
    """Read the shipped puzzle sets now, in a thread of their own (a
    daemon), for a server at its start: reading them takes a tenth of a
    second (most of a second when a file is not the one the suite checked,
    and each puzzle is played through: :mod:`brandubh.puzzles.shipped`),
    which the first puzzle asked for would otherwise wait (the sets are
    kept once read). A set that cannot be read, or is not right, is said
    when a puzzle is asked for, as without it."""
    def read() -> None:
        from ..puzzles import shipped

        try:
            shipped()
        except BrandubhError:
            pass   # the puzzle asked for refuses with the sentence

    reading = threading.Thread(target=read, name="brandubh puzzle sets", daemon=True)
    reading.start()
    return reading


def task_sentence(puzzle: Any) -> str:
    """What the player is asked: ``The defenders to move and win in 2 moves``.

    >>> from brandubh.puzzles import Puzzle
    >>> task_sentence(Puzzle.make('brandubh', '7/7/7/3k3/7/7/a6 d', ['d4d1', 'a1b1', 'd1g1']))
    'The defenders to move and win in 2 moves'
    """
    moves = puzzle.winner_moves
    return f"The {puzzle.winner} to move and win in {moves} move{'s' if moves != 1 else ''}"


def status_line(puzzle: Any, game: Any, verdict: Optional[str]) -> str:
    """The line above the board: the task while the game on it goes on;
    once it has ended, how, in sentences a person would write.

    >>> from brandubh import Game
    >>> from brandubh.puzzles import Puzzle
    >>> easy = Puzzle.make('brandubh', '3aa2/7/1dd4/a4aa/a2k3/3d3/7 d', ['d3g3', 'a3a2', 'g3g1'])
    >>> status_line(easy, Game.replay(['d3g3', 'a3a2'], position=easy.position).game, 'right')
    'The defenders to move and win in 2 moves.'
    >>> status_line(easy, Game.replay(list(easy.solution), position=easy.position).game, 'solved')
    'Solved: the king reached a corner. The defenders win.'
    """
    how = game.how_ended
    if how is None:
        return task_sentence(puzzle) + "."
    side = game.result.side
    return f"{'Solved' if verdict == 'solved' else 'Missed'}: {how}. " + (f"The {side} win." if side else "A draw.")


def read_player(value: object) -> Rating:
    """A request's ``player``: ``{rating, deviation, volatility}``, the
    player's Glicko-2 rating as the browser keeps it (a newcomer's when
    left out); a :class:`PuzzleRefusal` for anything out of shape.

    >>> read_player(None)
    Rating(rating=1500.0, deviation=350.0, volatility=0.06)
    >>> read_player({'rating': 1500, 'deviation': 0, 'volatility': 0.06})
    Traceback (most recent call last):
    ...
    brandubh.serve.puzzles.PuzzleRefusal: player's deviation must be a number above 0 and at most 350, not 0
    """
    if value is None:
        return DEFAULT
    if not isinstance(value, dict) or set(value) != {"rating", "deviation", "volatility"}:
        raise PuzzleRefusal("player must be an object of rating, deviation and volatility (a Glicko-2 rating), "
                           f"not {quote(value)}")
    bounds = {"rating": (0.0, MAX_RATING, True), "deviation": (0.0, DEFAULT.deviation, False),
              "volatility": (0.0, 1.0, False)}
    numbers = []
    for name, (low, high, low_too) in bounds.items():
        number = value[name]
        ok = (isinstance(number, (int, float)) and not isinstance(number, bool) and math.isfinite(number)
              and (low <= number if low_too else low < number) and number <= high)
        if not ok:
            above = "from" if low_too else "above"
            raise PuzzleRefusal(f"player's {name} must be a number {above} {low:g} and at most {high:g}, "
                               f"not {quote(number)}")
        numbers.append(float(number))
    return Rating(*numbers)


def _rating(rating: Rating) -> dict:
    return {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility}


class PuzzleTable:
    """One attempt at a puzzle: the :class:`~brandubh.puzzles.Attempt`
    (the judge, the one that plays its moves), the ``moves`` played (the
    attempt's, the defence's replies between: the :class:`~brandubh.Game`
    shown is replayed from them), the player's rating it started with, and
    what the last request said."""

    def __init__(self, table_id: str, puzzle: Any, player: Rating) -> None:
        from ..puzzles import Attempt

        self.id = table_id
        self.puzzle = puzzle
        self.attempt = Attempt(puzzle)
        self.moves: list[str] = []
        self.player = player
        self.lock = threading.RLock()
        self.used = time.monotonic()
        self.said = task_sentence(puzzle) + "."
        self.verdict: Optional[str] = None
        self.hint: Optional[str] = None
        self.rated: Optional[dict] = None
        #: Whose attempt it is, for a room that keeps attempts per solver (brandubh host: an
        #: account, which alone may act on it); None: anyone with its id.
        self.owner: Any = None

    @property
    def game(self) -> Any:
        """The attempt as a :class:`~brandubh.Game` (the page's account of a
        board is a game's: :func:`~brandubh.session.table_state`)."""
        from ..game import Game

        return Game.replay(self.moves, variant=self.puzzle.rules, position=self.puzzle.position).game


class PuzzleRoom:
    """The attempts by id, and the puzzles' ratings as solves move them.
    ``puzzles``: the set by rule set's name (the shipped one by default,
    read when first asked for). ``who``, where a method takes it, is the
    solver asking (None here: a room of one player's browser; brandubh
    host's room, a subclass, keeps its accounts' ratings by it)."""

    #: The fields of a request for a new puzzle.
    FIELDS: tuple[str, ...] = ("variant", "player", "seen")

    def __init__(self, puzzles: Optional[dict[str, list]] = None, seed: Optional[str] = None,
                 max_attempts: int = MAX_ATTEMPTS) -> None:
        self._sets = puzzles
        self.max_attempts = max_attempts
        self._attempts: dict[str, PuzzleTable] = {}
        self._ratings: dict[str, Rating] = {}
        self._lock = threading.Lock()
        self._rng = random.Random(seed)

    def puzzles(self, variant: str) -> list:
        """The puzzles under a rule set; a :class:`PuzzleRefusal` for a rule
        set with none."""
        from ..puzzles import shipped

        if self._sets is not None:
            found = self._sets.get(variant, [])
        else:
            try:
                found = shipped(variant)
            except BrandubhError as error:
                raise PuzzleRefusal(str(error)) from None
        if not found:
            raise PuzzleRefusal(f"no puzzles under {quote(variant)}: the shipped sets are brandubh and codingame")
        return found

    def rating_of(self, puzzle: Any) -> Rating:
        """A puzzle's rating as solves here have moved it."""
        with self._lock:
            return self._ratings.get(puzzle.id, puzzle.rating)

    def attempt(self, table_id: str, who: Any = None) -> PuzzleTable:
        """The attempt with this id; a 404 for none."""
        if not _ID.fullmatch(table_id):
            raise PuzzleRefusal(f"no puzzle attempt {quote(table_id)} here: an attempt's id is 12 hexadecimal "
                               "digits", 404)
        with self._lock:
            table = self._attempts.get(table_id)
            if table is None:
                raise PuzzleRefusal(f"no puzzle attempt {quote(table_id)} here: it was never made, or it was "
                                   f"closed (the server keeps the {self.max_attempts} used last)", 404)
            table.used = time.monotonic()
            return table

    def new(self, fields: dict, who: Any = None) -> dict:
        """The next puzzle near the player's rating, not one of those
        ``seen`` (the nearest again once every one has been)."""
        variant, player, seen = self.asked(fields)
        table = self.open(self.near(self.puzzles(variant), player.rating, seen), player)
        with table.lock:
            return self.state(table)

    def asked(self, fields: dict) -> tuple[str, Rating, list[str]]:
        """A new puzzle's request read: the rule set's name, the player's
        rating and the puzzles seen; a :class:`PuzzleRefusal` for a field
        out of shape."""
        variant = fields.get("variant", "brandubh")
        if not isinstance(variant, str):
            raise PuzzleRefusal(f"variant must be a rule set's name, not {quote(variant)}")
        player = read_player(fields.get("player"))
        seen = fields.get("seen", [])
        if not isinstance(seen, list) or len(seen) > MAX_SEEN or not all(isinstance(s, str) for s in seen):
            raise PuzzleRefusal(f"seen must be a list of puzzle ids (at most {MAX_SEEN}), not {quote(seen)}")
        return variant.strip() or "brandubh", player, seen

    def near(self, found: list, rating: float, seen: Any) -> Any:
        """One of the puzzles ``found`` nearest ``rating`` not ``seen`` (the
        nearest again once every one has been)."""
        from ..puzzles import pick

        with self._lock:
            puzzle = pick(found, rating, seen, rng=self._rng) or pick(found, rating, rng=self._rng)
        assert puzzle is not None  # the set is not empty
        return puzzle

    def open(self, puzzle: Any, player: Rating) -> PuzzleTable:
        """A new attempt at ``puzzle``, kept by its id (the one used
        longest ago closed past :attr:`max_attempts`)."""
        with self._lock:
            table_id = secrets.token_hex(6)
            while table_id in self._attempts:  # pragma: no cover - one chance in 2**48
                table_id = secrets.token_hex(6)
            table = PuzzleTable(table_id, puzzle, player)
            self._attempts[table_id] = table
            old = sorted((t for t in self._attempts.values() if t is not table), key=lambda t: t.used)
            for gone in old[:max(0, len(self._attempts) - self.max_attempts)]:
                del self._attempts[gone.id]
        return table

    def _finish(self, table: PuzzleTable) -> None:
        """Once the attempt is over: the player's rating and the puzzle's
        moved (one rating period each, :func:`brandubh.puzzles.rate`)."""
        from ..puzzles import rate

        score = table.attempt.score
        assert score is not None
        with self._lock:
            before = self._ratings.get(table.puzzle.id, table.puzzle.rating)
            mine, its = rate(table.player, before, score)
            self._ratings[table.puzzle.id] = its
        table.rated = {"score": score, "player": _rating(mine), "player_before": _rating(table.player),
                       "puzzle": _rating(its), "puzzle_before": _rating(before)}

    def move(self, table: PuzzleTable, fields: dict) -> dict:
        """A move judged: right (the defence's reply played), solved, or
        wrong (the solution shown). A move that is not legal is a 400 and
        changes nothing; so is one after the attempt is over (409)."""
        move = fields["move"]   # read by the interface (brandubh.serve.api.move_text)
        if table.attempt.over:
            raise PuzzleRefusal("the attempt is over: press Next puzzle", 409)
        try:
            step = table.attempt.play(move)
        except BrandubhError as error:
            raise PuzzleRefusal(str(error)) from None
        table.moves.append(move)
        table.verdict = step.verdict
        table.hint = None
        if step.verdict == "right":
            assert step.reply is not None
            table.moves.append(step.reply)
            table.said = f"Right. The {_other(table.puzzle.winner)} answer {_shown(table.game)}."
        elif step.verdict == "solved":
            table.said = "Solved!" + (" (after a hint: it counts as a miss)" if table.attempt.hinted else "")
        else:
            table.said = f"Wrong: the move here was {step.expected}. The solution is shown."
        if table.attempt.over:
            self._finish(table)
        return self.state(table)

    def give_hint(self, table: PuzzleTable, fields: dict) -> dict:
        """The piece to move, named (the solve then counts as a miss)."""
        try:
            table.hint = table.attempt.hint()
        except BrandubhError as error:
            raise PuzzleRefusal(str(error), 409) from None
        table.said = f"A hint: {table.hint}."
        return self.state(table)

    def give_up(self, table: PuzzleTable, fields: dict) -> dict:
        """The solution shown; the attempt a miss."""
        if table.attempt.over:
            raise PuzzleRefusal("the attempt is over: press Next puzzle", 409)
        table.attempt.score = 0.0
        table.said = "The solution is shown."
        self._finish(table)
        return self.state(table)

    def state(self, table: PuzzleTable) -> dict:
        """What the page shows of an attempt: the board
        (:func:`~brandubh.session.table_state`), the task, the line above
        the board (:func:`status_line`), the verdict, the hint, the solution
        once over, and the ratings moved. No move of the solver's is marked
        or named as winning at once (no ``wins`` in ``legal``, none of its
        ``checks``): the last move of the solution is the player's to find,
        not the page's to show."""
        puzzle, attempt = table.puzzle, table.attempt
        over = attempt.over
        game = table.game
        shown = table_state(game, said=table.said, movers=() if over else (puzzle.winner,))
        shown["legal"] = [{key: value for key, value in move.items() if key != "wins"} for move in shown["legal"]]
        shown["checks"] = [check for check in shown["checks"] if check["side"] != puzzle.winner]
        return {
            "id": table.id,
            "mode": "puzzle",
            "puzzle": {"id": puzzle.id, "rules": puzzle.rules, "winner": puzzle.winner,
                       "moves": puzzle.winner_moves, "themes": list(puzzle.themes),
                       "rating": _rating(self.rating_of(puzzle))},
            "task": task_sentence(puzzle),
            "status_line": status_line(puzzle, game, table.verdict),
            "verdict": table.verdict,
            "hint": table.hint,
            "over": over,
            "solution": list(attempt.solution()) if over else None,
            "rated": table.rated,
            "your_turn": not over,
            "plies": game.ply,
            **shown,
        }


def _other(side: str) -> str:
    return "attackers" if side == "defenders" else "defenders"


def _shown(game: Any) -> str:
    """The last move as the game shows it (``a3-a2``)."""
    return game.shown[-1] if game.shown else ""
