"""docs/rl.md runs as written and prints what it says; its picture of the
planes is what tools/rl_planes.py draws from the engine's observation."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_page

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "rl.md"


def test_the_page_runs_and_prints_what_it_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page, blocks, text = run_page(PAGE.name)
    assert len(blocks) >= 5
    printed = text.splitlines()
    expected = [e.strip() for e in re.findall(r"# prints (.+)", page)]
    assert len(expected) >= 10
    assert printed == expected


def test_the_picture_is_fresh():
    run = subprocess.run([sys.executable, str(REPO / "tools" / "rl_planes.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "rl_planes.svg" in PAGE.read_text(encoding="utf-8")


def test_the_readme_links_the_page():
    assert "docs/rl.md" in (REPO / "README.md").read_text(encoding="utf-8")
