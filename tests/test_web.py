"""The engine as WebAssembly (tools/build-web, web/), checked under Node
against the native engine: perft under every preset, and brandubh bench's
signature, both counted by the Python package's own engine here.

Skipped where Node or zig (the ziglang package) is missing: they build and
run the WebAssembly. The build is cached under build/web/."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import scale

from brandubh.cli.bench import POSITIONS, run_bench
from brandubh.core.perft import perft_stats
from brandubh.notation import SETUP
from brandubh.variant import PRESETS

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")


def _have_zig() -> bool:
    try:
        import ziglang  # noqa: F401
        return True
    except ImportError:
        return shutil.which("zig") is not None


pytestmark = [
    pytest.mark.skipif(NODE is None, reason="no node on the PATH: the WebAssembly engine is checked under Node"),
    pytest.mark.skipif(not _have_zig(), reason="no zig (pip install ziglang): it builds the WebAssembly engine"),
]

PERFT_DEPTH = 3


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("web") / "site"
    subprocess.run([sys.executable, str(ROOT / "tools" / "build-web"), str(out)], check=True, cwd=ROOT,
                   timeout=300)
    return out


def node(site: Path, *args: str):
    done = subprocess.run([NODE, str(site / "check.js"), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_build_has_what_the_page_loads(site):
    names = {p.name for p in site.iterdir()}
    assert {"index.html", "brandubh.wasm", "brandubh-wasm.js", "brandubh-data.js", "brandubh.js",
            "backend.js", "worker.js", "brandubh-worker.js"} <= names
    # One import, the search's stop (web/stop_wasm.h): nothing else the
    # browser or Node must supply.
    script = ("const m = new WebAssembly.Module(require('fs').readFileSync(process.argv[1]));"
              "console.log(JSON.stringify(WebAssembly.Module.imports(m)))")
    done = subprocess.run([NODE, "-e", script, str(site / "brandubh.wasm")], capture_output=True, text=True,
                          timeout=60)
    assert json.loads(done.stdout) == [{"module": "env", "name": "bdw_stop_requested", "kind": "function"}]
    html = (site / "index.html").read_text()
    assert html.index('src="backend.js"') < html.index("<script>\n")


def test_a_static_server_may_read_the_site(site):
    """The folder gets the mode of any new folder (it was made by mkdtemp,
    which lets only its owner in, so a web server's user got a 403)."""
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(site.stat().st_mode) == 0o777 & ~umask
    assert all(stat.S_IMODE(p.stat().st_mode) & 0o044 == 0o044 & ~umask for p in site.iterdir())


def test_the_site_builds_from_a_plain_install(tmp_path, site):
    """`pip install .` (the README's main job) leaves the tree's brandubh/
    without its compiled engine: build-web then reads the installed
    package, once it has checked that it holds this tree's sources, and
    refuses a stale one, saying so."""
    tree, installed = tmp_path / "tree", tmp_path / "installed"
    plain = shutil.ignore_patterns("__pycache__", "*.so")
    for name in ("csrc", "web", "tools"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "brandubh", tree / "brandubh", ignore=plain)
    shutil.copytree(ROOT / "brandubh", installed / "brandubh", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "build" / "web", tree / "build" / "web")  # the wasm, as site's build left it
    # -S: no site module, so no editable install of this checkout's (whose
    # finder would hand out the engine); the installed copy first, then
    # the environment's packages (cffi, ziglang).
    paths = dict.fromkeys([str(installed), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))

    def build() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-S", str(tree / "tools" / "build-web"), str(tmp_path / "out")],
                              capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)

    done = build()
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "brandubh-data.js").read_text() == (site / "brandubh-data.js").read_text()
    with open(installed / "brandubh" / "bot.py", "a") as stale:
        stale.write("# an older install\n")
    done = build()
    assert done.returncode == 1
    assert "is not this tree's: brandubh/bot.py differs" in done.stderr


