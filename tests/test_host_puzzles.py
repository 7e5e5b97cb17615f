"""The puzzles of ``brandubh host``'s club, through HTTP: an account's
attempt judged move by move and rated (its puzzle rating and the puzzle's,
in the store before the answer), one rated attempt per account and puzzle,
a guest's unrated, an account's attempt its own, bad requests refused with
nothing changed, cross-site requests refused, a full disk, the store's
upgrade, and the daily puzzle (the page in a browser is at the end)."""

from __future__ import annotations

import datetime
import hashlib
import http.client
import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from conftest import PATIENCE

from brandubh.host.accounts import Accounts, hash_password
from brandubh.host.api import HostApi
from brandubh.host.http import HostServer
from brandubh.host.hub import Hub
from brandubh.host.puzzles import DAILY_RULES, ClubPuzzles
from brandubh.host.store import SCHEMA_VERSION, Store, migrate
from brandubh.puzzles import Puzzle, shipped

from test_host_club import CHEAP, Browser


# Two puzzles of the shipped set: the defenders' king escapes in two moves (rated 1150 to
# start), and the attackers take the king in two (1350).
EASY = Puzzle.from_line("dfa4333721;brandubh;3aa2/7/1dd4/a4aa/a2k3/3d3/7 d;d3g3 a3a2 g3g1;escape;1150 300 0.06;"
                        "selfplay brandubh 5 23")
OTHER = Puzzle.from_line("a40e7b84d6;brandubh;3ad2/2a4/2a3d/a1k1aa1/3a3/d1a4/7 a;d3c3 a2b2 a4b4;king-capture;"
                         "1350 300 0.06;selfplay brandubh 330 26")
SETS = {"brandubh": [EASY, OTHER]}


def _serve(path: Path, sets: dict | None = SETS):
    hub = Hub(Store(str(path)), seed="tests")
    api = HostApi(hub, Accounts(hub.store, cost=CHEAP))
    if sets is not None:
        api.club.puzzles = ClubPuzzles(hub.store, sets, seed="tests")
    running = HostServer(port=0, api=api, trusted_proxies=["127.0.0.1"])
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    return running


def _stop(running: HostServer) -> None:
    running.shutdown()
    running.server_close()
    running.host_api.hub.close()
    running.host_api.hub.store.close()


@pytest.fixture
def club(tmp_path):
    running = _serve(tmp_path / "club.sqlite")
    yield running
    _stop(running)


