"""The club of ``brandubh host``: the store's versions and migrations,
accounts and sessions, the login limits, the lobby's seeks, rated games and
their ratings, player pages, correspondence games across a restart, and
what a hostile client cannot do with them (the page in a browser is
test_host_browser.py)."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Optional

import pytest

from conftest import PATIENCE, wait_until

from brandubh.host.accounts import ADDRESS_FAILURES, COOKIE, NAME_FAILURES, Accounts
from brandubh.host.api import HostApi
from brandubh.host.http import HostServer
from brandubh.host.hub import Hub
from brandubh.host.store import MIGRATIONS, SCHEMA_VERSION, Store, StoreError, migrate

CHEAP = 2 ** 4   # scrypt's cost in tests: the hashing is the same, only cheaper


# -- the store's versions ---------------------------------------------------------------------

# The first release's tables, as it wrote them (no column for records set aside).
FIRST_RELEASE = """
CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, finished REAL, client TEXT NOT NULL,
                    record TEXT NOT NULL);
CREATE INDEX games_finished ON games (finished);
CREATE TABLE opened (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, at REAL NOT NULL);
"""


def _a_games_record(tmp_path: Path) -> tuple[str, str]:
    """A real game's id and record, two moves in, as a hub stores it."""
    hub = Hub(Store(str(tmp_path / "source.sqlite")), seed="tests")
    made = hub.create({"side": "attackers", "clock": "5+3"}, client="me")
    hub.act(made["id"], made["token"], "move", {"move": "d2c2"})
    text = hub.store.load(made["id"])
    hub.close()
    hub.store.close()
    assert text is not None
    return made["id"], text


def _old_store(path: Path, version: str, game: tuple[str, str]) -> None:
    db = sqlite3.connect(str(path), isolation_level=None)
    if version == "first release":
        db.executescript(FIRST_RELEASE)
    elif version == "0 with aside":   # today's store before versions: the aside column, user_version 0
        db.executescript(FIRST_RELEASE)
        db.execute("ALTER TABLE games ADD COLUMN aside TEXT")
    else:
        migrate(db, int(version))
    db.execute("INSERT INTO games (id, created, finished, client, record) VALUES (?, 1.0, NULL, 'me', ?)", game)
    db.execute("INSERT INTO games (id, created, finished, client, record) VALUES ('0123456789ab', 2.0, NULL, "
               "'me', 'not json')")
    db.close()


@pytest.mark.parametrize("version", ["first release", "0 with aside", *map(str, range(1, SCHEMA_VERSION + 1))])
def test_a_store_of_every_earlier_version_is_migrated_and_keeps_its_games(tmp_path, version):
    game = _a_games_record(tmp_path)
    path = tmp_path / "old.sqlite"
    _old_store(path, version, game)
    hub = Hub(Store(str(path)), seed="tests", log=open("/dev/null", "w"))
    try:
        assert hub.state(game[0])["moves"] == ["d2-c2"]
        assert "0123456789ab" in hub.set_aside   # a record it cannot read is set aside, as before
        accounts = Accounts(hub.store, cost=CHEAP)
        assert accounts.register("newcomer", "a long secret", address="x").account.name == "newcomer"
    finally:
        hub.close()
        hub.store.close()
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS)
    assert db.execute("SELECT record FROM games WHERE id = ?", (game[0],)).fetchone()[0] == game[1]


def test_a_store_of_a_newer_version_is_refused_untouched(tmp_path):
    path = tmp_path / "newer.sqlite"
    db = sqlite3.connect(str(path), isolation_level=None)
    migrate(db)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError) as refused:
        Store(str(path))
    assert "newer brandubh" in str(refused.value) and isinstance(refused.value, ValueError)
    assert sqlite3.connect(str(path)).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_migration_that_fails_is_rolled_back_whole(tmp_path):
    # The tables the last migration makes, in order: the last made beforehand, so that it fails half way.
    def tables(version: int) -> list[str]:
        scratch = sqlite3.connect(":memory:", isolation_level=None)
        migrate(scratch, version)
        return [row[0] for row in scratch.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]

    new = [name for name in tables(SCHEMA_VERSION) if name not in tables(SCHEMA_VERSION - 1)]
    assert len(new) >= 2, new
    path = tmp_path / "clash.sqlite"
    db = sqlite3.connect(str(path), isolation_level=None)
    migrate(db, SCHEMA_VERSION - 1)
    db.execute(f"CREATE TABLE {new[-1]} (x)")
    db.close()
    with pytest.raises(StoreError):
        Store(str(path))
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION - 1
    assert db.execute("SELECT name FROM sqlite_master WHERE name = ?", (new[0],)).fetchone() is None


