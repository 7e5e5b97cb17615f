"""docs/views.md runs as written and shows what the code prints."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from brandubh.cli import main

from conftest import run_page

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "views.md"


def test_the_views_page_runs_and_prints_what_it_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # should a block write a file, it writes it here
    page, blocks, printed = run_page(PAGE.name)
    assert len(blocks) >= 5
    for expected in re.findall(r"# prints (.+)", page):
        assert expected.strip() in printed, expected
    # the diagram the page shows is the one print(game) printed
    for diagram in re.findall(r"```text\n(.*?)```", page, re.S):
        assert diagram in printed, diagram


def test_the_show_example_is_what_show_prints(tmp_path, capsys):
    page = PAGE.read_text(encoding="utf-8")
    example = re.search(r"\n    \$ brandubh show escape.txt --ply 2 --ascii\n((?:    .*\n)+)", page)
    assert example
    path = tmp_path / "escape.txt"
    path.write_text("variant brandubh\nstart 7/7/7/3k3/7/7/a6 d\nmoves d4d1 a1a2 d1g1\n")
    assert main(["show", str(path), "--ply", "2", "--ascii"]) == 0
    assert capsys.readouterr().out == textwrap.dedent(example.group(1))


def test_the_readme_links_the_page_and_lists_the_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/views.md" in readme
    assert "| `brandubh show GAME_FILE" in readme and "| `brandubh play" in readme
