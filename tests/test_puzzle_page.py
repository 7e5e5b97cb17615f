"""The page's puzzle mode: ``brandubh serve``'s puzzle routes (judged by
:class:`brandubh.puzzles.Attempt`), without a browser and by clicks in a
real Chromium (the fixture and helpers of tests/test_serve_browser.py)."""

from __future__ import annotations

import json

import pytest

from brandubh.puzzles import Puzzle
from brandubh.serve import Api
from brandubh.serve.puzzles import MAX_ATTEMPTS, PuzzleRoom

from test_serve_browser import click_square, server, settle  # noqa: F401 - the server fixture

# Two puzzles of two moves: the defenders' (the king goes right, then down
# to the corner) and one rated far above it.
EASY = Puzzle.make("brandubh", "3aa2/7/1dd4/a4aa/a2k3/3d3/7 d", ["d3g3", "a3a2", "g3g1"], ["escape"])
SETS = {"brandubh": [EASY]}


def post(api: Api, path: str, body: dict | None = None) -> tuple[int, dict]:
    reply = api.call("POST", path, json.dumps(body or {}).encode())
    return reply.status, reply.json()


@pytest.fixture
def api() -> Api:
    made = Api(seed="puzzle tests")
    made.puzzles = PuzzleRoom(SETS, seed="puzzle tests")
    return made


def test_a_puzzle_solved_through_the_interface_moves_both_ratings(api):
    status, new = post(api, "/api/puzzles", {"variant": "brandubh"})
    assert status == 201 and new["mode"] == "puzzle" and new["puzzle"]["id"] == EASY.id
    assert new["task"] == "The defenders to move and win in 2 moves" and new["your_turn"]
    assert {"from": "d3", "to": "g3"} in [{"from": m["from"], "to": m["to"]} for m in new["legal"]]
    path = f"/api/puzzles/{new['id']}"
    status, right = post(api, path + "/move", {"move": "d3-g3"})
    assert status == 200 and right["verdict"] == "right" and right["last"]["move"] == "a3a2"
    assert right["said"] == "Right. The attackers answer a3-a2." and right["rated"] is None
    assert right["status_line"] == "The defenders to move and win in 2 moves."
    # The king's way out (g3-g1, the solution's last move) is neither marked
    # nor named: it is the solver's to find.
    assert "g3g1" not in json.dumps(right) and "g3-g1" not in json.dumps(right) and right["checks"] == []
    assert all("wins" not in move for move in right["legal"]) and {"from": "g3", "to": "g1"} in [
        {"from": m["from"], "to": m["to"]} for m in right["legal"]]
    status, solved = post(api, path + "/move", {"move": "g3g1"})
    assert status == 200 and solved["verdict"] == "solved" and solved["over"] and solved["winner"] == "defenders"
    assert solved["status_line"] == "Solved: the king reached a corner. The defenders win."
    assert solved["solution"] == ["d3g3", "a3a2", "g3g1"] and solved["legal"] == []
    rated = solved["rated"]
    assert rated["score"] == 1.0 and rated["player"]["rating"] > 1500 > rated["puzzle"]["rating"]
    # The puzzle's rating is kept: the next attempt starts from it.
    assert post(api, "/api/puzzles", {"player": rated["player"]})[1]["puzzle"]["rating"] == rated["puzzle"]
    # Nothing more once it is over.
    assert post(api, path + "/move", {"move": "g1g2"})[0] == 409


def test_a_wrong_move_shows_the_solution_and_a_hint_names_the_piece(api):
    new = post(api, "/api/puzzles")[1]
    path = f"/api/puzzles/{new['id']}"
    status, hinted = post(api, path + "/hint")
    assert status == 200 and hinted["hint"] == "move the king on d3" and hinted["said"] == "A hint: move the king on d3."
    status, wrong = post(api, path + "/move", {"move": "d3f3"})
    assert status == 200 and wrong["verdict"] == "wrong" and wrong["over"]
    assert wrong["solution"] == ["d3g3", "a3a2", "g3g1"] and "the move here was d3g3" in wrong["said"]
    assert wrong["rated"]["score"] == 0.0 and wrong["rated"]["player"]["rating"] < 1500
    assert wrong["status_line"] == "The defenders to move and win in 2 moves."


def test_the_opponents_checks_are_still_shown():
    """Only the solver's own winning moves are kept from the page: the
    other side's threat (the attackers could take the king) is the
    position's, and shown."""
    threatened = Puzzle.make("brandubh", "7/7/7/7/a6/6k/a6 a", ["a3g3"])
    room = PuzzleRoom({"brandubh": [threatened]})
    state = room.new({})
    assert [(c["side"], c["moves"]) for c in state["checks"]] == [("defenders", ["g2g1", "g2g7"])]
    assert state["legal"] and all("wins" not in move for move in state["legal"])


def test_bad_requests_are_refused_with_a_sentence_and_change_nothing(api):
    new = post(api, "/api/puzzles")[1]
    path = f"/api/puzzles/{new['id']}"
    status, refused = post(api, path + "/move", {"move": "d3d9x"})
    assert status == 400 and "not a legal move of the defenders" in refused["error"]
    assert post(api, path + "/move", {"move": 7})[0] == 400
    assert post(api, path + "/move", {"move": "d3g3", "more": 1})[0] == 400
    assert api.call("GET", path).json()["ply"] == 0 and api.call("GET", path).json()["verdict"] is None
    bad_player = post(api, "/api/puzzles", {"player": {"rating": "high", "deviation": 50, "volatility": 0.06}})
    assert bad_player[0] == 400 and bad_player[1]["error"].startswith("player's rating must be a number")
    assert post(api, "/api/puzzles", {"seen": "all"})[0] == 400
    assert post(api, "/api/puzzles", {"variant": "codingame"})[1]["error"].startswith("no puzzles under")
    assert post(api, path + "/undo")[0] == 404
    assert api.call("GET", "/api/puzzles/0123456789ab").status == 404
    assert api.call("GET", "/api/puzzles").status == 405