# -- a server with its club -----------------------------------------------------------------


@pytest.fixture
def club(tmp_path):
    hub = Hub(Store(str(tmp_path / "club.sqlite")), seed="tests")
    running = HostServer(port=0, api=HostApi(hub, Accounts(hub.store, cost=CHEAP)), trusted_proxies=["127.0.0.1"])
    worker = threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True)
    worker.start()
    yield running
    running.shutdown()
    running.server_close()
    hub.close()
    hub.store.close()


class Browser:
    """A client that keeps its cookie, as a browser does, from one address
    (told to the server through the named proxy's X-Forwarded-For)."""

    def __init__(self, server: HostServer, address: str = "192.0.2.1", scheme: str = "http") -> None:
        self.server, self.address, self.scheme = server, address, scheme
        self.cookie: Optional[str] = None
        self.set_cookie: Optional[str] = None

    def ask(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.server_port, timeout=PATIENCE)
        headers = {"X-Forwarded-For": self.address, "X-Forwarded-Proto": self.scheme}
        if method == "POST":
            headers["Content-Type"] = "application/json"
        if self.cookie:
            headers["Cookie"] = f"{COOKIE}={self.cookie}"
        connection.request(method, path, json.dumps(body if body is not None else {}).encode()
                           if method == "POST" else None, headers)
        answer = connection.getresponse()
        payload = answer.read()
        self.set_cookie = answer.getheader("Set-Cookie")
        if self.set_cookie:
            value = self.set_cookie.split(";")[0].split("=", 1)[1]
            self.cookie = value or None
        connection.close()
        kind = answer.getheader("Content-Type", "")
        return answer.status, json.loads(payload) if kind.startswith("application/json") else payload.decode()


def test_register_login_logout_and_the_cookie(club):
    ann = Browser(club)
    status, answer = ann.ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})
    assert status == 201 and answer["name"] == "ann"
    parts = [p.strip() for p in ann.set_cookie.split(";")]
    assert {"HttpOnly", "SameSite=Lax", "Path=/"} <= set(parts) and "Secure" not in parts
    assert ann.ask("GET", "/api/host/me")[1]["name"] == "ann"
    token = ann.cookie
    assert ann.ask("POST", "/api/host/logout")[0] == 200 and ann.cookie is None
    ann.cookie = token   # the old cookie kept by hand: it is ended, not just forgotten by the browser
    assert ann.ask("GET", "/api/host/me")[1]["name"] is None
    # Behind a named proxy that says the page came over HTTPS, the cookie is Secure.
    secure = Browser(club, scheme="https")
    assert secure.ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})[0] == 200
    assert "Secure" in [p.strip() for p in secure.set_cookie.split(";")]


def test_a_login_never_keeps_the_session_the_browser_came_with(club):
    Browser(club).ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})
    victim = Browser(club)
    victim.cookie = "planted-by-someone-else"   # session fixation: a token the attacker chose
    assert victim.ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})[0] == 200
    assert victim.cookie != "planted-by-someone-else"
    attacker = Browser(club)
    attacker.cookie = "planted-by-someone-else"
    assert attacker.ask("GET", "/api/host/me")[1]["name"] is None
    # A session the attacker had of its own is ended by the victim's login over it.
    mallory = Browser(club, address="192.0.2.9")
    mallory.ask("POST", "/api/host/register", {"name": "mallory", "password": "a long secret"})
    planted = mallory.cookie
    victim.cookie = planted
    victim.ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})
    mallory.cookie = planted
    assert mallory.ask("GET", "/api/host/me")[1]["name"] is None


def test_a_password_change_ends_every_other_session(club):
    home, phone = Browser(club), Browser(club)
    home.ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})
    phone.ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})
    assert home.ask("POST", "/api/host/password", {"old": "not it at all", "new": "another secret"})[0] == 403
    assert home.ask("POST", "/api/host/password", {"old": "a long secret", "new": "another secret"})[0] == 200
    assert home.ask("GET", "/api/host/me")[1]["name"] == "ann"
    assert phone.ask("GET", "/api/host/me")[1]["name"] is None
    assert phone.ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})[0] == 403
    assert phone.ask("POST", "/api/host/login", {"name": "ann", "password": "another secret"})[0] == 200


