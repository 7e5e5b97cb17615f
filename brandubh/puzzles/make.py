"""The puzzle generator: positions from games or self-play where the side
to move has a forced win that only one move keeps, at each of its turns,
proven by the solver and checked by the proof checker (docs/puzzles.md).

:func:`puzzle_at` makes the puzzle of one position, or says why there is
none; :func:`selfplay_puzzles` and :func:`game_puzzles` find the positions
in one game; ``brandubh puzzles make`` runs them on every core.

What makes a puzzle (each step a proof, never a guess of the search's):

1. the solver proves that the side to move wins, with the shortest win
   of 3 to 29 plies (2 to 15 of the winner's moves), and the checker
   verifies its proof;
2. along the main line, at each of the defence's turns, every reply is
   solved: the best defence is the reply after which the win is longest
   (the first such in the engine's order of moves);
3. at each of the winner's turns, with the win ``k`` plies away, every
   other move is proven not to win within ``k`` plies: it ends the game
   otherwise than in the winner's win, or the solver, asked that one
   question (``side=``, ``within=``: docs/proofs.md), proves that the
   winner does not win within what is left. A move not so proven, or
   proven to win as fast, drops the position. (Before the proofs, a
   sieve: a move the search sees win as fast drops it at once.)

The main line's positions are solved as games that start there (the line
before them is not history): the repetition rule can then only take wins
away from the winner, never give one, under the rule sets where
repetition draws; where it loses, the solver does not look for wins by
repetition at all (docs/proofs.md). The winner's other moves are asked
about as the puzzle is played: a game from the puzzle's position, the
line so far and the move its history.

>>> found = puzzle_at('7/7/7/3k3/7/7/a6 d', 'brandubh', origin='example')
>>> found.puzzle is None, found.reason
(True, 'the search sees d4a4 win within 3 plies too, beside d4d1')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..core.position import move_text
from ..core.rules import Rules
from ..core.outcomes import outcome_name
from ..core.solve import Solved, solve_rules, table_mb
from ..notation import CORNERS, SQUARE_NAMES, square_name, square_parse
from ..proof_check import check_proof
from ..ratings import Rating
from ..solve import Solution, solve
from .puzzle import Puzzle

__all__ = ["Settings", "Found", "puzzle_at", "selfplay_puzzles", "game_puzzles", "themes_of", "start_rating",
           "LEVELS", "MIN_MOVES", "MAX_MOVES"]

#: The fewest and the most of the winner's moves a puzzle has.
MIN_MOVES, MAX_MOVES = 2, 15
#: The search's budgets (positions a move) of the engines whose solve rate
#: sets a puzzle's starting rating: a weak, a middling and a strong one.
LEVELS = (300, 3_000, 30_000)
#: The starting rating: a base, what each winner's move past the first
#: adds, and what each engine level that misses the solution adds.
_BASE, _PER_MOVE, _PER_MISS = 1000.0, 150.0, 200.0
#: The search's budget for the sieve of the winner's other moves.
SIEVE_BUDGET = 3_000
#: The most MiB of table a solve of the generator's is given.
TABLE_MB = 16
#: A new puzzle's deviation: provisional, so that its first solves move it.
_DEVIATION = 300.0


@dataclass(frozen=True)
class Settings:
    """The solver's budgets: ``root`` for the puzzle's position and every
    position of the main line; ``probe``, then ``refute`` when that was
    not enough, for the question whether another move of the winner's
    wins as fast (the solver stops once it is answered: most take a few
    thousand positions, and the small table of the first is quick to
    make); where both fail, the same asked after each of up to ``tries``
    replies of the defence's, with ``refute``."""

    root: int = 2_000_000
    probe: int = 20_000
    refute: int = 1_000_000
    tries: int = 3
    rate: bool = True


@dataclass(frozen=True)
class Found:
    """What :func:`puzzle_at` found: the ``puzzle``, or None and the
    ``reason``; ``solves``: the solver's calls it took."""

    puzzle: Optional[Puzzle]
    reason: str = ""
    solves: int = 0


@dataclass
class _Work:
    """One position's work: its rule set, the budgets, the solves so far."""

    rules_name: str
    settings: Settings
    solves: int = 0

    def solve(self, position: str, budget: int) -> Solution:
        self.solves += 1
        # The wins looked for are short: a small table does, and is quick to make.
        return solve(position, self.rules_name, budget=budget, hash_mb=min(TABLE_MB, table_mb(budget)))

    def within(self, game: Rules, side: str, within: int, budget: int) -> Solved:
        """Whether ``side`` wins within ``within`` plies of ``game`` (its
        history counted), asked alone."""
        self.solves += 1
        return solve_rules(game, budget, hash_mb=min(TABLE_MB, table_mb(budget)), side=side, within=within)


