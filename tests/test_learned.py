"""The learned evaluation: self-play data files, the trainer, and the C
tables against a Python computation of the same sums."""

import json
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from brandubh import Rules
from brandubh.cli.bench import run_bench
from brandubh.errors import DataError, NetError
from brandubh.learn.net import PAIR, PAIRS, counts, evaluate, images, load_net, zero_net
from brandubh.core.search import salt_seed  # noqa: F401  (the package loads whole)
from brandubh.learn.selfplay import HEADER, RECORD, TAGS, _game_seed, generate, read_data
from brandubh.variant import PRESETS

ROOT = Path(__file__).resolve().parent.parent
NET = ROOT / "nets" / "learned.json"
np = pytest.importorskip("numpy")

# The classical evaluation's signature, today's Bench: (tests/test_bench.py
# pins the default's). 1,169,228 at depth 6 until the search pruned by the
# evaluation (tests/test_bench.py says why the bench searches to depth 9),
# 2,052,579 until the countermove (tests/test_bench.py).
CLASSICAL_BENCH = 1_996_870


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("sp") / "d.bin"
    assert generate(path, 600, seed=5, budget=300) == 600
    return path


# ---- the data file


def test_round_trip_and_records(data):
    info, records = read_data(data)
    raw = data.read_bytes()
    assert info.count == len(records) == 600 and info.seed == 5 and info.budget == 300
    # Every record packs back to its bytes.
    body = b"".join(RECORD.pack(r.att, r.dfn, r.score, r.ply, r.king, r.side, r.result, r.flags) for r in records)
    assert raw[HEADER.size:] == body
    assert raw[:4] == b"BDSP" and struct.unpack_from("<HHQ", raw, 4) == (1, 24, 600)
    tags = set()
    for r in records:
        assert r.att & r.dfn == 0 and 0 <= r.king < 49 and not (r.att | r.dfn) >> r.king & 1
        assert r.result in (-1, 0, 1) and r.side in (0, 1)
        tags.add(r.tag)
    assert tags == set(range(len(TAGS)))  # the presets in turn


def _position(r) -> str:
    rows = []
    for rank in range(6, -1, -1):
        row, empty = "", 0
        for f in range(7):
            s = rank * 7 + f
            ch = "a" if r.att >> s & 1 else "d" if r.dfn >> s & 1 else "k" if s == r.king else ""
            if ch:
                row += (str(empty) if empty else "") + ch
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" a" if r.side == 0 else " d")


def test_first_positions_are_the_search_s(data):
    """The first searched position of each game, searched again from the
    position alone (its few random plies cannot have repeated): the same
    score, from the attackers' side, and each game's plies follow on."""
    _, records = read_data(data)
    starts = [i for i, r in enumerate(records) if i == 0 or r.ply != records[i - 1].ply + 1]
    assert len(starts) >= 4
    for game, i in enumerate(starts[:6]):
        r = records[i]
        seed = _game_seed(5, game)
        assert 2 <= r.ply <= 10 and r.ply == 2 + (seed >> 32) % 9
        rules = Rules(_position(r), PRESETS[TAGS[r.tag]])
        found = rules.search(budget=300, seed=((seed & 0xFFFFFFFF) + r.ply) & 0xFFFFFFFF)
        assert (found.score if r.side == 0 else -found.score) == r.score
        # One result for the whole game.
        end = starts[game + 1] if game + 1 < len(starts) else len(records)
        assert len({x.result for x in records[i:end]}) == 1


def test_same_seed_same_bytes(tmp_path, data):
    again = tmp_path / "again.bin"
    generate(again, 600, seed=5, budget=300)
    assert again.read_bytes() == data.read_bytes()
    other = tmp_path / "other.bin"
    generate(other, 600, seed=6, budget=300)
    assert other.read_bytes() != data.read_bytes()


def test_refusals(tmp_path, data):
    raw = data.read_bytes()
    cases = {
        "truncated": raw[:-5],
        "header only": raw[:HEADER.size - 1],
        "magic": b"XXXX" + raw[4:],
        "version": raw[:4] + struct.pack("<H", 2) + raw[6:],
        "record": raw[:6] + struct.pack("<H", 20) + raw[8:],
    }
    words = {"truncated": "truncated", "header only": "truncated", "magic": "not a self-play data file",
             "version": "version 2", "record": "records of 20 bytes"}
    for name, body in cases.items():
        path = tmp_path / f"{name}.bin"
        path.write_bytes(body)
        with pytest.raises(DataError, match=words[name]):
            read_data(path)
        with pytest.raises(DataError, match=words[name]):
            from brandubh.learn.train import train

            train(path)
        assert isinstance(DataError("x"), ValueError)