def test_a_login_says_nothing_of_which_names_exist(club):
    Browser(club).ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})
    known = Browser(club, "198.51.100.1").ask("POST", "/api/host/login", {"name": "ann", "password": "wrong one!"})
    unknown = Browser(club, "198.51.100.2").ask("POST", "/api/host/login", {"name": "zed", "password": "wrong one!"})
    assert known == unknown and known[0] == 403
    # Registering is the one way to learn it.
    taken = Browser(club, "198.51.100.3").ask("POST", "/api/host/register", {"name": "ANN", "password": "x" * 9})
    assert taken[0] == 409 and "taken" in taken[1]["error"]


def test_sessions_expired_are_deleted_from_the_store_at_the_next_login(tmp_path):
    # A session past SESSION_DAYS is no longer believed, and the next
    # session begun deletes it (and every other expired one) in its own
    # transaction: the store does not keep them for ever.
    from brandubh.host.accounts import SESSION_DAYS

    store = Store(str(tmp_path / "sessions.sqlite"))
    accounts = Accounts(store, cost=CHEAP)
    old = accounts.register("ann", "a long secret", address="192.0.2.1").token
    kept = accounts.register("bob", "a long secret", address="192.0.2.2").token
    with store.transaction() as db:   # ann's session begun a day more than SESSION_DAYS ago
        db.execute("UPDATE sessions SET created = created - ? WHERE account = "
                   "(SELECT id FROM accounts WHERE name = 'ann')", ((SESSION_DAYS + 1) * 86400,))
    assert accounts.who(old) is None and accounts.who(kept).name == "bob"
    assert store.query("SELECT COUNT(*) FROM sessions")[0][0] == 2
    fresh = accounts.login("ann", "a long secret", address="192.0.2.1").token
    assert store.query("SELECT COUNT(*) FROM sessions")[0][0] == 2   # ann's old one gone, bob's and the new one
    assert accounts.who(fresh).name == "ann" and accounts.who(kept).name == "bob" and accounts.who(old) is None
    store.close()


def test_logins_are_limited_per_name_and_per_address(club):
    Browser(club).ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})
    # Per name: from many addresses, then the right password is refused too while the limit holds.
    for n in range(NAME_FAILURES):
        assert Browser(club, f"203.0.113.{n}").ask("POST", "/api/host/login",
                                                   {"name": "ann", "password": f"guess {n:04}"})[0] == 403
    late = Browser(club, "203.0.113.200").ask("POST", "/api/host/login", {"name": "ann", "password": "a long secret"})
    assert late[0] == 429 and "try again" in late[1]["error"]
    # Per address: one address trying many names (the same answer for names nobody has).
    guesser = Browser(club, "198.51.100.77")
    answers = [guesser.ask("POST", "/api/host/login", {"name": f"name{n}", "password": "guess 1234"})[0]
               for n in range(ADDRESS_FAILURES + 1)]
    assert answers == [403] * ADDRESS_FAILURES + [429]


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "a\"onmouseover=x", "x", "a" * 25, "ann bob", ""])
def test_names_that_could_carry_markup_or_are_out_of_shape_are_refused(club, name):
    status, answer = Browser(club).ask("POST", "/api/host/register", {"name": name, "password": "a long secret"})
    assert status == 400 and "a name is" in answer["error"]


# -- the lobby and rated games --------------------------------------------------------------


def _two(club) -> tuple[Browser, Browser]:
    ann, bob = Browser(club, "192.0.2.1"), Browser(club, "192.0.2.2")
    assert ann.ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})[0] == 201
    assert bob.ask("POST", "/api/host/register", {"name": "bob", "password": "a long secret"})[0] == 201
    return ann, bob


