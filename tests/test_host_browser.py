"""``brandubh host``'s page in real headless browsers (Debian's chromium
driven by Playwright, as in test_serve_browser.py): two players, each in a
browser context of their own, play a timed game to its end by clicks while
a third context watches; the test's own :class:`~brandubh.Game` follows
the moves it chose and checks the record every page shows.

Without a browser (or Playwright) these tests are skipped, saying so; with
``BRANDUBH_REQUIRE_BROWSER=1`` they fail instead."""

from __future__ import annotations

import os
import threading

import pytest

from brandubh import Game
from brandubh.host.api import HostApi
from brandubh.host.http import HostServer
from brandubh.host.hub import Hub
from brandubh.host.store import Store
from conftest import wait_until
from test_serve_browser import click_square, loaded_cleanly, pieces_shown

SHOT = os.environ.get("BRANDUBH_HOST_SCREENSHOT")   # a path: the players' page is saved there as a PNG


@pytest.fixture
def server(tmp_path):
    running = HostServer(port=0, api=HostApi(Hub(Store(str(tmp_path / "b.sqlite")), seed="browser")))
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    yield running
    running.shutdown()
    running.server_close()
    running.api.hub.close()


def open_page(browser, url: str, errors: list, width: int = 1100, height: int = 860):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 409" not in m.text
            else None)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(url)
    return context, page


def at(page, ply: int, status: str = "active") -> None:
    """Wait until the page shows the game at ``ply``, no request on its way."""
    page.wait_for_function("""([ply, status]) => document.body.dataset.busy === '0'
        && document.body.dataset.ply === String(ply) && document.body.dataset.status === status""",
                           arg=[ply, status])


def page_facts(page) -> dict:
    """What a failed wait on the page should say: the focused element, the
    shown ply and status, whether a request is on its way."""
    return page.evaluate("""() => ({focused: document.activeElement && document.activeElement.outerHTML.slice(0, 80),
        ply: document.body.dataset.ply, status: document.body.dataset.status, busy: document.body.dataset.busy,
        state: state && {ply: state.ply, plies: state.plies}})""")


def play_by_clicks(own: Game, players: dict, everyone: tuple, plies: int) -> None:
    """Play ``plies`` moves by clicks on the page of the side to move (the
    first, second or third legal move in turn), kept in ``own`` too, and
    wait until every page shows each."""
    for _ in range(plies):
        ply = own.ply
        move = sorted(str(m) for m in own.legal())[ply % 3]
        page = players[own.side_to_move]
        at(page, ply)
        click_square(page, move[:2])
        click_square(page, move[2:])
        own.play_or_raise(move)
        for one in everyone:
            at(one, ply + 1)


