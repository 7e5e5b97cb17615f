"""Endgame tables (brandubh.core.endgame, brandubh.endgame, brandubh tables):
a small set built (the king and up to two soldiers, a fraction of a second)
and checked two ways, apart from the build: every position's value against
its moves (the C walk, and a sample through the rules' public Python
interface), and positions against the proof solver and a deep search.
Larger sets under BRANDUBH_SLOW=1."""

from __future__ import annotations

import hashlib
import io
import os
import random
import re
import threading

import pytest
from conftest import scale

from brandubh import Rules
from brandubh.cli import main
from brandubh.core.endgame import EndgameTables, entries, position_at, signatures
from brandubh.core.outcomes import Outcome
from brandubh.core.position import move_text
from brandubh.core.solve import solve_rules
from brandubh.endgame import build_tables, load_tables, probe, table_path
from brandubh.errors import ArgumentError

PIECES = 2


def _build(variant: str, pieces: int, threads: int = 2) -> EndgameTables:
    tables = EndgameTables(variant)
    for attackers, defenders in signatures(pieces):
        tables.build(attackers, defenders, threads=threads)
    return tables


@pytest.fixture(scope="module", params=["brandubh", "codingame"])
def tables(request: pytest.FixtureRequest) -> EndgameTables:
    return _build(request.param, PIECES)


def _sample(tables: EndgameTables, n: int, seed: int = 1) -> list[str]:
    """n positions that the tables hold, drawn at random (a fixed seed)."""
    rng = random.Random(seed)
    sigs = [s for s in tables.tables if tables.tables[s].positions]
    found: list[str] = []
    while len(found) < n:
        a, d = rng.choice(sigs)
        text = position_at(a, d, rng.randrange(entries(a, d)))
        if tables.probe(text) is not None:
            found.append(text)
    return found


def _value_from_moves(tables: EndgameTables, text: str) -> tuple[str, int]:
    """A position's value worked out from its moves through Rules alone
    (the rules' public interface) and the tables' values of what they
    reach: the value the table must hold."""
    rules = Rules(text, tables.variant)
    side = rules.side
    wins, losses, drawn = [], [], False
    for move, _captured, outcome, winner in rules.legal():
        if outcome != Outcome.ONGOING:
            (wins if winner == side else losses if winner else [None]).append(1)
            drawn = drawn or winner is None
            continue
        rules.play(move)
        child = tables.probe(rules.position)
        rules.undo()
        assert child is not None, f"{rules.position}: a move leads out of the tables"
        if child.value == "loss":
            wins.append(child.plies + 1)
        elif child.value == "win":
            losses.append(child.plies + 1)
        else:
            drawn = True
    if wins:
        return "win", min(wins)
    if drawn:
        return "draw", 0
    return "loss", max(losses)


def test_every_position_agrees_with_its_moves(tables: EndgameTables) -> None:
    # The C walk, apart from the build: no predecessor, no count, no level.
    for attackers, defenders in tables.tables:
        assert tables.check(attackers, defenders) == (0, None)


def test_a_sample_agrees_with_its_moves_through_the_rules(tables: EndgameTables) -> None:
    for text in _sample(tables, scale(150, 3000)):
        found = tables.probe(text)
        assert found is not None
        assert (found.value, found.plies) == _value_from_moves(tables, text), text


def test_a_sample_agrees_with_its_moves_under_the_reference_rules(tables: EndgameTables) -> None:
    # The same, with the moves made and judged by tests/reference.py, the
    # rules written apart from the engine (which the tables are built on).
    import reference as ref

    for text in _sample(tables, scale(60, 1000), seed=9):
        found = tables.probe(text)
        assert found is not None
        game = ref.RefGame(text, tables.variant.as_string())
        side = "attackers" if game.side == "a" else "defenders"
        wins, losses, drawn = [], [], False
        for frm, to in game.moves():
            game.play(frm, to)
            if game.outcome != "ongoing":
                if game.winner == side:
                    wins.append(1)
                elif game.winner is None:
                    drawn = True
                else:
                    losses.append(1)
            else:
                child = tables.probe(game.position())
                assert child is not None, game.position()
                if child.value == "loss":
                    wins.append(child.plies + 1)
                elif child.value == "win":
                    losses.append(child.plies + 1)
                else:
                    drawn = True
            game.undo()
        want = ("win", min(wins)) if wins else ("draw", 0) if drawn else ("loss", max(losses))
        assert (found.value, found.plies) == want, text