def rows(server: HostServer, sql: str) -> list[tuple]:
    """What the store holds, read from its file by another connection: what was committed."""
    db = sqlite3.connect(server.host_api.hub.store.path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def member(server: HostServer, name: str, address: str = "192.0.2.1") -> Browser:
    browser = Browser(server, address)
    assert browser.ask("POST", "/api/host/register", {"name": name, "password": "a long secret"})[0] == 201
    return browser


def open_puzzle(browser: Browser, puzzle: Puzzle) -> dict:
    status, state = browser.ask("POST", "/api/puzzles", {"puzzle": puzzle.id})
    assert status == 201, state
    return state


def test_an_account_solves_a_puzzle_move_by_move_and_both_ratings_are_stored(club):
    ann = member(club, "ann")
    state = open_puzzle(ann, EASY)
    assert state["task"] == "The defenders to move and win in 2 moves" and state["club"]["rated"]
    assert state["club"]["said"] == "Your puzzle rating: 1500 ± 350."
    # The solution is not in the answer before the attempt ends, nor a move marked as winning at once.
    assert state["solution"] is None and "g3g1" not in json.dumps(state)
    assert all("wins" not in move for move in state["legal"])
    path = f"/api/puzzles/{state['id']}"
    status, right = ann.ask("POST", path + "/move", {"move": "d3-g3"})
    assert status == 200 and right["verdict"] == "right" and right["said"] == "Right. The attackers answer a3-a2."
    assert right["moves"] == ["Kd3-g3", "a3-a2"] and right["solution"] is None and right["rated"] is None
    # The king's way out is not marked, nor named: the last move is the solver's to find.
    assert "g3g1" not in json.dumps(right) and "g3-g1" not in json.dumps(right) and right["checks"] == []
    assert all("wins" not in move for move in right["legal"]) and {"from": "g3", "to": "g1"} in [
        {"from": m["from"], "to": m["to"]} for m in right["legal"]]
    assert rows(club, "SELECT * FROM puzzle_attempts") == []
    status, solved = ann.ask("POST", path + "/move", {"move": "g3g1"})
    assert status == 200 and solved["verdict"] == "solved" and solved["over"]
    assert solved["solution"] == list(EASY.solution)
    rated = solved["rated"]
    assert rated["score"] == 1.0 and rated["player"]["rating"] > 1500 > rated["player_before"]["rating"] - 1
    assert rated["puzzle"]["rating"] < 1150 == rated["puzzle_before"]["rating"]
    assert solved["club"]["said"].startswith("Your puzzle rating: 1500 ± 350 → ")
    # Stored before it was answered: the attempt with the account's new rating, and the puzzle's.
    [(puzzle, score, rating)] = rows(club, "SELECT puzzle, score, rating FROM puzzle_attempts")
    assert (puzzle, score, rating) == (EASY.id, 1.0, rated["player"]["rating"])
    assert rows(club, "SELECT puzzle, rating, attempts FROM puzzle_ratings") == [
        (EASY.id, rated["puzzle"]["rating"], 1)]
    # The player's page shows the puzzle rating, and its graph draws it.
    page = ann.ask("GET", "/api/host/players/ann")[1]
    assert page["puzzles"]["rating"] == round(rated["player"]["rating"]) and page["puzzles"]["attempts"] == 1
    assert page["ratings"] == {}   # no game's pool
    status, svg = ann.ask("GET", "/api/host/players/ann/rating.svg?pool=puzzles")
    assert status == 200 and svg.startswith("<svg") and "puzzles" in svg
    # The next puzzle is the account's, near its new rating: the one not tried yet; the puzzle's new rating shown.
    nxt = ann.ask("POST", "/api/puzzles", {})[1]
    assert nxt["puzzle"]["id"] == OTHER.id
    assert ann.ask("POST", "/api/puzzles", {"puzzle": EASY.id})[1]["puzzle"]["rating"] == rated["puzzle"]


def test_a_hint_then_a_wrong_move_shows_the_solution_and_moves_the_rating_down(club):
    bob = member(club, "bob")
    path = f"/api/puzzles/{open_puzzle(bob, EASY)['id']}"
    status, hinted = bob.ask("POST", path + "/hint", {})
    assert status == 200 and hinted["hint"] == "move the king on d3" and hinted["solution"] is None
    # A solve after a hint is a miss: rated so at once (an attempt abandoned now is rated all the same).
    assert hinted["rated"]["score"] == 0.0 and not hinted["over"]
    assert rows(club, "SELECT score FROM puzzle_attempts") == [(0.0,)]
    status, wrong = bob.ask("POST", path + "/move", {"move": "d3f3"})
    assert status == 200 and wrong["verdict"] == "wrong" and wrong["over"]
    assert wrong["solution"] == list(EASY.solution) and "the move here was d3g3" in wrong["said"]
    assert wrong["rated"]["score"] == 0.0 and wrong["rated"]["player"]["rating"] < 1500
    assert rows(club, "SELECT score FROM puzzle_attempts") == [(0.0,)]
    # Giving up is a miss too, shown with the solution.
    path = f"/api/puzzles/{open_puzzle(bob, OTHER)['id']}"
    status, shown = bob.ask("POST", path + "/solution", {})
    assert status == 200 and shown["over"] and shown["solution"] == list(OTHER.solution)
    assert shown["rated"]["score"] == 0.0 and len(rows(club, "SELECT * FROM puzzle_attempts")) == 2


def test_one_attempt_per_account_and_puzzle_is_rated_the_first_to_end(club):
    ann = member(club, "ann")
    first, second = open_puzzle(ann, EASY), open_puzzle(ann, EASY)
    assert first["club"]["rated"] and second["club"]["rated"]
    # The second ends first (the solution looked at): it is the rated one.
    missed = ann.ask("POST", f"/api/puzzles/{second['id']}/solution", {})[1]
    assert missed["rated"]["score"] == 0.0
    after = ann.ask("GET", "/api/host/players/ann")[1]["puzzles"]
    ann.ask("POST", f"/api/puzzles/{first['id']}/move", {"move": "d3g3"})
    solved = ann.ask("POST", f"/api/puzzles/{first['id']}/move", {"move": "g3g1"})[1]
    assert solved["verdict"] == "solved" and solved["rated"] is None and not solved["club"]["rated"]
    assert "was rated already, so this one is not" in solved["club"]["said"]
    assert ann.ask("GET", "/api/host/players/ann")[1]["puzzles"] == after
    assert rows(club, "SELECT COUNT(*), MIN(score) FROM puzzle_attempts") == [(1, 0.0)]
    assert rows(club, "SELECT attempts FROM puzzle_ratings") == [(1,)]
    # Opened again, it says at once that it will not be rated.
    again = open_puzzle(ann, EASY)
    assert not again["club"]["rated"] and "this one is not" in again["club"]["said"]
    # A hint taken in an attempt then left: the puzzle is rated (a miss), and a fresh attempt is not.
    hinted = open_puzzle(ann, OTHER)
    assert ann.ask("POST", f"/api/puzzles/{hinted['id']}/hint", {})[1]["rated"]["score"] == 0.0
    fresh = open_puzzle(ann, OTHER)
    ann.ask("POST", f"/api/puzzles/{fresh['id']}/move", {"move": OTHER.solution[0]})
    solved = ann.ask("POST", f"/api/puzzles/{fresh['id']}/move", {"move": OTHER.solution[2]})[1]
    assert solved["verdict"] == "solved" and solved["rated"] is None
    assert rows(club, "SELECT puzzle, score FROM puzzle_attempts ORDER BY rowid") == [(EASY.id, 0.0), (OTHER.id, 0.0)]


def test_the_next_puzzle_is_near_the_accounts_rating_by_the_puzzles_ratings_the_club_moved(tmp_path):
    # The shipped set, five of its puzzles moved by the club's solves to 2990-2994 (the set's highest is
    # below 2000), and an account whose puzzle rating is 3000: one of those five comes next.
    running = _serve(tmp_path / "club.sqlite", None)
    try:
        ann = member(running, "ann")
        lowest = sorted(shipped("brandubh"), key=lambda p: (p.rating.rating, p.id))[:5]
        db = sqlite3.connect(running.host_api.hub.store.path)
        with db:
            for n, puzzle in enumerate(lowest):
                db.execute("INSERT INTO puzzle_ratings VALUES (?, ?, 60, 0.06, 9)", (puzzle.id, 2990 + n))
            db.execute("INSERT INTO puzzle_attempts SELECT id, 'ffffffffff', 1, 1, 3000, 60, 0.06 FROM accounts")
        db.close()
        for _ in range(3):
            nxt = ann.ask("POST", "/api/puzzles", {})[1]
            assert nxt["puzzle"]["id"] in {p.id for p in lowest} and nxt["puzzle"]["rating"]["rating"] >= 2990
    finally:
        _stop(running)


def test_a_guest_solves_unrated_and_nothing_is_stored(club):
    guest = Browser(club, "192.0.2.9")
    status, state = guest.ask("POST", "/api/puzzles", {"player": {"rating": 1200, "deviation": 80, "volatility": 0.06}})
    assert status == 201 and state["club"] == {
        "name": None, "rated": False, "rating": None,
        "said": "A guest solves unrated: log in at the club to keep a puzzle rating."}
    puzzle = EASY if state["puzzle"]["id"] == EASY.id else OTHER
    path = f"/api/puzzles/{state['id']}"
    guest.ask("POST", path + "/move", {"move": puzzle.solution[0]})
    solved = guest.ask("POST", path + "/move", {"move": puzzle.solution[2]})[1]
    assert solved["verdict"] == "solved" and solved["rated"] is None
    assert rows(club, "SELECT * FROM puzzle_attempts") == rows(club, "SELECT * FROM puzzle_ratings") == []
    assert guest.ask("POST", "/api/puzzles", {"puzzle": puzzle.id})[1]["puzzle"]["rating"]["rating"] == \
        puzzle.rating.rating


def test_an_accounts_attempt_is_its_own(club):
    ann, bob, guest = member(club, "ann"), member(club, "bob", "192.0.2.2"), Browser(club, "192.0.2.9")
    state = open_puzzle(ann, EASY)
    path = f"/api/puzzles/{state['id']}"
    for other in (bob, guest):
        for method, action, body in (("POST", "/move", {"move": "d3g3"}), ("POST", "/hint", {}),
                                     ("POST", "/solution", {}), ("GET", "", None)):
            status, refused = other.ask(method, path + action, body)
            assert status == 403 and refused["error"].startswith("this puzzle attempt is ann's: log in as ann"), \
                (action, refused)
    now = ann.ask("GET", path)[1]
    assert now["ply"] == 0 and now["hint"] is None and not now["over"]
    # A guest's attempt is anyone's who has its id, and never rated, whoever ends it.
    mine = Browser(club, "192.0.2.9").ask("POST", "/api/puzzles", {"puzzle": EASY.id})[1]
    assert ann.ask("POST", f"/api/puzzles/{mine['id']}/solution", {})[1]["rated"] is None
    assert rows(club, "SELECT * FROM puzzle_attempts") == []


@pytest.mark.parametrize("method, action, body, status, words", [
    ("POST", "/move", {"move": "d3d9x"}, 400, "not a legal move of the defenders"),
    ("POST", "/move", {"move": "a7a6"}, 400, "not a legal move of the defenders"),
    ("POST", "/move", {"move": 7}, 400, "move must be a move as text"),
    ("POST", "/move", {"move": "d3g3", "more": 1}, 400, "unknown field 'more'"),
    ("POST", "/move", [1], 400, "must be a JSON object"),
    ("POST", "/undo", {}, 404, "a puzzle has no 'undo'"),
    ("GET", "/move", None, 405, "send POST"),
    ("POST", "", {}, 405, "send GET"),
])
def test_bad_requests_on_an_attempt_are_refused_with_a_sentence_and_change_nothing(club, method, action, body,
                                                                                  status, words):
    ann = member(club, "ann")
    state = open_puzzle(ann, EASY)
    path = f"/api/puzzles/{state['id']}"
    got, refused = ann.ask(method, path + action, body)
    assert got == status and words in refused["error"], refused
    now = ann.ask("GET", path)[1]
    assert (now["ply"], now["verdict"], now["hint"], now["over"], now["said"]) == (0, None, None, False, state["said"])
    assert rows(club, "SELECT * FROM puzzle_attempts") == []


@pytest.mark.parametrize("body, status, words", [
    ({"puzzle": "dfa433372"}, 400, "puzzle must be a puzzle's id (ten hexadecimal digits)"),
    ({"puzzle": 12}, 400, "puzzle must be a puzzle's id"),
    ({"puzzle": "0123456789"}, 404, "no puzzle '0123456789' here"),
    ({"variant": "codingame"}, 400, "no puzzles under 'codingame'"),
    ({"seen": "all"}, 400, "seen must be a list of puzzle ids"),
    ({"player": {"rating": "high", "deviation": 50, "volatility": 0.06}}, 400, "player's rating must be a number"),
    ({"level": 3}, 400, "unknown field 'level'"),
])
def test_bad_requests_for_a_puzzle_are_refused_with_a_sentence(club, body, status, words):
    got, refused = member(club, "ann").ask("POST", "/api/puzzles", body)
    assert got == status and words in refused["error"], refused


def test_an_attempt_over_refuses_more_and_one_unknown_is_not_found(club):
    ann = member(club, "ann")
    path = f"/api/puzzles/{open_puzzle(ann, EASY)['id']}"
    ann.ask("POST", path + "/solution", {})
    for action, body in (("/move", {"move": "d3g3"}), ("/solution", {}), ("/hint", {})):
        status, refused = ann.ask("POST", path + action, body)
        assert status == 409 and "over" in refused["error"], refused
    assert ann.ask("GET", "/api/puzzles/0123456789ab")[0] == 404
    assert ann.ask("GET", "/api/puzzles/daily/x/y")[0] == 404
    assert len(rows(club, "SELECT * FROM puzzle_attempts")) == 1


def _post(server: HostServer, path: str, headers: dict[str, str]) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=PATIENCE)
    try:
        connection.request("POST", path, b"{}", {"Content-Type": "application/json", **headers})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_requests_from_another_sites_page_are_refused(club):
    ann = member(club, "ann")
    state = open_puzzle(ann, EASY)
    cookie = {"Cookie": f"brandubh-session={ann.cookie}"}
    for path in ("/api/puzzles", f"/api/puzzles/{state['id']}/solution", f"/api/puzzles/{state['id']}/hint"):
        for forged in ({"Origin": "https://elsewhere.example"}, {"Sec-Fetch-Site": "cross-site"}):
            status, refused = _post(club, path, {**cookie, **forged})
            assert status == 403 and "refused" in refused["error"], (path, forged)
    now = ann.ask("GET", f"/api/puzzles/{state['id']}")[1]
    assert not now["over"] and now["hint"] is None
    assert rows(club, "SELECT * FROM puzzle_attempts") == []


