"""``brandubh tune``: the SPSA schedule and update worked out here by hand,
the state saved and resumed to the same run, a state of another run
refused, an interrupted run kept, and the command's files."""

from __future__ import annotations

import json
import random
import threading

import pytest

from brandubh.cli import main
from brandubh.core.search import default_weights
from brandubh.arena.tune import DEFAULT_C_END, SpsaTuner, TuneConfig, TuneError
from brandubh.core.weights import load_weights

# Small games: a few hundred positions a move.
SMALL = dict(budget=150, pairs=1, random_plies=2)


def test_the_schedule_ends_at_c_end_and_r_end():
    cfg = TuneConfig(steps=400, r_end=0.01, **SMALL)
    c, step = cfg.schedule(400)
    for name, c_end in DEFAULT_C_END.items():
        assert c[name] == pytest.approx(c_end)
        # step = a_k / c_k and a_end = r_end * c_end**2
        assert step[name] == pytest.approx(0.01 * c_end)
    c1, step1 = cfg.schedule(1)
    assert c1["ring"] == pytest.approx(8.0 * 400 ** 0.101)
    a1 = 0.01 * 64 * ((40 + 400) / (40 + 1)) ** 0.602
    assert step1["ring"] == pytest.approx(a1 / c1["ring"])


@pytest.mark.parametrize("kw, says", [
    (dict(params=("rink",)), "no weight named 'rink'"),
    (dict(steps=0), "steps must be"),
    (dict(params=("ring", "ring")), "named twice"),
    (dict(params=("ring",), start=(("freedom", 3.0),)), "is not tuned"),
    (dict(c_end=(("ring", 0.0),)), "c_end of ring"),
    (dict(r_end=0), "r_end"),
    (dict(variant="chess"), "chess"),
])
def test_bad_settings_are_refused(kw, says):
    with pytest.raises(ValueError, match=says):
        TuneConfig(**kw)


def test_each_step_moves_the_weights_as_spsa_says(tmp_path):
    cfg = TuneConfig(steps=6, r_end=0.05, params=("ring", "freedom", "lane_two"), **SMALL)
    tuner = SpsaTuner(cfg, str(tmp_path / "s.json"))
    theta = {n: float(default_weights()[n]) for n in cfg.params}
    moved = False
    for k in range(1, 7):
        entry = tuner.play_step()
        assert entry is not None and entry["step"] == k
        # The signs are the step's own, from the seed and the step alone.
        rng = random.Random(f"brandubh tune {cfg.seed} {k}")
        flips = [rng.choice((-1, 1)) for _ in cfg.params]
        assert entry["flips"] == "".join("+" if f > 0 else "-" for f in flips)
        w, d, l = entry["plus"]
        assert w + d + l == 2 and entry["result"] == w - l
        _, step = cfg.schedule(k)
        for name, f in zip(cfg.params, flips):
            theta[name] += step[name] * (w - l) * f
            assert tuner.theta[name] == pytest.approx(theta[name])
        moved |= entry["result"] != 0
    assert moved, "six steps of games between different weights all came out level"
    assert tuner.games == 12


def test_a_stopped_and_resumed_run_is_the_same_run(tmp_path):
    cfg = TuneConfig(steps=4, params=("ring", "corner_guard"), **SMALL)
    whole = SpsaTuner(cfg, str(tmp_path / "whole.json"))
    assert whole.run() == 4
    part = SpsaTuner(cfg, str(tmp_path / "part.json"))
    assert part.run(max_steps=2) == 2
    again = SpsaTuner(cfg, str(tmp_path / "part.json"))
    assert again.step == 2 and again.log == part.log
    assert again.run() == 2 and again.done
    a = json.loads((tmp_path / "whole.json").read_text())
    b = json.loads((tmp_path / "part.json").read_text())
    assert a == b and len(a["log"]) == 4


def test_a_state_of_another_run_is_refused(tmp_path):
    path = str(tmp_path / "s.json")
    SpsaTuner(TuneConfig(steps=1, params=("ring",), **SMALL), path).run()
    with pytest.raises(TuneError, match="differs in budget"):
        SpsaTuner(TuneConfig(steps=1, params=("ring",), **{**SMALL, "budget": 99}), path)
    (tmp_path / "junk.json").write_text("{}", encoding="utf-8")
    with pytest.raises(TuneError, match="not a state file"):
        SpsaTuner(TuneConfig(steps=1, **SMALL), str(tmp_path / "junk.json"))


def test_an_abort_stops_the_run_and_keeps_what_was_done(tmp_path):
    path = tmp_path / "s.json"
    tuner = SpsaTuner(TuneConfig(steps=50, params=("ring",), **SMALL), str(path))
    stop = threading.Event()
    tuner.run(on_step=lambda t, entry: stop.set() if t.step == 2 else None, abort=stop)
    assert tuner.step == 2
    assert json.loads(path.read_text())["step"] == 2


def test_the_command_writes_weights_every_player_takes_and_resumes(tmp_path, capsys):
    out = tmp_path / "tuned.json"
    argv = ["tune", "--out", str(out), "--steps", "3", "--budget", "150", "--pairs", "1",
            "--params", "ring,freedom", "--jobs", "1"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    weights = load_weights(out)
    assert json.loads(printed.out) == weights and sorted(weights) == ["freedom", "ring"]
    state = json.loads((tmp_path / "tuned.json.state.json").read_text())
    assert state["step"] == 3 and state["weights"] == weights
    # More steps asked of the same state is another run: refused, nothing changed.
    assert main([*argv[:4], "9", *argv[5:]]) == 2
    assert "another run" in capsys.readouterr().err
    assert main(argv) == 0  # done already: nothing more to play
    assert "resuming at step 3" in capsys.readouterr().err
    # In parts with --until: the same log as in one go.
    parts = tmp_path / "parts.json"
    argv_parts = [*argv[:2], str(parts), *argv[3:]]
    assert main([*argv_parts, "--until", "1"]) == 0 and main(argv_parts) == 0
    assert json.loads((tmp_path / "parts.json.state.json").read_text())["log"] == state["log"]
    assert main(["match", f"budget=200,weights={out}", "budget=200", "-n", "2"]) == 0


def test_the_command_refuses_an_unwritable_out(tmp_path, capsys):
    assert main(["tune", "--out", str(tmp_path / "no" / "such" / "w.json"), "--steps", "1"]) == 2
    assert "cannot write" in capsys.readouterr().err
