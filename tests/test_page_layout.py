"""The page's layout in a real headless Chromium (the fixtures of
tests/test_serve_browser.py): at a phone's width (360 px), a tablet's (768),
a laptop's (1,280) and a wide screen's (1,920), in the light theme and the
dark, with a game of 40 moves in the list, a finished game's sentence and
the selector of a file of several games with long names, no element is
wider than the panel it is in, nothing scrolls sideways, and the move list
scrolls itself to the move shown (each width is the same page, its window
resized); and axe-core, the accessibility engine
(shipped by the axe-playwright-python package of the test extra), finds
no serious or critical violation of WCAG 2's A and AA rules there (every
control named, contrast, focus order), in a game in play and a saved game.

Skipped, as the other browser tests are, where Chromium or Playwright is
missing (failed with ``BRANDUBH_REQUIRE_BROWSER=1``); the accessibility
check alone is skipped, saying so, where axe-core is missing."""

from __future__ import annotations

import pytest

from brandubh import Game
from conftest import BROWSER_REQUIRED, load_tool
from test_serve_browser import server, settle  # noqa: F401 - the one server fixture

WIDTHS = (360, 768, 1280, 1920)
THEMES = ("light", "dark")
PLIES = 40


def long_game() -> Game:
    """A game of PLIES moves still in play, the same every time: the one of
    the docs' pictures (tools/page-shots)."""
    game = load_tool("page-shots").long_game(PLIES)
    assert game.ply == PLIES and game.status == "active"
    return game


def saved_games(tmp_path) -> str:
    """A file of three games whose names (the ``#`` lines) are long: the
    selector that lists them must wrap, not widen the page."""
    path = tmp_path / "three.txt"
    name = "a game between two programs of a long tournament, saved with every setting of both of them, "
    path.write_text(f"# {name}the first\n{long_game().as_text()}\n"
                    f"# {name}the second\nvariant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1 a1a2 d1g1\n\n"
                    f"# {name}the third\nvariant brandubh\nmoves d2c2\n")
    return str(path)


# Every element of the page inside the panel that holds it (a section, the
# board's column, the header), and no element that scrolls sideways: a
# list of what is not, in words. The inside of the board's picture is the
# picture's own.
OVERFLOWING = """() => {
  const bad = [], width = document.documentElement.clientWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined
    ? "." + String(e.className).trim().split(/\\s+/).join(".") : "");
  if (document.documentElement.scrollWidth > width) {
    bad.push("the page is " + document.documentElement.scrollWidth + " px wide in a window of " + width);
  }
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest("svg") && e.tagName.toLowerCase() !== "svg") continue;
    const box = e.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const panel = e.parentElement.closest("section, #left, header, main");
    if (panel) {
      const p = panel.getBoundingClientRect();
      if (box.left < p.left - 1 || box.right > p.right + 1) {
        bad.push(name(e) + " is " + Math.round(box.width) + " px wide, out of " + name(panel) + " ("
                 + Math.round(p.width) + " px)");
      }
    }
    const style = getComputedStyle(e);
    if (!/^(INPUT|TEXTAREA|SELECT)$/.test(e.tagName) && style.textOverflow !== "ellipsis"
        && style.overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1) {
      bad.push(name(e) + " holds " + e.scrollWidth + " px in " + e.clientWidth + " px");
    }
  }
  return bad;
}"""


def overflowing(page) -> list[str]:
    """What is wider than its panel, or scrolls sideways, on the page now."""
    return page.evaluate(OVERFLOWING)


def shown_in_list(page) -> bool:
    """Whether the move list shows its current move (scrolled to it)."""
    return page.evaluate("""() => {
      const list = document.getElementById('moves'), now = list.querySelector('.now');
      if (!now) return false;
      const a = list.getBoundingClientRect(), b = now.getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
    }""")


def axe_source() -> str | None:
    """axe-core's script, as the axe-playwright-python package ships it, or None."""
    try:
        from importlib import resources

        return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")
    except (ImportError, FileNotFoundError):
        return None


AXE = axe_source()


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings under WCAG 2's A and AA
    rules on the page as it is now, in words (rule: the elements)."""
    if AXE is None:
        if BROWSER_REQUIRED:
            pytest.fail("BRANDUBH_REQUIRE_BROWSER=1, but axe-core is missing (pip install axe-playwright-python)")
        pytest.skip("no axe-core for the accessibility check (pip install axe-playwright-python; tools/setup-tests "
                    "installs it)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE)   # the page's policy allows inline scripts, not eval
    found = page.evaluate("""() => axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })
      .then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))""")
    return list(found)


@pytest.fixture(params=THEMES)
def themed(request, browser, server):  # noqa: F811 - pytest's fixtures
    """The page in one theme; each test sets the window's width itself."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=request.param)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url)
    settle(page)
    yield page
    context.close()
    assert errors == []


def at_every_width(page, list_follows: bool = False) -> None:
    """The page as it is now, laid out again at each width (the window
    resized: the same page, no reload): nothing wider than its panel, no
    sideways scroll, and (``list_follows``) the move shown in the list."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert overflowing(page) == [], width
        assert shown_in_list(page) or not list_follows, width
    page.set_viewport_size({"width": 1280, "height": 900})


def test_nothing_is_wider_than_its_panel_and_nothing_is_unnamed(themed, tmp_path):
    """At each width, in this theme: the first game; a file of games with
    long names, a forty-move one at its end and at a move in the middle; a
    finished game's sentence; the forty moves played on, looked back at,
    the board turned round and a piece picked by the keyboard. axe-core
    looks at the saved game and the game in play."""
    page = themed
    at_every_width(page)
    page.set_input_files("#file", saved_games(tmp_path))
    page.wait_for_selector("body.review")
    settle(page, 0)
    assert page.is_visible("#games")
    page.keyboard.press("End")
    settle(page, PLIES)
    # Forty moves in twenty numbered pairs, the last one shown.
    assert page.locator("#moves li").count() == PLIES // 2 and page.locator("#moves .move").count() == PLIES
    assert page.inner_text("#moves li >> nth=0").split() == ["1.", "f4-f1", "d3-f3"]
    at_every_width(page, list_follows=True)
    assert serious_violations(page) == []
    page.keyboard.press("Home")
    settle(page, 0)
    page.click("#moves .move >> nth=25")
    settle(page, 26)
    at_every_width(page, list_follows=True)
    # The finished game, its sentence under the board.
    page.select_option("#games", index=1)
    settle(page, 0)
    page.keyboard.press("End")
    settle(page, 3)
    assert page.inner_text("#status").startswith("Game over: ")
    at_every_width(page)
    # The forty moves played on: a game in play, looked back at, its board turned round.
    page.select_option("#games", index=0)
    settle(page, 0)
    page.keyboard.press("End")
    settle(page, PLIES)
    page.select_option("#side", "attackers")
    page.click("#continue")
    page.wait_for_selector("body:not(.review)")
    settle(page, PLIES)
    page.keyboard.press("ArrowLeft")
    settle(page, PLIES - 1)
    page.click("#flip")
    assert page.is_visible("#live")
    at_every_width(page, list_follows=True)
    page.keyboard.press("End")
    settle(page, PLIES)
    picked = page.evaluate("() => state.legal[0].from")
    page.focus(f'#squares [data-square="{picked}"]')
    page.keyboard.press("Enter")   # a piece picked: its targets marked and named
    assert page.locator("#board rect.square.target").count() >= 1
    at_every_width(page, list_follows=True)
    assert serious_violations(page) == []