def test_the_daily_puzzle_is_the_same_for_everyone_on_a_utc_day(club, tmp_path):
    every = shipped(DAILY_RULES)

    def by_hand(day: datetime.date):
        return min(every, key=lambda p: hashlib.sha256(f"{day.isoformat()} {p.id}".encode()).digest())

    one, other = ClubPuzzles(Store(":memory:")), ClubPuzzles(Store(":memory:"), seed="another")
    days = [datetime.date(2026, 12, 6) + datetime.timedelta(days=n) for n in range(5)]
    picked = [one.daily(day) for day in days]
    assert picked == [other.daily(day) for day in days] == [by_hand(day) for day in days]
    assert len({p.id for p in picked}) > 1   # another day, another puzzle (five alike: one chance in 10**12)
    # The lobby shows today's, from the server's set; it opens by its id.
    daily = Browser(club).ask("GET", "/api/host/lobby")[1]["daily"]
    day = datetime.date.fromisoformat(daily["date"])
    # Today's UTC day (or yesterday's, were the test to straddle midnight).
    assert datetime.datetime.now(datetime.timezone.utc).date() - day in (datetime.timedelta(0), datetime.timedelta(1))
    assert daily["link"] == "/#puzzle=" + daily["id"]
    assert daily["id"] == club.host_api.club.puzzles.daily(day).id in (EASY.id, OTHER.id)
    assert daily["task"].startswith("The ") and daily["rating"]["deviation"] > 0
    assert open_puzzle(member(club, "ann"), EASY if daily["id"] == EASY.id else OTHER)["puzzle"]["id"] == daily["id"]