def test_the_proof_solver_agrees(tables: EndgameTables) -> None:
    # Each position solved afresh, under the preset's own rules: the winner
    # and, where the solver shows its win is the shortest, the distance.
    for text in _sample(tables, scale(25, 400), seed=2):
        found = tables.probe(text)
        solved = solve_rules(Rules(text, tables.variant), budget=200_000)
        assert found is not None
        if found.value == "draw":
            assert solved.outcome != "win", text
            continue
        assert solved.outcome == "win", text
        winner = solved.winner
        assert (winner == Rules(text, tables.variant).side) == (found.value == "win"), text
        if solved.shortest:
            assert solved.plies == found.plies, text


def test_a_deep_search_never_wins_sooner_and_agrees_on_the_winner(tables: EndgameTables) -> None:
    for text in _sample(tables, scale(25, 400), seed=3):
        found = tables.probe(text)
        result = Rules(text, tables.variant).search(budget=50_000)
        assert found is not None and result is not None
        if result.mate_in is not None:
            assert found.value != "draw", text
            assert (result.score > 0) == (found.value == "win"), text
            assert result.mate_in >= found.plies if found.value == "win" else result.mate_in <= found.plies, text


def test_the_search_scores_table_positions_exactly(tables: EndgameTables) -> None:
    # With the tables, every position below the root is exact, so one ply
    # of search gives the win at its table distance.
    for text in _sample(tables, 20, seed=4):
        found = tables.probe(text)
        assert found is not None
        if found.value != "win":
            continue
        result = Rules(text, tables.variant).search(budget=5_000, depth=1, endgame=tables)
        assert result is not None and result.mate_in == found.plies, text


def test_the_search_without_table_positions_is_unchanged(tables: EndgameTables) -> None:
    # The start has twelve soldiers: the tables hold nothing it reaches, so
    # the search with them is the search without, node for node.
    rules = Rules(variant=tables.variant)
    assert rules.search(budget=20_000, endgame=tables) == rules.search(budget=20_000)


def test_the_search_refuses_tables_of_other_rules() -> None:
    other = EndgameTables("brandubh")
    with pytest.raises(ArgumentError, match="not this game's"):
        Rules(variant="modern").search(budget=100, endgame=other)


def test_mirror_images_have_one_value(tables: EndgameTables) -> None:
    # The eight symmetries, written here on the position string.
    def rows(text: str) -> list[list[str]]:
        out = []
        for row in text.split()[0].split("/"):
            cells: list[str] = []
            for c in row:
                cells += ["."] * int(c) if c.isdigit() else [c]
            out.append(cells)
        return out

    def write(board: list[list[str]], side: str) -> str:
        parts = []
        for row in board:
            s, run = "", 0
            for c in row:
                if c == ".":
                    run += 1
                    continue
                s += (str(run) if run else "") + c
                run = 0
            parts.append(s + (str(run) if run else ""))
        return "/".join(parts) + " " + side

    for text in _sample(tables, 30, seed=5):
        board, side = rows(text), text.split()[1]
        images = set()
        for t in range(8):
            b = [row[::-1] for row in board] if t & 1 else board
            b = b[::-1] if t & 2 else b
            b = [list(col) for col in zip(*b)] if t & 4 else b
            images.add(write(b, side))
        assert len({tables.probe(image) for image in images}) == 1, text


def test_the_same_bytes_on_one_thread_and_on_several() -> None:
    one, two = _build("brandubh", PIECES, threads=1), _build("brandubh", PIECES, threads=4)
    assert all(one.data(*s) == two.data(*s) for s in signatures(PIECES))