class _Drop(Exception):
    """The position makes no puzzle: the reason."""


def _not_within(work: _Work, game: Rules, winner: str, within: int) -> Optional[bool]:
    """Whether the winner is proven not to win within ``within`` plies from
    ``game`` (the defence to move; its history the puzzle's line): True
    proven, False a win that fast found, None neither within the budgets.
    Where a repetition loses, a "no" past the solver's ``exact_within`` is
    "short of forcing a repetition", as every such fact of the solver's is
    (docs/proofs.md)."""
    if game.is_over():
        return game.winner != winner
    if within <= 0:
        return True
    for budget in (work.settings.probe, work.settings.refute):
        s = work.within(game, winner, within, budget)
        if s.outcome == "no_win":
            return True
        if s.outcome == "win":
            return False
    # Where the question is too hard as a whole, a reply of the defence's
    # that leaves no win within what is then left answers it too: the
    # search's choice first, then the engine's order.
    replies = game.moves()
    hint = game.search(budget=500)
    if hint is not None:
        replies.sort(key=lambda m: m != hint.move)
    for reply in replies[: work.settings.tries]:
        child = game.clone()
        child.play(reply)
        if child.is_over():
            if child.winner != winner:
                return True
            continue
        if within - 1 <= 0 or work.within(child, winner, within - 1, work.settings.refute).outcome == "no_win":
            return True
    return None


def _others(game: Rules, move: str, plies: int) -> list[tuple[str, Rules]]:
    """The winner's other moves and the games they leave; :class:`_Drop`
    when one ends the game in the winner's win, or the search sees one win
    within ``plies``: a sieve before any proof (a search's claim can only
    drop a puzzle here, never keep one)."""
    winner = game.side
    children = []
    for other in game.moves():
        text = move_text(other)
        if text == move:
            continue
        child = game.clone()
        child.play(other)
        if child.is_over():
            if child.winner == winner:
                raise _Drop(f"two moves win within {plies} plies ({move} and {text})")
            continue
        seen = child.search(budget=SIEVE_BUDGET) if plies > 1 else None
        if seen is not None and seen.is_loss and (seen.mate_in or 0) <= plies - 1:
            raise _Drop(f"the search sees {text} win within {plies} plies too, beside {move}")
        children.append((text, child))
    return children


def _unique(work: _Work, winner: str, move: str, plies: int, children: list[tuple[str, Rules]]) -> None:
    """Raise :class:`_Drop` unless every other move (``children``, from
    :func:`_others`) is proven not to win within ``plies``."""
    for text, child in children:
        verdict = _not_within(work, child, winner, plies - 1)
        if verdict is False:
            raise _Drop(f"two moves win within {plies} plies ({move} and {text})")
        if verdict is None:
            raise _Drop(f"{text} was not shown to lose or win slower than {move} within the budgets")


def _best_defence(work: _Work, game: Rules, winner: str, left: int) -> tuple[str, str]:
    """The defence's best reply in ``game`` (the defence to move, the win
    ``left`` plies away) and the winner's answer: the first reply, in the
    engine's order of moves, after which the winner's shortest win is
    ``left - 1`` plies, and the first move of a proof of it. Each reply is
    asked of the solver as the winner's win within ``left - 1`` plies, then,
    where that proof is not shorter, within ``left - 2`` (the replies after
    the best are not asked at all). The positions are solved as games that
    start there, as the puzzle's own is."""
    replies = []
    for number in game.moves():
        child = game.clone()
        child.play(number)
        if child.is_over():
            raise _Drop(f"the reply {move_text(number)} ends the game otherwise than the proof says")
        replies.append((move_text(number), child.position))
    for reply, position in replies:
        fresh = Rules(position, work.rules_name)
        found = work.within(fresh, winner, left - 1, work.settings.root)
        if found.outcome != "win" or found.first_move is None:
            raise _Drop(f"after the reply {reply} the win within {left - 1} plies was not found within the budget")
        if (found.plies or 0) <= left - 2:
            continue  # a quicker win: not the best defence
        if found.no_win_within.get(winner, 0) < left - 2 and left - 2 >= 1:
            shorter = work.within(fresh, winner, left - 2, work.settings.root)
            if shorter.outcome == "win":
                continue
            if shorter.outcome != "no_win":
                raise _Drop(f"after the reply {reply} the shortest win was not found within the budget")
        return reply, move_text(found.first_move)
    raise _Drop(f"every reply leaves a win within {left - 2} plies, not {left - 1}")


