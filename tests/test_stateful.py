"""A Hypothesis stateful test of brandubh.Game against tests/reference.py.

Each run makes a game under a random preset (sometimes with a few house
rules changed, sometimes from a random sparse position, either seat having
the attackers), then takes random steps: legal moves in every written form,
illegal and garbage moves, wrong seats, undo, resign, draw offers and their
answers, the ``as_text``/``from_text`` round trip (sometimes carrying on
with the reloaded game), and searches. After every step the game is
compared with the pure-Python reference, which knows only the board rules:
the players' endings (resignation, agreed draw) and the draw offer are kept
by the machine itself.

Run time: 12 runs by default, 120 under BRANDUBH_SLOW=1 (see conftest.py);
``BRANDUBH_STATEFUL_EXAMPLES`` (or else ``BRANDUBH_FUZZ_EXAMPLES``)
multiplies either number, for fuzzing campaigns. With
``BRANDUBH_FUZZ_REPORT`` set, the runs and steps taken are written to that
JSON file under the key ``"stateful"``.
"""

from __future__ import annotations

import collections
import json
import os
import random
import time
from typing import Optional

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import brandubh
import reference as ref
from brandubh import Game, LegalMove, Refusal, RefusalCode, Result, Variant, notation
from brandubh.core.search import SearchResult
from brandubh.records import game_parse
from brandubh.variant import PRESETS
from conftest import SLOW, scale

SETUP = brandubh.SETUP
SEATS = ("p1", "p2")
SIDE_NAME = ref.SIDE_NAME  # 'a' -> 'attackers'
KIND = {"a": "attacker", "d": "defender", "k": "king"}

MULT = float(os.environ.get("BRANDUBH_STATEFUL_EXAMPLES")
             or os.environ.get("BRANDUBH_FUZZ_EXAMPLES") or "1")
RUNS = max(1, int(scale(12, 120) * MULT))
STEPS = 50

STATS: collections.Counter = collections.Counter()

# -- strategies ------------------------------------------------------------------

HOUSE_RULES = st.fixed_dictionaries({}, optional={
    "escape": st.sampled_from(["corner", "edge"]),
    "throne_pass": st.booleans(),
    "throne_reentry": st.booleans(),
    "throne_hostile": st.booleans(),
    "king_armed": st.booleans(),
    "king_capture": st.sampled_from(["nielsen", "two", "four_two", "four"]),
    "encirclement": st.booleans(),
    "no_pieces": st.booleans(),
    "no_move": st.sampled_from(["draw", "loss"]),
    "repetition": st.sampled_from(["draw", "loss"]),
    "repeat": st.integers(2, 4),
    "repeat_counts_start": st.booleans(),
    "ply_cap": st.integers(1, 200),
    "quiet_cap": st.integers(0, 30),
})


# Starts one move from an ending that random play seldom finds.
# (start, house rules it needs)
NEAR_ENDINGS = {
    "7/1aaaaa1/1ad2a1/1a1k1a1/1a3a1/1aaa1a1/4a2 a": {"encirclement": True},  # e1e2 encircles
    "7/7/7/7/a6/ka5/d1a4 a": {},  # c1b1 leaves the defenders no move
    "7/7/7/2a4/1ak4/2a4/7 a": {},  # the king beside three attackers
}


@st.composite
def start_positions(draw) -> str:
    """The set-up, a start near a rare ending, or pieces anywhere (corners
    and throne included, sparse or crowded), at most one king, so that every
    ending comes up."""
    kind = draw(st.integers(0, 5))
    if kind < 2:
        return SETUP
    if kind < 4:
        return draw(st.sampled_from(sorted(NEAR_ENDINGS)))
    squares = draw(st.permutations(range(49)))
    crowded = draw(st.booleans())
    n_att = draw(st.integers(6, 16) if crowded else st.integers(0, 8))
    n_def = draw(st.integers(3, 8) if crowded else st.integers(0, 4))
    board = {sq: "a" for sq in squares[:n_att]}
    board.update({sq: "d" for sq in squares[n_att:n_att + n_def]})
    if draw(st.integers(0, 9)):
        board[draw(st.sampled_from([ref.THRONE, squares[n_att + n_def]]))] = "k"
    return ref.format_position(board, draw(st.sampled_from("ad")))