def test_two_browsers_play_a_timed_game_to_its_end_while_a_third_watches(browser, server):
    errors: list[str] = []
    contexts = []
    try:
        context, maker = open_page(browser, server.url, errors)
        contexts.append(context)
        maker.select_option("#host-side", "attackers")
        maker.select_option("#host-clock", "5+3")
        maker.click("#host-create")
        maker.wait_for_function("() => document.body.dataset.side === 'attackers'")
        invite = maker.locator(".host-link input").first.input_value()
        watch = maker.locator(".host-link input").nth(1).input_value()
        assert "#play=" in invite and "token=" in invite and "#watch=" in watch and "token" not in watch
        context, guest = open_page(browser, invite, errors, width=390, height=844)   # a phone's width
        contexts.append(context)
        context, watcher = open_page(browser, watch, errors)
        contexts.append(context)
        guest.wait_for_function("() => document.body.dataset.side === 'defenders'")
        assert "token" not in guest.url   # taken out of the address once kept
        # The guest's page fits a phone's width: nothing wider than the screen.
        assert guest.evaluate("() => document.documentElement.scrollWidth") <= 390
        at(watcher, 0)
        assert watcher.locator("#host-actions").is_hidden()

        own = Game()
        play_by_clicks(own, {"attackers": maker, "defenders": guest}, (maker, guest, watcher), 6)
        # Each player's page sounded every move after its first click (the
        # maker's made the game, so heard all six); the watcher, who pressed
        # nothing, heard none.
        assert maker.evaluate("() => sound.played") == ["move"] * 6
        assert watcher.evaluate("() => sound.played") == []
        # The guest, on a phone, sees the board from the defenders' side.
        assert guest.get_attribute("#flip", "aria-pressed") == "true"
        # Clocks on every page, the one running marked.
        assert watcher.locator(".host-clock.running").count() == 1
        assert ":" in watcher.locator(".host-clock .time").first.text_content()
        # The defenders offer a draw; the attackers decline it.
        guest.click("#host-draw")
        maker.wait_for_selector("#host-answer:not([hidden])")
        maker.click("#host-no")
        guest.wait_for_function("() => document.querySelector('#message').textContent.includes('decline')")
        # The attackers, to move, ask to take back their last move; the defenders allow it.
        maker.click("#host-takeback")
        guest.wait_for_selector("#host-answer:not([hidden])")
        guest.click("#host-yes")
        own.undo()
        own.undo()
        for everyone in (maker, guest, watcher):
            at(everyone, own.ply)
        if SHOT:
            maker.screenshot(path=SHOT)
        # The defenders resign: the game ends on every page with the same record, the test's own.
        guest.click("#host-resign")
        own.resign("p2")
        for everyone in (maker, guest, watcher):
            at(everyone, own.ply, "finished")
            assert everyone.locator("#text").input_value() == own.as_text()
            assert "resigned" in everyone.locator("#status").text_content()
        # The finished game is listed to download.
        watcher.wait_for_selector("#host-list a")
    finally:
        for context in contexts:
            context.close()
    assert errors == []


def test_the_game_page_and_the_club_have_the_icon_and_log_no_error_on_load(browser, server):
    """The host's pages take serve's inline icon (with none, Chromium asked
    for /favicon.ico: a 404, logged as an error)."""
    game = loaded_cleanly(browser, server.url, "() => document.body.dataset.status === 'none'")
    assert loaded_cleanly(browser, server.url + "club", "() => document.body.dataset.ready === '1'") == game


def test_the_first_page_has_no_empty_game_boxes(browser, server):
    """Before there is a game, no empty box of its moves, nor of its text
    with Copy and Download; both come with the game."""
    errors: list[str] = []
    context, page = open_page(browser, server.url, errors)
    page.wait_for_selector("#host-create")
    page.wait_for_function("() => document.body.dataset.status === 'none'")
    assert page.is_visible("#host-new")
    assert not page.is_visible("#moves") and not page.is_visible("#text") and not page.is_visible("#copy")
    # The club's puzzles are offered above New game (test_host_puzzles.py solves one), not during a game.
    assert page.is_visible("#puzzles") and not page.is_visible("#puzzlebar")
    page.click("#host-create")
    at(page, 0)
    assert page.is_visible("#text") and page.is_visible("#copy") and not page.is_visible("#puzzles")
    context.close()
    assert errors == []