def _main_line(work: _Work, game: Rules, first: str, plies: int) -> list[str]:
    """The solution: the winner's only moves and the defence's best
    replies. The line is found first and every turn of the winner's put
    through the sieve (cheap), then each is proven (dear)."""
    winner = game.side
    line: list[str] = []
    turns: list[tuple[str, int, list[tuple[str, Rules]]]] = []
    move, left = first, plies
    while True:
        turns.append((move, left, _others(game, move, left)))
        game.play(move)
        line.append(move)
        left -= 1
        if game.is_over():
            break
        reply, move = _best_defence(work, game, winner, left)
        game.play(reply)
        line.append(reply)
        left -= 1
    for move, left, children in turns:
        _unique(work, winner, move, left, children)
    return line


def _beside_corners() -> set[str]:
    """The squares beside a corner (a2, b1, ...)."""
    beside = set()
    for corner in CORNERS:
        at = square_parse(SQUARE_NAMES[corner])
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            name = square_name(at[0] + df, at[1] + dr) if at else None
            if name is not None:
                beside.add(name)
    return beside


def themes_of(position: str, rules_name: str, solution: Sequence[str]) -> tuple[str, ...]:
    """The themes found from a solution (:data:`~brandubh.puzzles.THEMES`):
    how the last move ends the game; a double threat when, before the
    defence's last reply, the winner threatens two different winning
    moves; a sacrifice when a reply of the defence's takes a piece; a
    blocked corner when an attacker's winning line puts a piece beside a
    corner."""
    game = Rules(position, rules_name)
    winner = game.side
    found: list[str] = []
    corners_beside = _beside_corners()
    for ply, move in enumerate(solution):
        if ply % 2 == 0 and winner == "attackers" and move[2:] in corners_beside:
            if "blocked-corner" not in found:
                found.append("blocked-corner")
        if ply == len(solution) - 2:
            # Before the defence's last reply: the winner's threats, as if it were to move again.
            board = game.position.rsplit(" ", 1)[0]
            turned = Rules(f"{board} {winner[0]}", rules_name)
            threats = set()
            for m in turned.moves():
                c = turned.clone()
                c.play(m)
                if c.is_over() and c.winner == winner:
                    threats.add(move_text(m))
            if len(threats) >= 2:
                found.append("double-threat")
        game.play(move)
        report = game.report()
        if ply % 2 == 1 and report is not None and report.captures:
            if "sacrifice" not in found:
                found.append("sacrifice")
    ending = {"corner": "escape", "capture": "king-capture", "no_pieces": "no-pieces", "encircled": "encirclement",
              "no_move": "blockade"}.get(outcome_name(game.outcome) or "")
    return tuple(([ending] if ending else []) + found)


def start_rating(position: str, rules_name: str, solution: Sequence[str], rate: bool = True) -> Rating:
    """A new puzzle's rating: from its length (the winner's moves) and how
    many of the engines of :data:`LEVELS` miss its solution (one that plays
    another move at one of the winner's turns misses it)."""
    moves = (len(solution) + 1) // 2
    misses = 0
    if rate:
        for budget in LEVELS:
            game = Rules(position, rules_name)
            for ply, move in enumerate(solution):
                if ply % 2 == 0:
                    found = game.search(budget=budget)
                    if found is None or move_text(found.move) != move:
                        misses += 1
                        break
                game.play(move)
    return Rating(_BASE + _PER_MOVE * (moves - 1) + _PER_MISS * misses, _DEVIATION, 0.06)


