"""The package's type hints hold together (it ships py.typed), and a type
checker sees the real names behind ``brandubh``'s lazy top level.

Every test here finds the package through the import system (the copy that
``import brandubh`` loads: an installed wheel, or the checkout when it is
installed editable), never through this file's place in the source tree.
"""

import ast
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

needs_mypy = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")


def package_dir() -> Path:
    """The directory of the brandubh that ``import brandubh`` loads."""
    spec = importlib.util.find_spec("brandubh")
    assert spec is not None and spec.origin is not None, "brandubh is not importable"
    return Path(spec.origin).resolve().parent


def mypy_path(folder: Path) -> dict:
    """An environment whose MYPYPATH holds the brandubh that the import system
    finds, through a link in ``folder``. mypy cannot follow an editable
    install (a finder hook), and refuses a package directory inside
    site-packages given by path; ``-p brandubh`` or an import of it, found on
    MYPYPATH, serves both."""
    root = folder / "path"
    root.mkdir(parents=True, exist_ok=True)
    link = root / "brandubh"
    if link.is_symlink():  # a kept cache's folder: pointed again at today's package
        link.unlink()
    elif link.exists():
        shutil.rmtree(link)
    try:
        link.symlink_to(package_dir(), target_is_directory=True)
    except OSError:  # no symlinks here (Windows without the right)
        shutil.copytree(package_dir(), link)
    env = dict(os.environ, MYPYPATH=str(root))
    env.pop("PYTHONPATH", None)
    return env


def mypy_cache(name: str, tmp_path: Path) -> Path:
    """Where mypy keeps its cache for the run ``name``: under build/mypy/ of
    the source tree, kept between runs (tools/setup-tests fills it), so that
    mypy checks again only the modules that changed since, or whose options
    did, as it does in any project (a run of the whole package took 15 s of
    a core, about 2 s so); a run with no cache there checks every module
    and leaves one. Where the tree cannot be written, a new one in
    ``tmp_path``. Each run has its own: their options differ."""
    kept = Path(__file__).resolve().parent.parent / "build" / "mypy" / name
    try:
        kept.mkdir(parents=True, exist_ok=True)
    except OSError:  # pragma: no cover - a read-only tree
        return tmp_path / "cache"
    return kept