def test_perft_under_every_preset_is_the_native_engines(site):
    counted = node(site, "perft", str(PERFT_DEPTH))
    positions = [(name, SETUP) for name in PRESETS] + list(POSITIONS)
    assert [tuple(row[:2]) for row in counted] == positions
    for preset, position, leaves, captures, endings in counted:
        native = perft_stats(PERFT_DEPTH, position, PRESETS[preset], bulk=False)
        assert (leaves, captures, endings) == (native.leaves, native.captures, native.endings), (preset, position)
    # The positions differ enough for the rules to show: not every count alike.
    assert len({tuple(row[2:]) for row in counted}) > len(PRESETS)


def test_bench_signature_and_moves_are_the_native_engines(site):
    web = node(site, "bench")
    native = run_bench()
    assert web["nodes"] == native.nodes
    assert tuple(web["moves"]) == native.moves


def test_the_js_module_plays_and_undoes(site):
    script = r"""
const fs = require("fs");
const { BrandubhEngine } = require(process.argv[1] + "/brandubh.js");
const data = require(process.argv[1] + "/brandubh-data.js");
const e = BrandubhEngine.loadSync(fs.readFileSync(process.argv[1] + "/brandubh.wasm"), data);
const g = e.game("brandubh");
const out = { start: g.position(), moves: g.moves().map(e.moveText), illegal: g.play("d4d5") };
out.played = g.play("d2c2");
out.after = g.position();
out.side = g.side;
out.legal = g.legal().length;
out.undone = g.undo();
out.back = g.position();
out.undoAgain = g.undo();
const found = g.search({ budget: 3000, seed: 1 });
out.search = [e.moveText(found.move), found.nodes <= 4500, found.pv.length > 0];
console.log(JSON.stringify(out));
"""
    done = subprocess.run([NODE, "-e", script, str(site)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    from brandubh.core.position import move_text
    from brandubh.core.rules import Rules

    rules = Rules(SETUP, PRESETS["brandubh"])
    assert out["start"] == SETUP
    assert out["moves"] == [move_text(m) for m in rules.moves()]
    assert out["illegal"] == "illegal" and out["played"] == "ok"
    rules.play("d2c2")
    assert out["after"] == rules.position and out["side"] == "defenders"
    assert out["legal"] == len(rules.moves())
    assert out["undone"] is True and out["back"] == SETUP and out["undoAgain"] is False
    native = Rules(SETUP, PRESETS["brandubh"]).search(budget=3000, seed=1)
    assert out["search"] == [move_text(native.move), True, True]


def test_the_old_name_of_the_module_works_for_a_release_and_says_so(site):
    # engine.js was the module's name before 0.2.0: the folder keeps it, the
    # same module after a warning on the console; the page loads only
    # brandubh.js.
    script = r"""
const fs = require("fs");
const { BrandubhEngine } = require(process.argv[1] + "/engine.js");
const data = require(process.argv[1] + "/brandubh-data.js");
const e = BrandubhEngine.loadSync(fs.readFileSync(process.argv[1] + "/brandubh.wasm"), data);
console.log(JSON.stringify(e.perft("brandubh", e.setup, 2).leaves));
"""
    done = subprocess.run([NODE, "-e", script, str(site)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == perft_stats(2).leaves
    assert done.stderr.strip() == "engine.js is deprecated and goes in brandubh 0.3.0: use brandubh.js"
    html = (site / "index.html").read_text()
    assert 'src="brandubh.js"' in html and "engine.js" not in html


def _python_state(answer: dict, ply=None) -> dict:
    """What brandubh serve's Api answers for the same game: its state of a
    table holding the game the back end's state describes."""
    from brandubh import Bot, Game
    from brandubh.serve.api import Api, Table

    s = answer
    game = Game.from_text(s["text"], attackers="p1" if s["you"] == "attackers" else "p2").game
    table = Table(s["id"], game, s["you"], Bot(s["level"]))
    table.said = s["said"]
    return Api().state(table, ply)


@pytest.mark.parametrize("side,level,variant", [("attackers", 1, "brandubh"), ("defenders", 2, "codingame"),
                                                ("attackers", 1, "modern throne_pass=0")])
def test_the_pages_back_end_answers_as_the_server(site, side, level, variant):
    """A whole game through web/backend.js under Node: every state it
    answers (the board's SVG, the legal moves, the sentences, the game
    text) is the one brandubh serve's Api gives for the same game."""
    answers = node(site, "game", side, str(level), variant)
    assert answers[0]["status"] == 201
    finished = [a for a in answers if isinstance(a["data"], dict) and a["data"].get("status") == "finished"]
    assert finished, "the game never ended"
    checked = 0
    whole_game = None
    for a in answers:
        data = a["data"]
        state = data.get("game") if "error" in data or "best" in data else data
        if a["route"].endswith("/analysis"):
            assert a["status"] == 200 and data["shown"] == data["line"][0], data
            # The fields of brandubh serve's answer (api.py's _analysis).
            assert set(data) == {"best", "shown", "raw", "for", "outlook", "depth", "nodes", "mate_in", "line",
                                 "sentence", "game"}
            continue
        if "error" in data:
            assert a["status"] == 409 and data["code"], data
            if a["body"] == {"move": "d1d4"}:
                assert data["error"] == ("d1 to d4: the attacker on d1 is blocked by the piece on d2"
                                         if side == "attackers" else
                                         "it is the engine's move (the attackers), not yours: ask it for its reply")
        ply = int(a["route"].split("ply=")[1]) if "ply=" in a["route"] else None
        assert state == _python_state(state if ply is None else whole_game, ply), a["route"]
        if ply is None:
            whole_game = state
        checked += 1
    assert checked >= 4


def test_the_board_is_the_servers_picture(site):
    """board.js draws, string for string, what brandubh.views.svg draws for
    the page: a position with a last move, a capture and an arrow, and a
    game that has ended (no side to move shown)."""
    from brandubh import Game
    from brandubh.views.svg import board

    game = Game(position="7/7/2aa3/3ka2/3a3/7/7 a")
    game.play("c5c4")
    ended = Game(position="3k3/7/7/7/7/7/a6 d")
    ended.play("d7a7")
    script = r"""
const b = require(process.argv[1] + "/board.js");
const s = JSON.parse(process.argv[2]);
process.stdout.write(b.svg(s, [["d1", "d3", "#1f7a1f"], ["a1", "a1", "#1f7a1f"]]));
"""
    for seen in (game.snapshot(), ended.snapshot()):
        facts = {"position": seen.position, "cells": list(seen.cells), "side": seen.side, "last": seen.last,
                 "captured": list(seen.captured), "status": seen.status, "over": seen.over}
        done = subprocess.run([NODE, "-e", script, str(site), json.dumps(facts)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout == board(seen, size=None, arrows=[("d1", "d3", "#1f7a1f"), ("a1", "a1", "#1f7a1f")])
    assert ended.snapshot().over and "game over" in done.stdout


def test_scores_read_as_brandubh_chances_reads_them(site):
    """The analysis's words: web/backend.js's outlook of a raw score is
    brandubh.chances.Outlook's, and its sentence session.judged's."""
    from brandubh.chances import Outlook
    from brandubh.session import judged

    cases = [("brandubh", -192, None, "attackers", "defenders", 6), ("codingame", 350, None, "defenders", "attackers", 7),
             ("modern", 0, None, "attackers", "attackers", 5), ("opentafl quiet_cap=60", -75, None, "defenders", "defenders", 4),
             ("brandubh", 29990, 10, "attackers", "defenders", 9), ("brandubh", 29999, 1, "defenders", "defenders", 1),
             ("codingame", -29995, 5, "attackers", "attackers", 8)]
    done = subprocess.run([NODE, str(site / "check.js"), "outlook", json.dumps(cases)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for case, web in zip(cases, json.loads(done.stdout)):
        variant, raw, mate_in, to_move, viewer, depth = case
        outlook = Outlook.of(raw, mate_in, side_to_move=to_move, viewer=viewer, variant=variant)
        assert web["outlook"] == outlook.as_dict(), case
        assert web["judged"] == judged(outlook, "you", depth), case


def test_a_search_stops_when_another_thread_says_so(site):
    """The module's stop: a search of fifty million positions in a Node
    worker thread, its flag raised from the main thread, ends early with a
    legal move and says it was stopped."""
    found = node(site, "stop")
    assert found["stopped"] is True and found["legal"] is True
    assert 0 < found["nodes"] < 50_000_000 and found["depth"] >= 1


def test_the_bundled_puzzles_are_judged_and_rated_in_the_browser_as_in_python(site):
    """Every puzzle the page without a server carries, through
    web/backend.js under Node and through brandubh serve's PuzzleRoom
    (brandubh.puzzles.Attempt): the solution move by move, then a hint and a
    wrong first move; the same verdicts, sentences, hints, solutions and
    ratings (to a millionth), the puzzles' ratings moved in the same order;
    the same board shown (the line above it, the moves, the checks), where
    no winning move of the solver's is marked or named before the end."""
    import pytest as _pytest

    from brandubh.puzzles import shipped
    from brandubh.serve.puzzles import PuzzleRoom

    answers = node(site, "puzzles")
    by_id = {p.id: p for rules in ("brandubh", "codingame") for p in shipped(rules)}
    sets: dict[str, list] = {}
    for answer in answers:
        sets.setdefault(answer["rules"], []).append(by_id[answer["id"]])
    assert {rules: len(found) for rules, found in sets.items()} == {"brandubh": 200, "codingame": 200}
    room = PuzzleRoom(sets)

    def same(js, py):
        if isinstance(py, float) or isinstance(js, float):
            return js == _pytest.approx(py, abs=1e-6)
        if isinstance(py, dict):
            return js.keys() == py.keys() and all(same(js[k], py[k]) for k in py)
        if isinstance(py, list):
            return len(js) == len(py) and all(same(a, b) for a, b in zip(js, py))
        return js == py

    def shown(state: dict) -> list:
        """What the board shows: the line above it, the result, the moves and their marks, the checks."""
        return [state["status_line"], state["result"], state["legal"], state["checks"]]

    # Each answer stands alone (its own attempts, its own puzzle's rating):
    # every fourth is compared by default, every one under BRANDUBH_SLOW=1.
    for answer in answers[::scale(4, 1)]:
        puzzle = by_id[answer["id"]]
        seen = [p.id for p in sets[answer["rules"]] if p.id != puzzle.id]
        state = room.new({"variant": answer["rules"], "seen": seen})
        table = room.attempt(state["id"])
        steps = [shown(state)]
        for move in puzzle.solution[::2]:
            state = room.move(table, {"move": move})
            steps.append([state["verdict"], state["said"], state["rated"], *shown(state)])
        assert same(answer["steps"], steps), answer["id"]
        # Neither names nor marks a winning move of the solver's before the end.
        assert all(not any("wins" in m for m in step[-2]) for step in answer["steps"]), answer["id"]
        assert all(c["side"] != puzzle.winner for step in answer["steps"] for c in step[-1]), answer["id"]
        table = room.attempt(room.new({"variant": answer["rules"], "seen": seen})["id"])
        assert answer["hint"] == room.give_hint(table, {})["hint"], answer["id"]
        if answer["wrong"] is not None:
            missed = room.move(table, {"move": answer["wrong"]})
            assert same(answer["missed"], [missed["verdict"], missed["said"], missed["solution"], missed["rated"],
                                           *shown(missed)]), answer["id"]
