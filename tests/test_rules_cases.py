"""Hand-made positions for every rule sentence of the project's rule sheet
(docs/rules.md, with its readings) and of the sources behind it:
Game::Brandubh's documentation (the game class and Game::Brandubh::Rules),
the rules page and the CodinGame puzzle's statement.

A quotation marked "Rule sheet" is a sentence of the rule sheet as the
project first wrote it; docs/rules.md now says the same in other words.

Every expected value here was worked out by hand from the rules text, never
by asking the engine. Where the engine disagrees, the case is marked
``xfail(strict=True)`` with the disagreement spelt out.

Boards are written with ``pos(side, k=..., a=..., d=...)``: space-separated
square names for the king, the attackers and the defenders.

Run: python -m pytest -q tests/test_rules_cases.py
"""

import pytest

from brandubh import SETUP, Outcome, Rules, Variant, Why, move, square

ONGOING = Outcome.ONGOING
CORNER = Outcome.CORNER
CAPTURE = Outcome.CAPTURE
NO_PIECES = Outcome.NO_PIECES
REPETITION = Outcome.REPETITION
ENCIRCLED = Outcome.ENCIRCLED
NO_MOVE = Outcome.NO_MOVE
PLY_CAP = Outcome.PLY_CAP
QUIET_CAP = Outcome.QUIET_CAP

A, D = "attackers", "defenders"
FILES = "abcdefg"
ALL_SQUARES = [f + str(r) for r in range(1, 8) for f in FILES]


# ---------------------------------------------------------------- helpers


def pos(side="a", k="", a="", d=""):
    """A position string from space-separated square names per piece kind."""
    board = {}
    for kind, names in (("k", k), ("a", a), ("d", d)):
        for name in names.split():
            assert name not in board, f"{name} given twice"
            board[name] = kind
    rows = []
    for rank in range(7, 0, -1):
        row, run = "", 0
        for f in FILES:
            kind = board.get(f"{f}{rank}")
            if kind is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += kind
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + " " + side


def V(name="brandubh", **fields):
    """A preset, with some fields changed."""
    v = Variant.named(name)
    return v.replace(**fields) if fields else v


def game(position, variant="brandubh"):
    return Rules(position=position, variant=V(variant) if isinstance(variant, str) else variant)


def play(r, *moves):
    for m in moves:
        code = r.play(m)
        assert code == Rules.PLAY_OK, f"{m} refused ({code}) in {r.position}, outcome {r.outcome!r}"
    return r


def result(r):
    return r.outcome, r.winner


def assert_over(r, outcome, winner=None):
    assert result(r) == (outcome, winner)
    assert r.is_over() is (outcome != ONGOING)
    assert r.is_draw() is (outcome != ONGOING and winner is None)
    if outcome != ONGOING:
        assert r.moves() == [], "moves must be empty once the game is over"


def board_of(r):
    return {s: r.at(s) for s in ALL_SQUARES}


def mv(text):
    return move(text[:2], text[2:4])


def sqs(names):
    return {square(n) for n in names.split()}


def xfail(reason):
    return pytest.mark.xfail(strict=True, reason="engine disagrees: " + reason)


# ---------------------------------------------------------------- board and set-up


def test_setup_squares_and_first_move():
    """Rule sheet, 'Board': "Set-up: attackers d1 d2 d6 d7 a4 b4 f4 g4; defenders d3
    c4 e4 d5; king d4. Attackers move first." and the position string of
    Game::Brandubh::Notation's documentation; perft(1) from the set-up is 40."""
    assert SETUP == "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"
    assert SETUP == pos("a", k="d4", a="d1 d2 d6 d7 a4 b4 f4 g4", d="d3 c4 e4 d5")
    r = Rules()
    expect = {s: "" for s in ALL_SQUARES}
    expect.update({s: "attacker" for s in "d1 d2 d6 d7 a4 b4 f4 g4".split()})
    expect.update({s: "defender" for s in "d3 c4 e4 d5".split()})
    expect["d4"] = "king"
    assert board_of(r) == expect
    assert r.side == A
    assert (r.ply, r.repeats, r.outcome) == (0, 1, ONGOING)
    assert len(r.moves()) == 40
    for name in ("brandubh", "codingame", "modern", "opentafl"):
        assert game(SETUP, name).side == A


def test_square_numbering():
    """Rule sheet, 'Board': "Square index rank * 7 + file (a1 = 0, g7 = 48)"."""
    assert (square("a1"), square("g1"), square("a7"), square("g7"), square("d4")) == (0, 6, 42, 48, 24)


# ---------------------------------------------------------------- movement

ROOK = "Every piece moves like a rook over empty squares and never jumps."


def test_rook_slides_over_empty_squares_only():
    """Rule sheet: "Every piece moves like a rook over empty squares and never jumps."
    Attacker b2, defender b5 (in its way), king f6: b2 reaches b1 b3 b4 a2 and
    c2..g2, nothing on or past b5, nothing diagonal."""
    r = game(pos("a", k="f6", a="b2", d="b5"))
    expect = {mv("b2" + t) for t in "b1 b3 b4 a2 c2 d2 e2 f2 g2".split()}
    assert set(r.moves()) == expect
    assert len(r.moves()) == len(expect)


# Why-not table: (rule, variant, position, from, to, expected Why)
WB_A = pos("a", k="f6", a="b2 a3 d6", d="b5")  # attackers to move
WB_D = pos("d", k="f6", a="b2", d="b1 d6")  # defenders to move
KT = pos("d", k="d6", a="a2")  # king on d6, throne empty, defenders to move

