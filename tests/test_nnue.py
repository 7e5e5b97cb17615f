"""The NNUE evaluation (csrc/nnue.c): the engine's integer forward pass
against one written here with numpy from the committed net file, the sums
the search carries from move to move against the sums built afresh, the
search with it deterministic, and the compiled weights not stale."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from brandubh import Rules
from brandubh.core.search import features_off
from brandubh.learn.net import board_of, counts
from brandubh.learn.selfplay import TAGS
from brandubh.notation import SETUP
from brandubh.variant import PRESETS, Variant
from conftest import CC, build_c_driver
from test_reference_vs_engine import random_variant

ROOT = Path(__file__).resolve().parent.parent
NET = ROOT / "nets" / "nnue.json"

KING_CAPTURES = ("nielsen", "two", "four_two", "four")  # enum bd_king_capture's order


def _net():
    return json.loads(NET.read_text(encoding="utf-8"))


def forward(net, variant, position):
    """The net's score of a position, from its description in
    docs/learned.md: one-hot pieces (attackers, defenders, king by square),
    the four counts, the king-capture rule; a clipped ReLU layer; integer
    division toward zero."""
    np = pytest.importorskip("numpy")  # only here: the other tests need none
    board, _ = board_of(position)
    if "k" not in board:
        return 100 * (board.count("a") - board.count("d"))
    x = np.zeros(net["inputs"], dtype=np.int64)
    for s, piece in enumerate(board):
        if piece != ".":
            x["adk".index(piece) * 49 + s] = 1
    x[147:151] = counts(variant, position)
    x[151 + KING_CAPTURES.index(PRESETS[variant].king_capture)] = 1
    acc = x @ np.array(net["w1"], dtype=np.int64) + np.array(net["b1"], dtype=np.int64)
    out = int(np.clip(acc, 0, net["one"]) @ np.array(net["w2"], dtype=np.int64)) + net["b2"]
    d = net["one"] * net["out_scale"]
    score = abs(out) // d * (1 if out >= 0 else -1)
    return max(-28_999, min(28_999, score))


def _random_positions(count, seed):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        name = TAGS[i % 4]
        game = Rules(variant=PRESETS[name])
        for _ in range(rng.randrange(0, 60)):
            moves = game.moves()
            if not moves or game.is_over():
                break
            game.play(rng.choice(moves))
        if not game.is_over():
            out.append((name, game.position))
    return out


def test_c_evaluation_equals_numpy_on_random_positions():
    net = _net()
    scores = set()
    for name, position in _random_positions(200, 3):
        got = Rules(position, PRESETS[name]).evaluate({"eval": "nnue"})
        assert got == forward(net, name, position), (name, position)
        scores.add(got)
    assert len(scores) > 50  # a trained net, not one of zeros


def test_forward_reads_the_layers_as_documented():
    """The reference itself on a made-up net: one unit that counts the
    attackers, clipped at two of them."""
    net = {"inputs": 155, "one": 255, "out_scale": 16, "b2": 0,
           "w1": [[0] * 32 for _ in range(155)], "b1": [0] * 32, "w2": [0] * 32}
    for s in range(49):
        net["w1"][s][0] = 128
    net["w2"][0] = 16 * 100
    assert forward(net, "brandubh", "7/7/7/3k3/7/7/a6 a") == 50
    assert forward(net, "brandubh", "7/7/7/3k3/7/7/aaa4 a") == 100  # 3 * 128 clipped at 255


# Rule sets for the carried sums: every preset, and house rules of every
# king_capture (the one rule the net reads) and both escapes.
HOUSE_RULES = [Variant.from_fields(random_variant(random.Random(f"nnue-{i}"))) for i in range(6)]
RULE_SETS = [*PRESETS.values(), *HOUSE_RULES]


@pytest.fixture(scope="module")
def nnue_check(tmp_path_factory):
    """tests/c/nnue_check.c, built with the search's check of every score."""
    if CC is None:
        pytest.skip("needs a C compiler")
    return build_c_driver("nnue_check", tmp_path_factory.mktemp("nnue"), "-DBD_NNUE_CHECK")


def avx2_copy_expected() -> bool:
    """Whether the engine built by the drivers' compiler has the AVX2 copy
    of the NNUE's loops (csrc/nnue.h: GCC on x86) and this processor runs
    it (AVX2, popcount and BMI1), read from what Linux says of the processor: then the search uses
    it, and nnue_check checks it."""
    import platform

    if platform.machine() not in ("x86_64", "AMD64", "i686") or CC is None:
        return False
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8").split()
    except OSError:
        return False
    version = subprocess.run([CC, "--version"], capture_output=True, text=True).stdout
    return "avx2" in flags and "popcnt" in flags and "bmi1" in flags and "clang" not in version


