"""Games on Ray: the same games and the same table as in this process's
threads, a worker killed mid-game costing only its game (played again,
counted once), the command line's --ray, and a clear error without Ray.

One local Ray of two CPUs is started for the module (about 3.5 s of a core,
its six processes); the games are small (a few hundred positions a move).
The tests on Ray are long cross-checks, run under ``BRANDUBH_SLOW=1``, which
tools/setup-tests' longer checks set for this file, so that CI runs them:
the default suite starts no Ray."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from brandubh.arena import BotPlayer, Event, run_event
from brandubh.arena.openings import random_openings
from brandubh.cli import main
from brandubh.errors import ClusterError

HELPERS = Path(__file__).resolve().parent / "helpers"
sys.path.insert(0, str(HELPERS))

from cluster_players import DyingPlayer  # noqa: E402

A, B = "budget=400", "budget=250,ring=45"


@pytest.fixture(scope="module")
def ray():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # pragma: no cover - another module's cluster
        ray.shutdown()
    # The workers find the test players where this module does: they are
    # started with this process's environment.
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HELPERS), old]))
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    yield ray
    ray.shutdown()


def event(players=None, games=8):
    players = players or [BotPlayer.from_text(A, "A"), BotPlayer.from_text(B, "B")]
    return Event(players, games=games, variant="brandubh", jobs=2,
                 openings=random_openings((games + 1) // 2, 3, seed=5, variant="brandubh", distinct=True))


def table(result):
    """The result without what the clock or the machine says."""
    out = result.as_dict()
    for key in ("seconds", "times_ms", "replayed"):
        out.pop(key)
    for g in out["games"]:
        for key in ("first_ms", "turn_ms", "seconds", "pids"):
            g.pop(key)
    return out


@pytest.mark.slow
def test_ray_plays_the_same_games_and_table_as_threads(ray):
    from brandubh.arena.cluster import RayExecutor

    here = run_event(event())
    with RayExecutor("auto") as pool:
        assert pool.slots == 2
        there = run_event(event(), executor=pool)
    assert there.replayed == 0 and len(there.counted) == 8
    assert table(there) == table(here)
    assert {g.text for g in there.games} == {g.text for g in here.games}
    assert [r["wins"] for r in there.standings()] == [r["wins"] for r in here.standings()]


@pytest.mark.slow
def test_a_worker_killed_mid_game_costs_only_that_game(ray, tmp_path):
    from brandubh.arena.cluster import RayExecutor

    marker = str(tmp_path / "killed")
    dying = [DyingPlayer(A, "A", game=2, at=3, marker=marker), BotPlayer.from_text(B, "B")]
    with RayExecutor("auto") as pool:
        result = run_event(event(dying), executor=pool)
    assert os.path.exists(marker), "no worker was killed"
    pid = int(Path(marker + ".pid").read_text())
    assert pid != os.getpid()
    assert result.replayed == 1
    indices = [g.index for g in result.games]
    assert sorted(indices) == list(range(8)), "a game lost or counted twice"
    assert table(result) == table(run_event(event()))


@pytest.mark.slow
def test_match_and_tune_take_ray(ray, tmp_path, capsys):
    code = main(["match", A, B, "--games", "4", "--ray", "auto", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "as Ray tasks" in out.err and json.loads(out.out)["games_played"] == 4
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    argv = ["tune", "--steps", "2", "--budget", "150", "--pairs", "2", "--params", "ring,freedom"]
    assert main([*argv, "--out", str(here), "--jobs", "1"]) == 0
    assert main([*argv, "--out", str(there), "--ray", "auto"]) == 0
    log = [json.loads(Path(f"{p}.state.json").read_text())["log"] for p in (here, there)]
    assert log[0] == log[1] and len(log[0]) == 2


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    from brandubh.arena import cluster

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterError, match=r"pip install brandubh\[cluster\]"):
        cluster.RayExecutor("local")
    with pytest.raises(ClusterError, match="auto, local"):
        cluster.connect_args("  ", None)


def test_ray_is_imported_only_when_asked_for():
    import subprocess

    code = ("import sys, brandubh.arena, brandubh.arena.tune, brandubh.cli\n"
            "brandubh.cli.build_parser()\n"
            "print('ray' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
