"""The checker of proof files: a proof replayed under the rules, move by
move, written apart from the solver that makes them (docs/proofs.md).

It reads a proof file (the format below), sets the game up through the
rules' public interface (:class:`~brandubh.Rules`: the start, the moves
before the position proved), and walks every line of play the proof
allows: where the winner is to move it plays the proof's move for the
position, where the loser is it plays every legal move, and every line
must end in the winner's win as the rules judge it. It shares nothing
with the solver (csrc/solve.c and brandubh.core.solve are never imported:
tests/test_solve.py holds it to that), so a fault there cannot hide here.

The format, one record a line (``#`` lines are comments, blank lines are
skipped)::

    variant brandubh
    start 7/7/7/3k3/7/7/a6 d
    moves
    winner defenders
    plies 3
    lines 8
    7/7/7/3k3/7/7/a6 d: d4d1
    7/7/7/7/7/7/1a1k3 d: d1c1
    ...

The first three lines are a game text (docs/rules.md: the rule set, the
start, the moves made before the position proved); ``winner`` is the side
the proof says wins, ``plies`` its longest line, ``lines`` how many
position lines follow: every position the proof reaches with the winner to
move, each once, with the winner's move there as stored (``d4d1``).

What is checked, and why it is enough: the winner's move is legal; every
line ends, in the winner's win; no line meets a position twice (the proof
is a graph without a cycle, so along every line each position occurs once
more than it had before the proof's start, and the rules' repetition count
is the same whichever way a position is reached: each position need be
judged once); no line passes the ply cap or the quiet cap before it ends
(the deepest any line reaches a position, and the most moves without a
capture before it, are worked out over the whole graph); the longest line
is ``plies`` long; and every line of the file is a position the proof
reaches, given once.

A draw's proof (``winner none``; ``plies``, the plies the rules leave) is
both sides' wins refuted: its lines are the positions each refutation
reaches with the refuting side to move (the side to move says whose win a
line refutes), with the refuting move. For each side, every line where it
moves is played with all its moves, every other with the proof's move,
under the rules (the game's history, repetition and the caps counted),
each to its end: none may end in that side's win. A position is walked
once for each state of the game it is reached in (the position, the ply,
and the positions since the last capture: all its future depends on under
the rules), so a refutation that relies on a repetition is checked for
the history it was reached by, and no other.

>>> text = '''variant brandubh
... start 7/7/7/3k3/7/7/a6 d
... moves
... winner defenders
... plies 3
... lines 1
... 7/7/7/3k3/7/7/a6 d: d4d1'''
>>> print(check_proof(text).sentence())
line 7: after d4d1, the reply a1b1 leaves 7/7/7/7/7/7/1a1k3 d, which has no line: the proof does not answer it
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .core.position import move_text
from .core.outcomes import Outcome, outcome_name
from .core.rules import Rules
from .errors import BrandubhError, quote
from .notation import SIDES, move_parse, position_ok
from .variant import as_variant
from .words import plural

__all__ = ["check_proof", "Verdict", "ProofError", "HEADER", "NO_WINNER", "plies_text"]

#: The header's keywords, in their order.
HEADER = ("variant", "start", "moves", "winner", "plies", "lines")
#: A draw's ``winner``.
NO_WINNER = "none"


class ProofError(BrandubhError):
    """A proof fails: ``line`` is the line of the file that fails (0 when
    it is the file as a whole)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Verdict:
    """What :func:`check_proof` found: ``ok``, or the ``line`` that fails
    (0 for the file as a whole) and the ``reason``; for a verified proof,
    the ``winner`` (None for a draw), the longest line in ``plies`` (a
    draw's: the plies the rules leave) and the ``positions`` the proof
    reaches (either side to move; a draw's, each side's refutation's
    together)."""

    ok: bool
    line: int = 0
    reason: str = ""
    winner: Optional[str] = None
    plies: int = 0
    positions: int = 0

    def sentence(self) -> str:
        """``verified: ...`` or the failing line and why."""
        if self.ok and self.winner is None:
            return (f"verified: a draw, neither side wins in the {plies_text(self.plies)} the rules leave, "
                    f"{plural(self.positions, 'position')} checked")
        if self.ok:
            return (f"verified: the {self.winner} win, the longest line {plies_text(self.plies)}, "
                    f"{plural(self.positions, 'position')} checked")
        return f"line {self.line}: {self.reason}" if self.line else self.reason