def test_a_player_steps_back_during_a_game_and_returns_and_cannot_move_in_the_past(browser, server):
    """The list, the arrow keys, Home and End and Back to the game, as
    brandubh serve's page has them, during a game in play: the board as it
    stood (the server's ?ply=N), no move made from there, the other
    side's move arriving meanwhile, and back to the game to play on."""
    errors: list[str] = []
    context, page = open_page(browser, server.url, errors)
    try:
        game_id, other = untimed_game_as_the_attackers(page)
        hub, own = server.api.hub, Game()

        def play(move: str) -> None:
            if own.side_to_move == "attackers":
                at(page, own.ply)
                click_square(page, move[:2])
                click_square(page, move[2:])
            else:
                hub.act(game_id, other, "move", {"move": move})
            own.play_or_raise(move)
            at(page, own.ply)

        for move in ("d2c2", "d3c3", "c2b2", "c3c2"):
            play(move)
        assert page.is_hidden("#live")
        page.keyboard.press("Home")
        at(page, 0)
        page.keyboard.press("ArrowRight")
        at(page, 1)
        page.click('#moves button[data-ply="2"]')
        at(page, 2)
        assert pieces_shown(page) == own.after(2).pieces and page.is_visible("#live")
        assert "Looking back at move 2 of 4" in page.text_content("#status")
        # A move of the game's end tried from the past: refused on the page, nothing sent.
        click_square(page, "b2")
        click_square(page, "b1")
        page.wait_for_function("() => document.querySelector('#message').textContent.includes('looking back')")
        assert hub.state(game_id)["ply"] == 4 and page.evaluate("() => state.legal.length") == 0
        page.keyboard.press("End")
        at(page, 4)
        assert page.is_hidden("#live") and pieces_shown(page) == own.pieces
        play("b2b1")
        # Looking back while the other side moves: the board stays where it was, the game grows.
        page.keyboard.press("ArrowLeft")
        at(page, 4)
        play_back = "d5e5"
        hub.act(game_id, other, "move", {"move": play_back})
        own.play_or_raise(play_back)
        page.wait_for_function("() => document.querySelector('#ply').textContent === 'move 4 of 6'")
        assert document_ply(page) == "4"
        page.click("#live")
        at(page, 6)
        assert pieces_shown(page) == own.pieces and page.evaluate("() => state.legal.length") > 0
        play(sorted(str(m) for m in own.legal())[0])
    finally:
        context.close()
    assert errors == []


def untimed_game_as_the_attackers(page) -> tuple[str, str]:
    """Make an untimed game from the page, the attackers its seat; the
    game's id and the token of the other seat (from the invitation)."""
    page.select_option("#host-side", "attackers")
    page.select_option("#host-clock", "untimed")
    page.click("#host-create")
    page.wait_for_function("() => document.body.dataset.side === 'attackers'")
    invite = page.locator(".host-link input").first.input_value()
    game_id, other = invite.split("#play=")[1].split("&token=")
    return game_id, other


def test_make_the_game_works_while_the_finished_games_are_still_loading(browser, server):
    """The first page loads the list of finished games in the background; a
    click on Make the game meanwhile makes the game (it was once dropped
    without a word while any request was on its way, which under load made
    a test wait a minute for a game never asked for); and a move clicked on
    its board meanwhile is made (it too was dropped while any request was
    on its way)."""
    errors: list[str] = []
    held: list = []

    def hold_the_list(route) -> None:
        if route.request.url.endswith("/api/host/games") and route.request.method == "GET" and not held:
            held.append(route)
        else:
            route.continue_()

    context = browser.new_context(viewport={"width": 1100, "height": 860})
    try:
        context.route("**/api/host/**", hold_the_list)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.url)
        assert wait_until(lambda: bool(held) or page.evaluate("() => false")), "the list was never asked for"
        assert page.evaluate("() => document.body.dataset.busy") != "0"
        page.select_option("#host-side", "attackers")
        page.click("#host-create")
        page.wait_for_function("() => document.body.dataset.side === 'attackers'", timeout=20_000)
        page.wait_for_function("() => document.body.dataset.ply === '0' && document.body.dataset.status === 'active'")
        assert page.evaluate("() => document.body.dataset.busy") != "0"   # the list is on its way still
        move = sorted(str(m) for m in Game().legal())[0]
        click_square(page, move[:2])
        click_square(page, move[2:])
        page.wait_for_function("() => document.body.dataset.ply === '1'", timeout=20_000)
        held[0].continue_()
    finally:
        context.close()
    assert errors == []