def puzzle_at(position: str, rules_name: str, origin: str = "", settings: Settings = Settings()) -> Found:
    """The puzzle at ``position`` under ``rules_name``, or why there is none
    (:class:`Found`)."""
    work = _Work(rules_name, settings)
    try:
        root = work.solve(position, settings.root)
        game = Rules(position, rules_name)
        if root.winner != game.side or not root.shortest or root.first_move is None:
            raise _Drop(f"the side to move has no win proven the shortest ({root.result})")
        plies = root.plies or 0
        if not MIN_MOVES <= (plies + 1) // 2 <= MAX_MOVES:
            raise _Drop(f"a win in {plies} plies is not {MIN_MOVES} to {MAX_MOVES} moves")
        line = _main_line(work, game, root.first_move, plies)
        # The checker walks the proof in Python, dearer than the rest: only
        # for a position that makes a puzzle (most are dropped above).
        verdict = check_proof(root.proof_text())
        if not verdict.ok:  # pragma: no cover - the solver and the checker disagree: a bug to report
            raise _Drop(f"the checker refuses the solver's proof: {verdict.sentence()}")
    except _Drop as drop:
        return Found(None, str(drop), work.solves)
    themes = themes_of(position, rules_name, line)
    rating = start_rating(position, rules_name, line, settings.rate)
    return Found(Puzzle.make(rules_name, position, line, themes, rating, origin), "", work.solves)


@dataclass
class GameResult:
    """What one game gave: its ``key`` (what the progress file records),
    the ``puzzles`` found, the positions ``tried``."""

    key: str
    puzzles: list[Puzzle] = field(default_factory=list)
    tried: int = 0


#: The search's budget for the claim that a position has a forced win (a
#: cheap sieve before the solver), and for self-play's moves, by the game's
#: seed: several levels of play.
CLAIM_BUDGET = 20_000
PLAY_LEVELS = (5_000, 30_000, 120_000)
#: The most positions of one game handed to the solver.
MAX_TRIES = 4


def _puzzles_in(game: Rules, plies: Sequence[int], moves: Sequence[int], origin: str, result: GameResult,
                settings: Settings) -> None:
    """Try the positions of a played game: the start and after each move."""
    seen: set[str] = set()
    for ply in range(len(moves) + 1):
        if ply in plies and result.tried < MAX_TRIES and game.position not in seen:
            found = game.search(budget=CLAIM_BUDGET)
            mate = found.mate_in if found is not None and found.is_win else None
            if mate is not None and 3 <= mate <= 2 * MAX_MOVES - 1:
                result.tried += 1
                made = puzzle_at(game.position, game.variant.as_string(), f"{origin} {ply}", settings)
                if made.puzzle is not None:
                    result.puzzles.append(made.puzzle)
                    # The rest of its line is the same puzzle, shorter; and
                    # a game that comes back to its position finds it again.
                    seen.add(game.position)
                    line = made.puzzle.rules_at()
                    for move in made.puzzle.solution:
                        line.play(move)
                        seen.add(line.position)
        if ply < len(moves):
            game.play(moves[ply])
            if game.is_over():
                break


def selfplay_puzzles(rules_name: str, seed: int, settings: Settings = Settings()) -> GameResult:
    """The puzzles of self-play game ``seed`` under ``rules_name``: the
    search against itself at one of :data:`PLAY_LEVELS` (by the seed), from
    the set-up after a few random moves, one move in seven random (in games
    of an odd seed, one of the defenders' in two): the same seed gives the
    same game."""
    rng = random.Random(f"{rules_name} {seed}")
    budget = PLAY_LEVELS[seed % len(PLAY_LEVELS)]
    # The defenders win most games between equals, so in every other game
    # they play a random move one time in two: the attackers' wins too.
    weak = "defenders" if seed % 2 else None
    game = Rules(variant=rules_name)
    moves: list[int] = []
    opening = rng.randint(2, 8)
    while not game.is_over() and game.ply < 160:
        chance = 1 / 2 if game.side == weak else 1 / 7
        if game.ply < opening or rng.random() < chance:
            move = rng.choice(game.moves())
        else:
            found = game.search(budget=budget, seed=rng.randrange(1 << 30))
            assert found is not None
            move = found.move
        moves.append(move)
        game.play(move)
    result = GameResult(f"selfplay {rules_name} {seed}")
    _puzzles_in(Rules(variant=rules_name), range(len(moves) + 1), moves, f"selfplay {rules_name} {seed}", result,
                settings)
    return result


def game_puzzles(key: str, start: str, rules_name: str, moves: Sequence[str],
                 settings: Settings = Settings()) -> GameResult:
    """The puzzles of a game given as its start and moves (``key`` names it
    in the origin and the progress file: ``game NAME N``)."""
    game = Rules(start, rules_name)
    numbers = []
    walk = game.clone()
    for move in moves:
        if walk.is_over() or walk.play(move) != Rules.PLAY_OK:
            break
        numbers.append(walk.move_at(walk.ply) or 0)
    result = GameResult(key)
    _puzzles_in(game, range(len(numbers) + 1), numbers, key, result, settings)
    return result
