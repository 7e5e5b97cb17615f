"""Perfect play where it can be had: a forced win proven, or a draw, from a
game as it stands, and the proof written down for anyone to check
(docs/proofs.md).

:func:`solve` runs the proof solver (:mod:`brandubh.core.solve`, in C) on a
:class:`~brandubh.Game` or a position; the :class:`Solution` says what it
found in a sentence, as a dict for JSON, and, for a win, as a proof file
(:meth:`Solution.proof_text`) that :mod:`brandubh.proof_check`, written
apart from the solver, verifies.

>>> found = solve('7/7/7/3k3/7/7/a6 d')
>>> found.result, found.plies, found.first_move
('defenders win', 3, 'd4d1')
>>> print(found.proof_text().splitlines()[1])
variant brandubh
>>> from brandubh.proof_check import check_proof
>>> check_proof(found.proof_text()).ok
True

One side's win within a bound, and nothing else (``side=``, ``within=``):
the defenders win in 3 plies here, so not within 2, and within 3 with a
proof.

>>> solve('7/7/7/3k3/7/7/a6 d', side='defenders', within=2).sentence()
'the defenders do not win within 2 plies (proven: every line they try is answered)'
>>> within = solve('7/7/7/3k3/7/7/a6 d', side='defenders', within=3)
>>> within.result, within.plies, check_proof(within.proof_text()).ok
('defenders win', 3, True)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from .core.outcomes import outcome_name
from .core.rules import Rules
from .core.solve import DEFAULT_BUDGET, SAVE_EVERY, Progress, Solved, solve_rules
from .errors import ArgumentError
from .game import Game
from .proof_check import HEADER, NO_WINNER, plies_text
from .variant import Variant, VariantLike, as_variant

__all__ = ["solve", "Solution", "Progress", "DEFAULT_BUDGET"]


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found, for the game that ``variant``, ``start``
    and ``moves`` describe (the position solved is the one those moves
    reach), with a ``budget`` of positions. ``solved`` is the solver's own
    result (:class:`brandubh.core.solve.Solved`)."""

    solved: Solved
    variant: Variant
    start: str
    moves: tuple[str, ...]
    budget: int
    #: The ending's name when the game was over before the solver began
    #: (``'corner'``, ``'no_pieces'``...): its result is the game's own.
    ended: Optional[str] = None

    @property
    def result(self) -> str:
        """``'attackers win'``, ``'defenders win'``, ``'draw'``, ``'no win
        within'`` (asked with ``side=``: that side proven not to win within
        :attr:`within` plies) or ``'not proven'``."""
        if self.solved.outcome == "win":
            return f"{self.solved.winner} win"
        if self.solved.outcome == "draw":
            return "draw"
        if self.solved.outcome == "no_win":
            return "no win within"
        return "not proven"

    @property
    def side(self) -> Optional[str]:
        """The side whose win alone was asked about (``side=``), or None."""
        return self.solved.side

    @property
    def within(self) -> Optional[int]:
        """The plies within which :attr:`side`'s win was looked for (the
        plies the rules leave at most), or None for a full solve."""
        return self.solved.within if self.solved.side is not None else None

    @property
    def winner(self) -> Optional[str]:
        return self.solved.winner

    @property
    def plies(self) -> Optional[int]:
        """A win's longest line, in plies: the plies to the end against the
        best defence when :attr:`shortest`."""
        return self.solved.plies

    @property
    def shortest(self) -> bool:
        return self.solved.shortest

    @property
    def first_move(self) -> Optional[str]:
        """The winner's first move (stored form) when the winner is to move."""
        proof = self.solved.proof
        return proof[0][1] if self.solved.first_move is not None and proof else None

    def sentence(self) -> str:
        """What was found, in words: the first line ``brandubh solve``
        prints."""
        s = self.solved
        if self.ended is not None:
            return f"the game is over: {self.result} ({self.ended})"
        if s.outcome == "win":
            length = plies_text(s.plies or 0)
            if s.shortest:
                how = "the shortest win"
            elif s.side is not None:
                how = f"within {plies_text(s.within)}, as asked; not shown to be the shortest"
            else:
                how = "not shown to be the shortest within the budget"
            return f"{s.winner} win: the longest line is {length} ({how})"
        if s.outcome == "draw":
            return (f"draw: neither side can force a win in the {plies_text(s.limit)} the rules leave")
        if s.outcome == "no_win":
            aside = "" if s.exact else ", short of forcing a repetition, which the solver does not look for"
            return (f"the {s.side} do not win within {plies_text(s.within)} "
                    f"(proven: every line they try is answered{aside})")
        if s.outcome == "unknown":
            return ("not proven: neither side can force a win without the other repeating a position "
                    "or before the quiet cap, which the solver cannot settle under these rules")
        if s.outcome == "lost":
            return ("not proven: a win was found but its proof could not be rebuilt from the table; "
                    "give a larger table (--hash)")
        asked = f" whether the {s.side} win within {plies_text(s.within)}" if s.side is not None else ""
        return f"not proven{asked} within the budget ({s.nodes:,} positions){self._no_win()}"

    def _no_win(self) -> str:
        """What the solver refuted on the way: ``; neither side wins within
        11 plies``, or each side's, or nothing."""
        within = {side: n for side, n in self.solved.no_win_within.items() if n}
        if not within:
            return ""
        aside = " (short of forcing a repetition)" if max(within.values()) > self.solved.exact_within else ""
        if len(within) == 2 and len(set(within.values())) == 1:
            return f"; neither side wins within {plies_text(next(iter(within.values())))}{aside}"
        return "; " + ", ".join(f"the {side} do not win within {plies_text(n)}" for side, n in within.items()) + aside

    def as_dict(self) -> dict[str, Any]:
        """The result for JSON: ``result``, ``winner``, ``plies`` (to the
        end), ``shortest``, ``first_move``, the proof's ``positions`` and
        ``lines``, the positions ``searched`` of the ``budget``, each
        side's ``no_win_within`` (the most plies within which it is proven
        not to win, repetitions aside), the positions a state file held
        when the run ``resumed`` from it (0 for none), ``exact_within`` (the
        plies up to which a "not won within" is the rules' own), the
        question asked with ``side=`` (``side`` and ``within``, else None),
        and the game (``variant``, ``start``, ``moves``)."""
        s = self.solved
        return {
            "result": self.result,
            "winner": s.winner,
            "plies": s.plies,
            "shortest": s.shortest if s.outcome == "win" else None,
            "first_move": self.first_move,
            "positions": s.positions,
            "lines": len(s.proof),
            "searched": s.nodes,
            "resumed": s.resumed,
            "no_win_within": dict(s.no_win_within),
            "exact_within": s.exact_within,
            "side": self.side,
            "within": self.within,
            "budget": self.budget,
            "variant": self.variant.as_string(),
            "start": self.start,
            "moves": list(self.moves),
        }

    def proof_text(self) -> str:
        """The proof as a proof file (the format :mod:`brandubh.proof_check`
        reads): the game, the winner, the longest line, then every position
        the proof reaches with the winner to move and the winner's move.
        A draw's is both sides' wins refuted (``winner none``, ``plies``
        the plies the rules leave, then every position a refutation reaches
        with the refuting side to move, and its move). Only a win, or a
        draw whose refutations were written down, has one: an
        ArgumentError otherwise."""
        s = self.solved
        if self.ended is not None:
            raise ArgumentError(f"the game is over already ({self.ended}): there is nothing to prove")
        if s.outcome == "draw" and s.proof:
            said = (f"# brandubh solve: a draw; neither side wins in the {plies_text(s.limit)} the rules leave; "
                    f"{s.positions:,} positions")
            winner, plies = NO_WINNER, s.limit
        elif s.outcome == "win":
            shortest = "the shortest win" if s.shortest else "not shown to be the shortest"
            said = (f"# brandubh solve: the {s.winner} win; the longest line is {plies_text(s.plies or 0)} "
                    f"({shortest}); {s.positions:,} positions")
            winner, plies = s.winner or "", s.plies or 0
        else:
            why = " (its refutations are too large to write down)" if s.outcome == "draw" else ""
            raise ArgumentError(f"only a win or a draw has a proof file; this is {self.result}{why}")
        head = [
            said,
            f"variant {self.variant.as_string()}",
            f"start {self.start}",
            "moves" + "".join(f" {m}" for m in self.moves),
            f"winner {winner}",
            f"plies {plies}",
            f"lines {len(s.proof)}",
        ]
        assert [line.split(" ", 1)[0] for line in head[1:]] == list(HEADER)
        return "\n".join(head + [f"{position}: {move}" for position, move in s.proof]) + "\n"


