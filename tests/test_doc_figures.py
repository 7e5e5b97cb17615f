"""The figures the docs quote from a build (the CodinGame export's size, the
WebAssembly engine's and the page's bytes, the bench signatures) equal this
tree's build: tools/doc-figures measures them, and a stale one fails here
until `tools/doc-figures --write` is run.

The WebAssembly figures need zig, as tools/build-web does; without it this
test fails rather than skips, since the test extra brings it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import load_tool

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "doc-figures"


figures = load_tool("doc-figures")


def test_every_figure_in_the_docs_is_this_builds():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_figures_are_marked_where_the_docs_quote_a_build():
    """Every place a doc quotes the export's characters, the wasm's bytes or
    the current bench signature is a marked figure (so the check above sees
    it), and every kind of figure is used somewhere."""
    names = {match["name"] for _path, match in figures.marks()}
    assert names == set(figures.FIGURES)
    signature = str(figures.FIGURES["bench"]())
    for path in figures.DOCS:
        bare = figures.MARK.sub("", path.read_text(encoding="utf-8"))
        assert not re.search(r"\d[\d,]* characters (?:of C|with the)", bare), path
        assert f"Bench: {signature}" not in bare, path


def test_a_stale_figure_is_caught(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("the bot is <!--fig:export-chars:1000-->1,000<!--/fig--> characters\n")
    monkeypatch.setattr(figures, "DOCS", [page])
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    [line] = figures.stale(write=False)
    assert "export-chars" in line and "1,000" in line
    figures.stale(write=True)
    assert figures.stale(write=False) == []
    assert page.read_text() != "the bot is <!--fig:export-chars:1000-->1,000<!--/fig--> characters\n"


def test_rounding():
    assert figures.shown("export-chars", 92_197, "1000") == "92,000"
    assert figures.shown("export-chars", 92_500, "1000") == "93,000"
    assert figures.shown("wasm-bytes", 86_515, None) == "86,515"
    assert figures.shown("bench", 1_021_884, None) == "1021884"