WHY_CASES = [
    pytest.param(ROOK, "brandubh", WB_A, "b2", "b4", Why.OK, id="ok-slide"),
    pytest.param("squares a1..g7 only", "brandubh", WB_A, "b2", "b8", Why.OFF_BOARD, id="off_board-to-b8"),
    pytest.param("squares a1..g7 only", "brandubh", WB_A, "h2", "b2", Why.OFF_BOARD, id="off_board-from-h2"),
    pytest.param("squares 0..48 only", "brandubh", WB_A, 49, 0, Why.OFF_BOARD, id="off_board-49"),
    pytest.param("a move moves a piece", "brandubh", WB_A, "c3", "c5", Why.NO_PIECE, id="no_piece"),
    pytest.param("plays a move for the side to move", "brandubh", WB_A, "b5", "c5", Why.NOT_YOURS,
                 id="not_yours-defender-on-attackers-turn"),
    pytest.param("the defenders control the king as well", "brandubh", WB_A, "f6", "f5", Why.NOT_YOURS,
                 id="not_yours-king-on-attackers-turn"),
    pytest.param("plays a move for the side to move", "brandubh", WB_D, "b2", "c2", Why.NOT_YOURS,
                 id="not_yours-attacker-on-defenders-turn"),
    pytest.param(ROOK, "brandubh", WB_A, "b2", "b2", Why.SAME_SQUARE, id="same_square"),
    pytest.param(ROOK, "brandubh", WB_A, "b2", "c3", Why.NOT_A_LINE, id="not_a_line-diagonal"),
    pytest.param(ROOK, "brandubh", WB_A, "b2", "c4", Why.NOT_A_LINE, id="not_a_line-knight"),
    pytest.param(ROOK + " (never jumps)", "brandubh", WB_A, "b2", "b6", Why.BLOCKED, id="blocked-jump"),
    pytest.param("It may not land on another piece (Game::Brandubh)", "brandubh", WB_A, "b2", "b5", Why.BLOCKED,
                 id="blocked-land-on-piece"),
    pytest.param("Only the king may stop on a corner.", "brandubh", WB_A, "a3", "a1", Why.CORNER,
                 id="corner-attacker"),
    pytest.param("Only the king may stop on a corner.", "brandubh", WB_D, "b1", "a1", Why.CORNER,
                 id="corner-defender"),
    pytest.param("Only the king may stop on a corner.", "brandubh", pos("d", k="a3", a="g2"), "a3", "a1",
                 Why.OK, id="corner-king-ok"),
    pytest.param("Only the king may stop on the throne", "brandubh", WB_A, "d6", "d4", Why.THRONE,
                 id="throne-attacker"),
    pytest.param("Only the king may stop on the throne", "codingame", WB_A, "d6", "d4", Why.THRONE,
                 id="throne-attacker-codingame"),
    pytest.param("Only the king may stop on the throne", "brandubh", WB_D, "d6", "d4", Why.THRONE,
                 id="throne-defender"),
    pytest.param("Only the king may stop on the throne", "modern", WB_D, "d6", "d4", Why.THRONE,
                 id="throne-defender-modern"),
    pytest.param("throne_pass: any piece may slide across the empty throne", "brandubh", WB_A, "d6", "d2",
                 Why.OK, id="throne_pass-attacker-crosses"),
    pytest.param("throne_pass: any piece may slide across the empty throne", "opentafl", WB_D, "d6", "d2",
                 Why.OK, id="throne_pass-defender-crosses"),
    pytest.param("throne_pass false: the throne blocks every piece", V("brandubh", throne_pass=False), WB_A,
                 "d6", "d2", Why.BLOCKED, id="throne_pass-false-attacker-blocked"),
    pytest.param("throne_pass false: the throne blocks every piece", V("codingame", throne_pass=False), WB_D,
                 "d6", "d2", Why.BLOCKED, id="throne_pass-false-defender-blocked"),
    pytest.param("throne_pass: any piece (the king too) may slide across", "brandubh", KT, "d6", "d2", Why.OK,
                 id="throne_pass-king-crosses"),
    pytest.param("throne_pass false: the throne blocks every piece", V("brandubh", throne_pass=False), KT,
                 "d6", "d2", Why.BLOCKED, id="throne_pass-false-king-blocked"),
    pytest.param("throne_reentry false: he never does (only a set-up puts him there)", "brandubh", KT, "d6", "d4",
                 Why.THRONE, id="reentry-false-king-refused"),
    pytest.param("throne_reentry false", "opentafl", KT, "d6", "d4", Why.OK, id="reentry-true-opentafl-king-ok"),
    pytest.param("throne_reentry true: the king may stop on the throne", "codingame", KT, "d6", "d4", Why.OK,
                 id="reentry-true-king-ok"),
    pytest.param("docs/rules.md: with throne_pass false the king may still stop on it when throne_reentry",
                 V("codingame", throne_pass=False), KT, "d6", "d4", Why.OK, id="reentry-true-pass-false-king-stops"),
    pytest.param("A king set up on the throne may always leave it", "brandubh", pos("d", k="d4", a="a2"), "d4",
                 "d6", Why.OK, id="king-leaves-throne"),
    pytest.param("a soldier set up on the throne may leave", "brandubh", pos("a", k="f6", a="d4"), "d4", "d2",
                 Why.OK, id="attacker-leaves-throne"),
    pytest.param("a soldier set up on the throne may leave", "brandubh", pos("d", k="f6", a="a2", d="d4"), "d4",
                 "b4", Why.OK, id="defender-leaves-throne"),
    pytest.param("a soldier set up on a corner may leave", "brandubh", pos("a", k="f6", a="a1"), "a1", "a3",
                 Why.OK, id="attacker-leaves-corner"),
    pytest.param("a soldier set up on a corner may leave", "brandubh", pos("d", k="c6", a="a2", d="g7"), "g7",
                 "g5", Why.OK, id="defender-leaves-corner"),
]


@pytest.mark.parametrize("rule, variant, position, frm, to, why", WHY_CASES)
def test_why_not(rule, variant, position, frm, to, why):
    """Each why_not code for a slide, from the movement rules."""
    r = game(position, variant)
    assert r.why_not(frm, to) == why, rule
    if isinstance(frm, str) and isinstance(to, str) and frm[0] in FILES and to[0] in FILES \
            and frm[1] in "1234567" and to[1] in "1234567":
        assert (mv(frm + to) in r.moves()) is (why == Why.OK), rule
        assert (r.preview(frm + to) is None) is (why != Why.OK)


SHUFFLE_A = ("g2g3", "g3g2")  # an attacker's harmless shuffle


@pytest.mark.parametrize("variant, can_return", [
    ("brandubh", False), ("codingame", True), ("modern", True), ("opentafl", True),
    (V("codingame", throne_reentry=False), False), (V("brandubh", throne_reentry=True), True)])
def test_king_leaves_throne_and_comes_back(variant, can_return):
    """Rule sheet: "Only the king may stop on the throne, and only where
    throne_reentry lets him."; field: "when false he never does (only a
    set-up puts him there), whatever the game's history"."""
    r = game(pos("d", k="d4", a="g2"), variant)
    play(r, "d4d6", "g2g3")
    assert r.why_not("d6", "d4") == (Why.OK if can_return else Why.THRONE)
    code = r.play("d6d4")
    if can_return:
        assert code == Rules.PLAY_OK and r.at("d4") == "king"
        assert r.outcome == ONGOING
    else:
        assert code == Rules.PLAY_ILLEGAL and r.at("d6") == "king"


@pytest.mark.parametrize("variant", ["brandubh", "codingame", "modern", "opentafl"])
def test_soldier_set_up_on_throne_or_corner_leaves_and_never_comes_back(variant):
    """Rule sheet: "A set-up may put any piece on any square, a soldier on the
    throne or on a corner included: such a piece may leave, and never come
    back.\""""
    r = game(pos("a", k="f6", a="d4 a1", d="g7"), variant)
    play(r, "d4d6", "g7g5", "a1a3")
    assert r.why_not("g5", "g7") == Why.CORNER
    play(r, "f6f5")
    assert r.why_not("d6", "d4") == Why.THRONE
    assert r.why_not("a3", "a1") == Why.CORNER
    assert r.play("d6d4") == Rules.PLAY_ILLEGAL
    assert r.play("a3a1") == Rules.PLAY_ILLEGAL
    r2 = game(pos("d", k="f6", a="g2", d="d4"), variant)
    play(r2, "d4b4", "g2g3")
    assert r2.why_not("b4", "d4") == Why.THRONE


# ---------------------------------------------------------------- captures of soldiers

ENEMY = "A piece other than the king is captured when the mover closes it against a hostile square: an enemy piece"
CORNER_H = "Hostile to a piece: an empty corner (to both sides)"
THRONE_H = "Hostile to a piece: the empty throne (to both sides) when throne_hostile is true"
KING_ON_THRONE = "The king on his throne is a piece: an enemy of attackers, a friend of defenders."
ARMED = "When king_armed is true the king captures like a defender, as the mover and as the far side."
THREE = "One move captures every enemy it closes on, up to three (and the king)."
BETWEEN = "Custodial and active: only the piece that moved captures. A piece may move between two enemies unharmed."
EDGE = "The edge of the board is never hostile."
LINE = "closes it against a hostile square on the far side, on the same line"

PRESETS = ("brandubh", "codingame", "modern", "opentafl")
HOSTILE_THRONE = ("brandubh", "codingame", "modern")
UNARMED = V("brandubh", king_armed=False)


def cap(rule, variants, position, m, captured, ident, marks=()):
    """Params for one capture case over several rule sets."""
    out = []
    for v in variants:
        name = v if isinstance(v, str) else "custom"
        out.append(pytest.param(rule, v, position, m, captured, id=f"{ident}-{name}", marks=marks))
    return out