def test_a_seek_taken_plays_a_rated_game_that_updates_both_ratings_and_pages(club):
    ann, bob = _two(club)
    status, seek = ann.ask("POST", "/api/host/seeks", {"clock": "5+3", "side": "attackers", "rated": True,
                                                      "range": [1000, 2000]})
    assert status == 201 and seek["pool"] == "brandubh blitz"
    lobby = bob.ask("GET", "/api/host/lobby")[1]
    assert [s["name"] for s in lobby["seeks"]] == ["ann"] and lobby["seeks"][0]["rating"] == "1500 ± 350?"
    assert ann.ask("POST", f"/api/host/seeks/{seek['id']}/take")[0] == 409   # one's own
    status, game = bob.ask("POST", f"/api/host/seeks/{seek['id']}/take")
    assert status == 201 and game["rated"] == "brandubh blitz" and game["flag"] is None
    assert game["seats"]["attackers"]["name"] == "ann" and game["seats"]["defenders"]["name"] == "bob"
    # Each seat shows its player's rating as the game began, in the game's pool.
    assert game["seats"]["attackers"]["rating"] == game["seats"]["defenders"]["rating"] == "1500 ± 350?"
    assert bob.ask("POST", f"/api/host/seeks/{seek['id']}/take")[0] == 404   # gone: never taken twice
    lobby = Browser(club, "192.0.2.50").ask("GET", "/api/host/lobby")[1]
    assert lobby["seeks"] == [] and [g["id"] for g in lobby["playing"]] == [game["id"]]
    # A watcher cannot move; each account moves only for its own seat.
    assert Browser(club, "192.0.2.50").ask("POST", f"/api/host/games/{game['id']}/move", {"move": "d2c2"})[0] == 403
    assert bob.ask("POST", f"/api/host/games/{game['id']}/move", {"move": "d2c2"})[0] == 409
    # Ann resigns at her second move: bob wins.
    ann.ask("POST", f"/api/host/games/{game['id']}/move", {"move": "d2c2"})
    assert ann.ask("POST", f"/api/host/games/{game['id']}/resign")[1]["result"] is not None
    page = bob.ask("GET", "/api/host/players/bob")[1]
    assert page["ratings"]["brandubh blitz"]["shown"] == "1662 ± 290?"
    assert page["games"][0]["id"] == game["id"] and page["games"][0]["score"] == 1.0
    assert page["games"][0]["review"] == f"/#watch={game['id']}"
    assert page["record"] == {"ann": {"won": 1, "drawn": 0, "lost": 0}}
    assert ann.ask("GET", "/api/host/players/ann")[1]["ratings"]["brandubh blitz"]["rating"] == 1338
    svg = bob.ask("GET", "/api/host/players/bob/rating.svg?pool=brandubh%20blitz")[1]
    assert svg.startswith("<svg") and "1662 ± 290" in svg
    assert Browser(club, "192.0.2.50").ask("GET", "/api/host/lobby")[1]["playing"] == []


def test_a_rated_game_between_two_accounts_of_one_address_is_flagged_and_not_rated(club):
    ann, bob = Browser(club, "192.0.2.1"), Browser(club, "192.0.2.1")
    ann.ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})
    bob.ask("POST", "/api/host/register", {"name": "annsalt", "password": "a long secret"})
    seek = ann.ask("POST", "/api/host/seeks", {"clock": "3+2", "side": "defenders", "rated": True})[1]
    game = bob.ask("POST", f"/api/host/seeks/{seek['id']}/take")[1]
    assert game["rated"] is None and "one address" in game["flag"]
    bob.ask("POST", f"/api/host/games/{game['id']}/resign")
    assert ann.ask("GET", "/api/host/players/ann")[1]["ratings"] == {}


@pytest.mark.parametrize("fields, words", [
    ({"rated": True}, "needs a clock"),
    ({"clock": "5+3", "range": [1500, 1400], "rated": True}, "range"),
    ({"clock": "5+3", "range": [1400, 1500]}, "range"),
    ({"clock": "99d"}, "1d to"),
    ({"variant": "<b>x</b>"}, "preset"),
    ({"side": "both"}, "side must be"),
    ({"colour": "red"}, "unknown field"),
])
def test_bad_seeks_are_refused_with_a_sentence(club, fields, words):
    ann, _ = _two(club)
    status, answer = ann.ask("POST", "/api/host/seeks", fields)
    assert status == 400 and words in answer["error"], answer
    assert Browser(club).ask("POST", "/api/host/seeks", {})[0] == 403   # not logged in


def test_the_lobby_is_followed_live(club):
    ann, bob = _two(club)
    connection = http.client.HTTPConnection("127.0.0.1", club.server_port, timeout=PATIENCE)
    connection.request("GET", "/api/host/lobby/events")
    stream = connection.getresponse()
    assert stream.getheader("Content-Type").startswith("text/event-stream")

    def next_state() -> dict:
        while True:
            line = stream.fp.readline().decode()
            if line.startswith("data: "):
                return json.loads(line[6:])

    assert next_state()["seeks"] == []
    seek = ann.ask("POST", "/api/host/seeks", {"clock": "2d"})[1]
    assert [s["id"] for s in next_state()["seeks"]] == [seek["id"]]
    game = bob.ask("POST", f"/api/host/seeks/{seek['id']}/take")[1]
    playing = next_state()["playing"]
    assert [g["id"] for g in playing] == [game["id"]] and playing[0]["plies"] == 0
    # Each move is news: the lobby shows every game's move count.
    mover = ann if game["seats"]["attackers"]["name"] == "ann" else bob
    assert mover.ask("POST", f"/api/host/games/{game['id']}/move", {"move": "d2c2"})[0] == 200
    assert next_state()["playing"][0]["plies"] == 1
    connection.close()