def test_ctrl_c_keeps_a_whole_file(tmp_path):
    path = tmp_path / "stopped.bin"
    games = []

    def progress(n, g, seconds):
        games.append(n)
        if g == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate(path, 10_000, seed=2, budget=200, progress=progress)
    info, records = read_data(path)
    assert info.count == games[-1] == len(records) > 0
    assert os.listdir(tmp_path) == ["stopped.bin"]  # no temporary file left
    # What was kept is the start of the uninterrupted run.
    whole = tmp_path / "whole.bin"
    generate(whole, info.count, seed=2, budget=200)
    assert whole.read_bytes() == path.read_bytes()


def test_a_full_disk_keeps_the_old_data_file_and_says_so(tmp_path):
    import resource

    path = tmp_path / "d.bin"
    generate(path, 100, seed=4, budget=50)
    old = path.read_bytes()

    def small_disk() -> None:  # the child's files cannot grow past 8 KiB: a write fails part way
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    done = subprocess.run([sys.executable, "-m", "brandubh", "selfplay", "--out", str(path), "--positions", "1000",
                           "--budget", "50", "--quiet"], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=small_disk)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert done.stderr.startswith(f"brandubh selfplay: cannot write {str(path)!r}: File too large; "
                                  "nothing was changed")
    assert path.read_bytes() == old and os.listdir(tmp_path) == ["d.bin"]


def test_selfplay_writes_its_progress_over_itself_only_on_a_terminal(tmp_path, monkeypatch):
    import io

    from brandubh.cli import main

    args = ("selfplay", "--out", str(tmp_path / "d.bin"), "--positions", "500", "--budget", "50")
    piped = subprocess.run([sys.executable, "-m", "brandubh", *args], capture_output=True, timeout=120,
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})   # bytes: a \r stays a \r
    assert piped.returncode == 0 and b"\r" not in piped.stderr, repr(piped.stderr)
    assert piped.stderr.splitlines()[-1].startswith(b"500/500 positions, ") and piped.stderr.endswith(b"\n")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(list(args)) == 0
    assert terminal.getvalue().startswith("\r500/500 positions, ") and terminal.getvalue().endswith(" \n")