CAPTURE_CASES = (
    # enemy piece
    cap(ENEMY, PRESETS, pos("a", k="f2", a="b6 e6", d="c6"), "e6d6", "c6", "attacker-takes-defender")
    + cap(ENEMY, PRESETS, pos("d", k="f2", a="c6 g3", d="b6 e6"), "e6d6", "c6", "defender-takes-attacker")
    # empty corner, both sides
    + cap(CORNER_H, PRESETS, pos("a", k="f5", a="e1", d="b1"), "e1c1", "b1", "corner-vs-defender")
    + cap(CORNER_H, PRESETS, pos("d", k="f5", a="b1 g3", d="e1"), "e1c1", "b1", "corner-vs-attacker")
    + cap(CORNER_H, PRESETS, pos("d", k="f5", a="a2 g3", d="a5"), "a5a3", "a2", "corner-vs-attacker-file")
    + cap(CORNER_H + " (a corner holding a friend is not empty)", PRESETS,
          pos("a", k="f5", a="e1", d="a1 b1"), "e1c1", "", "occupied-corner-friend")
    + cap(ENEMY + " (a soldier set up on a corner is a piece)", PRESETS,
          pos("a", k="f5", a="a1 e1", d="b1"), "e1c1", "b1", "occupied-corner-enemy")
    # empty throne
    + cap(THRONE_H, HOSTILE_THRONE, pos("a", k="b6", a="g2", d="d3"), "g2d2", "d3", "empty-throne-vs-defender")
    + cap(THRONE_H + " (opentafl: false)", ["opentafl"], pos("a", k="b6", a="g2", d="d3"), "g2d2", "",
          "empty-throne-vs-defender")
    + cap(THRONE_H, HOSTILE_THRONE, pos("d", k="b6", a="d3 g6", d="g2"), "g2d2", "d3", "empty-throne-vs-attacker")
    + cap(THRONE_H + " (opentafl: false)", ["opentafl"], pos("d", k="b6", a="d3 g6", d="g2"), "g2d2", "",
          "empty-throne-vs-attacker")
    + cap(THRONE_H, HOSTILE_THRONE, pos("d", k="f2", a="c4 g6", d="b1"), "b1b4", "c4",
          "empty-throne-vs-attacker-rank")
    + cap(THRONE_H + " (opentafl: false)", ["opentafl"], pos("d", k="f2", a="c4 g6", d="b1"), "b1b4", "",
          "empty-throne-vs-attacker-rank")
    # occupied throne: a soldier set up on it is just a piece
    + cap(ENEMY + " (a soldier set up on the throne is a piece)", PRESETS,
          pos("a", k="b2", a="d4 g6", d="d5"), "g6d6", "d5", "throne-holds-attacker-vs-defender")
    + cap(ENEMY + " (a soldier set up on the throne is a piece)", PRESETS,
          pos("d", k="b2", a="d5 a3", d="d4 g6"), "g6d6", "d5", "throne-holds-defender-vs-attacker")
    + cap(THRONE_H + " (only the EMPTY throne; a friend on it is not hostile)", PRESETS,
          pos("a", k="b2", a="g6", d="d4 d5"), "g6d6", "", "throne-holds-defender-vs-defender")
    + cap(THRONE_H + " (only the EMPTY throne; a friend on it is not hostile)", PRESETS,
          pos("d", k="b2", a="d4 d5", d="g6"), "g6d6", "", "throne-holds-attacker-vs-attacker")
    # king on the throne
    + cap(KING_ON_THRONE + " " + ARMED, PRESETS, pos("d", k="d4", a="d5 a2", d="g6"), "g6d6", "d5",
          "king-on-throne-vs-attacker-armed")
    + cap(KING_ON_THRONE + " (hostile to attackers only when king_armed)", [UNARMED, V("codingame", king_armed=False)],
          pos("d", k="d4", a="d5 a2", d="g6"), "g6d6", "", "king-on-throne-vs-attacker-unarmed")
    + cap(KING_ON_THRONE + " (never hostile to defenders)", PRESETS + (UNARMED,),
          pos("a", k="d4", d="d5", a="g6"), "g6d6", "", "king-on-throne-vs-defender")
    # king armed, off the throne
    + cap(ARMED + " (as the mover)", PRESETS, pos("d", k="f6", a="c6 g2", d="b6"), "f6d6", "c6",
          "king-mover-armed")
    + cap(ARMED + " (king_armed false: he does not)", [UNARMED], pos("d", k="f6", a="c6 g2", d="b6"), "f6d6", "",
          "king-mover-unarmed")
    + cap(ARMED + " (as the far side)", PRESETS, pos("d", k="b6", a="c6 g2", d="f6"), "f6d6", "c6",
          "king-far-side-armed")
    + cap(ARMED + " (king_armed false: he does not)", [UNARMED, V("opentafl", king_armed=False)],
          pos("d", k="b6", a="c6 g2", d="f6"), "f6d6", "", "king-far-side-unarmed")
    + cap("The king is never hostile to a defender (a friend)", PRESETS,
          pos("a", k="b6", a="g6", d="c6"), "g6d6", "", "king-far-side-vs-defender")
    # three at once
    + cap(THREE, PRESETS, pos("d", k="g3", a="b5 d5 c6 a2", d="a5 e5 c7 c2"), "c2c5", "b5 d5 c6",
          "defender-takes-three")
    + cap(THREE, PRESETS, pos("a", k="g3", a="a5 e5 c7 c2", d="b5 d5 c6"), "c2c5", "b5 d5 c6",
          "attacker-takes-three")
    + cap(THREE + " (two at once: an enemy and a corner)", PRESETS,
          pos("d", k="g4", a="b1 c2 a5", d="f1 c3"), "f1c1", "b1 c2", "two-at-once")
    # moving between two enemies, passive sandwiches
    + cap(BETWEEN, PRESETS, pos("d", k="f2", a="b6 d6", d="c3"), "c3c6", "", "defender-moves-between")
    + cap(BETWEEN, PRESETS, pos("a", k="f2", a="c2", d="b6 d6"), "c2c6", "", "attacker-moves-between")
    + cap(BETWEEN, PRESETS, pos("a", k="f5", a="b3", d="c1"), "b3b1", "", "attacker-between-corner-and-enemy")
    + cap(BETWEEN, PRESETS, pos("d", k="f6", a="d2 g6", d="a3"), "a3d3", "",
          "defender-between-throne-and-enemy")
    + cap(BETWEEN + " (only the piece that moved captures)", PRESETS,
          pos("a", k="f3", a="b6 d6 a2", d="c6"), "a2a3", "", "sandwiched-but-not-by-the-mover")
    # the edge
    + cap(EDGE, PRESETS, pos("a", k="f6", a="e3", d="a3"), "e3b3", "", "edge-not-hostile")
    + cap(EDGE, PRESETS, pos("d", k="f6", a="a3 g2", d="e3"), "e3b3", "", "edge-not-hostile-attacker")
    + cap(ENEMY + " (along the edge)", PRESETS, pos("a", k="f6", a="a2 a6", d="a3"), "a6a4", "a3",
          "along-the-edge")
    # same line only
    + cap(LINE, PRESETS, pos("a", k="f2", a="b7 g5", d="c6"), "g5d5", "", "diagonal-never")
)