def solve(game: Union[Game, str], variant: VariantLike = None, *, budget: int = DEFAULT_BUDGET,
          hash_mb: Optional[int] = None, stop: Optional[threading.Event] = None,
          progress: Optional[Callable[[Progress], None]] = None, state: Optional[str] = None,
          save_every: int = SAVE_EVERY, side: Optional[str] = None, within: Optional[int] = None,
          threads: int = 1) -> Solution:
    """Solve a game as it stands (its history counts: repetition and the
    move caps), or a position string under ``variant`` (a game carries its
    own rule set: ``variant`` must then be None). ``budget``, ``hash_mb``,
    ``stop``, ``progress``, ``state`` (a file the solver's state is saved in
    as it goes, and resumed from), ``save_every`` and ``threads`` (1, the
    default, deterministic; 2 looks for both sides' wins at once) are
    :func:`brandubh.core.solve.solve_rules`'s;
    Ctrl-C raises KeyboardInterrupt within a fraction of a second.

    ``side`` and ``within`` ask one question only: does ``side`` win
    within ``within`` plies (by default the plies the rules leave)? The
    answer is ``'attackers win'`` or ``'defenders win'`` (with a proof the
    checker verifies), ``'no win within'`` (proven: every line of the
    other side's defence answered; :attr:`Solved.exact` says whether it is
    the rules' own or "short of forcing a repetition" where a repetition
    loses), or ``'not proven'`` within the budget. It spends the budget on
    that side's win alone, up to that bound alone: much cheaper than a full
    solve where only that is wanted."""
    if isinstance(game, Game):
        if variant is not None:
            raise ArgumentError("a game carries its own rule set: give no variant with it")
        rules_set, start, moves = game.variant, game.start, tuple(game.log)
    elif isinstance(game, str):
        rules_set, start, moves = as_variant(variant), game, ()
    else:
        raise ArgumentError(f"solve takes a Game or a position string, not {type(game).__name__}")
    rules = Rules(start, rules_set)
    for move in moves:
        rules.play(move)
    ended = outcome_name(rules.outcome) if rules.is_over() else None
    return Solution(solve_rules(rules, budget, hash_mb=hash_mb, stop=stop, progress=progress, state=state,
                                save_every=save_every, side=side, within=within, threads=threads),
                    rules_set, rules.start, moves, budget, ended)