def test_the_lobby_last_sent_is_the_newest_when_two_changes_tell_it_at_once(tmp_path):
    # ann's seek reads the lobby (her seek, no game) and is held before sending it; bob takes the seek
    # meanwhile and the lobby with the game is sent; then ann's older lobby goes out. A watcher's last
    # lobby must still show the game (it showed ann's seek, and no game, for good).
    from brandubh.host.club import Club

    hub = Hub(Store(str(tmp_path / "club.sqlite")), seed="tells")
    accounts = Accounts(hub.store, cost=2 ** 4)
    club = Club(hub, accounts)
    ann = accounts.register("ann", "a long secret", address="192.0.2.1").account
    bob = accounts.register("bob", "another secret", address="192.0.2.2").account
    follower, _ = club.follow()
    read, go_on = threading.Event(), threading.Event()
    lobby = club.lobby

    def held_lobby() -> dict:
        now = lobby()
        if threading.current_thread() is not threading.main_thread() and not read.is_set():
            read.set()
            assert go_on.wait(PATIENCE)
        return now

    club.lobby = held_lobby  # type: ignore[method-assign]
    poster = threading.Thread(target=club.seek, args=(ann, {"clock": "5+3", "side": "attackers", "rated": True}),
                              kwargs={"address": "192.0.2.1"})
    poster.start()
    try:
        assert read.wait(PATIENCE)
        game = club.take(bob, club.lobby()["seeks"][0]["id"], address="192.0.2.2")   # the seek is stored
    finally:
        go_on.set()
        poster.join()
    sent = []
    while not follower.queue.empty():
        sent.append(json.loads(follower.queue.get_nowait().data))
    assert [g["id"] for g in sent[-1]["playing"]] == [game["id"]] and sent[-1]["seeks"] == [], sent
    follower.close()
    hub.close()
    hub.store.close()


def test_a_correspondence_game_keeps_its_clock_and_seats_across_a_restart(tmp_path):
    path = str(tmp_path / "post.sqlite")
    hub = Hub(Store(path), seed="tests")
    api = HostApi(hub, Accounts(hub.store, cost=CHEAP))
    ann = api.accounts.register("ann", "a long secret", address="192.0.2.1")
    bob = api.accounts.register("bob", "a long secret", address="192.0.2.2")
    seek = api.club.seek(ann.account, {"clock": "3d", "side": "attackers"}, address="192.0.2.1")
    game = api.club.take(bob.account, seek["id"], address="192.0.2.2")
    hub.act(game["id"], None, "move", {"move": "d2c2"}, account=ann.account.id)
    assert api.club.player("bob", bob.account)["your_move"] == [game["id"]]
    before = hub.state(game["id"])
    hub.close()
    hub.store.close()
    hub = Hub(Store(path), seed="tests")
    try:
        api = HostApi(hub, Accounts(hub.store, cost=CHEAP))
        after = hub.state(game["id"])
        assert after["clock"] == "3d" and after["running"] == "defenders" and after["moves"] == before["moves"]
        assert 0 < after["clocks"]["defenders"] <= before["clocks"]["defenders"]
        bob_again = api.accounts.who(bob.token)
        assert api.club.player("bob", bob_again)["your_move"] == [game["id"]]
        assert hub.act(game["id"], None, "move", {"move": after["legal"][0]["from"] + after["legal"][0]["to"]},
                       account=bob_again.id)["clocks"]["defenders"] == 3 * 86_400_000
    finally:
        hub.close()
        hub.store.close()


def test_the_club_page_is_served_under_a_strict_policy(club):
    status, page = Browser(club).ask("GET", "/club")
    assert status == 200 and "<script" in page and "club.js" in page
    connection = http.client.HTTPConnection("127.0.0.1", club.server_port, timeout=PATIENCE)
    connection.request("GET", "/club")
    policy = connection.getresponse().getheader("Content-Security-Policy")
    connection.close()
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_a_pool_named_with_markup_is_escaped_in_the_graph(club):
    _two(club)
    svg = Browser(club).ask("GET", "/api/host/players/ann/rating.svg?pool=%3Cscript%3Ealert(1)%3C/script%3E")[1]
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_an_outside_program_plays_as_a_bot_account_by_its_token(club):
    from brandubh.host.client import ClubBot, HostError

    account, token = club.api.accounts.make_bot("outsider")
    url = club.url.rstrip("/")
    bot = ClubBot(url, token)
    assert bot.me() == {"name": "outsider", "kind": "bot"}
    with pytest.raises(HostError) as refused:
        ClubBot(url, "forged-" + token).seek(clock="5+3")
    assert refused.value.status == 403
    ann, _ = _two(club)
    seek = ann.ask("POST", "/api/host/seeks", {"clock": "5+3", "side": "defenders"})[1]
    game = bot.take(seek["id"])
    seat = bot.seat(game["id"])
    assert seat.seat()["side"] == "attackers"
    legal = seat.state()["legal"][0]
    assert seat.move(legal["from"] + legal["to"])["ply"] == 1
    ann.ask("POST", f"/api/host/games/{game['id']}/resign")
    assert bot.player("outsider")["record"] == {"ann": {"won": 1, "drawn": 0, "lost": 0}}
    made = ann.ask("POST", "/api/host/tournaments", {"size": 3, "clock": "untimed"})[1]
    assert [t["id"] for t in bot.tournaments()] == [made["id"]]
    assert bot.join(made["id"])["players"] == ["ann", "outsider"]
    assert bot.tournament(made["id"])["state"] == "open"