@pytest.mark.parametrize("rule, variant, position, m, captured", CAPTURE_CASES)
def test_capture(rule, variant, position, m, captured):
    r = game(position, variant)
    before = board_of(r)
    assert r.outcome == ONGOING
    rep = r.preview(m)
    assert rep is not None, f"{m} should be legal"
    assert set(rep.captures) == sqs(captured), rule
    assert board_of(r) == before, "preview must not change the game"
    play(r, m)
    assert set(r.report().captures) == sqs(captured), rule
    assert not r.report().king_taken
    expect = dict(before)
    expect[m[2:4]] = expect[m[:2]]
    expect[m[:2]] = ""
    for s in captured.split():
        expect[s] = ""
    assert board_of(r) == expect, rule
    assert r.outcome == ONGOING


# ---------------------------------------------------------------- capturing the king

KC = {
    "nielsen": ("brandubh", "nielsen: on the throne, attackers on all four sides; on a square beside the throne, "
                "attackers on the three other sides while the throne is empty (a throne that holds a piece does "
                "not close); anywhere else, like any piece: the mover and an attacker or an empty corner opposite."),
    "two": ("modern", "two: like any piece everywhere, throne included: the mover and a square hostile to the "
            "defenders opposite (an attacker, an empty corner, and the empty throne when throne_hostile)."),
    "two-opentafl": ("opentafl", "two with throne_hostile false: the empty throne does not close."),
    "four_two": ("codingame", "four_two: on the throne, four attackers; anywhere else the mover and an attacker or "
                 "an empty corner opposite. The throne never closes on the king."),
    "four": (V("brandubh", king_capture="four"), "four: every side closed by an attacker or the empty throne; the "
             "edge never closes, so a king on the edge cannot be captured."),
}
MODES = ("nielsen", "two", "two-opentafl", "four_two", "four")

# (ident, king, attackers, other defenders, move); a spare defender stands on f2
KING_CASES = [
    ("on-throne-four", "d4", "d5 c4 e4 g3", "", "g3d3"),
    ("on-throne-three-and-a-defender", "d4", "c4 e4 g3", "d5", "g3d3"),
    ("on-throne-two", "d4", "c4 e1", "", "e1e4"),
    ("beside-throne-three-throne-empty-mover-opposite-throne", "d5", "c5 e5 g6", "", "g6d6"),
    ("beside-throne-three-throne-empty-mover-at-side", "d5", "d6 e5 a5", "", "a5c5"),
    ("beside-throne-two-in-line", "d5", "c5 g5", "", "g5e5"),
    ("beside-throne-three-attacker-set-up-on-throne", "d5", "d4 c5 e5 g6", "", "g6d6"),
    ("beside-throne-three-defender-set-up-on-throne", "d5", "c5 e5 g6", "d4", "g6d6"),
    ("beside-throne-mover-and-empty-throne", "d5", "g6", "", "g6d6"),
    ("elsewhere-two", "c6", "b6 g6", "", "g6d6"),
    ("elsewhere-empty-corner", "b1", "e1", "", "e1c1"),
    ("elsewhere-four", "c6", "b6 c7 c5 g6", "", "g6d6"),
    ("on-edge-against-the-edge", "a3", "a2 a4 e3", "", "e3b3"),
    ("on-edge-along-the-edge", "a3", "a2 a6", "", "a6a4"),
    ("surrounded-but-not-by-the-mover", "c6", "b6 d6 c7 c5 a2", "", "a2a3"),
]


def _king_expect():
    table = {
        # ident: {mode: captured}
        "on-throne-four": dict(nielsen=1, two=1, **{"two-opentafl": 1}, four_two=1, four=1),
        "on-throne-three-and-a-defender": dict(nielsen=0, two=0, **{"two-opentafl": 0}, four_two=0, four=0),
        "on-throne-two": dict(nielsen=0, two=1, **{"two-opentafl": 1}, four_two=0, four=0),
        "beside-throne-three-throne-empty-mover-opposite-throne":
            dict(nielsen=1, two=1, **{"two-opentafl": 0}, four_two=0, four=1),
        "beside-throne-three-throne-empty-mover-at-side":
            dict(nielsen=1, two=1, **{"two-opentafl": 1}, four_two=1, four=1),
        "beside-throne-two-in-line": dict(nielsen=0, two=1, **{"two-opentafl": 1}, four_two=1, four=0),
        "beside-throne-three-attacker-set-up-on-throne":
            dict(nielsen=0, two=1, **{"two-opentafl": 1}, four_two=1, four=1),
        "beside-throne-three-defender-set-up-on-throne":
            dict(nielsen=0, two=0, **{"two-opentafl": 0}, four_two=0, four=0),
        "beside-throne-mover-and-empty-throne": dict(nielsen=0, two=1, **{"two-opentafl": 0}, four_two=0, four=0),
        "elsewhere-two": dict(nielsen=1, two=1, **{"two-opentafl": 1}, four_two=1, four=0),
        "elsewhere-empty-corner": dict(nielsen=1, two=1, **{"two-opentafl": 1}, four_two=1, four=0),
        "elsewhere-four": dict(nielsen=1, two=1, **{"two-opentafl": 1}, four_two=1, four=1),
        "on-edge-against-the-edge": dict(nielsen=0, two=0, **{"two-opentafl": 0}, four_two=0, four=0),
        "on-edge-along-the-edge": dict(nielsen=1, two=1, **{"two-opentafl": 1}, four_two=1, four=0),
        "surrounded-but-not-by-the-mover": dict(nielsen=0, two=0, **{"two-opentafl": 0}, four_two=0, four=0),
    }
    params = []
    for ident, king, att, dfd, m in KING_CASES:
        for mode in MODES:
            params.append(pytest.param(mode, king, att, dfd, m, bool(table[ident][mode]), id=f"{ident}-{mode}"))
    return params


@pytest.mark.parametrize("mode, king, att, dfd, m, taken", _king_expect())
def test_king_capture(mode, king, att, dfd, m, taken):
    """Rule sheet, "King capture, by the attackers only, with the mover one of the
    attackers that close him" per king_capture mode (rule in KC[mode])."""
    variant, rule = KC[mode]
    r = game(pos("a", k=king, a=att, d=("f2 " + dfd).strip()), variant)
    assert r.outcome == ONGOING
    play(r, m)
    rep = r.report()
    assert rep.king_taken is taken, rule
    if taken:
        assert_over(r, CAPTURE, A)
        assert r.at(king) == "" and r.count("king") == 0
    else:
        assert_over(r, ONGOING)
        assert r.at(king) == "king"


@pytest.mark.parametrize("variant", PRESETS)
def test_king_moves_between_two_attackers_unharmed(variant):
    """Rule sheet: "A piece may move between two enemies unharmed." (the king too)."""
    r = game(pos("d", k="c2", a="b6 d6"), variant)
    play(r, "c2c6")
    assert r.at("c6") == "king" and not r.report().king_taken
    assert r.outcome == ONGOING


@pytest.mark.parametrize("variant", ["modern", "opentafl"])
def test_three_captures_and_the_king(variant):
    """Rule sheet: "One move captures every enemy it closes on, up to three (and
    the king)." Under two: c2-c5 closes b5 (a5), c6 (c7) and the king on d5 (e5)."""
    r = game(pos("a", k="d5", a="a5 e5 c7 c2", d="b5 c6"), variant)
    play(r, "c2c5")
    rep = r.report()
    assert rep.king_taken
    assert sqs("b5 c6") <= set(rep.captures)
    assert r.at("b5") == r.at("c6") == r.at("d5") == ""
    assert_over(r, CAPTURE, A)


# ---------------------------------------------------------------- escape


@pytest.mark.parametrize("variant", PRESETS)
@pytest.mark.parametrize("king, m", [("a3", "a3a1"), ("e1", "e1g1"), ("a5", "a5a7"), ("g5", "g5g7")],
                         ids=["a1", "g1", "a7", "g7"])