def test_the_attempts_kept_are_bounded(api):
    first = post(api, "/api/puzzles")[1]["id"]
    for _ in range(MAX_ATTEMPTS):
        post(api, "/api/puzzles")
    assert api.call("GET", f"/api/puzzles/{first}").status == 404
    assert len(api.puzzles._attempts) == MAX_ATTEMPTS


def test_the_shipped_set_answers_by_default():
    api = Api(seed="shipped")
    status, new = post(api, "/api/puzzles", {"variant": "codingame", "player": {
        "rating": 1200, "deviation": 100, "volatility": 0.06}})
    assert status == 201 and new["puzzle"]["rules"] == "codingame"


# -- in the browser ----------------------------------------------------------------


@pytest.fixture
def puzzle_page(browser, server):  # noqa: F811 - the server fixture imported above
    server.api.puzzles = PuzzleRoom(SETS, seed="browser")
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    opened = context.new_page()
    opened.set_default_timeout(60_000)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    opened.goto(server.url)
    settle(opened)
    yield opened
    context.close()
    assert errors == []


def open_puzzle(page) -> float:
    """Press Puzzles; the time from the click to the board shown, in ms."""
    page.click("#puzzles")
    page.wait_for_function("() => document.body.classList.contains('puzzle') && document.body.dataset.busy === '0'")
    settle(page, 0)
    return float(page.evaluate("() => document.body.dataset.puzzleOpenMs"))


def test_a_puzzle_solved_by_clicks_and_the_rating_moves(puzzle_page):
    page = puzzle_page
    took = open_puzzle(page)
    print(f"a puzzle opened in {took:.1f} ms")
    assert page.inner_text("#status") == "The defenders to move and win in 2 moves."
    assert "1500 \u00b1 350" in page.inner_text("#puzzlerating")
    click_square(page, "d3")
    click_square(page, "g3")
    settle(page, 2)
    assert page.inner_text("#message") == "Right. The attackers answer a3-a2."
    # The king's way out is neither said under the board nor marked on it.
    assert page.inner_text("#checks") == "" and page.locator("#board circle.check").count() == 0
    click_square(page, "g3")
    assert page.locator("#board rect.target.g1").count() == 1 and page.locator("#board rect.win").count() == 0
    click_square(page, "g1")
    settle(page, 3)
    assert page.inner_text("#message") == "Solved!"
    assert page.inner_text("#status") == "Solved: the king reached a corner. The defenders win."
    assert "\u2192" in page.inner_text("#puzzlerating")
    kept = json.loads(page.evaluate("() => localStorage.getItem('brandubh-puzzles')"))
    assert kept["player"]["rating"] > 1500 and kept["seen"] == [EASY.id]
    # The next puzzle is asked for with the rating kept.
    page.click("#puzzlenext")
    settle(page, 0)
    assert f"Your puzzle rating: {round(kept['player']['rating'])}" in page.inner_text("#puzzlerating")


def test_a_hint_then_a_wrong_move_shows_the_solution(puzzle_page):
    page = puzzle_page
    open_puzzle(page)
    page.click("#puzzlehint")
    page.wait_for_function("() => document.querySelector('#message').textContent.startsWith('A hint')")
    assert page.inner_text("#message") == "A hint: move the king on d3."
    click_square(page, "d3")
    click_square(page, "f3")
    settle(page, 1)
    assert page.evaluate("() => document.body.dataset.verdict") == "wrong"
    assert "The solution: d3g3 a3a2 g3g1." in page.inner_text("#puzzleinfo")
    assert page.is_disabled("#puzzlehint")
    kept = json.loads(page.evaluate("() => localStorage.getItem('brandubh-puzzles')"))
    assert kept["player"]["rating"] < 1500


def test_a_server_reads_the_shipped_sets_ahead_of_the_first_puzzle(monkeypatch):
    """brandubh serve (and host) read the shipped sets in a thread at the
    start (serve_until_stopped), not at the first puzzle asked for: a
    daemon, the sets kept once it is done."""
    import argparse
    import io

    from brandubh.cli import serve as command
    from brandubh.puzzles.shipped import _read, shipped_files
    from brandubh.serve.puzzles import read_sets_ahead

    _read.cache_clear()
    reading = read_sets_ahead()
    assert reading.daemon
    reading.join()
    assert _read.cache_info().currsize == len(shipped_files()) > 0

    class Stopped:
        """A server stopped by Ctrl-C as soon as it serves."""
        url = "http://127.0.0.1:1/"

        def serve_forever(self) -> None:
            raise KeyboardInterrupt

        def server_close(self) -> None:
            pass

    started: list[str] = []
    monkeypatch.setattr(command, "read_sets_ahead", lambda: started.append("read"))
    assert command.serve_until_stopped(Stopped(), argparse.Namespace(open=False), "serve", "here",
                                       io.StringIO()) == 0
    assert started == ["read"]
