"""The static page (tools/build-web) in a real headless Chromium, opened
from the disk (file://): no server at all. The page is brandubh serve's
own, its requests answered by the WebAssembly engine (web/backend.js) with
the searches in a Worker started from a Blob.

A whole game is played by clicks against level 1, the test's own
:class:`~brandubh.Game` following along and choosing the test's moves with
its own search, as tests/test_serve_browser.py does against the server.

Skipped where Node's partner here, zig (the ziglang package), is missing,
or where Chromium or Playwright is (with BRANDUBH_REQUIRE_BROWSER=1 the
browser's absence fails instead)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from brandubh import Game
from brandubh.session import result_sentence
from test_serve_browser import loaded_cleanly

ROOT = Path(__file__).resolve().parent.parent


def _have_zig() -> bool:
    try:
        import ziglang  # noqa: F401
        return True
    except ImportError:
        return shutil.which("zig") is not None


pytestmark = pytest.mark.skipif(not _have_zig(), reason="no zig (pip install ziglang): it builds the page's engine")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("web") / "site"
    subprocess.run([sys.executable, str(ROOT / "tools" / "build-web"), str(out)], check=True, cwd=ROOT,
                   timeout=300)
    return out


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    opened = context.new_page()
    opened.set_default_timeout(60_000)
    errors: list[str] = []
    requests: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    # Nothing but the page's own files: no server is asked anything.
    opened.on("request", lambda request: requests.append(request.url))
    opened.goto((site / "index.html").as_uri())
    settle(opened)
    yield opened
    context.close()
    assert errors == []
    assert all(url.startswith(("file://", "blob:", "data:")) for url in requests), requests


def settle(page, ply: int | None = None) -> None:
    """Wait until no request is on its way (and the board is at ``ply``)."""
    page.wait_for_function("""(ply) => document.body.dataset.busy === '0'
        && document.querySelector('#board svg') !== null
        && (ply === null || document.body.dataset.ply === String(ply))""", arg=ply)


def click_square(page, name: str) -> None:
    box = page.locator(f"#board rect.square.{name}").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def pieces_shown(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#board g.piece')].map(g => [g.classList[2], g.classList[1]]))""")


def start_game(page, side: str, level: int, rules: str = "brandubh") -> None:
    page.select_option("#side", side)
    page.select_option("#level", str(level))
    page.fill("#rules-input", rules)
    page.click("#new")
    settle(page)


@pytest.fixture(scope="module")
def isolated(site):
    """The built folder served as a static host may serve it, with the two
    headers that make a page cross-origin isolated (so it may share memory
    with its Worker)."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            super().end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


def test_the_page_is_brandubh_serves(site):
    """One page, two back ends: the built page is the package's page with
    the back end's script tags before its own script, nothing else."""
    page = (ROOT / "brandubh" / "serve" / "page.html").read_text(encoding="utf-8")
    built = (site / "index.html").read_text(encoding="utf-8")
    tags = "".join(line + "\n" for line in built.splitlines() if line.startswith('<script src="'))
    assert built == page.replace("<script>\n", tags + "<script>\n", 1)
    assert 'src="backend.js"' in tags and 'src="brandubh-wasm.js"' in tags


def test_the_page_from_the_disk_has_an_icon_and_logs_no_error_on_load(browser, site):
    loaded_cleanly(browser, (site / "index.html").as_uri(),
                   "() => document.body.dataset.busy === '0' && document.querySelector('#board svg')")


def test_a_whole_game_from_the_disk(page):
    # The test has the defenders against level 1 (the engine moves first);
    # its own game follows the page's, and its own search picks its moves.
    start_game(page, "defenders", 1)
    assert page.inner_text("#rules").startswith("rules: brandubh, level 1")
    # What needs brandubh serve (opening saved games, the review) is not offered.
    assert not page.is_visible("#review") and not page.is_visible("#paste") and page.is_visible("#analyse")
    mine = Game("p2")
    while True:
        settle(page, mine.ply + 1 if mine.status == "active" else mine.ply)
        if mine.status == "active" and mine.side_to_move == "attackers":
            engine_move = page.locator("#moves .move").last.inner_text()
            assert mine.play(engine_move) is None, engine_move
        assert pieces_shown(page) == mine.pieces
        if mine.status != "active":
            break
        assert page.inner_text("#status") == "Your move (you have the defenders)."
        move = mine.search(budget=3_000, salt="browser").move
        click_square(page, move.from_square)
        targets = page.eval_on_selector_all("#board rect.square.target", "rs => rs.map(r => r.classList[1])")
        assert sorted(targets) == sorted(m.to_square for m in mine.legal() if m.from_square == move.from_square)
        click_square(page, move.to_square)
        assert mine.play(move) is None
        assert mine.ply < 200, "the game goes on too long"
    assert page.inner_text("#status") == f"Game over: {result_sentence(mine)}."
    assert mine.result.side == "defenders" and "You win." in page.inner_text("#message")
    assert Game.from_text(page.input_value("#text")).game.log == mine.log
    # The engine's moves were searched in the Worker, not on the page's thread.
    counts = page.evaluate("() => window.brandubhBackend.counts")
    assert counts["searches"] >= 1 and counts["inWorker"] == counts["searches"]