def test_king_reaches_each_corner(variant, king, m):
    """Rule sheet, ending 1: "corner: the king's move ended where he escapes.
    Defenders win."; the rules page: "The defenders win if the king reaches
    any of the four corners: a1, g1, a7 or g7."""
    r = game(pos("d", k=king, a="d2"), variant)
    play(r, m)
    rep = r.report()
    assert rep.king_moved and rep.king_home and not rep.king_taken
    assert r.at(m[2:]) == "king"
    assert_over(r, CORNER, D)


@pytest.mark.parametrize("variant, outcome, winner", [
    (V("brandubh", escape="edge"), CORNER, D), (V("codingame", escape="edge"), CORNER, D),
    ("brandubh", ONGOING, None), ("codingame", ONGOING, None)])
def test_edge_escape(variant, outcome, winner):
    """Field escape: "edge": where the king wins is any edge square."""
    r = game(pos("d", k="c5", a="g2"), variant)
    play(r, "c5c7")
    assert r.report().king_home is (outcome == CORNER)
    assert_over(r, outcome, winner)


def test_edge_escape_only_the_king():
    """escape=edge is where the KING wins: a defender on the edge is nothing."""
    r = game(pos("d", k="c4", a="g2", d="e5"), V("brandubh", escape="edge"))
    play(r, "e5e7")
    assert_over(r, ONGOING)


# ---------------------------------------------------------------- endings: capture of the last attacker

LAST = pos("d", k="f5", a="b1", d="e1")  # e1-c1 takes b1 against the corner


@pytest.mark.parametrize("variant, outcome, winner", [
    ("brandubh", NO_PIECES, D), ("modern", NO_PIECES, D), ("opentafl", NO_PIECES, D),
    ("codingame", NO_MOVE, D),
    (V("brandubh", no_pieces=False), NO_MOVE, None),
    (V("codingame", no_pieces=True), NO_PIECES, D),
])
def test_no_pieces(variant, outcome, winner):
    """Ending 3: "no_pieces: with no_pieces, the attackers have no piece left.
    Defenders win."; field: "when false they are a side with no legal move at
    their turn" (then no_move: draw or loss by the preset)."""
    r = game(LAST, variant)
    play(r, "e1c1")
    assert r.report().captures == (square("b1"),)
    assert r.count("attacker") == 0
    assert_over(r, outcome, winner)


# ---------------------------------------------------------------- endings: no legal move

HEMMED = pos("a", k="d1", a="c1 e1 d3")  # d3-d2 leaves the king (the only defender) no move


@pytest.mark.parametrize("variant, winner", [
    ("brandubh", None), ("codingame", A), ("modern", A), ("opentafl", A),
    (V("codingame", no_move="draw"), None), (V("brandubh", no_move="loss"), A)])
def test_no_move_after_a_move(variant, winner):
    """Endings 6/9: "no_move: the side to move has no legal move" (a draw, or a
    loss for it); Game::Brandubh "drawn ... when a side cannot move"; the rules
    page "A side with no legal move at the start of its turn loses."; the
    CodinGame puzzle "You have no valid moves available" is a defeat. The king
    on d1 is not taken: the mover d2 has nothing beyond the king but the edge."""
    r = game(HEMMED, variant)
    play(r, "d3d2")
    assert not r.report().king_taken and r.at("d1") == "king"
    assert_over(r, NO_MOVE, winner)


# ---------------------------------------------------------------- endings: repetition

SHUF = pos("a", k="f6", a="b2")
SHUF_MOVES = ["b2b3", "f6f5", "b3b2", "f5f6"] * 5
SHUF_D = pos("d", k="f6", a="b2")
SHUF_D_MOVES = ["f6f5", "b2b3", "f5f6", "b3b2"] * 5


def play_until_over(r, moves):
    for m in moves:
        if r.is_over():
            break
        play(r, m)
    return r


@pytest.mark.parametrize("variant, start, moves, end_ply, winner", [
    pytest.param("brandubh", SHUF, SHUF_MOVES, 8, None, id="brandubh-third-occurrence-counting-start-draw"),
    pytest.param("opentafl", SHUF, SHUF_MOVES, 8, None, id="opentafl-draw"),
    pytest.param("modern", SHUF, SHUF_MOVES, 8, A, id="modern-loss-defenders-made-it"),
    pytest.param("modern", SHUF_D, SHUF_D_MOVES, 8, D, id="modern-loss-attackers-made-it"),
    pytest.param("codingame", SHUF, SHUF_MOVES, 9, D, id="codingame-start-not-counted-attackers-made-it"),
    pytest.param(V("codingame", repeat_counts_start=True), SHUF, SHUF_MOVES, 8, A,
                 id="codingame-counting-start"),
    pytest.param(V("brandubh", repeat_counts_start=False), SHUF, SHUF_MOVES, 9, None,
                 id="brandubh-start-not-counted"),
    pytest.param(V("brandubh", repeat=2), SHUF, SHUF_MOVES, 4, None, id="repeat-2"),
    pytest.param(V("brandubh", repeat=2, repeat_counts_start=False), SHUF, SHUF_MOVES, 5, None,
                 id="repeat-2-start-not-counted"),
    pytest.param(V("brandubh", repeat=1), SHUF, SHUF_MOVES, 4, None, id="repeat-1-taken-as-2"),
    pytest.param(V("brandubh", repeat=0), SHUF, SHUF_MOVES, 4, None, id="repeat-0-taken-as-2"),
    pytest.param(V("brandubh", repeat=4), SHUF, SHUF_MOVES, 12, None, id="repeat-4"),
    pytest.param(V("opentafl", repetition="loss"), SHUF, SHUF_MOVES, 8, A, id="opentafl-loss"),
])
def test_repetition(variant, start, moves, end_ply, winner):
    """Ending 4: "repetition: the position (board and side to move) has now
    occurred repeat times. A draw, or a loss for the side that just moved.";
    fields repeat ("values below 2 are taken as 2") and repeat_counts_start;
    codingame: "the first position is never recorded"."""
    r = game(start, variant)
    play_until_over(r, moves)
    assert r.ply == end_ply
    assert_over(r, REPETITION, winner)


def test_repeats_counts():
    """docs/rules.md: "repeats is how many times the position now on the board
    has occurred, as the repetition rule counts them, the present occurrence
    always included: at the start it is 1.\""""
    r = game(SHUF, "brandubh")
    assert r.repeats == 1
    counts = []
    for m in SHUF_MOVES[:8]:
        play(r, m)
        counts.append(r.repeats)
    assert counts == [1, 1, 1, 2, 2, 2, 2, 3]
    c = game(SHUF, "codingame")
    assert c.repeats == 1
    counts = []
    for m in SHUF_MOVES[:9]:
        play(c, m)
        counts.append(c.repeats)
    assert counts == [1, 1, 1, 1, 2, 2, 2, 2, 3]


def test_same_board_other_side_to_move_is_not_a_repetition():
    """Rule sheet: "the position (board and side to move)". The attacker goes
    b2-b5-b3-b2 (three moves), the king f6-f5-f6 (two): after five moves the
    board is the start board with the defenders to move, which is another
    position. repeat=2 would end the game at a true repetition."""
    r = game(SHUF, V("brandubh", repeat=2))
    play(r, "b2b5", "f6f5", "b5b3", "f5f6", "b3b2")
    assert r.position.split()[0] == SHUF.split()[0]
    assert r.side == D
    assert r.repeats == 1
    assert r.key_hex != r.key_at(0)
    assert_over(r, ONGOING)