#: The SHA-256 of every table up to two soldiers, and up to three, in the
#: order they are built, as the first build (every move made again to check
#: an unmove, each index unranked) wrote them: a faster build must write the
#: same bytes.
DIGESTS = {
    ("brandubh", 2): "0961389f44f20b9bcba4f70b86f131adf50a13af305af174645c60f3c603ea6e",
    ("codingame", 2): "e3ec27da37eb6c0b3a0e0ec84bb0cd52369e1c48dbdc7a1975d7da14bcbcd29d",
    ("brandubh", 3): "4bd23ceefbed3b4b8ffd6fcf35d34a55a0b3f9324456a4ac6336d5772ac32e4c",
    ("codingame", 3): "544c1333393669623342a1a559827b2b1de52959cf7a5eb9bfbf66b0db542518",
}


def _digest(tables: EndgameTables, pieces: int) -> str:
    digest = hashlib.sha256()
    for signature in signatures(pieces):
        digest.update(tables.data(*signature))
    return digest.hexdigest()


def test_the_bytes_are_those_of_the_first_build(tables: EndgameTables) -> None:
    assert _digest(tables, PIECES) == DIGESTS[(tables.variant.as_string(), PIECES)]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["brandubh", "codingame"])
def test_the_bytes_up_to_three_soldiers_are_those_of_the_first_build(variant: str) -> None:
    assert _digest(_build(variant, 3), 3) == DIGESTS[(variant, 3)]


def test_a_damaged_table_is_found_the_same_on_one_thread_and_on_several(tables: EndgameTables) -> None:
    # Bytes changed in a copy of the largest table: every thread count finds
    # the same positions wrong, and names the lowest.
    attackers, defenders = max(tables.tables, key=lambda s: tables.tables[s].positions)
    data = bytearray(tables.data(attackers, defenders))
    changed = [i for i in range(0, len(data), 997) if data[i]][:5]
    for i in changed:
        data[i] = 1 if data[i] != 1 else 2
    damaged = EndgameTables(tables.variant)
    for signature in tables.tables:
        if signature != (attackers, defenders):
            damaged.load(tables.tables[signature], tables.data(*signature))
    damaged.load(tables.tables[(attackers, defenders)], bytes(data))
    one = damaged.check(attackers, defenders, threads=1)
    assert one[0] >= len(changed) and one[1] is not None
    assert damaged.check(attackers, defenders, threads=4) == one


def test_a_table_needs_the_smaller_ones() -> None:
    with pytest.raises(ArgumentError, match="smaller table"):
        EndgameTables("brandubh").build(1, 1)


def test_a_stopped_build_keeps_nothing() -> None:
    tables = _build("brandubh", 1)
    stop = threading.Event()
    stop.set()
    with pytest.raises(ArgumentError, match="stopped"):
        tables.build(1, 1, stop=stop)
    assert (1, 1) not in tables.tables and tables.probe("7/7/7/3k3/2a4/4d2/7 a") is None


def test_files_round_trip_and_a_build_goes_on_from_them(tmp_path: "os.PathLike[str]") -> None:
    built = build_tables(PIECES, "brandubh", tmp_path)
    read = load_tables(tmp_path, "brandubh")
    assert read.soldiers == PIECES
    assert all(read.data(*s) == built.data(*s) for s in signatures(PIECES))
    # A second build reads every table from its file.
    seen: list[bool] = []
    build_tables(PIECES, "brandubh", tmp_path, progress=lambda stats, was_read: seen.append(was_read))
    assert seen == [True] * len(signatures(PIECES))


def test_a_damaged_file_is_refused_with_its_name(tmp_path: "os.PathLike[str]") -> None:
    build_tables(1, "brandubh", tmp_path)
    path = table_path(tmp_path, "brandubh", 1, 0)
    data = bytearray(open(path, "rb").read())
    data[-5] ^= 1
    open(path, "wb").write(bytes(data))
    with pytest.raises(ArgumentError, match="damaged"):
        load_tables(tmp_path, "brandubh")
    open(path, "wb").write(bytes(data[:-3]))
    with pytest.raises(ArgumentError, match="cut short"):
        load_tables(tmp_path, "brandubh")