def test_train_refuses_an_output_it_could_not_write_before_it_fits(tmp_path, data):
    for out in ("/dev/full", str(tmp_path), str(tmp_path / "no" / "net.json")):
        if out == "/dev/full" and not os.path.exists(out):
            continue
        done = subprocess.run([sys.executable, "-m", "brandubh", "train", str(data), "--out", out, "--epochs", "1"],
                              capture_output=True, text=True, timeout=120, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 2 and done.stderr.startswith("brandubh train: cannot write "), done.stderr
        assert "epoch" not in done.stderr      # said before the fit, not after it


def test_data_and_nets_are_written_through_a_link(tmp_path):
    from brandubh.learn.net import save_net

    for name, write, read in (("d.bin", lambda p: generate(p, 50, seed=4, budget=50), read_data),
                              ("net.json", lambda p: save_net(p, zero_net()), load_net)):
        target = tmp_path / name
        target.write_text("old")
        link = tmp_path / f"link-{name}"
        link.symlink_to(target)
        write(link)
        assert link.is_symlink() and read(target)


# ---- the trainer


def test_trainer_recovers_a_linear_target(tmp_path, data):
    """Scores made up as 150 a soldier of the attackers' and -250 a
    defender's, results drawn from them through a known sigmoid: trained
    on the scores alone, the net's evaluation is that line again, less the
    centre the trainer fitted."""
    from brandubh.learn.train import dtype, train

    rng = np.random.default_rng(3)
    base = np.fromfile(data, dtype=dtype(), offset=HEADER.size)
    rec = np.concatenate([base] * 4)
    n_att = np.array([bin(int(x)).count("1") for x in rec["att"]])
    n_def = np.array([bin(int(x)).count("1") for x in rec["dfn"]])
    score = 150 * n_att - 250 * n_def - 300 + rng.integers(-5, 6, len(rec))
    rec["score"] = score
    p = 1 / (1 + np.exp(-(score + 0.0) / 200))
    rec["result"] = np.where(rng.random(len(rec)) < p, 1, -1)
    rec["flags"] &= 0xF0  # no mates
    path = tmp_path / "linear.bin"
    with open(path, "wb") as f:
        f.write(HEADER.pack(b"BDSP", 1, 24, len(rec), 0, 0, 0, 0))
        f.write(rec.tobytes())
    net = train(path, tmp_path / "net.json", epochs=40, blend=0.0, lr=8.0, held_out=0, batch=128)
    assert 120 < net["scale"] < 330  # the sigmoid's own 200
    got = np.array([evaluate(net, TAGS[r >> 4], _position(x))
                    for r, x in zip(rec["flags"][:300], (read_data(data)[1] * 4)[:300])])
    want = score[:300] - net["centre"]
    # The scores span about 1,000 and their noise is +-5; a net of zeros
    # misses by about 200 on average.
    assert np.mean(np.abs(got - want)) < 25, np.mean(np.abs(got - want))
    assert np.corrcoef(got, want)[0, 1] > 0.99
    assert json.loads((tmp_path / "net.json").read_text())["att"] == net["att"]


def test_diverging_run_stops_and_writes_nothing(tmp_path, data):
    from brandubh.learn.train import train

    out = tmp_path / "net.json"
    with pytest.raises(NetError, match="diverged"):
        train(data, out, epochs=3, lr=1000.0)
    assert not out.exists() and os.listdir(tmp_path) == []


# ---- the tables in C against Python


def test_pairs_are_the_symmetries_orbits():
    assert PAIRS == 325 == len({n for row in PAIR for n in row})
    for k in range(49):
        for s in range(49):
            assert {PAIR[a][b] for a, b in zip(images(k), images(s))} == {PAIR[k][s]}
    assert PAIR[0][1] != PAIR[0][8] and PAIR[24][24] != PAIR[0][0]


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


def test_counts_match_python():
    from brandubh.core.position import c_variant
    from brandubh._engine import ffi, lib

    for name, position in _random_positions(120, 1):
        board = Rules(position, PRESETS[name])
        s = ffi.new("bd_sample *")
        for sq in range(49):
            piece = board.at(sq)
            if piece == "attacker":
                s.att |= 1 << sq
            elif piece == "defender":
                s.dfn |= 1 << sq
            elif piece == "king":
                s.king = sq
        s.side = 0 if board.side == "attackers" else 1
        out = ffi.new("int16_t[4]")
        lib.bd_learned_inputs(c_variant(PRESETS[name]), s, 1, out)
        assert list(out) == counts(name, position), (name, position)


def test_c_evaluation_equals_python_on_random_positions():
    net = load_net(NET)
    for name, position in _random_positions(200, 2):
        assert Rules(position, PRESETS[name]).evaluate({"eval": "learned"}) == evaluate(net, name, position)


def test_compiled_tables_are_the_committed_net():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_learned.py"), str(NET), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_zero_net_scores_nothing():
    net = zero_net()
    assert evaluate(net, "brandubh", "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a") == 0


# ---- the selector


def test_classical_reproduces_its_bench():
    assert run_bench(weights={"eval": "classical"}).nodes == CLASSICAL_BENCH


def test_eval_setting_travels():
    from brandubh.arena.bot_player import parse_setting
    from brandubh.errors import ArgumentError

    assert parse_setting("budget=2000,eval=learned") == {"budget": 2000, "weights": {"eval": "learned"}}
    game = Rules()
    learned = game.search(budget=3000, seed=1, weights={"eval": "learned"})
    assert learned == game.search(budget=3000, seed=1, weights={"eval": 1})
    assert game.search(budget=3000, seed=1, weights={"eval": "classical"}) == game.search(
        budget=3000, seed=1, weights={"eval": 0})
    with pytest.raises(ArgumentError, match="eval must be one of"):
        game.search(budget=10, weights={"eval": 3})


# ---- the CodinGame export


def test_the_export_leaves_the_tables_out():
    """The one-file bot plays the NNUE (tests/test_export.py): of the
    learned evaluation it keeps the counts, which the NNUE reads, and
    neither the tables nor their sum (BD_NO_LEARNED)."""
    from brandubh.codingame import export

    text = export.render()
    assert "bd_learned_counts(" in text
    for name in ("BD_LEARNED_ATT", "BD_LEARNED_PAIR", "bd_evaluate_learned", "bd_learned_inputs"):
        assert name not in text, name