def test_key_same_for_same_board_and_side():
    """Game::Brandubh signature: "the same for the same pieces on the same
    squares with the same side to move"; Game::Brandubh::Rules key_at: "0
    being where the game began.
    undef for a ply the game has not reached.\""""
    r = game(SHUF, "brandubh")
    play(r, *SHUF_MOVES[:4])
    assert r.key_at(0) == r.key_at(4) == r.key_hex
    assert r.key_at(1) != r.key_at(0)
    assert r.key_at(5) is None


# ---------------------------------------------------------------- endings: encirclement

RING = "e4 d5 f5 d6 f6"  # round e5 and e6; b7-e7 closes the ring
ENC = pos("a", k="e5", a=RING + " b7")


@pytest.mark.parametrize("variant, extra, outcome, winner", [
    pytest.param("codingame", "", ENCIRCLED, A, id="codingame-shut-in"),
    pytest.param(V("brandubh", encirclement=True), "", ENCIRCLED, A, id="brandubh-with-encirclement"),
    pytest.param("brandubh", "", ONGOING, None, id="brandubh-no-encirclement"),
    pytest.param("modern", "", ONGOING, None, id="modern-no-encirclement"),
    pytest.param("opentafl", "", ONGOING, None, id="opentafl-no-encirclement"),
    pytest.param("codingame", "a3", ONGOING, None, id="defender-on-the-edge"),
    pytest.param("codingame", "b3", ONGOING, None, id="defender-can-reach-the-edge"),
    pytest.param("codingame", "g6", ONGOING, None, id="defender-outside-on-the-edge"),
])
def test_encirclement(variant, extra, outcome, winner):
    """Field encirclement: "attackers win at once when no defender and not the
    king stands on an edge square or can reach one through squares that hold
    no attacker (orthogonal steps)"; ending 5; the rules page "no
    encirclement in brandubh"; the CodinGame puzzle "the King and all his
    remaining defenders are encircled"."""
    r = game(pos("a", k="e5", a=RING + " b7", d=extra), variant)
    play(r, "b7e7")
    assert r.report().captures == ()
    assert_over(r, outcome, winner)


@pytest.mark.parametrize("g4, outcome, winner", [("", ONGOING, None), ("g4", ENCIRCLED, A)],
                         ids=["way-out-through-empty-throne", "way-through-throne-closed"])
def test_encirclement_path_through_the_empty_throne(g4, outcome, winner):
    """"can reach one through squares that hold no attacker": the empty throne
    holds no attacker, so c4-d4-e4-f4-g4 is a way out. With an attacker on g4
    the region {c4, d4, e4, f4} is shut in."""
    att = "b4 c3 c5 d3 d5 e3 e5 f3 f7 " + g4
    r = game(pos("a", k="c4", a=att.strip()), "codingame")
    play(r, "f7f5")
    assert_over(r, outcome, winner)


def test_encirclement_not_asked_at_start_then_at_first_move():
    """"Repetition, encirclement and the caps are not asked before the first
    move." The ring is closed at the start; it is asked after the first move, a2-a3."""
    r = game(pos("a", k="e5", a=RING + " e7 a2"), "codingame")
    assert_over(r, ONGOING)
    play(r, "a2a3")
    assert_over(r, ENCIRCLED, A)


# ---------------------------------------------------------------- endings: ply_cap and quiet_cap (a long walk)

# The attacker walks a cycle of 10 squares on ranks 1-2, the king a cycle of 11
# on ranks 5-6; a defender stands on c3. No position repeats within 220 moves
# (lcm(10, 11) = 110 rounds), nothing is ever captured, nobody is shut in.
A_CYC = "b1 b2 c2 d2 e2 f2 f1 e1 d1 c1".split()
K_CYC = "b5 b6 c6 d6 e6 f6 g6 g5 f5 e5 d5".split()
WALK = pos("a", k="b5", a="b1", d="c3")


def walk_move(ply):
    j = (ply - 1) // 2
    if ply % 2:
        return A_CYC[j % 10] + A_CYC[(j + 1) % 10]
    return K_CYC[j % 11] + K_CYC[(j + 1) % 11]


def walk(r, plies):
    for p in range(r.ply + 1, r.ply + plies + 1):
        assert r.outcome == ONGOING, f"ended early at ply {r.ply}: {r.outcome!r}"
        play(r, walk_move(p))
    return r


@pytest.mark.parametrize("variant, cap, outcome", [
    pytest.param("codingame", 200, PLY_CAP, id="codingame-200"),
    pytest.param("brandubh", 400, PLY_CAP, id="brandubh-400"),
    pytest.param("modern", 100, QUIET_CAP, id="modern-quiet-100"),
    pytest.param("opentafl", 440, REPETITION, id="opentafl-no-cap-until-repetition-at-440"),
    pytest.param(V("brandubh", ply_cap=7), 7, PLY_CAP, id="ply_cap-7"),
    pytest.param(V("opentafl", quiet_cap=5), 5, QUIET_CAP, id="quiet_cap-5"),
    pytest.param(V("modern", ply_cap=4, quiet_cap=4), 4, PLY_CAP, id="ply_cap-before-quiet_cap"),
    pytest.param(V("codingame", ply_cap=0), 200, PLY_CAP, id="ply_cap-0-is-presets"),
    pytest.param(V("codingame", ply_cap=4097), 200, PLY_CAP, id="ply_cap-4097-is-presets"),
    pytest.param(V("brandubh", ply_cap=-3), 400, PLY_CAP, id="ply_cap-negative-is-presets"),
])
def test_caps(variant, cap, outcome):
    """Endings 7 and 8: "ply_cap: the limit of moves is reached. A draw.";
    "quiet_cap: the limit of moves without a capture is reached. A draw.";
    presets 400/200/4096 and quiet_cap 100 (modern), 0 off elsewhere; "0,
    less, or more than 4096 is taken as the preset's own value"; Game::Brandubh
    "drawn after 400 moves"; the CodinGame puzzle "after 200 turns ... a
    draw"; the rules page "A hundred moves without progress draws the game".
    The opentafl walk reaches its third start position at ply 440 (counting
    the start) before any cap."""
    r = game(WALK, variant)
    walk(r, cap - 1)
    assert_over(r, ONGOING)
    play(r, walk_move(cap))
    assert r.ply == cap
    assert_over(r, outcome, None)


def test_ply_cap_field_values():
    """Field ply_cap: "1–4096 ... 0, less, or more than 4096 is taken as the
    preset's own value"; Game::Brandubh::Rules "400 by default"."""
    assert Variant.named("brandubh").ply_cap == 400
    assert Variant.named("codingame").ply_cap == 200
    assert Variant.named("modern").ply_cap == Variant.named("opentafl").ply_cap == 4096
    assert V("codingame", ply_cap=0).ply_cap == 200
    assert V("brandubh", ply_cap=5000).ply_cap == 400
    assert V("brandubh", ply_cap=1).ply_cap == 1
    assert V("brandubh", ply_cap=4096).ply_cap == 4096
    assert Variant.named("modern").quiet_cap == 100
    assert V("brandubh", repeat=1).repeat == 2


@pytest.mark.parametrize("takes, end_ply", [(True, 5), (False, 4)], ids=["capture-restarts-count", "no-capture"])
def test_quiet_cap_counts_moves_in_a_row_without_capture(takes, end_ply):
    """modern: "'A hundred moves without progress' is read as 100 moves in a
    row, both sides counted, with no capture" (here quiet_cap=4). Move 1
    (a6-a3) takes a2 against the corner when a defender stands there."""
    r = game(pos("a", k="b5", a="b1 a6", d="a2" if takes else "c3"), V("modern", quiet_cap=4))
    play(r, "a6a3")
    assert bool(r.report().captures) is takes
    play_until_over(r, ["b5b6", "b1b2", "b6c6", "b2c2", "c6d6", "c2d2", "d6e6"])
    assert r.ply == end_ply
    assert_over(r, QUIET_CAP)