def test_a_result_the_full_disk_refused_changed_nothing_and_is_rated_once_there_is_room(tmp_path):
    from test_host_store import fill, tmpfs

    with tmpfs(tmp_path / "disk") as disk:
        running = _serve(disk / "club.sqlite")
        try:
            ann = member(running, "ann")
            state = open_puzzle(ann, EASY)
            path = f"/api/puzzles/{state['id']}"
            right = ann.ask("POST", path + "/move", {"move": "d3g3"})[1]
            filler = fill(disk)
            status, refused = ann.ask("POST", path + "/hint", {})   # a hint is a rated miss: not given
            assert status == 503 and refused["code"] == "not_stored"
            status, refused = ann.ask("POST", path + "/move", {"move": "g3g1"})
            assert status == 503 and refused["code"] == "not_stored" and "nothing changed" in refused["error"]
            now = ann.ask("GET", path)[1]
            assert (now["ply"], now["verdict"], now["over"], now["rated"], now["hint"]) == (2, "right", False, None, None)
            assert now["said"] == right["said"]
            status, refused = ann.ask("POST", path + "/solution", {})   # giving up cannot be stored either
            assert status == 503 and not ann.ask("GET", path)[1]["over"]
            filler.unlink()
            status, solved = ann.ask("POST", path + "/move", {"move": "g3g1"})
            assert status == 200 and solved["verdict"] == "solved" and solved["rated"]["score"] == 1.0
            assert rows(running, "SELECT puzzle, score FROM puzzle_attempts") == [(EASY.id, 1.0)]
        finally:
            _stop(running)