def test_an_engine_account_keeps_a_rated_seek_open_and_plays_its_games(club):
    engine, token = club.api.accounts.make_bot("engine1", level=1)
    assert token is None
    club.api.club.stand(engine)
    ann, _ = _two(club)
    seeks = ann.ask("GET", "/api/host/lobby")[1]["seeks"]
    assert [(s["name"], s["rated"]) for s in seeks] == [("engine1", True)]
    game = ann.ask("POST", f"/api/host/seeks/{seeks[0]['id']}/take")[1]
    # Its seek is back at once for the next player.
    assert [s["name"] for s in ann.ask("GET", "/api/host/lobby")[1]["seeks"]] == ["engine1"]
    mine = "attackers" if game["seats"]["attackers"]["name"] == "ann" else "defenders"
    if mine == "attackers":
        ann.ask("POST", f"/api/host/games/{game['id']}/move", {"move": "d2c2"})
    assert wait_until(lambda: ann.ask("GET", f"/api/host/games/{game['id']}")[1]["to_move"] == mine)
    ann.ask("POST", f"/api/host/games/{game['id']}/resign")
    page = ann.ask("GET", "/api/host/players/engine1")[1]
    assert page["ratings"]["brandubh blitz"]["rating"] == 1662 and page["kind"] == "bot"


def test_the_command_makes_a_bot_token_and_refuses_a_bad_engine_account(tmp_path):
    import subprocess
    import sys

    from test_host_store import _env

    db = str(tmp_path / "cmd.sqlite")
    done = subprocess.run([sys.executable, "-m", "brandubh", "host", "--db", db, "--new-bot-token", "outsider"],
                          capture_output=True, text=True, timeout=PATIENCE, cwd=str(tmp_path), env=_env())
    assert done.returncode == 0, done.stderr
    token = done.stdout.rsplit(": ", 1)[1].strip()
    store = Store(db)
    try:
        assert Accounts(store).bot(token).name == "outsider"
    finally:
        store.close()
    done = subprocess.run([sys.executable, "-m", "brandubh", "host", "--db", db, "--port", "0", "--bot-account",
                           "bad name=3"], capture_output=True, text=True, timeout=PATIENCE, cwd=str(tmp_path), env=_env())
    assert done.returncode == 2 and "--bot-account" in done.stderr and "Traceback" not in done.stderr
    # A level out of range is refused as the flag is read, before the store is opened.
    from brandubh.cli.host import _engine
    from brandubh.errors import ArgumentError

    with pytest.raises(ArgumentError, match="NAME=LEVEL"):
        _engine("engine=9")


