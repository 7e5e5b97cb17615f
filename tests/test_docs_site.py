"""The documentation site (tools/build-docs, docs/conf.py) builds with every
warning an error, every public name has its page, and the code the pages
show is run somewhere or at least names what is there.

The build is ``tools/build-docs --check --cached``: Sphinx's dummy
builder, which reads, resolves and checks everything the HTML build does
and writes no page (about 8 s of one core), kept in build/docs-check/ under
a digest of what it reads: tools/setup-tests runs it before the suite, and
these tests replay it unless the docs or the package changed since. It fails on a
broken link between the guides or to a heading, a docstring that is not
valid reStructuredText, a reference to a name that is not in the package,
and a guide that names (in code) a module or object that is gone.
Without Sphinx and myst-parser (the ``docs`` extra, in the ``test`` extra)
the build's tests are skipped, as in the wheels' own test runs.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import io
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import brandubh

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TOOL = ROOT / "tools" / "build-docs"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)

# Every page of the site that shows Python, and where its blocks run.
RUN_BY = {
    "README.md": "tests/test_readme.py",
    "docs/bots.md": "tests/test_game.py",
    "docs/records.md": "tests/test_records.py",
    "docs/rl.md": "tests/test_rl_page.py",
    "docs/serve.md": "tests/test_serve.py",
    "docs/views.md": "tests/test_views_page.py",
    "docs/opentafl.md": "tests/test_docs_site.py",
    "docs/review.md": "tests/test_docs_site.py",
    "docs/puzzles.md": "tests/test_puzzles.py",
}
# The pages whose blocks need what a test does not have: each block is
# compiled and its imports of the package checked (test_unrun_blocks_...).
NOT_RUN = {
    "docs/arena.md": "plays a bot program of the reader's (python3 my_bot.py)",
    "docs/cluster.md": "needs a Ray cluster",
    "docs/codingame.md": "a bot's loop over a referee's input, and a match of the reader's two programs",
    "docs/host.md": "plays a seat of a running brandubh host",
}


def needs_sphinx() -> None:
    for name in ("sphinx", "myst_parser"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed: pip install -e '.[docs]' (tools/setup-tests installs it)")


@pytest.fixture(scope="module")
def checked() -> tuple[subprocess.CompletedProcess, Path]:
    """The check build, once: its run and its folder."""
    needs_sphinx()
    run = subprocess.run([sys.executable, str(TOOL), "--check", "--cached"], cwd=str(ROOT), capture_output=True,
                         text=True, timeout=600)
    last = run.stdout.rstrip("\n").rpartition("\n")[2]
    assert last.startswith("checked: "), said(run)
    return run, Path(last.removeprefix("checked: "))


def said(run: subprocess.CompletedProcess) -> str:
    return f"tools/build-docs --check:\n{run.stdout[-6000:]}{run.stderr[-6000:]}"


@pytest.fixture(scope="module")
def build(checked: tuple[subprocess.CompletedProcess, Path]) -> tuple[subprocess.CompletedProcess, Any]:
    """The check build's run, and Sphinx's environment: what it read."""
    run, out = checked
    pickled = out / ".doctrees" / "environment.pickle"
    assert pickled.is_file(), said(run)
    with open(pickled, "rb") as f:
        return run, pickle.load(f)


def conf() -> ModuleType:
    """docs/conf.py, loaded as Sphinx loads it."""
    spec = importlib.util.spec_from_file_location("brandubh_docs_conf", DOCS / "conf.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_with_no_warning(checked):
    run, _ = checked
    assert run.returncode == 0, said(run)


def test_every_public_name_has_its_page(build):
    _, env = build
    objects = env.domaindata["py"]["objects"]
    for name in brandubh.__all__:
        entry = objects.get(f"brandubh.{name}")
        assert entry is not None and entry.docname == f"api/brandubh.{name}", name


def test_every_module_the_guides_name_has_its_page(build):
    _, env = build
    named = conf().named_modules()
    assert "brandubh.notation" in named and "brandubh.rl" in named
    modules = env.domaindata["py"]["modules"]
    for name in named:
        assert name in modules and modules[name].docname == f"api/{name}", name


def test_every_guide_is_a_page_of_the_site(build):
    _, env = build
    assert {path.stem for path in DOCS.glob("*.md")} <= set(env.all_docs)


# ------------------------------------------------------------ the pieces


def test_a_name_is_looked_up_in_the_package():
    site = conf()
    assert site.lookup("brandubh.views.svg.board") is brandubh.views.svg.board
    assert site.lookup("brandubh.Rules") is brandubh.Rules
    assert site.lookup("os.PathLike[str]") is os.PathLike
    assert site.lookup("brandubh.notation.no_such_name") is None
    assert site.lookup("brandubh.no_such_module.thing") is None
    # An attribute an __init__ sets is a name with no object to show.
    assert isinstance(site.lookup("brandubh.Bot.level"), site.Attribute)
    assert site.lookup("brandubh.Bot.no_such_level") is None


def test_code_that_names_a_file_or_a_placeholder_is_no_name():
    site = conf()
    assert site.not_a_name("brandubh.wasm") and site.not_a_name("brandubh.js")
    assert site.not_a_name("brandubh.NAME.host")
    # Everything else is a name, to be found in the package.
    for name in ("brandubh.notation", "brandubh.PRESETS", "brandubh.no_such_module", "brandubh.notation.NO_SUCH"):
        assert not site.not_a_name(name), name


def test_a_docstrings_references_are_read_where_it_is_written():
    from brandubh import errors

    lines = [":func:`quote()` makes the message of an :exc:`ArgumentError`,", ":class:`Game` is not in errors,",
             ":func:`brandubh.perft` is whole."]
    conf().home_names(errors.quote, lines)
    assert lines == [":func:`quote() <brandubh.errors.quote>` makes the message of an "
                     ":exc:`ArgumentError <brandubh.errors.ArgumentError>`,",
                     ":class:`Game` is not in errors,", ":func:`brandubh.perft` is whole."]


def test_the_guides_name_modules_by_their_longest_module():
    site = conf()
    named = site.named_modules()
    assert "brandubh.views.svg" in named  # from brandubh.views.svg.board
    assert not any(part.startswith("_") for name in named for part in name.split("."))  # brandubh._engine
    assert all(importlib.util.find_spec(name) for name in named)


def test_a_generated_page_describes_each_object_once():
    site = conf()
    pages = site.api_pages()
    assert pages["brandubh.Rules.rst"].endswith(".. autoclass:: Rules\n")
    assert ".. autoexception:: MoveError" in pages["brandubh.MoveError.rst"]
    assert ":no-value:" in pages["brandubh.PRESETS.rst"] and ":no-value:" not in pages["brandubh.SETUP.rst"]
    # A name of brandubh has its own page: the page of a module that holds it
    # too leaves it out (brandubh.core.search's, SearchResult).
    exported = {id(getattr(brandubh, name)) for name in brandubh.__all__}
    left_out = 0
    for name in site.named_modules():
        module = importlib.import_module(name)
        excluded = re.search(r":exclude-members: (.*)", pages[f"{name}.rst"])
        for member in site.members(module):
            value = getattr(module, member, None)
            if id(value) in exported and site.one_thing(value):
                assert excluded and member in excluded.group(1).split(", "), (name, member)
                left_out += 1
    assert left_out


# ------------------------------------------------------------ the code the pages show


def python_blocks() -> dict[str, list[str]]:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    found = {str(page.relative_to(ROOT)): BLOCK.findall(page.read_text(encoding="utf-8")) for page in pages}
    return {page: blocks for page, blocks in found.items() if blocks}


def test_every_page_that_shows_python_says_where_it_runs():
    pages = python_blocks()
    assert set(pages) == set(RUN_BY) | set(NOT_RUN), "a page shows Python: run it in a test and add it to RUN_BY"
    for page, test in RUN_BY.items():
        assert Path(page).name in (ROOT / test).read_text(encoding="utf-8"), f"{test} does not run {page}"


def test_unrun_blocks_compile_and_import_what_is_there():
    pages = python_blocks()
    for page in NOT_RUN:
        for block in pages[page]:
            tree = ast.parse(block, filename=page)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] == "brandubh":
                    module = importlib.import_module(node.module)
                    for alias in node.names:
                        assert hasattr(module, alias.name), f"{page}: {node.module} has no {alias.name}"
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        importlib.import_module(alias.name)


def run_blocks(page: str) -> str:
    out = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(out):
        for block in python_blocks()[page]:
            exec(compile(block, page, "exec"), namespace)
    return out.getvalue()


def test_the_opentafl_page_runs():
    printed = run_blocks("docs/opentafl.md")
    assert re.fullmatch(r"\['move [a-g][1-7]-[a-g][1-7]'\]\n", printed), printed


def test_the_review_page_runs(tmp_path, monkeypatch):
    game = brandubh.Game()
    for move in ("d1c1", "d3e3", "c1c2"):
        assert game.play(move) is None, move
    (tmp_path / "game.txt").write_text(game.as_text(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the page reads game.txt from the current folder
    printed = run_blocks("docs/review.md").splitlines()
    assert printed[-1].split()[0].isdigit(), printed  # the worst move's ply


def test_the_kept_check_is_that_of_what_it_reads(tmp_path, monkeypatch):
    """The check kept in build/docs-check/ is replayed only while nothing it
    reads has changed: a guide, the package's Python, the README."""
    needs_sphinx()
    from conftest import load_tool

    tool = load_tool("build-docs")
    for name in ("docs/index.md", "docs/api/brandubh.Game.rst", "brandubh/game.py", "README.md",
                 "tools/build-docs"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("one\n", encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    first = tool.digest()
    (tmp_path / "docs/api/brandubh.Game.rst").write_text("written by each build\n", encoding="utf-8")
    assert tool.digest() == first
    for name in ("docs/index.md", "brandubh/game.py", "README.md"):
        (tmp_path / name).write_text("two\n", encoding="utf-8")
        changed = tool.digest()
        assert changed != first, name
        first = changed