def check_proof(text: object) -> Verdict:
    """Check a proof file's text: a :class:`Verdict`, never an exception
    for a proof that fails or a text that is not one."""
    if not isinstance(text, str):
        return Verdict(False, 0, f"a proof is text, not {quote(text)}")
    try:
        return _Checker(text).run()
    except ProofError as error:
        return Verdict(False, error.line, error.reason)


class _Checker:
    """One proof's check: the file read, then the walk."""

    def __init__(self, text: str) -> None:
        self.header: dict[str, tuple[int, str]] = {}
        self.answers: dict[str, tuple[int, str]] = {}
        self.order: list[str] = []
        self._read(text)

    # -- reading -----------------------------------------------------------

    def _read(self, text: str) -> None:
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if len(self.header) < len(HEADER):
                want = HEADER[len(self.header)]
                word, _, value = line.partition(" ")
                if word != want:
                    raise ProofError(number, f"the header's next line is {want!r}, not {quote(line)}")
                self.header[word] = (number, value.strip())
                continue
            position, colon, move = line.rpartition(":")
            position, move = position.strip(), move.strip()
            if not colon or not position_ok(position):
                raise ProofError(number, f"not a position and a move (POSITION: MOVE): {quote(line)}")
            stored = move_parse(move)
            if stored is None:
                raise ProofError(number, f"{quote(move)} is not written as a move")
            if position in self.answers:
                raise ProofError(number, f"this position has a line already (line {self.answers[position][0]})")
            self.answers[position] = (number, stored)
            self.order.append(position)
        if len(self.header) < len(HEADER):
            raise ProofError(0, f"the proof has no {HEADER[len(self.header)]!r} line: it is not a proof file")

    def _number(self, word: str) -> int:
        number, value = self.header[word]
        if not value.isdigit() or len(value) > 9:
            raise ProofError(number, f"{word} must be a whole number, not {quote(value)}")
        return int(value)

    def _setup(self) -> Rules:
        number, variant = self.header["variant"]
        try:
            rules_set = as_variant(variant)
        except BrandubhError as error:
            raise ProofError(number, str(error)) from None
        number, start = self.header["start"]
        try:
            rules = Rules(start, rules_set)
        except BrandubhError as error:
            raise ProofError(number, str(error)) from None
        number, moves = self.header["moves"]
        for i, text in enumerate(moves.split(), 1):
            stored = move_parse(text)
            if stored is None or rules.play(stored) != Rules.PLAY_OK:
                raise ProofError(number, f"move {i}, {quote(text)}, cannot be played in the game")
        number, winner = self.header["winner"]
        if winner not in SIDES and winner != NO_WINNER:
            raise ProofError(number, f"the winner must be 'attackers', 'defenders' or {NO_WINNER!r} (a draw), "
                                     f"not {quote(winner)}")
        if rules.is_over():
            raise ProofError(number, "the game is over before the proof starts")
        return rules

    # -- the walk ----------------------------------------------------------

    def run(self) -> Verdict:
        rules = self._setup()
        winner = self.header["winner"][1]
        if winner == NO_WINNER:
            return self._run_draw(rules)
        variant = rules.variant
        root_ply = rules.ply
        root_quiet = 0
        for ply in range(root_ply, 0, -1):
            report = rules.report(ply)
            if report is None or report.captures:
                break
            root_quiet += 1
        # The graph, a number for each position reached: on the walk's line
        # (1) or done (2); the file line nearest above it; its longest line to
        # the end; its moves that go on (to the child's number, capturing or
        # not); and its moves that end the game by a blocked side's loss, which
        # a cap could come before on a longer way there (capturing or not).
        ids: dict[str, int] = {}
        state: list[int] = []
        where: list[int] = []
        height: list[int] = []
        edges: list[list[tuple[int, bool]]] = []
        blocked_ends: list[list[bool]] = []
        postorder: list[int] = []
        # A frame: the position's number, its moves, and the next to try.
        stack: list[tuple[int, list[int], list[int]]] = []

        def enter(position: str, above: int, came: str) -> None:
            """Put the position now on the board on the walk."""
            line = above
            if rules.side == winner:
                if position not in self.answers:
                    raise ProofError(above, f"{came}leaves {position}, which has no line: "
                                            "the proof does not answer it")
                line, stored = self.answers[position]
                move = next((m for m in rules.moves() if move_text(m) == stored), None)
                if move is None:
                    raise ProofError(line, f"{stored} is not a legal move of the {winner} here")
                moves = [move]
            else:
                moves = rules.moves()
            ids[position] = len(state)
            state.append(1)
            where.append(line)
            height.append(0)
            edges.append([])
            blocked_ends.append([])
            stack.append((ids[position], moves, [0]))

        enter(rules.position, 0, "the start ")
        while stack:
            at, moves, index = stack[-1]
            if index[0] == len(moves):
                stack.pop()
                state[at] = 2
                postorder.append(at)
                if stack:
                    parent = stack[-1][0]
                    height[parent] = max(height[parent], height[at] + 1)
                    rules.undo()
                continue
            move = moves[index[0]]
            index[0] += 1
            line = where[at]
            if rules.side == winner:
                said = f"after {move_text(move)}, "
            else:
                before = rules.move_at(rules.ply) if rules.ply > root_ply else None
                said = (f"after {move_text(before)}, " if before is not None else "") + f"the reply {move_text(move)} "
            rules.play(move)
            report = rules.report()
            captured = bool(report and report.captures)
            position = rules.position
            known = ids.get(position)
            if known is not None and state[known] == 1:
                rules.undo()
                raise ProofError(line, f"{said}comes back to {position}: a line that goes round never ends")
            if rules.is_over():
                if rules.winner != winner:
                    result = f"the {rules.winner}' win" if rules.winner else "a draw"
                    ending = outcome_name(rules.outcome)
                    rules.undo()
                    raise ProofError(line, f"{said}ends the game in {result} ({ending}), not the {winner}' win")
                if rules.outcome == Outcome.NO_MOVE:
                    blocked_ends[at].append(captured)
                height[at] = max(height[at], 1)
                rules.undo()
            elif known is not None:
                edges[at].append((known, captured))
                height[at] = max(height[at], height[known] + 1)
                rules.undo()
            else:
                edges[at].append((len(state), captured))
                enter(position, line, said)

        # The caps: how deep, and after how many moves without a capture, a
        # position is reached by the longest way there (the graph's order is
        # the reverse of the order the walk finished its positions).
        depth = [0] * len(state)
        quiet = [0] * len(state)
        quiet[0] = root_quiet
        for at in reversed(postorder):
            for child, captured in edges[at]:
                depth[child] = max(depth[child], depth[at] + 1)
                quiet[child] = max(quiet[child], 0 if captured else quiet[at] + 1)
        positions = {number: position for position, number in ids.items()}
        for at in range(len(state)):
            ply = root_ply + depth[at]
            if ply >= variant.ply_cap or (variant.quiet_cap and quiet[at] >= variant.quiet_cap):
                raise ProofError(where[at], f"a line reaches {positions[at]} after {plies_text(depth[at])}"
                                            ", where a cap of the rules has drawn the game")
            for captured in blocked_ends[at]:
                # A blocked side's loss is judged after both caps.
                if ply + 1 >= variant.ply_cap or (variant.quiet_cap and not captured
                                                  and quiet[at] + 1 >= variant.quiet_cap):
                    raise ProofError(where[at], f"a line ends after {positions[at]} by a blocked side's loss "
                                                "where a cap of the rules draws the game first")
        plies = self._number("plies")
        if plies != height[0]:
            raise ProofError(self.header["plies"][0],
                             f"the proof's longest line is {plies_text(height[0])}, not {plies}")
        lines = self._number("lines")
        if lines != len(self.order):
            raise ProofError(self.header["lines"][0],
                             f"the proof has {plural(len(self.order), 'line')} of positions, not {lines}")
        for position in self.order:
            if position not in ids:
                raise ProofError(self.answers[position][0], "no line of the proof reaches this position")
        return Verdict(True, 0, "", winner, height[0], len(state))


    def _run_draw(self, rules: Rules) -> Verdict:
        """A draw's proof: each side's win refuted (the module's doc)."""
        left = rules.variant.ply_cap - rules.ply
        plies = self._number("plies")
        if plies != left:
            raise ProofError(self.header["plies"][0], f"the rules leave {plies_text(left)}, not {plies}")
        root_ply = rules.ply
        since = [rules.key_at(root_ply)]
        for ply in range(root_ply, 0, -1):
            report = rules.report(ply)
            if report is None or report.captures:
                break
            since.append(rules.key_at(ply - 1))
        reached: set[str] = set()
        positions = 0
        for prover in SIDES:
            seen: set[tuple[str, int, tuple[Optional[str], ...]]] = set()
            # A frame: the moves to try, the next, the file line nearest above,
            # the positions since the last capture.
            stack: list[tuple[list[int], list[int], int, tuple[Optional[str], ...]]] = []

            def enter(above: int, came: str, history: tuple[Optional[str], ...]) -> bool:
                """Put the position now on the board on the walk, unless it
                was walked in this state of the game already."""
                position = rules.position
                key = (position, rules.ply, history)
                if key in seen:
                    return False
                seen.add(key)
                line = above
                if rules.side == prover:
                    moves = rules.moves()
                else:
                    if position not in self.answers:
                        raise ProofError(above, f"{came}leaves {position}, which has no line: the refutation "
                                                f"of the {prover}' win does not answer it")
                    line, stored = self.answers[position]
                    move = next((m for m in rules.moves() if move_text(m) == stored), None)
                    if move is None:
                        raise ProofError(line, f"{stored} is not a legal move of the {rules.side} here")
                    moves = [move]
                    reached.add(position)
                stack.append((moves, [0], line, history))
                return True

            enter(0, "the start ", tuple(reversed(since)))
            while stack:
                moves, index, line, history = stack[-1]
                if index[0] == len(moves):
                    stack.pop()
                    if stack:
                        rules.undo()
                    continue
                move = moves[index[0]]
                index[0] += 1
                said = f"after {move_text(move)}, " if rules.side != prover else f"the {prover}' {move_text(move)} "
                rules.play(move)
                if rules.is_over():
                    if rules.winner == prover:
                        ending = outcome_name(rules.outcome)
                        rules.undo()
                        raise ProofError(line, f"{said}ends the game in the {prover}' win ({ending}): the "
                                               "refutation of their win fails")
                    rules.undo()
                    continue
                report = rules.report()
                key = rules.key_at(rules.ply)
                after = (key,) if report is not None and report.captures else history + (key,)
                if not enter(line, said, after):
                    rules.undo()
            positions += len(seen)
        lines = self._number("lines")
        if lines != len(self.order):
            raise ProofError(self.header["lines"][0],
                             f"the proof has {plural(len(self.order), 'line')} of positions, not {lines}")
        for position in self.order:
            if position not in reached:
                raise ProofError(self.answers[position][0], "no line of the proof reaches this position")
        return Verdict(True, 0, "", None, plies, positions)


def plies_text(n: int) -> str:
    """``1 ply``, ``3 plies``.

    >>> plies_text(1), plies_text(3)
    ('1 ply', '3 plies')
    """
    return f"{n} ply" if n == 1 else f"{n} plies"