def test_a_four_player_round_robin_with_two_engines_runs_to_its_standings(club):
    from brandubh.host.tournament import standings

    for name in ("engine1", "engine2"):
        club.api.accounts.make_bot(name, level=1)
    ann, bob = _two(club)
    status, made = ann.ask("POST", "/api/host/tournaments", {"name": "<b>Spring</b> cup", "size": 4,
                                                            "clock": "untimed", "engines": ["engine1", "engine2"]})
    assert status == 201 and made["state"] == "open" and made["players"] == ["ann", "engine1", "engine2"]
    assert bob.ask("POST", f"/api/host/tournaments/{made['id']}/join")[0] == 200
    assert bob.ask("POST", f"/api/host/tournaments/{made['id']}/join")[0] == 409
    people = {"ann": ann, "bob": bob}
    rounds_at_once = set()

    def step() -> bool:
        view = ann.ask("GET", f"/api/host/tournaments/{made['id']}")[1]
        active = [g for g in view["games"] if g["score"] is None]
        rounds_at_once.add(len({g["round"] for g in active}))
        for game in active:
            person = people.get(game["attackers"]) or people.get(game["defenders"])
            if person is not None:
                person.ask("POST", f"/api/host/games/{game['id']}/resign")
        return view["state"] == "finished"

    assert wait_until(step)
    view = ann.ask("GET", f"/api/host/tournaments/{made['id']}")[1]
    assert view["name"] == "<b>Spring</b> cup" and view["rounds"] == 6 and len(view["games"]) == 12
    assert rounds_at_once <= {0, 1}   # a round begins only when the one before has ended
    pairings = sorted((g["attackers"], g["defenders"]) for g in view["games"])
    names = ["ann", "bob", "engine1", "engine2"]
    assert pairings == sorted((a, d) for a in names for d in names if a != d)   # each pairing with both sides
    number = {name: i for i, name in enumerate(view["players"])}
    expected = standings(range(4), [(number[g["attackers"]], number[g["defenders"]], g["score"])
                                    for g in view["games"]])
    assert [(row["name"], row["points"], row["sonneborn_berger"]) for row in view["standings"]] == [
        (view["players"][row["account"]], row["points"], row["sonneborn_berger"]) for row in expected]
    assert sum(row["points"] for row in view["standings"]) == 12
    assert view["standings"][-1]["points"] <= view["standings"][0]["points"]


def test_a_rated_tournament_game_between_two_accounts_of_one_address_is_flagged_and_not_rated(club):
    # As with a seek: ann and bob entered from one address, cat from
    # another. Every game with cat is rated; ann's and bob's (both ways
    # round) are played, flagged and rated in no pool.
    from brandubh.host.club import ONE_ADDRESS

    ann, bob, cat = Browser(club, "192.0.2.1"), Browser(club, "192.0.2.1"), Browser(club, "192.0.2.3")
    people = {"ann": ann, "bob": bob, "cat": cat}
    for name, person in people.items():
        assert person.ask("POST", "/api/host/register", {"name": name, "password": "a long secret"})[0] == 201
    status, made = ann.ask("POST", "/api/host/tournaments", {"size": 3, "clock": "5+3", "rated": True})
    assert status == 201
    for person in (bob, cat):
        assert person.ask("POST", f"/api/host/tournaments/{made['id']}/join")[0] == 200

    def step() -> bool:
        view = ann.ask("GET", f"/api/host/tournaments/{made['id']}")[1]
        for game in view["games"]:
            if game["score"] is None:
                people[game["attackers"]].ask("POST", f"/api/host/games/{game['id']}/resign")
        return view["state"] == "finished"

    assert wait_until(step)
    view = ann.ask("GET", f"/api/host/tournaments/{made['id']}")[1]
    assert len(view["games"]) == 6
    for game in view["games"]:
        state = club.api.hub.state(game["id"])
        alike = {game["attackers"], game["defenders"]} == {"ann", "bob"}
        assert (state["rated"], state["flag"]) == ((None, ONE_ADDRESS) if alike else ("brandubh blitz", None)), game
    games = {name: ann.ask("GET", f"/api/host/players/{name}")[1]["ratings"]["brandubh blitz"]["games"]
             for name in people}
    assert games == {"ann": 2, "bob": 2, "cat": 4}


def test_sonneborn_berger_breaks_a_tie_of_points():
    from brandubh.host.tournament import schedule, standings

    # 1 and 2 tie on points; 1 beat the strong 3 and lost to the weak 4, 2 the other way round;
    # 2 entered first, so only the tie break puts 1 above.
    results = [(1, 3, 1.0), (4, 1, 1.0), (2, 4, 1.0), (3, 2, 1.0), (1, 2, 0.5), (3, 4, 1.0)]
    table = standings([2, 1, 3, 4], results)
    assert [(row["account"], row["points"], row["sonneborn_berger"]) for row in table] == [
        (3, 2.0, 2.5), (1, 1.5, 2.75), (2, 1.5, 1.75), (4, 1.0, 1.5)]
    for players in ([1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 8]):
        rounds = schedule(players)
        played = [pair for pairs in rounds for pair in pairs]
        assert sorted(played) == sorted((a, b) for a in players for b in players if a != b)
        assert all(len({p for pair in pairs for p in pair}) == 2 * len(pairs) for pairs in rounds)