# ---------------------------------------------------------------- endings that coincide

def test_last_attacker_taken_with_the_200th_move_codingame_is_ply_cap():
    """Rule sheet, ending 3: "(Under codingame, taking the last attacker with the
    200th move is therefore a ply_cap draw.)": no_pieces is false, so the
    attackers are only a side with no move, and a no_move loss (9) comes after
    ply_cap (7)."""
    r = walk(game(WALK, "codingame"), 199)
    assert r.at("b1") == "attacker"
    play(r, "c3c1")
    assert r.report().captures == (square("b1"),)
    assert r.count("attacker") == 0 and r.ply == 200
    assert_over(r, PLY_CAP)


def test_last_attacker_taken_with_the_cap_move_with_no_pieces_is_no_pieces():
    """Order: no_pieces (3) comes before ply_cap (7)."""
    r = walk(game(WALK, V("codingame", no_pieces=True)), 199)
    play(r, "c3c1")
    assert_over(r, NO_PIECES, D)


@pytest.mark.parametrize("variant", ["brandubh", "codingame"])
def test_corner_before_no_pieces(variant):
    """Order: corner (1) before no_pieces (3): the armed king reaches a1 and
    takes the last attacker (b1, against the defender on c1) with the same move."""
    r = game(pos("d", k="a3", a="b1", d="c1"), variant)
    play(r, "a3a1")
    assert r.report().captures == (square("b1"),)
    assert r.count("attacker") == 0
    assert_over(r, CORNER, D)


@pytest.mark.parametrize("variant", ["brandubh", "codingame", "modern"])
def test_capture_before_encircled_and_no_move(variant):
    """Order: capture (2) before encircled (5) and no_move (6/9): taking the
    last defender, the king, leaves the defenders shut in and without a move."""
    r = game(pos("a", k="c6", a="b6 g6"), variant)
    play(r, "g6d6")
    assert_over(r, CAPTURE, A)


@pytest.mark.parametrize("variant, outcome, winner", [
    (V("brandubh", ply_cap=1), CORNER, D), (V("codingame", ply_cap=1), CORNER, D)])
def test_corner_before_ply_cap(variant, outcome, winner):
    """Order: corner (1) before ply_cap (7)."""
    r = game(pos("d", k="a3", a="g2"), variant)
    play(r, "a3a1")
    assert_over(r, outcome, winner)


@pytest.mark.parametrize("variant", [V("brandubh", ply_cap=1), V("modern", ply_cap=1, quiet_cap=1)])
def test_capture_before_ply_cap(variant):
    """Order: capture (2) before ply_cap (7) and quiet_cap (8)."""
    r = game(pos("a", k="c6", a="b6 g6", d="f2"), variant)
    play(r, "g6d6")
    assert_over(r, CAPTURE, A)


@pytest.mark.parametrize("variant, end_ply, outcome, winner", [
    (V("brandubh", ply_cap=8), 8, REPETITION, None),
    (V("brandubh", ply_cap=7), 7, PLY_CAP, None),
    (V("modern", quiet_cap=8), 8, REPETITION, A),
    (V("codingame", ply_cap=9), 9, REPETITION, D),
])
def test_repetition_before_caps(variant, end_ply, outcome, winner):
    """Order: repetition (4) before ply_cap (7) and quiet_cap (8)."""
    r = play_until_over(game(SHUF, variant), SHUF_MOVES)
    assert r.ply == end_ply
    assert_over(r, outcome, winner)


@pytest.mark.parametrize("variant, outcome, winner", [
    pytest.param("codingame", ENCIRCLED, A, id="encircled-before-no_move-loss"),
    pytest.param(V("brandubh", encirclement=True), ENCIRCLED, A, id="encircled-before-no_move-draw"),
    pytest.param("brandubh", NO_MOVE, None, id="no_move-draw-without-encirclement"),
    pytest.param("modern", NO_MOVE, A, id="no_move-loss-without-encirclement"),
    pytest.param(V("codingame", ply_cap=1), ENCIRCLED, A, id="encircled-before-ply_cap"),
])
def test_encircled_and_no_move(variant, outcome, winner):
    """Order: encircled (5) before no_move (6, 9) and ply_cap (7). King e5 and
    defender e6 in the ring: after b7-e7 they are shut in and cannot move (e7
    does not take e6: the king beyond it is its friend)."""
    r = game(pos("a", k="e5", a=RING + " b7", d="e6"), variant)
    play(r, "b7e7")
    assert r.at("e6") == "defender"
    assert_over(r, outcome, winner)


@pytest.mark.parametrize("variant, outcome, winner", [
    pytest.param(V("brandubh", ply_cap=1), NO_MOVE, None, id="no_move-draw-before-ply_cap"),
    pytest.param(V("codingame", ply_cap=1), PLY_CAP, None, id="ply_cap-before-no_move-loss"),
    pytest.param(V("modern", quiet_cap=1), QUIET_CAP, None, id="quiet_cap-before-no_move-loss"),
    pytest.param(V("modern", quiet_cap=1, no_move="draw"), NO_MOVE, None, id="no_move-draw-before-quiet_cap"),
])
def test_no_move_against_caps(variant, outcome, winner):
    """Order: no_move as a draw is 6, before ply_cap (7) and quiet_cap (8);
    no_move as a loss is 9, after both."""
    r = game(HEMMED, variant)
    play(r, "d3d2")
    assert_over(r, outcome, winner)


def test_corner_on_a_repeating_move_cannot_arise():
    """Game::Brandubh::Rules: "A king who reaches a corner on the move that also
    repeats a position has won." A position with the king on a corner is over
    the moment it occurs (and a start with the king on a corner is over before
    any move), so it can never have occurred before: the corner ending stands
    alone. Checked here: with repeat=2 the king reaching the corner wins at
    once."""
    r = game(pos("d", k="a3", a="b2 g5"), V("brandubh", repeat=2))
    play(r, "a3a4", "b2b3", "a4a3", "b3b2")
    assert_over(r, REPETITION)
    r = game(pos("d", k="a3", a="b2 g5"), V("brandubh", repeat=2))
    play(r, "a3a4", "b2b3", "a4a1")
    assert_over(r, CORNER, D)


# ---------------------------------------------------------------- a start that is already over


@pytest.mark.parametrize("variant", PRESETS)
@pytest.mark.parametrize("position, outcome, winner", [
    pytest.param(pos("a", a="d1", d="d3"), CAPTURE, A, id="no-king"),
    pytest.param(pos("a", d="d3"), CAPTURE, A, id="no-king-no-attacker"),
    pytest.param(pos("d", d="d3"), CAPTURE, A, id="no-king-no-attacker-defenders-to-move"),
    pytest.param(pos("a", k="a1", a="d1"), CORNER, D, id="king-on-corner"),
    pytest.param(pos("d", k="g7"), CORNER, D, id="king-on-corner-no-attacker"),
])
def test_start_already_over(variant, position, outcome, winner):
    """Rule sheet: "These are asked, in order: no king on the board → capture; the
    king already where he escapes → corner; ..."; Game::Brandubh::Rules "a
    board with no king on it is a win by capture, and a board with a king
    standing where he wins is a win by a corner.\""""
    r = game(position, variant)
    assert r.ply == 0
    assert_over(r, outcome, winner)
    assert r.play(r.moves()[0] if r.moves() else "d3d2") == Rules.PLAY_OVER


