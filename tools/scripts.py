"""The scripts of tools/ that have no .py suffix (build-web, check-platforms,
doc-figures, ...) as modules, for another script or a test to call their
functions: the one loader of them (tests/conftest.py's ``load_tool``,
tools/doc-figures and tools/bench-web use it)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parent


def load_script(name: str) -> ModuleType:
    """tools/NAME, run once as a module named NAME with ``_`` for ``-``."""
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(TOOLS / name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
