"""The one switch between the default test run and the long one.

``BRANDUBH_SLOW=1`` (exactly ``1``) runs the tests marked ``slow``, which are
skipped otherwise, and turns the amounts given to :func:`scale` up to their
long values. Test modules read it through this module only::

    from conftest import SLOW, scale

    GAMES = scale(200, 2000)
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

SLOW: bool = os.environ.get("BRANDUBH_SLOW") == "1"


def scale(default: T, slow: T) -> T:
    """``slow`` when BRANDUBH_SLOW=1, else ``default``: how many games,
    positions or examples a test tries. Give the slow run at least as much as
    the default one, so that the long run covers the short one."""
    return slow if SLOW else default


ROOT = Path(__file__).resolve().parent.parent
CC = shutil.which("gcc") or shutil.which("cc")
"""The C compiler the drivers of tests/c/ are built with, or None."""


def run_page(name: str) -> tuple[str, list[str], str]:
    """The ``python`` blocks of docs/NAME run in order, in one namespace and
    the current directory, as a reader would run them: the page, its blocks
    and what they printed. Each page's test checks the printing itself."""
    path = ROOT / "docs" / name
    page = path.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, str(path), "exec"), namespace)
    return page, blocks, out.getvalue()


def running(pid: int) -> bool:
    """Is there a live process (not a zombie) with this pid? Read from
    /proc; a process that ends while its stat is read is gone too."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    except OSError:  # pragma: no cover - no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"


def build_c_driver(name: str, directory: Path, *flags: str) -> Path:
    """Compile tests/c/NAME.c with every engine source into DIRECTORY (the
    build's own warnings on; ``flags`` add to ``-std=c99 -Wall -Wextra -pthread``)
    and return the program's path."""
    exe = directory / name
    sources = [str(p) for p in sorted((ROOT / "csrc").glob("*.c"))]
    subprocess.run([str(CC), "-std=c99", "-Wall", "-Wextra", "-pthread", *flags, f"-I{ROOT / 'csrc'}", *sources,
                    str(ROOT / "tests" / "c" / f"{name}.c"), "-o", str(exe)], check=True)
    return exe


def pytest_collection_modifyitems(config, items):
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set BRANDUBH_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