def test_a_store_of_the_previous_version_is_upgraded_and_its_accounts_solve_rated(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(str(path), isolation_level=None)
    migrate(db, SCHEMA_VERSION - 1)
    db.execute("INSERT INTO accounts (name, kind, password, created) VALUES ('ann', 'person', ?, 1.0)",
               (hash_password("a long secret", CHEAP),))
    db.close()
    running = _serve(path)
    try:
        assert rows(running, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
        ann = Browser(running)
        assert ann.ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})[0] == 200
        path_ = f"/api/puzzles/{open_puzzle(ann, EASY)['id']}"
        assert ann.ask("POST", path_ + "/solution", {})[1]["rated"]["score"] == 0.0
        assert rows(running, "SELECT a.name FROM puzzle_attempts p JOIN accounts a ON a.id = p.account") == [("ann",)]
    finally:
        _stop(running)


# -- in the browser: the club's page and the game page's puzzle mode -----------------------------------

SHOTS = os.environ.get("BRANDUBH_CLUB_SCREENSHOTS")


def _verdict(page, verdict: str) -> None:
    page.wait_for_function("(v) => document.body.dataset.verdict === v && document.body.dataset.busy === '0'",
                           arg=verdict)


def test_an_account_solves_the_daily_puzzle_by_clicks_and_its_rating_moves(browser, tmp_path):  # noqa: F811
    from test_host_club_browser import person, register
    from test_serve_browser import click_square

    running = _serve(tmp_path / "club.sqlite", {"brandubh": [EASY]})   # the daily is EASY, the only one
    errors: list[str] = []
    context, ann = person(browser, running.url + "club", "192.0.2.1", errors)
    try:
        register(ann, "ann")
        # The lobby shows today's puzzle; its link opens it on the game page.
        ann.wait_for_selector("#daily:not([hidden]) #daily-link[href='/#puzzle=" + EASY.id + "']")
        assert ann.text_content("#daily-task") == "The defenders to move and win in 2 moves."
        if SHOTS:
            ann.screenshot(path=str(Path(SHOTS) / "club-daily.png"))
        ann.click("#daily-link")
        ann.wait_for_function("(id) => document.body.dataset.puzzle === id && document.body.dataset.busy === '0'"
                              " && document.body.classList.contains('puzzle')", arg=EASY.id)
        assert ann.text_content("#puzzlerating") == "Your puzzle rating: 1500 ± 350."
        assert ann.is_visible("#puzzlebar") and ann.is_hidden("#host-game")
        # The right move brings the defence's reply, judged on the server.
        click_square(ann, "d3")
        click_square(ann, "g3")
        _verdict(ann, "right")
        assert ann.text_content("#message") == "Right. The attackers answer a3-a2."
        assert ann.text_content("#checks") == ""   # the king's way out is the solver's to find
        if SHOTS:
            ann.screenshot(path=str(Path(SHOTS) / "club-puzzle.png"))
        click_square(ann, "g3")
        click_square(ann, "g1")
        _verdict(ann, "solved")
        # Solved: the account's rating moved up, as the club stored it, and the solution shown.
        said = ann.text_content("#puzzlerating")
        assert said.startswith("Your puzzle rating: 1500 ± 350 → 1") and "the puzzle's:" in said
        assert "The solution: d3g3 a3a2 g3g1." in ann.text_content("#puzzleinfo")
        assert rows(running, "SELECT score FROM puzzle_attempts") == [(1.0,)]
        ann.goto(running.url + "club#player=ann")
        ann.wait_for_function("() => document.body.dataset.shown === 'ann'")
        assert ann.text_content("#puzzle-rating").startswith("Puzzle rating: 1")
        assert "1 puzzle rated" in ann.text_content("#puzzle-rating")
        ann.wait_for_function("() => { const i = document.querySelector('#puzzle-graph img');"
                              " return i && i.complete && i.naturalWidth > 0; }")
        # The next one (the same puzzle, the only one, not rated again): a hint, then a wrong move.
        ann.goto(running.url + "#puzzle=next")
        ann.wait_for_function("() => document.body.classList.contains('puzzle') && document.body.dataset.busy === '0'")
        assert "rated already" in ann.text_content("#puzzlerating")
        ann.click("#puzzlehint")
        ann.wait_for_function("() => document.getElementById('message').textContent === "
                              "'A hint: move the king on d3.'")
        click_square(ann, "d3")
        click_square(ann, "f3")
        _verdict(ann, "wrong")
        assert "Wrong: the move here was d3g3" in ann.text_content("#message")
        assert "The solution: d3g3 a3a2 g3g1." in ann.text_content("#puzzleinfo")
        assert rows(running, "SELECT score FROM puzzle_attempts") == [(1.0,)]
    finally:
        context.close()
        _stop(running)
    # Chromium asks for /favicon.ico by itself, which the game page's policy (pictures as data only) blocks.
    assert [error for error in errors if "favicon.ico" not in error] == []