def test_bad_tournaments_are_refused_and_an_account_makes_a_few_at_most(club):
    from brandubh.host.tournament import MAX_MADE

    ann, _ = _two(club)
    for fields, words in [({"size": 2}, "size"), ({"size": 9}, "size"), ({"name": ""}, "name"),
                          ({"engines": ["bob"]}, "engine account"), ({"rated": True, "clock": "untimed"}, "clock"),
                          ({"starts": 1.0}, "starts"), ({"colour": "red"}, "unknown field")]:
        status, answer = ann.ask("POST", "/api/host/tournaments", fields)
        assert status == 400 and words in answer["error"], (fields, answer)
    for _ in range(MAX_MADE):
        assert ann.ask("POST", "/api/host/tournaments", {})[0] == 201
    assert ann.ask("POST", "/api/host/tournaments", {})[0] == 429
    assert Browser(club, "192.0.2.99").ask("POST", "/api/host/tournaments", {})[0] == 403


class _Port:
    """What Browser needs of a server: its port (a server in another process)."""

    def __init__(self, url: str) -> None:
        self.server_port = int(url.rsplit(":", 1)[1])


def test_a_club_killed_with_sigkill_loses_nothing_it_answered(tmp_path):
    from test_host_store import kill, start_host

    db = tmp_path / "club.sqlite"
    process, url = start_host(db, "--trust-proxy", "127.0.0.1", "--bot-account", "engine1=1")
    assert url, kill(process)
    try:
        server = _Port(url)
        ann, bob = Browser(server, "192.0.2.1"), Browser(server, "192.0.2.2")
        assert ann.ask("POST", "/api/host/register", {"name": "ann", "password": "a long secret"})[0] == 201
        assert bob.ask("POST", "/api/host/register", {"name": "bob", "password": "a long secret"})[0] == 201
        seek = ann.ask("POST", "/api/host/seeks", {"clock": "5+3", "side": "attackers", "rated": True})[1]
        game = bob.ask("POST", f"/api/host/seeks/{seek['id']}/take")[1]
        assert ann.ask("POST", f"/api/host/games/{game['id']}/resign")[0] == 200
        waiting = bob.ask("POST", "/api/host/seeks", {"clock": "3d"})[1]
        cup = ann.ask("POST", "/api/host/tournaments", {"name": "cup", "size": 3})[1]
        assert bob.ask("POST", "/api/host/password", {"old": "a long secret", "new": "a newer secret"})[0] == 200
        daily = ann.ask("GET", "/api/host/lobby")[1]["daily"]
        attempt = ann.ask("POST", "/api/puzzles", {"puzzle": daily["id"]})[1]
        missed = ann.ask("POST", f"/api/puzzles/{attempt['id']}/solution")[1]["rated"]
    finally:
        kill(process)   # at once after the last answer
    process, again = start_host(db, "--trust-proxy", "127.0.0.1", "--port", url.rsplit(":", 1)[1])
    assert again == url, kill(process)
    try:
        assert ann.ask("GET", "/api/host/me")[1]["name"] == "ann"   # the session, in its cookie, still holds
        assert bob.ask("GET", "/api/host/me")[1]["name"] == "bob"
        page = ann.ask("GET", "/api/host/players/bob")[1]
        assert page["ratings"]["brandubh blitz"]["shown"] == "1662 ± 290?" and page["games"][0]["id"] == game["id"]
        lobby = ann.ask("GET", "/api/host/lobby")[1]
        assert sorted(s["id"] for s in lobby["seeks"] if s["name"] == "bob") == [waiting["id"]]
        assert [s["name"] for s in lobby["seeks"] if s["name"] != "bob"] == ["engine1"]   # kept, not posted twice
        assert ann.ask("GET", f"/api/host/tournaments/{cup['id']}")[1]["players"] == ["ann"]
        assert Browser(server, "192.0.2.7").ask("POST", "/api/host/login",
                                                {"name": "bob", "password": "a newer secret"})[0] == 200
        # The puzzle attempt rated last: ann's puzzle rating and the puzzle's, both as answered.
        puzzles = ann.ask("GET", "/api/host/players/ann")[1]["puzzles"]
        assert (puzzles["attempts"], puzzles["rating"]) == (1, round(missed["player"]["rating"]))
        assert ann.ask("POST", "/api/puzzles", {"puzzle": daily["id"]})[1]["puzzle"]["rating"] == missed["puzzle"]
    finally:
        kill(process)


def test_one_address_registers_a_few_accounts_at_most(club):
    from brandubh.host.accounts import REGISTRATIONS

    answers = [Browser(club, "198.51.100.40").ask("POST", "/api/host/register",
                                                  {"name": f"sock{n}", "password": "a long secret"})[0]
               for n in range(REGISTRATIONS + 1)]
    assert answers == [201] * REGISTRATIONS + [429]
    assert Browser(club, "198.51.100.41").ask("POST", "/api/host/register",
                                              {"name": "someone", "password": "a long secret"})[0] == 201