def test_the_clocks_are_written_only_when_their_text_changes(browser, server):
    """The page's clock tick runs ten times a second; an untimed game's
    clocks show a dash that never changes, so no tick may touch them (a
    text written again, the same, costs a layout and a screen reader's
    announcement each time)."""
    errors: list[str] = []
    context, page = open_page(browser, server.url, errors)
    try:
        game_id, other = untimed_game_as_the_attackers(page)
        page.evaluate("""() => {
            window.clockWrites = 0;
            new MutationObserver(list => { window.clockWrites += list.length; })
                .observe(document.getElementById("host-clocks"), {subtree: true, childList: true, characterData: true});
        }""")
        # A new state with the same seats (the other seat offers a draw) writes no clock either: the
        # seats' names were written again with each state, and the stream's first state, come after the
        # game's answer on a loaded machine, made this test fail now and then.
        version = int(page.evaluate("() => document.body.dataset.version"))
        server.api.hub.act(game_id, other, "draw-offer", {})
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}")
        page.wait_for_timeout(600)   # six ticks, on any machine at least a few
        assert page.evaluate("() => document.querySelector('.host-clock .time').textContent") == "\u2014"
        assert page.evaluate("() => window.clockWrites") == 0
    finally:
        context.close()
    assert errors == []


def document_ply(page) -> str:
    return page.evaluate("() => document.body.dataset.ply")


def test_names_and_ratings_on_the_game_page_are_text_never_markup(browser, server):
    """A seat's name and rating (a club account's) are put in the page as
    text: a record whose name carries markup shows the markup as letters,
    and makes no element (the club refuses such names; the page does not
    count on it)."""
    from brandubh.host.hub import _hash

    hostile = '<img src=x onerror="window.owned=1">'
    seats = {"p1": {"kind": "player", "token": _hash("a" * 32), "account": 1, "name": hostile, "rating": "<b>9</b>"},
             "p2": {"kind": "bot", "level": 1, "account": 2, "name": "engine-1", "rating": "1500 ± 350?"}}
    game_id = server.api.hub.make(Game("p1"), seats, None, client="test", said="").id
    errors: list[str] = []
    context, page = open_page(browser, server.url + "#watch=" + game_id, errors)
    try:
        at(page, 0)
        # No move yet: the list says so (not an empty box).
        assert page.evaluate("() => getComputedStyle(document.querySelector('#moves'), '::before').content") \
            == '"No move yet."'
        who = page.locator(".host-clock .who")
        assert who.first.text_content() == "Attackers: " + hostile + ", <b>9</b>"
        assert who.nth(1).text_content() == "Defenders: engine-1, 1500 ± 350?"
        assert page.evaluate("() => document.querySelectorAll('.host-clock .who *').length") == 0
        assert page.text_content("#host-title") == hostile + " v engine-1 (watching)"
        assert page.evaluate("() => window.owned") is None
    finally:
        context.close()
    assert errors == []


def test_a_state_that_arrives_while_a_look_back_is_asked_keeps_the_look_back(browser, server):
    """A step back asks the server for the board as it stood; a state of
    the game that arrives before the answer (here the other side's draw
    offer, held until it has) must not put the page back at the game's end
    and drop the answer: the page still shows the move looked back at."""
    errors: list[str] = []
    context, page = open_page(browser, server.url, errors)
    held: list = []

    def hold_the_first_look_back(route) -> None:
        if "ply=" in route.request.url and not held:
            held.append(route)
        else:
            route.continue_()

    try:
        game_id, other = untimed_game_as_the_attackers(page)
        own = Game()
        play_by_clicks(own, {"attackers": page}, (page,), 1)
        server.api.hub.act(game_id, other, "move", {"move": "d3e3"})
        at(page, 2)
        page.route("**/api/host/games/**", hold_the_first_look_back)
        # The key goes to the page itself: a control left focused by the clicks that made the
        # game keeps the arrows to itself (a list box, say).
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("ArrowLeft")
        # Playwright hands the request to the route while the test talks to the page.
        assert wait_until(lambda: bool(held) or page.evaluate("() => false")), \
            f"the look back asked nothing; the page: {page_facts(page)}"
        server.api.hub.act(game_id, other, "draw-offer", {})
        page.wait_for_function("() => document.querySelector('#host-answer').hidden === false")
        held[0].continue_()
        at(page, 1)
        assert "Looking back at move 1 of 2" in page.text_content("#status")
    finally:
        context.close()
    assert errors == []