def test_house_rules_cover_what_the_net_reads():
    assert {v.king_capture for v in RULE_SETS} == {"nielsen", "two", "four_two", "four"}
    assert {v.escape for v in RULE_SETS} == {"corner", "edge"}


def test_the_output_division_is_c99s(nnue_check):
    """The evaluation divides the output layer's sum by a multiplication
    and a shift (csrc/nnue.h: bd_nnue_divide): over every sum that a net
    tools/gen_nnue.py accepts can reach, it is C's division, truncated
    toward zero."""
    run = subprocess.run([str(nnue_check), "divide"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("ok"), (run.stdout, run.stderr)


def test_carried_sums_are_the_refreshed_ones(nnue_check):
    """After every move of random games (captures and the king's included)
    the sums carried by the move are those built afresh, byte for byte;
    searches along the way check every score they take against the full
    refresh, and find what the search with the sums built afresh finds.
    Where the processor runs the AVX2 copy of the loops, which the search
    then uses, its sums and scores are checked against the baseline's too
    (and the searches' scores are its own)."""
    from brandubh._engine import ffi
    from brandubh.core.position import c_variant

    totals = [0] * 5
    for i, variant in enumerate(RULE_SETS):
        run = subprocess.run([str(nnue_check), bytes(ffi.buffer(c_variant(variant))).hex(), SETUP, str(i + 1), "12"],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and run.stdout.startswith("ok"), (variant.as_string(), run.stdout, run.stderr)
        counted = [int(w) for w in run.stdout.split() if w.isdigit()]
        assert counted[0] > 100 and counted[3] > 10, run.stdout
        assert run.stdout.rstrip().endswith("avx2") == avx2_copy_expected(), run.stdout
        totals = [a + b for a, b in zip(totals, counted)]
    moves, captures, kings, searches, positions = totals
    # Not vacuous: thousands of moves, hundreds of captures, the king taken.
    assert moves > 3000 and captures > 200 and kings > 0 and positions > 1_000_000, totals


def test_carried_sums_search_as_the_refresh_does():
    """Without a compiler too: the search with the sums carried and with them
    built afresh at every evaluation (off=incremental) finds the same, node
    for node, from random positions of every rule set."""
    afresh = features_off(["incremental"])
    for i, variant in enumerate(RULE_SETS):
        rng = random.Random(f"nnue-search-{i}")
        game = Rules(variant=variant)
        for _ in range(30):
            if game.is_over():
                break
            for budget in (1, 500, 3000):
                found = game.search(budget=budget, seed=i)
                assert found == game.search(budget=budget, seed=i, _off=afresh), (variant.as_string(), game.position)
            game.play(rng.choice(game.moves()))


def test_search_with_it_is_deterministic():
    game = Rules()
    first = game.search(budget=3000, seed=1, weights={"eval": "nnue"})
    assert first == game.search(budget=3000, seed=1, weights={"eval": "nnue"})
    assert first == game.search(budget=3000, seed=1, weights={"eval": 2})
    learned = game.search(budget=3000, seed=1, weights={"eval": "learned"})
    assert (first.score, first.pv) != (learned.score, learned.pv)


def test_compiled_weights_are_the_committed_net():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_nnue.py"), str(NET), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_export_carries_it():
    # The CodinGame bot plays the NNUE (tests/test_export.py holds its moves
    # to the package engine's); named, it is set in the file.
    from brandubh.codingame.export import render
    from brandubh.core.weights import EVALS

    assert f"w.eval = {EVALS['nnue']};" in render(weights={"eval": "nnue"})


def test_generator_refuses_sums_that_could_overflow(tmp_path):
    """csrc/nnue.c sums in 16 bits: a net whose sums could leave them is
    refused, and the compiled file is left alone."""
    net = _net()
    for row in net["w1"][:49]:
        row[0] = 1000  # 48 attackers of 1000 each: far beyond 32767
    assert "16 bits" in _refused_by_the_generator(net, tmp_path)


def _refused_by_the_generator(net: dict, tmp_path) -> str:
    """tools/gen_nnue.py's refusal of ``net`` (exit status 2, its standard
    error), checked to leave the compiled file as it was."""
    path = tmp_path / "net.json"
    path.write_text(json.dumps(net))
    before = (ROOT / "csrc" / "nnue_weights.c").read_bytes()
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_nnue.py"), str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    assert (ROOT / "csrc" / "nnue_weights.c").read_bytes() == before
    return run.stderr


def test_generator_refuses_scores_that_could_reach_a_win(tmp_path):
    """csrc/nnue.c leaves its score unclamped: a net whose output layer
    could score a position as won (BD_WIN) is refused, and the compiled
    file is left alone."""
    net = _net()
    net["w2"] = [32767] * len(net["w2"])  # 64 units of 255 * 32767 / 4080: about 131,000
    assert "a won position's" in _refused_by_the_generator(net, tmp_path)