NOT_SEATS = st.sampled_from(["p3", "", "P1", " p1", "attackers", "p1\x00", "p２"])
GARBAGE_MOVES = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["", "d1", "d1d", "d1d8", "h1h2", "a0a1", "d1 d3", "d1--d3", "K", "d1d3x",
                     "d1d3xh9", "--", "\x00d1d3", "d1d3\x00", "ｄ1ｄ3", "d１d3", "NONE"]),
    st.integers(-5, 5000), st.none(), st.floats(), st.binary(max_size=4),
)


class GameMachine(RuleBasedStateMachine):
    """brandubh.Game, step by step, against ref.RefGame."""

    # -- set-up -----------------------------------------------------------------

    @initialize(
        preset=st.sampled_from(sorted(PRESETS)),
        house=st.one_of(st.just({}), HOUSE_RULES),
        start=start_positions(),
        attackers=st.sampled_from(SEATS),
        seed=st.one_of(st.none(), st.binary(min_size=32, max_size=32)),
    )
    def new_game(self, preset: str, house: dict, start: str, attackers: str,
                 seed: Optional[bytes]) -> None:
        house = {**house, **NEAR_ENDINGS.get(start, {})}
        self.variant = Variant.from_fields(house, base=preset)
        self.ref = ref.RefGame(start, {"base": preset, **house})
        self.game = Game(attackers, variant=self.variant, position=start, seed=seed)
        self.attackers = attackers
        self.seed = seed
        self.start = self.ref.position()
        self.log: list[str] = []
        self.ending: Optional[tuple] = None  # ("resign", seat) or ("agreed",)
        self.offer: Optional[str] = None
        self.endings: set = set()
        STATS["runs"] += 1
        STATS["preset " + preset] += 1
        STATS["house rules" if house else "plain preset"] += 1
        STATS["set-up start" if start == SETUP else "random start"] += 1

    # -- what the game should be -------------------------------------------------

    def seat_of(self, side: Optional[str]) -> Optional[str]:
        if side is None:
            return None
        other = "p2" if self.attackers == "p1" else "p1"
        return self.attackers if side == "attackers" else other

    def board_over(self) -> bool:
        return self.ref.outcome != "ongoing"

    def active(self) -> bool:
        return self.ending is None and not self.board_over()

    def expected_result(self) -> Optional[Result]:
        if self.ending is not None:
            if self.ending[0] == "agreed":
                return Result("agreed", None, None)
            loser = self.ending[1]
            winner = "p2" if loser == "p1" else "p1"
            side = "attackers" if winner == self.attackers else "defenders"
            return Result("resign", winner, side)
        if not self.board_over():
            return None
        return Result(self.ref.outcome, self.seat_of(self.ref.winner), self.ref.winner)

    def snapshot(self) -> tuple:
        g = self.game
        return (g.position, g.ply, g.log, g.status, g.result, g.turn, g.draw_offered_by,
                g.repeats, g.signature)

    def ref_play(self, frm: int, to: int) -> None:
        self.ref.play(frm, to)
        self.log.append(ref.move_name(frm, to))
        self.offer = None

    def expected_refusal(self, frm: int, to: int) -> Optional[RefusalCode]:
        """Why the slide is refused, by the rules as written (docs/rules.md),
        in the order the documentation gives; None when it is legal."""
        board, rules = self.ref.board, self.ref.rules
        piece = board.get(frm)
        if piece is None:
            return RefusalCode.NO_PIECE
        if ref.side_of(piece) != self.ref.side:
            return RefusalCode.NOT_YOURS
        if frm == to:
            return RefusalCode.SAME_SQUARE
        if frm // 7 == to // 7:
            step = 1 if to > frm else -1
        elif frm % 7 == to % 7:
            step = 7 if to > frm else -7
        else:
            return RefusalCode.NOT_A_LINE
        sq = frm
        while True:
            sq += step
            if sq in board:
                return RefusalCode.BLOCKED
            if sq == to:
                break
            if sq == ref.THRONE and not rules["throne_pass"]:
                return RefusalCode.BLOCKED
        if to == ref.THRONE and (piece != "k" or not rules["throne_reentry"]):
            return RefusalCode.THRONE
        if to in ref.CORNERS and piece != "k":
            return RefusalCode.CORNER
        return None

    # -- the check after every step ------------------------------------------------

    @invariant()
    def agrees_with_the_reference(self) -> None:
        STATS["checks"] += 1
        g, r = self.game, self.ref
        assert g.position == r.position()
        assert g.start == self.start
        assert g.ply == r.ply == len(self.log)
        assert g.log == self.log
        assert g.repeats == r.repeats()
        assert g.attackers == self.attackers
        assert g.variant == self.variant
        result = self.expected_result()
        assert g.result == result, (g.result, result, r.outcome)
        assert g.status == ("finished" if result else "active")
        assert g.winner == (result.winner if result else None)
        if self.ending is None and self.board_over():
            assert g.result.how == r.outcome and g.result.side == r.winner
            self.endings.add(r.outcome)
        side = None if result else SIDE_NAME[r.side]
        assert g.side_to_move == side and g.turn == self.seat_of(side)
        assert g.draw_offered_by == self.offer
        assert g.seed == (self.seed if result else None)
        assert g.pieces == {ref.square_name(sq): KIND[p] for sq, p in sorted(r.board.items())}
        shown = g.shown
        assert [notation.move_parse(s) for s in shown] == self.log
        legal = g.legal()
        if result:
            assert legal == []
            return
        moves = r.moves()
        assert [m.move for m in legal] == [ref.move_name(f, t) for f, t in moves]
        mover = SIDE_NAME[r.side]
        for m, (frm, to) in zip(legal, moves):
            assert isinstance(m, LegalMove)
            assert (m.from_square, m.to_square) == (ref.square_name(frm), ref.square_name(to))
            assert m.piece == KIND[r.board[frm]]
            assert m.captures == tuple(ref.square_name(s) for s in r.captures_of(frm, to))
            r.play(frm, to)
            wins = r.winner == mover
            r.undo()
            assert m.wins == wins, (m, r.position())

    def teardown(self) -> None:
        for how in getattr(self, "endings", ()):
            STATS["games reaching ending " + how] += 1

    # -- moves -----------------------------------------------------------------------

    @precondition(lambda self: self.active())
    @rule(data=st.data())
    def play_legal(self, data) -> None:
        frm, to = data.draw(st.sampled_from(self.ref.moves()), label="move")
        name = ref.move_name(frm, to)
        piece = self.ref.board[frm]
        taken = self.ref.captures_of(frm, to)
        captures = [ref.square_name(s) for s in taken]
        king_taken = ref.king_square(self.ref.board) in taken
        form = data.draw(st.sampled_from(
            ["stored", "shown", "upper", "legal move", "seat", "spaces", "commentary"]), label="form")
        seat = None
        if form == "stored":
            arg = name
        elif form == "shown":
            arg = notation.move_display(name, king=piece == "k", captures=captures)
        elif form == "upper":
            arg = name[:2].upper() + "-" + name[2:].upper()
        elif form == "legal move":
            arg = next(m for m in self.game.legal() if m.move == name)
        elif form == "seat":
            arg, seat = name, self.seat_of(SIDE_NAME[self.ref.side])
        elif form == "spaces":
            arg = f" \t{name}\n"
        else:  # the captures and ending written are commentary, read past
            arg = f"{name[:2]}-{name[2:]}xa1,g7#"
        STATS["play " + form] += 1
        got = self.game.play(arg, seat)
        assert got is None, (arg, got)
        self.ref_play(frm, to)
        assert self.game.shown[-1] == notation.move_display(
            name, king=piece == "k", captures=captures,
            king_home=piece == "k" and ref.is_escape(to, self.ref.rules),
            king_taken=king_taken)

    @precondition(lambda self: self.active())
    @rule(n=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
    def play_many(self, n: int, seed: int) -> None:
        """Many random legal moves, each checked: games reach their endings."""
        rng = random.Random(seed)
        STATS["play many"] += 1
        for _ in range(n):
            if not self.active():
                break
            frm, to = rng.choice(self.ref.moves())
            assert self.game.play(ref.move_name(frm, to)) is None
            self.ref_play(frm, to)
            self.agrees_with_the_reference()

    @rule(data=st.data(), seat=st.sampled_from([None, None, "p1", "p2"]))
    def play_a_slide(self, data, seat: Optional[str]) -> None:
        """Any slide at all (mostly a piece of the side to move along a rank
        or file): played when legal and the seat is right, refused with the
        right code otherwise, and then nothing changes."""
        own = sorted(sq for sq, p in self.ref.board.items() if ref.side_of(p) == self.ref.side)
        if own and data.draw(st.integers(0, 3), label="near"):
            frm = data.draw(st.sampled_from(own), label="from")
            line = [sq for sq in range(49) if sq // 7 == frm // 7 or sq % 7 == frm % 7]
            to = data.draw(st.sampled_from(line), label="to")
        else:
            frm = data.draw(st.integers(0, 48), label="from")
            to = data.draw(st.integers(0, 48), label="to")
        name = ref.move_name(frm, to)
        before = self.snapshot()
        got = self.game.play(name, seat)
        if not self.active():
            assert isinstance(got, Refusal) and got.code == RefusalCode.GAME_OVER, got
            STATS["refused game_over"] += 1
        else:
            mover_seat = self.seat_of(SIDE_NAME[self.ref.side])
            want = self.expected_refusal(frm, to)
            assert (want is None) == ((frm, to) in self.ref.moves())
            if seat is not None and seat != mover_seat:
                want = RefusalCode.NOT_YOUR_TURN
            if want is None:
                assert got is None, got
                self.ref_play(frm, to)
                STATS["slide played"] += 1
                return
            assert isinstance(got, Refusal) and got.code == want, (name, got, want)
            assert got.message.startswith(f"{name[:2]} to {name[2:]}: ") or want == RefusalCode.NOT_YOUR_TURN
            STATS["refused " + want.value] += 1
        assert self.snapshot() == before

    @precondition(lambda self: self.active())
    @rule(data=st.data(), cycles=st.integers(1, 4))
    def back_and_forth(self, data, cycles: int) -> None:
        """Each side moves a piece and back, again and again: positions
        repeat, and the repetition rule ends the game."""
        STATS["back and forth"] += 1
        first = None
        for _ in range(cycles):
            for step in range(4):
                if not self.active():
                    return
                moves = self.ref.moves()
                if step < 2:
                    frm, to = data.draw(st.sampled_from(moves), label="move")
                    if step == 0:
                        first = (to, frm)
                    else:
                        second = (to, frm)
                else:
                    frm, to = first if step == 2 else second
                    if (frm, to) not in moves:
                        return
                assert self.game.play(ref.move_name(frm, to)) is None
                self.ref_play(frm, to)
                self.agrees_with_the_reference()

    @precondition(lambda self: self.active())
    @rule(data=st.data())
    def play_an_ending_move(self, data) -> None:
        """A move that ends the game, when there is one: every ending, the
        rare ones too, is reached and then compared."""
        ending = []
        for frm, to in self.ref.moves():
            self.ref.play(frm, to)
            if self.ref.outcome != "ongoing":
                ending.append((frm, to))
            self.ref.undo()
        if not ending:
            return
        frm, to = data.draw(st.sampled_from(ending), label="ending move")
        assert self.game.play(ref.move_name(frm, to)) is None
        self.ref_play(frm, to)
        STATS["ending move played: " + self.ref.outcome] += 1

    @rule(move=GARBAGE_MOVES, seat=st.one_of(st.none(), st.sampled_from(SEATS), NOT_SEATS))
    def play_garbage(self, move: object, seat: Optional[str]) -> None:
        stored = notation.move_parse(move)
        if stored is not None and self.active() and seat in (None, self.seat_of(SIDE_NAME[self.ref.side])):
            if stored in {ref.move_name(f, t) for f, t in self.ref.moves()}:
                return  # a legal move after all: play_legal's business
        before = self.snapshot()
        got = self.game.play(move, seat)
        assert isinstance(got, Refusal) and got.message.strip(), (move, got)
        if seat is not None and seat not in SEATS:
            assert got.code == RefusalCode.NOT_A_SEAT
        elif not self.active():
            assert got.code == RefusalCode.GAME_OVER
        STATS["garbage refused"] += 1
        assert self.snapshot() == before

    # -- undo, resign, draws -----------------------------------------------------------

    @rule()
    def undo(self) -> None:
        got = self.game.undo()
        if self.ending is not None:
            self.ending, want = None, True
        elif self.ref.ply:
            self.ref.undo()
            self.log.pop()
            want = True
        else:
            want = False
        self.offer = None
        assert got is want
        STATS["undo"] += 1

    @rule(seat=st.one_of(st.sampled_from(SEATS), NOT_SEATS))
    def resign(self, seat: str) -> None:
        before = self.snapshot()
        got = self.game.resign(seat)
        if seat not in SEATS:
            assert got.code == RefusalCode.NOT_A_SEAT
        elif not self.active():
            assert got.code == RefusalCode.GAME_OVER
        else:
            assert got is None
            self.ending, self.offer = ("resign", seat), None
            STATS["resigned"] += 1
            return
        assert self.snapshot() == before

    @rule(seat=st.one_of(st.sampled_from(SEATS), NOT_SEATS))
    def offer_draw(self, seat: str) -> None:
        before = self.snapshot()
        got = self.game.offer_draw(seat)
        if seat not in SEATS:
            want = RefusalCode.NOT_A_SEAT
        elif not self.active():
            want = RefusalCode.GAME_OVER
        elif self.offer is not None:
            want = RefusalCode.OFFER_WAITING
        else:
            assert got is None
            self.offer = seat
            STATS["offered"] += 1
            return
        assert isinstance(got, Refusal) and got.code == want, (got, want)
        assert self.snapshot() == before

    def _answer(self, seat: str, got: Optional[Refusal], before: tuple) -> bool:
        """Checks a refused answer; True when the answer should have gone in."""
        if seat not in SEATS:
            want = RefusalCode.NOT_A_SEAT
        elif not self.active():
            want = RefusalCode.GAME_OVER
        elif self.offer is None:
            want = RefusalCode.NO_OFFER
        elif self.offer == seat:
            want = RefusalCode.OWN_OFFER
        else:
            assert got is None, got
            return True
        assert isinstance(got, Refusal) and got.code == want, (got, want)
        assert self.snapshot() == before
        return False

    @rule(seat=st.one_of(st.sampled_from(SEATS), NOT_SEATS))
    def accept_draw(self, seat: str) -> None:
        before = self.snapshot()
        if self._answer(seat, self.game.accept_draw(seat), before):
            self.ending, self.offer = ("agreed",), None
            STATS["agreed"] += 1

    @rule(seat=st.one_of(st.sampled_from(SEATS), NOT_SEATS))
    def decline_draw(self, seat: str) -> None:
        before = self.snapshot()
        if self._answer(seat, self.game.decline_draw(seat), before):
            self.offer = None
            STATS["declined"] += 1

    # -- the record ----------------------------------------------------------------------

    @rule(carry_on=st.booleans())
    def round_trip(self, carry_on: bool) -> None:
        """as_text, then from_text: the same game (position, log, result);
        sometimes play on with the game read back."""
        before = self.snapshot()
        text = self.game.as_text()
        parsed = game_parse(text)
        assert parsed is not None and list(parsed["moves"]) == self.log
        assert Variant.from_string(parsed["variant"]) == self.variant
        if self.ending is None:
            assert parsed["result"] is None
        elif self.ending[0] == "agreed":
            assert parsed["result"] == {"how": "agreed"}
        else:
            side = "attackers" if self.ending[1] == self.attackers else "defenders"
            assert parsed["result"] == {"how": "resign", "by": side}
        replay = Game.from_text(text, attackers=self.attackers, seed=self.seed)
        assert replay.ok and replay.refusal is None and replay.played == len(self.log), replay
        again = replay.game
        assert again.as_text() == text
        assert (again.position, again.log, again.result, again.status, again.ply, again.start,
                again.variant, again.repeats) == \
               (self.game.position, self.game.log, self.game.result, self.game.status,
                self.game.ply, self.game.start, self.game.variant, self.game.repeats)
        assert again.draw_offered_by is None
        # the instance replay: same seats, rules and start, the moves only
        moves_only = self.game.replay(self.game.log)
        assert moves_only.ok and moves_only.game.position == self.game.position
        assert moves_only.game.log == self.log
        assert self.snapshot() == before
        STATS["round trip"] += 1
        if carry_on:
            self.game = again
            self.offer = None  # an offer is not part of the record
            STATS["carried on from the text"] += 1

    # -- a program's move ------------------------------------------------------------------

    @rule(budget=st.integers(1, 400), salt=st.one_of(st.none(), st.text(max_size=5), st.binary(max_size=5)),
          depth=st.one_of(st.none(), st.integers(1, 4)))
    def search(self, budget: int, salt, depth: Optional[int]) -> None:
        before = self.snapshot()
        found = self.game.search(budget=budget, salt=salt, depth=depth)
        if not self.active():
            assert found is None
        else:
            STATS["searched"] += 1
            assert isinstance(found, SearchResult)
            legal = [ref.move_name(f, t) for f, t in self.ref.moves()]
            assert isinstance(found.move, brandubh.Move) and str(found.move) in legal
            assert 0 <= found.nodes <= budget + budget // 2  # half again on a root fail low
            assert depth is None or found.depth <= depth
            assert not found.pv or found.pv[0] == found.move
            # the line it expects is playable, move by move, in the reference
            played = 0
            try:
                for mv in map(str, found.pv):
                    frm, to = ref.square_index(mv[:2]), ref.square_index(mv[2:])
                    assert (frm, to) in self.ref.moves(), (found, played, self.ref.position())
                    self.ref.play(frm, to)
                    played += 1
            finally:
                for _ in range(played):
                    self.ref.undo()
            chosen = brandubh.Bot(1, seed=budget, budget=budget).choose(self.game)
            assert str(chosen) in legal
        assert self.snapshot() == before


# The same steps every run of the default suite (derandomize: a run fails
# for a change, not by a draw); BRANDUBH_SLOW=1 draws afresh each run.
GameMachine.TestCase.settings = settings(
    max_examples=RUNS,
    stateful_step_count=STEPS,
    deadline=None,
    database=None,
    derandomize=not SLOW,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    t0 = time.perf_counter()
    yield
    seconds = time.perf_counter() - t0
    summary = {"multiplier": MULT, "seconds": round(seconds, 1), "max_runs": RUNS,
               "max_steps_per_run": STEPS, **dict(sorted(STATS.items()))}
    path = os.environ.get("BRANDUBH_FUZZ_REPORT")
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = {}
        data["stateful"] = summary
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"\nstateful: {STATS['runs']} games, {STATS['checks']} checks against the reference "
            f"in {seconds:.0f} s")


TestGame = GameMachine.TestCase
