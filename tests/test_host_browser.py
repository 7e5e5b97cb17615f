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
from test_serve_browser import browser, click_square  # noqa: F401 - the one Chromium fixture

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
        players = {"attackers": maker, "defenders": guest}
        for ply in range(6):
            move = sorted(str(m) for m in own.legal())[ply % 3]
            page = players[own.side_to_move]
            at(page, ply)
            click_square(page, move[:2])
            click_square(page, move[2:])
            own.play_or_raise(move)
            for everyone in (maker, guest, watcher):
                at(everyone, ply + 1)
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


def test_the_first_page_has_no_empty_game_boxes(browser, server):
    """Before there is a game, no empty box of its moves, nor of its text
    with Copy and Download; both come with the game."""
    errors: list[str] = []
    context, page = open_page(browser, server.url, errors)
    page.wait_for_selector("#host-create")
    page.wait_for_function("() => document.body.dataset.status === 'none'")
    assert page.is_visible("#host-new")
    assert not page.is_visible("#moves") and not page.is_visible("#text") and not page.is_visible("#copy")
    page.click("#host-create")
    at(page, 0)
    assert page.is_visible("#text") and page.is_visible("#copy")
    context.close()
    assert errors == []