def test_a_long_search_leaves_the_page_free_and_stops(page):
    """A search far longer than any level's (level 6's budget raised to five
    hundred million positions, so that no machine finishes it first): the
    page still answers meanwhile, and stop() ends the search at once."""
    page.evaluate("() => { window.BRANDUBH_DATA.levels['6'].budget = 500000000; }")
    page.select_option("#side", "defenders")
    page.select_option("#level", "6")
    page.click("#new")
    page.wait_for_function("""() => document.body.dataset.busy === '1'
        && document.getElementById('status').textContent.includes('is thinking')""")
    # The page's own thread is free: a timer still runs while it searches.
    assert page.evaluate("() => new Promise((done) => setTimeout(() => done(document.body.dataset.busy), 50))") == "1"
    page.evaluate("() => window.brandubhBackend.stop()")
    settle(page, 0)
    assert page.inner_text("#message") == "the engine was stopped"
    assert page.locator("#moves .move").count() == 0


def test_a_refusal_undo_and_the_analysis(page):
    from playwright.sync_api import expect

    start_game(page, "attackers", 1)
    click_square(page, "d1")
    click_square(page, "d4")
    expect(page.locator("#message.refused")).to_have_text(
        "Refused: d1 to d4: the attacker on d1 is blocked by the piece on d2", timeout=60_000)
    click_square(page, "d2")
    click_square(page, "c2")
    settle(page, 2)   # the move, then the engine's reply from its Worker
    assert page.locator("#moves .move").count() == 2
    page.click("#undo")
    settle(page, 0)
    assert page.inner_text("#message") == "Took back 2 moves." and pieces_shown(page) == Game().pieces
    page.click("#analyse")
    expect(page.locator("#analysis")).to_contain_text("Best for the attackers: ", timeout=60_000)
    assert page.locator("#board g.arrow").count() == 1


def test_stopped_on_a_static_host_the_engine_plays_what_it_found(browser, isolated):
    """Served with cross-origin isolation, the page shares a stop flag with
    its Worker: stop() ends a long search (level 6's budget raised to five
    hundred million positions) where it is, and the engine plays the best
    move it had found."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(isolated)
    settle(page)
    assert page.evaluate("() => window.crossOriginIsolated") is True
    page.evaluate("() => { window.BRANDUBH_DATA.levels['6'].budget = 500000000; }")
    page.select_option("#side", "defenders")
    page.select_option("#level", "6")
    page.click("#new")
    page.wait_for_function("""() => document.body.dataset.busy === '1'
        && document.getElementById('status').textContent.includes('is thinking')""")
    page.evaluate("() => window.brandubhBackend.stop()")
    settle(page, 1)
    assert page.inner_text("#message").startswith("The engine (attackers) plays ")
    assert page.inner_text("#status") == "Your move (you have the defenders)."
    assert page.evaluate("() => window.brandubhBackend.counts.stopped") == 1
    context.close()
    assert errors == []


def _puzzle_shown(page) -> list:
    """The bundled puzzle on the board: [id, position, solution, ...]."""
    page.wait_for_function("() => document.body.classList.contains('puzzle') && document.body.dataset.busy === '0'")
    settle(page, 0)
    shown = page.inner_text("#rules").rsplit(" ", 1)[1]
    return page.evaluate("(id) => Object.values(BRANDUBH_DATA.puzzles).flat().find((row) => row[0] === id)", shown)


def test_a_puzzle_solved_and_missed_with_no_server(page):
    from brandubh import Game

    page.click("#puzzles")
    row = _puzzle_shown(page)
    print(f"a puzzle opened in {float(page.evaluate('() => document.body.dataset.puzzleOpenMs')):.1f} ms")
    solution = row[2].split()
    assert page.inner_text("#status").startswith(f"The {'attackers' if row[1].endswith('a') else 'defenders'} to move")
    for ply in range(0, len(solution), 2):
        # No winning move of the solver's is named under the board or marked on it.
        move = solution[ply]
        assert f"{move[:2]}-{move[2:]}" not in page.inner_text("#checks")
        click_square(page, move[:2])
        assert page.locator(f"#board rect.target.{move[2:]}").count() == 1
        assert page.locator("#board rect.win").count() == 0
        click_square(page, move[2:])
        settle(page, min(ply + 2, len(solution)))
    assert page.inner_text("#message") == "Solved!"
    assert page.inner_text("#status").startswith("Solved: ")
    assert page.inner_text("#status").endswith(f". The {'attackers' if row[1].endswith('a') else 'defenders'} win.")
    assert "\u2192" in page.inner_text("#puzzlerating")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('brandubh-puzzles'))")
    assert kept["seen"] == [row[0]] and kept["player"]["rating"] > 1500
    # The next: a hint, then a wrong move, and the solution shown.
    page.click("#puzzlenext")
    row = _puzzle_shown(page)
    assert row[0] != kept["seen"][0]
    solution = row[2].split()
    page.click("#puzzlehint")
    page.wait_for_function("() => document.querySelector('#message').textContent.startsWith('A hint')")
    assert page.inner_text("#message").endswith(f" on {solution[0][:2]}.")
    game = Game(variant="codingame" if row[0] in [r[0] for r in page.evaluate("() => BRANDUBH_DATA.puzzles.codingame")]
                else "brandubh", position=row[1])
    wrong = next(str(m) for m in game.legal() if str(m) != solution[0])
    click_square(page, wrong[:2])
    click_square(page, wrong[2:])
    settle(page, 1)
    assert page.evaluate("() => document.body.dataset.verdict") == "wrong"
    assert f"The solution: {row[2]}." in page.inner_text("#puzzleinfo")