@needs_mypy
def test_mypy_clean(tmp_path):
    # The project's mypy settings (pyproject.toml), where the source tree is here.
    config = Path(__file__).resolve().parent.parent / "pyproject.toml"
    settings = ["--config-file", str(config)] if config.is_file() else []
    cache = mypy_cache("clean", tmp_path)
    run = subprocess.run([sys.executable, "-m", "mypy", *settings, "--ignore-missing-imports",
                          "--cache-dir", str(cache / "cache"), "-p", "brandubh"],
                         cwd=str(tmp_path), env=mypy_path(cache), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found in" in run.stdout, run.stdout


def test_py_typed_ships():
    assert (package_dir() / "py.typed").exists()


# -- the lazy top level -------------------------------------------------


def _type_checking_imports(tree: ast.Module) -> dict:
    """name -> module, from the ``if TYPE_CHECKING:`` block of an __init__.py."""
    blocks = [node for node in tree.body if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
              and node.test.id == "TYPE_CHECKING"]
    assert len(blocks) == 1, "a lazy package's __init__.py should have one `if TYPE_CHECKING:` block of imports"
    found = {}
    for node in blocks[0].body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.dump(node)
        for alias in node.names:
            # `import X as X` is what marks a name as re-exported under
            # mypy --strict (no implicit re-export).
            assert alias.asname == alias.name, f"import {alias.name} as {alias.name}, to re-export it"
            assert alias.name not in found, f"{alias.name} is imported twice"
            found[alias.name] = node.module
    return found


#: The packages whose names load on first use, and what their __all__ holds
#: beside the lazy names.
LAZY_PACKAGES = {"brandubh": ["SETUP", "__version__"], "brandubh.records": []}


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_type_checking_imports_match_the_lazy_table(name):
    package = importlib.import_module(name)
    tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    imports = _type_checking_imports(tree)
    # A renamed name (kept one release) is seen by type checkers too, from
    # the module of its new name, but is not in __all__.
    old = {n: new.partition(":")[0].removeprefix(f"{name}.")
           for n, new in getattr(package, "_RENAMED", {}).items()}
    lazy = {**package._LAZY, **old}
    assert {n: m for n, m in imports.items() if lazy.get(n) != m} == {}, "imported for type checkers, not lazy"
    assert {n: m for n, m in lazy.items() if imports.get(n) != m} == {}, "lazy, not imported for type checkers"
    assert sorted(package.__all__) == sorted([*LAZY_PACKAGES[name], *package._LAZY])


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_every_lazy_name_loads_from_its_module(name):
    package = importlib.import_module(name)
    for attribute, module in package._LAZY.items():
        value = getattr(package, attribute)
        assert value is getattr(importlib.import_module(f"{name}.{module}"), attribute), attribute
    with pytest.raises(AttributeError, match="no attribute 'Gmae'"):
        package.Gmae  # noqa: B018
    assert set(dir(package)) >= set(package._LAZY)


def test_import_brandubh_loads_no_submodule(tmp_path):
    code = ("import brandubh, sys; "
            "loaded = sorted(m for m in sys.modules if m.startswith('brandubh.')); "
            "assert not loaded, loaded")
    run = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr


# -- what mypy --strict says about code that uses the package ---------------


# The three snippets, checked by one run of mypy (each run reads the whole
# package again: about two seconds).
SNIPPETS = {
    "misspelt": """
        import brandubh
        from brandubh import Game

        brandubh.Rules().serch()
        Game().plya('d1c1')
        brandubh.Gmae
    """,
    "wrong": """
        import brandubh

        n: str = brandubh.perft(2)
        brandubh.move_text('d1d3')
    """,
    "correct": """
        import brandubh
        from brandubh import Game, MoveError, Rules, move_text

        rules: Rules = brandubh.Rules(variant='codingame')
        first: str = move_text(rules.moves()[0])
        game = Game()
        refused = game.play('d2c2')
        try:
            brandubh.parse_move('x')
        except MoveError as error:
            message: str = str(error)
        nodes: int = brandubh.perft(2)
        reveal_type(Game)
        reveal_type(brandubh.Rules)
        reveal_type(brandubh.move_text)
    """,
}


@pytest.fixture(scope="module")
def strict(tmp_path_factory) -> dict:
    """mypy --strict on every snippet, with brandubh taken from where the
    import system finds it; ``--follow-imports=silent`` keeps the package's
    own code out of the report, as for any installed package. What it said
    of each snippet, by name, and the whole output under ``"all"``."""
    tmp_path = tmp_path_factory.mktemp("strict")
    cache = mypy_cache("strict", tmp_path)
    env = mypy_path(cache)
    for name, source in SNIPPETS.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--cache-dir", str(cache / "cache"), *(f"{name}.py" for name in SNIPPETS)],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert "Cannot find implementation" not in out, out
    said = {name: "\n".join(line for line in out.splitlines() if line.startswith(f"{name}.py:"))
            for name in SNIPPETS}
    return {**said, "all": out}


@needs_mypy
@pytest.mark.parametrize("name, errors", [
    ("misspelt", ['5: error: "Rules" has no attribute "serch"', '6: error: "Game" has no attribute "plya"',
                  '7: error: Module has no attribute "Gmae"']),
    ("wrong", ['4: error: Incompatible types in assignment (expression has type "int"',
               '5: error: Argument 1 to "move_text" has incompatible type "str"']),
])
def test_mypy_strict_rejects_misspelt_names_and_wrong_types(strict, name, errors):
    out = strict[name]
    for error in errors:
        assert f"{name}.py:{error}" in out, strict["all"]
    assert out.count(": error:") == len(errors), strict["all"]


@needs_mypy
def test_mypy_strict_accepts_correct_use_and_sees_real_types(strict):
    out = strict["correct"]
    assert ": error:" not in out, strict["all"]
    # The errors are the two other snippets' five, none of this one's.
    assert "Found 5 errors in 2 files (checked 3 source files)" in strict["all"], strict["all"]
    revealed = [line for line in out.splitlines() if "Revealed type" in line]
    assert len(revealed) == 3, strict["all"]
    assert "-> brandubh.game.Game" in revealed[0], out
    assert "-> brandubh.core.rules.Rules" in revealed[1], out
    assert '"def (m: builtins.int) -> builtins.str"' in revealed[2] or '"def (m: int) -> str"' in revealed[2], out
    assert not any('"Any"' in line for line in revealed), out
