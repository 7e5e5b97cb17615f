"""The club of ``brandubh host`` in real headless Chromium (as
test_host_browser.py drives it): two people register, one posts a rated
seek, the other takes it from the lobby with one click, they play to the
end while a third watches from the lobby's list, and both see their new
ratings, the graph and the game on their pages.

Each person is a browser context of its own, coming from an address of its
own through a proxy the server is told to trust (else the two accounts
would share one address, and the rated game be flagged and not rated).
``BRANDUBH_CLUB_SCREENSHOTS=FOLDER`` saves the lobby's and a player page's
pictures there (docs/host.md shows them)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from brandubh import Game
from brandubh.host.accounts import Accounts
from brandubh.host.api import HostApi
from brandubh.host.http import HostServer
from brandubh.host.hub import Hub
from brandubh.host.store import Store
from test_host_browser import at, play_by_clicks
from test_serve_browser import click_square

SHOTS = os.environ.get("BRANDUBH_CLUB_SCREENSHOTS")


@pytest.fixture
def server(tmp_path):
    hub = Hub(Store(str(tmp_path / "club.sqlite")), seed="browser")
    running = HostServer(port=0, api=HostApi(hub, Accounts(hub.store, cost=2 ** 4)), trusted_proxies=["127.0.0.1"])
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    yield running
    running.shutdown()
    running.server_close()
    hub.close()
    hub.store.close()


def person(browser, url: str, address: str, errors: list):
    context = browser.new_context(viewport={"width": 1000, "height": 800},
                                  extra_http_headers={"X-Forwarded-For": address})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 4" not in m.text
            else None)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    return context, page


def register(page, name: str) -> None:
    page.fill("#name", name)
    page.fill("#password", "a long secret")
    page.click("#do-register")
    page.wait_for_function(f"() => document.body.dataset.me === '{name}'")


def test_two_people_meet_in_the_lobby_play_a_rated_game_and_see_it_on_their_pages(browser, server):
    errors: list[str] = []
    contexts = []
    club = server.url + "club"
    try:
        context, ann = person(browser, club, "192.0.2.1", errors)
        contexts.append(context)
        context, bob = person(browser, club, "192.0.2.2", errors)
        contexts.append(context)
        context, watcher = person(browser, club, "192.0.2.3", errors)
        contexts.append(context)
        register(ann, "ann")
        register(bob, "bob")
        assert bob.is_visible("#seek-form") and bob.is_hidden(".log-in-first >> nth=0")
        # An empty lobby says so, with no empty table.
        bob.wait_for_selector("#playing + p.empty")
        assert bob.text_content("#playing + p.empty") == "No game in play." and bob.is_hidden("#playing")
        assert bob.is_visible("#seeks + p.empty") and bob.is_hidden("#seeks")
        ann.select_option("#seek-clock", "5+3")
        ann.select_option("#seek-side", "attackers")
        ann.check("#seek-rated")
        ann.click("#post-seek")
        bob.wait_for_selector("#seeks button.take")   # the seek reaches bob's lobby live
        assert bob.is_visible("#seeks") and bob.is_hidden("#seeks + p.empty")
        if SHOTS:
            bob.screenshot(path=str(Path(SHOTS) / "club-lobby.png"))
        bob.click("#seeks button.take")
        # Both are taken to the game: bob by his click, ann by the lobby's news of it.
        for page, side in ((bob, "defenders"), (ann, "attackers")):
            page.wait_for_function(f"() => document.body.dataset.side === '{side}'")
        watcher.wait_for_selector("#playing li a")
        # A second page of the watcher's stays on the lobby: each move comes to it as news, and the
        # game's row is updated in place, not made again (a row made again under the pointer loses a click).
        lobby = contexts[2].new_page()
        lobby.goto(club)
        lobby.wait_for_selector("#playing li .plies")
        # A visitor is told to log in where an account's forms would be.
        assert lobby.is_hidden("#seek-form") and lobby.is_hidden("#tournament-form")
        assert lobby.locator(".log-in-first").first.text_content().startswith("Log in or register")
        assert lobby.is_visible(".log-in-first >> nth=1")
        lobby.evaluate("() => { document.querySelector('#playing li').dataset.kept = 'yes'; }")
        watcher.click("#playing li a")
        at(watcher, 0)
        # The players' names and ratings as the game began, on every page.
        for page, you in ((ann, "attackers"), (bob, "defenders"), (watcher, None)):
            names = page.evaluate("() => [...document.querySelectorAll('.host-clock .who')].map(e => e.textContent)")
            assert names == [("Attackers (you)" if you == "attackers" else "Attackers") + ": ann, 1500 ± 350?",
                             ("Defenders (you)" if you == "defenders" else "Defenders") + ": bob, 1500 ± 350?"], names
        assert watcher.text_content("#host-title") == "ann v bob (watching)"
        if SHOTS:
            bob.screenshot(path=str(Path(SHOTS) / "club-game.png"))
        own = Game()
        play_by_clicks(own, {"attackers": ann, "defenders": bob}, (ann, bob, watcher), 4)
        lobby.wait_for_function("() => document.querySelector('#playing li .plies').textContent.endsWith(', 4 moves')")
        assert lobby.evaluate("() => document.querySelector('#playing li').dataset.kept") == "yes"
        ann.click("#host-resign")
        own.resign("p1")
        for everyone in (ann, bob, watcher):
            at(everyone, own.ply, "finished")
            assert everyone.locator("#text").input_value() == own.as_text()
        lobby.wait_for_selector("#playing + p.empty")   # the game ended leaves the lobby
        for page, name, rating in ((ann, "ann", "1338 ± 290"), (bob, "bob", "1662 ± 290")):
            page.goto(f"{club}#player={name}")
            page.wait_for_function(f"() => document.body.dataset.shown === '{name}'")
            assert rating in page.locator("#ratings li").first.text_content()
            assert page.locator("#games tr[data-game]").count() == 1
            assert "resigned" in page.locator("#games tr[data-game]").first.text_content()
            page.wait_for_function("() => { const i = document.querySelector('#graphs img');"
                                   " return i && i.complete && i.naturalWidth > 0; }")
        if SHOTS:
            bob.screenshot(path=str(Path(SHOTS) / "club-player.png"))
    finally:
        for context in contexts:
            context.close()
    assert errors == []


# Marks the body once the page has read a held answer and done with it (a task after its promise's
# callbacks, which all run before the next task): the test then knows what the page made of it.
_ANSWER_READ = """
const json = Response.prototype.json;
Response.prototype.json = function () {
  const path = new URL(this.url).pathname;
  return json.call(this).finally(() => setTimeout(() => {
    document.body.dataset.read = (document.body.dataset.read || "") + " " + path;
  }, 0));
};
"""


def test_answers_the_page_asked_for_before_the_lobbys_news_do_not_hide_that_news(browser, server):
    # The page asks for the lobby and the tournaments as it opens, and follows the lobby's stream. On a
    # loaded machine those first answers can come back after the stream's news of a game begun and a
    # tournament made: they are older than that news, and must not be shown over it (the watcher of
    # the lobby saw no game at all, now and then, when they were).
    from urllib.parse import urlsplit

    club = server.api.club
    held: list = []   # (route, the answer fetched at once: the club before the game and the tournament)

    def hold(route) -> None:
        if not any(r.request.url == route.request.url for r, _ in held):   # the first of each only
            held.append((route, route.fetch()))
        else:
            route.continue_()

    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.add_init_script(_ANSWER_READ)
        page.route(lambda url: urlsplit(url).path in ("/api/host/lobby", "/api/host/tournaments"), hold)
        page.goto(server.url + "club")
        page.wait_for_function("() => document.body.dataset.loaded === '1'")   # the stream's first lobby
        while len(held) < 2:
            page.wait_for_timeout(20)   # lets the route's handler run (it runs while Playwright waits)
        ann = server.api.accounts.register("ann", "a long secret", address="192.0.2.1").account
        bob = server.api.accounts.register("bob", "another secret", address="192.0.2.2").account
        seek = club.seek(ann, {"clock": "5+3", "side": "attackers", "rated": True}, address="192.0.2.1")
        club.take(bob, seek["id"], address="192.0.2.2")
        club.tournaments.create(ann, {"name": "Spring cup"}, address="192.0.2.1")
        page.wait_for_selector("#playing li a")                  # the stream's news of the game
        page.wait_for_selector("#tournament-list tr[data-tournament]")   # and the list asked for after it
        for route, answer in held:
            route.fulfill(response=answer)
        page.wait_for_function("() => ['/api/host/lobby', '/api/host/tournaments'].every("
                               "p => (document.body.dataset.read || '').split(' ').includes(p))")
        assert page.locator("#playing li a").count() == 1
        assert page.locator("#tournament-list tr[data-tournament]").count() == 1
    finally:
        context.close()


def test_a_round_robin_of_two_people_and_two_engines_runs_to_its_standings_on_the_page(browser, server):
    import json
    import urllib.request

    from conftest import wait_until

    for name in ("engine1", "engine2"):
        server.api.accounts.make_bot(name, level=1)
    errors: list[str] = []
    contexts = []
    club = server.url + "club"
    try:
        context, ann = person(browser, club, "192.0.2.1", errors)
        contexts.append(context)
        context, bob = person(browser, club, "192.0.2.2", errors)
        contexts.append(context)
        register(ann, "ann")
        register(bob, "bob")
        ann.fill("#t-name", "Spring <b>cup</b>")
        ann.select_option("#t-clock", "untimed")
        ann.fill("#t-engines", "engine1, engine2")
        ann.click("#make-tournament")
        bob.wait_for_selector("#tournament-list button.join")   # the lobby's news reaches bob
        bob.click("#tournament-list button.join")
        listed = json.load(urllib.request.urlopen(server.url + "api/host/tournaments"))["tournaments"]
        tid = listed[0]["id"]
        people = {"ann": ann, "bob": bob}

        def resign_the_peoples_games() -> bool:
            view = json.load(urllib.request.urlopen(f"{server.url}api/host/tournaments/{tid}"))
            for game in view["games"]:
                page = people.get(game["attackers"]) or people.get(game["defenders"])
                if game["score"] is None and page is not None:
                    # With the person's cookie (the page itself may be opening the game meanwhile).
                    page.context.request.post(f"{server.url}api/host/games/{game['id']}/resign", data="{}",
                                              headers={"Content-Type": "application/json"})
            return view["state"] == "finished"

        assert wait_until(resign_the_peoples_games)
        ann.goto(f"{club}#tournament={tid}")
        ann.wait_for_function("() => document.body.dataset.tournament === 'finished'")
        assert ann.locator("#t-title").text_content() == "Spring <b>cup</b>"   # as text, not markup
        assert ann.locator("#standings tbody tr").count() == 4
        assert ann.locator("#t-games tbody tr").count() == 12
        if SHOTS:
            ann.screenshot(path=str(Path(SHOTS) / "club-tournament.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
    assert errors == []


def test_a_correspondence_game_survives_a_restart_of_the_server(browser, tmp_path):
    # A real brandubh host, killed with SIGKILL mid-game and started again on its store at the same port.
    from test_host_store import kill, start_host

    db = tmp_path / "post.sqlite"
    process, url = start_host(db, "--trust-proxy", "127.0.0.1")
    assert url, kill(process)
    errors: list[str] = []
    contexts = []
    club = url + "/club"
    try:
        context, ann = person(browser, club, "192.0.2.1", errors)
        contexts.append(context)
        context, bob = person(browser, club, "192.0.2.2", errors)
        contexts.append(context)
        register(ann, "ann")
        register(bob, "bob")
        ann.select_option("#seek-clock", "1d")
        ann.select_option("#seek-side", "attackers")
        ann.check("#seek-rated")
        ann.click("#post-seek")
        bob.wait_for_selector("#seeks button.take")
        bob.click("#seeks button.take")
        for page, side in ((bob, "defenders"), (ann, "attackers")):
            page.wait_for_function(f"() => document.body.dataset.side === '{side}'")
        own = Game()
        move = sorted(str(m) for m in own.legal())[0]
        at(ann, 0)
        click_square(ann, move[:2])
        click_square(ann, move[2:])
        own.play_or_raise(move)
        at(bob, 1)
        assert errors == []   # before the kill, the pages saw nothing wrong
        kill(process)
        port = url.rsplit(":", 1)[1]
        process, again = start_host(db, "--trust-proxy", "127.0.0.1", "--port", port)
        assert again == url, kill(process)
        bob.goto(f"{club}#player=bob")
        bob.wait_for_selector("#your-move a")
        bob.click("#your-move a")
        bob.wait_for_function("() => document.body.dataset.side === 'defenders'")
        at(bob, 1)
        reply = sorted(str(m) for m in own.legal())[0]
        click_square(bob, reply[:2])
        click_square(bob, reply[2:])
        own.play_or_raise(reply)
        at(ann, 2)   # ann's page, open all along, follows the game again once the server is back
        assert ann.locator("#text").input_value() == own.as_text()
    finally:
        for context in contexts:
            context.close()
        kill(process)
    # While the server was down, the pages' streams could not reconnect: the browser says so, and tries again.
    # A connection the killed server held, or one made to it as it died (a stream's retry), is reset, or
    # closed with no answer at all: the same kill, said otherwise (each seen now and then under load).
    said_of_the_kill = ("ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE", "EventSource")
    assert [e for e in errors if not any(words in e for words in said_of_the_kill)] == []