def test_tables_of_other_rules_are_refused(tmp_path: "os.PathLike[str]") -> None:
    build_tables(1, "brandubh", tmp_path)
    for a, d in signatures(1):
        os.rename(table_path(tmp_path, "brandubh", a, d), table_path(tmp_path, "modern", a, d))
    with pytest.raises(ArgumentError, match="other rules"):
        load_tables(tmp_path, "modern", pieces=1)


def test_the_command_builds_probes_and_checks(tmp_path: "os.PathLike[str]") -> None:
    out = io.StringIO()
    folder = str(tmp_path)
    import contextlib

    with contextlib.redirect_stdout(out):
        assert main(["tables", "build", "--pieces", "2", "--out", folder, "--threads", "2"]) == 0
        assert main(["tables", "probe", "7/7/7/3k3/7/7/1a5 a", "--dir", folder]) == 0
        assert main(["tables", "probe", "7/7/7/3k3/7/7/1a1a1a1 a", "--dir", folder]) == 0
        assert main(["tables", "check", "--dir", folder, "--threads", "2"]) == 0
    text = out.getvalue()
    assert "king + 1 attackers + 1 defenders: 20,430 positions" in text
    # The build's own work said beside the clock's time (a shared machine).
    assert re.search(r"tables up to 2 soldiers: .*, [0-9.]+ s \([0-9.]+ s of processor time\)\n", text)
    assert "the defenders win in 4 plies (a table win)" in text
    assert "not in the tables" in text
    assert text.count("every position agrees with its moves") == len(signatures(2))


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["brandubh", "codingame"])
def test_three_soldiers_against_their_moves_and_the_solver(variant: str) -> None:
    tables = _build(variant, 3)
    for attackers, defenders in tables.tables:
        assert tables.check(attackers, defenders) == (0, None)
    for text in _sample(tables, 300, seed=6):
        found = tables.probe(text)
        solved = solve_rules(Rules(text, tables.variant), budget=1_000_000)
        assert found is not None
        if solved.outcome == "win" and solved.shortest:
            assert solved.plies == found.plies


def _threw_away(tables: EndgameTables) -> tuple[str, str]:
    """A table win for the side to move and a move of it that throws the
    win away, found in the tables (the first of a fixed sample)."""
    for text in _sample(tables, 400, seed=7):
        found = tables.probe(text)
        if found is None or found.value != "win":
            continue
        rules = Rules(text, tables.variant)
        for move, _captured, outcome, _winner in rules.legal():
            if outcome != Outcome.ONGOING:
                continue
            rules.play(move)
            after = tables.probe(rules.position)
            rules.undo()
            if after is not None and after.value != "loss":
                return text, move_text(move)
    raise AssertionError("no move throws a win away in the sample")  # pragma: no cover


def test_the_review_says_table_wins_kept_and_thrown_away(tables: EndgameTables) -> None:
    from brandubh import Game

    text, bad = _threw_away(tables)
    game = Game(position=text, variant=tables.variant)
    game.endgame = tables
    best = game.search(budget=5_000)
    assert best is not None
    plies = tables.probe(text).plies  # type: ignore[union-attr]
    kept = game.replay([str(best.move)]).game.analyse(budget=1_000).moves[0]
    thrown = game.replay([bad]).game.analyse(budget=1_000).moves[0]
    assert kept.table == f"a table win in {plies}"
    assert thrown.table == "this move threw away a table win"
    assert "threw away a table win" in thrown.comment
    # Without tables the review says nothing of them.
    game.endgame = None
    assert game.replay([bad]).game.analyse(budget=1_000).moves[0].table == ""


