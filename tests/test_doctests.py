"""Every docstring example in the brandubh package runs, one test per module.

The modules are found by walking the package (pkgutil.walk_packages), so a
module or subpackage added later is covered without a change here; a test
below compares the walk with the files on disk. Examples run as ``python -m
doctest`` would run them: no option flags beyond those an example sets
itself with a ``# doctest:`` directive.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import sys
import warnings
from pathlib import Path

import pytest

import brandubh

PACKAGE = brandubh.__name__
PACKAGE_DIR = Path(brandubh.__file__).resolve().parent


def runs_on_import(name: str) -> bool:
    """``python -m brandubh``'s module: importing it runs the command line
    (and exits), so it is not imported here; test_main_modules_have_no_examples
    makes sure that loses no example."""
    return name.rpartition(".")[2] == "__main__"


def package_modules() -> list[str]:
    # A subpackage that fails to import is still listed (the walk names it
    # before importing it), so its test fails with the error instead of the
    # whole file failing to collect.
    walked = pkgutil.walk_packages(brandubh.__path__, PACKAGE + ".", onerror=lambda name: None)
    return [PACKAGE] + sorted(info.name for info in walked)


MODULES = [name for name in package_modules() if not runs_on_import(name)]


def third_party(error: ImportError) -> bool:
    """Whether the import failed for want of a module that is neither part of
    this package nor of Python's standard library: an optional dependency."""
    if not error.name:
        return False
    top = error.name.partition(".")[0]
    return top != PACKAGE and top not in sys.stdlib_module_names


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def test_the_walk_finds_every_module_on_disk():
    on_disk = {module_name(path) for path in PACKAGE_DIR.rglob("*.py")}
    walked = set(package_modules())
    assert PACKAGE in walked and PACKAGE + ".notation" in walked
    # A folder of modules without an __init__.py is not walked into: it shows
    # up here.
    assert on_disk - walked == set()


def test_main_modules_have_no_examples():
    for name in package_modules():
        if runs_on_import(name):
            path = PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".py")
            assert ">>>" not in path.read_text(encoding="utf-8"), name


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        with warnings.catch_warnings():
            # An old module path kept for a release says so on import;
            # tests/test_renamed.py holds that it does.
            warnings.filterwarnings("ignore", "the module brandubh.* is deprecated", DeprecationWarning)
            module = importlib.import_module(name)
    except ImportError as error:
        if third_party(error):
            pytest.skip(f"{name} needs {error.name}, which is not installed")
        raise
    tests = doctest.DocTestFinder().find(module, name)
    runner = doctest.DocTestRunner(verbose=False)
    report: list[str] = []
    for test in sorted(tests, key=lambda t: t.name):
        runner.run(test, out=report.append)
    if runner.failures:
        pytest.fail(f"{runner.failures} of {runner.tries} examples in {name} failed:\n"
                    + "".join(report), pytrace=False)
