"""The package's type hints hold together (it ships py.typed)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_mypy_clean(tmp_path):
    package = Path(__import__("brandubh").__file__).parent
    run = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental",
                          "--cache-dir", str(tmp_path), str(package)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_py_typed_ships():
    package = Path(__import__("brandubh").__file__).parent
    assert (package / "py.typed").exists()