def test_the_hint_says_the_table_value(tables: EndgameTables) -> None:
    from brandubh import Game
    from brandubh.session import analyse

    for text in _sample(tables, 10, seed=8):
        found = tables.probe(text)
        assert found is not None
        game = Game(position=text, variant=tables.variant)
        plain = analyse(game, budget=1_000).judged
        assert "table" not in plain
        game.endgame = tables
        said = analyse(game, budget=1_000).judged
        if found.value == "draw":
            assert said.endswith("; a table draw")
        else:
            winner = game.side_to_move if found.value == "win" else \
                ("defenders" if game.side_to_move == "attackers" else "attackers")
            assert said.endswith(f"; a table win in {found.plies} plies for the {winner}"), said


def test_a_disk_that_fills_keeps_every_table_written_and_the_build_goes_on(tmp_path: "os.PathLike[str]") -> None:
    # A real full disk: a child whose files cannot grow past 20,000 bytes.
    # The table of one attacker and one defender (36,771 bytes) cannot be
    # written: a sentence, exit 2, the tables before it kept whole, no
    # temporary file left; the same command then goes on from them.
    from test_files import in_a_child_whose_files_are_limited

    folder = str(tmp_path)
    done = in_a_child_whose_files_are_limited(20_000, f"""
import sys
from brandubh.cli import main
sys.exit(main(["tables", "build", "--pieces", "2", "--out", {folder!r}, "--quiet"]))
""")
    assert done.returncode == 2, done.stderr
    assert "nothing was changed" in done.stderr
    names = sorted(os.listdir(folder))
    assert names == sorted(os.path.basename(table_path(folder, "brandubh", a, d))
                           for a, d in [(0, 0), (0, 1), (1, 0), (0, 2)])
    seen: list[bool] = []
    build_tables(2, "brandubh", folder, progress=lambda stats, was_read: seen.append(was_read))
    assert seen == [True, True, True, True, False, False]
    assert load_tables(folder, "brandubh").soldiers == 2


def test_a_table_in_the_set_is_never_replaced() -> None:
    # A search in another thread may be reading it.
    tables = _build("brandubh", 1)
    data = tables.data(1, 0)
    with pytest.raises(ArgumentError, match="already"):
        tables.build(1, 0)
    with pytest.raises(ArgumentError, match="already"):
        tables.load(tables.tables[(1, 0)], data)
    assert tables.data(1, 0) == data


def test_ctrl_c_stops_a_build_and_keeps_the_tables_written(tmp_path: "os.PathLike[str]") -> None:
    # A real `brandubh tables build`, sent SIGINT once the tables of two
    # soldiers are done: exit 130 before the tables of three are, the
    # sentence, every table before written whole, nothing else.
    import signal
    import subprocess
    import sys
    import time

    folder = str(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "brandubh", "tables", "build", "--pieces", "3", "--out", folder,
                             "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))})
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("king + 2 attackers + 0 defenders"):
                break
        time.sleep(0.2)  # into the next table
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "stopped by Ctrl-C: the tables written are kept" in err
    written = sorted(os.listdir(folder))
    assert all(name.endswith(".egtb") for name in written), written
    assert os.path.basename(table_path(folder, "brandubh", 2, 0)) in written
    assert os.path.basename(table_path(folder, "brandubh", 2, 1)) not in written
    load_tables(folder, "brandubh")  # every file written is whole


def test_play_with_tables_gives_the_table_in_the_hint(tmp_path: "os.PathLike[str]") -> None:
    import contextlib

    folder = str(tmp_path / "tables")
    build_tables(1, "brandubh", folder)
    saved = tmp_path / "game.txt"
    saved.write_text("variant brandubh\nstart 7/7/7/3k3/7/7/1a5 d\nmoves\n")
    lines = iter(["hint", "quit"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        from brandubh.cli import play as play_command
        from brandubh.cli import build_parser

        args = build_parser("play").parse_args(["play", "--load", str(saved), "--side", "defenders",
                                                "--tables", folder, "--ascii", "--seed", "1"])
        play_command.run(args, read=lambda prompt: next(lines), out=out)
    assert "a table win in 3 plies for the defenders" in out.getvalue()