@pytest.mark.parametrize("position, variant, outcome, winner", [
    pytest.param(pos("d", k="d4"), "brandubh", NO_PIECES, D, id="no-attacker-defenders-to-move"),
    pytest.param(pos("a", k="d4"), "brandubh", NO_PIECES, D, id="no-attacker-attackers-to-move-no_pieces-first"),
    pytest.param(pos("a", k="d4"), "modern", NO_PIECES, D, id="no-attacker-modern"),
    pytest.param(pos("a", k="d4"), "opentafl", NO_PIECES, D, id="no-attacker-opentafl"),
    pytest.param(pos("a", k="d4"), "codingame", NO_MOVE, D, id="no-attacker-codingame-no_move-loss"),
    pytest.param(pos("d", k="d4"), "codingame", ONGOING, None, id="no-attacker-codingame-defenders-to-move"),
    pytest.param(pos("a", k="d4"), V("brandubh", no_pieces=False), NO_MOVE, None, id="no-attacker-no_pieces-off"),
    pytest.param(pos("d", k="d1", a="c1 e1 d2"), "brandubh", NO_MOVE, None, id="king-hemmed-draw"),
    pytest.param(pos("d", k="d1", a="c1 e1 d2"), "codingame", NO_MOVE, A, id="king-hemmed-codingame-loss"),
    pytest.param(pos("d", k="d1", a="c1 e1 d2"), "modern", NO_MOVE, A, id="king-hemmed-modern-loss"),
    pytest.param(pos("d", k="d1", a="c1 e1 d2"), "opentafl", NO_MOVE, A, id="king-hemmed-opentafl-loss"),
    pytest.param(pos("a", k="f5", a="a1", d="a2 b1"), "brandubh", NO_MOVE, None, id="attackers-stuck-draw"),
    pytest.param(pos("a", k="f5", a="a1", d="a2 b1"), "codingame", NO_MOVE, D, id="attackers-stuck-loss"),
    pytest.param(pos("a", k="a3", a="g2"), V("brandubh", escape="edge"), CORNER, D, id="king-on-edge-escape-edge"),
    pytest.param(pos("a", k="a3", a="g2"), "brandubh", ONGOING, None, id="king-on-edge-escape-corner"),
    pytest.param(pos("a", k="d4", a="c4 e4 d3 d5", d="f2"), "brandubh", ONGOING, None,
                 id="king-surrounded-is-not-asked"),
    pytest.param(pos("a", k="e5", a=RING + " e7 a2"), "codingame", ONGOING, None, id="encircled-is-not-asked"),
])
def test_start_already_over_more(position, variant, outcome, winner):
    """Rule sheet: "...; no attacker, with no_pieces → no_pieces; the side to move
    has no legal move → no_move (a draw, or its loss). Repetition, encirclement
    and the caps are not asked before the first move." A king captured-looking
    on his throne is not asked either: only "no king" is."""
    r = game(position, variant)
    assert r.ply == 0
    assert_over(r, outcome, winner)


def test_no_attacker_codingame_loses_when_its_turn_comes():
    """codingame: "The side to move with no legal move loses, checked when its
    turn starts." The defenders move first; then the attackers, who have no
    piece, have no move."""
    r = game(pos("d", k="d4"), "codingame")
    play(r, "d4d6")
    assert_over(r, NO_MOVE, D)


# ---------------------------------------------------------------- refusals, undo


def test_refusals_leave_the_game_as_it_was():
    """Game::Brandubh::Rules play: "PLAY_ILLEGAL when the move is not one of
    moves. On either refusal the game is exactly as it was."; PLAY_OVER "when
    the game had already ended"; moves: "Empty once the game is over"; why_not
    "answers for the position and does not know the game is over"."""
    r = game(SHUF, "brandubh")
    snap = (r.position, r.ply, r.repeats, r.outcome)
    assert r.play("b2c3") == Rules.PLAY_ILLEGAL
    assert r.play("f6f5") == Rules.PLAY_ILLEGAL  # not the defenders' turn
    assert (r.position, r.ply, r.repeats, r.outcome) == snap
    play_until_over(r, SHUF_MOVES)
    assert_over(r, REPETITION)
    snap = (r.position, r.ply, r.repeats, r.outcome, r.winner, r.log())
    assert r.play("b2b3") == Rules.PLAY_OVER
    assert (r.position, r.ply, r.repeats, r.outcome, r.winner, r.log()) == snap
    assert r.moves() == []
    assert r.why_not("b2", "b3") == Why.OK


def snapshot(r):
    return dict(position=r.position, ply=r.ply, repeats=r.repeats, outcome=r.outcome, winner=r.winner,
                side=r.side, key=r.key_hex, log=r.log(), board=board_of(r), moves=r.moves(),
                over=r.is_over(), draw=r.is_draw())


@pytest.mark.parametrize("variant, start, moves", [
    pytest.param("brandubh", SHUF, SHUF_MOVES[:8], id="repetition-draw"),
    pytest.param("codingame", SHUF, SHUF_MOVES[:9], id="repetition-loss"),
    pytest.param("brandubh", pos("d", k="g3", a="b5 d5 c6", d="a5 e5 c7 c2"), ["c2c5"],
                 id="three-captures-and-no_pieces"),
    pytest.param("brandubh", pos("a", k="d5", a="c5 e5 g6 a2", d="b3"), ["a2a3", "b3b1", "g6d6"],
                 id="king-captured"),
    pytest.param("codingame", pos("d", k="a3", a="b1", d="c1"), ["a3a1"], id="corner-and-last-attacker"),
    pytest.param("brandubh", LAST, ["e1c1"], id="no_pieces"),
    pytest.param("codingame", ENC, ["b7e7"], id="encircled"),
])
def test_undo_restores_everything(variant, start, moves):
    """Game::Brandubh::Rules undo: "Takes the last move back, and with it whatever
    ending that move brought. Returns true, or false when no move has been
    made." Outcome, winner, ply, repeats, position, key and log are as they
    were."""
    r = game(start, variant)
    snaps = [snapshot(r)]
    for m in moves:
        play(r, m)
        snaps.append(snapshot(r))
    assert r.is_over()
    for expected in reversed(snaps[:-1]):
        assert r.undo() is True
        assert snapshot(r) == expected
    assert snaps[0]["outcome"] == ONGOING and snaps[0]["ply"] == 0 and snaps[0]["repeats"] == 1
    assert r.undo() is False
    assert snapshot(r) == snaps[0]
    assert r.position == game(start, variant).position
    # and forward again: the same ending
    for m in moves:
        play(r, m)
    assert snapshot(r) == snaps[-1]


def test_undo_values_by_hand():
    """Undoing the repeating move: ply 7, ONGOING, no winner, repeats 2 (the
    position after move 7 is the one after move 3, seen twice)."""
    r = play_until_over(game(SHUF, "brandubh"), SHUF_MOVES)
    assert (r.ply, r.repeats) == (8, 3)
    assert r.undo()
    assert (r.ply, r.repeats, r.outcome, r.winner, r.side) == (7, 2, ONGOING, None, D)
    assert r.position == pos("d", k="f5", a="b2")
    assert r.moves()


def test_undo_on_a_start_that_is_over():
    """No move was made: undo is false and the ending (set up) stays."""
    r = game(pos("a", a="d1", d="d3"), "brandubh")
    assert r.undo() is False
    assert_over(r, CAPTURE, A)


def test_undo_after_ply_cap():
    r = walk(game(WALK, "codingame"), 200)
    assert_over(r, PLY_CAP)
    assert r.undo()
    assert r.ply == 199
    assert_over(r, ONGOING)
    assert r.repeats == 1
