"""The one switch between the default test run and the long one.

``BRANDUBH_SLOW=1`` (exactly ``1``) runs the tests marked ``slow``, which are
skipped otherwise, and turns the amounts given to :func:`scale` up to their
long values. Test modules read it through this module only::

    from conftest import SLOW, scale

    GAMES = scale(200, 2000)
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

import pytest

T = TypeVar("T")

SLOW: bool = os.environ.get("BRANDUBH_SLOW") == "1"


def scale(default: T, slow: T) -> T:
    """``slow`` when BRANDUBH_SLOW=1, else ``default``: how many games,
    positions or examples a test tries. Give the slow run at least as much as
    the default one, so that the long run covers the short one."""
    return slow if SLOW else default


ROOT = Path(__file__).resolve().parent.parent

# The tests send their programs SIGHUP as a closing terminal does, and
# SIGINT as Ctrl-C does. A suite started under nohup (SIGHUP ignored) or in
# the background of a shell without job control (SIGINT ignored: `cmd &` in
# a script) passes the ignoring on to every child, and the package respects
# it (brandubh.arena.command.signals_interrupt; Python itself installs no
# KeyboardInterrupt where SIGINT is ignored), so they would carry on. The
# suite's processes take both as from a terminal: a handler, unlike an
# ignored signal, is not inherited across exec, so every child the suite
# starts gets the default again.
if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
CC = shutil.which("gcc") or shutil.which("cc")
"""The C compiler the drivers of tests/c/ are built with, or None."""


#: How long a test waits for a server, a process or a thread to do what it
#: should (seconds): long, so that a loaded machine is never taken for a
#: fault; a test that passes waits only as long as it must.
PATIENCE = 60.0


def wait_until(condition: Callable[[], bool], patience: float = PATIENCE) -> bool:
    """Whether ``condition()`` holds within ``patience`` seconds, asked every
    20 ms (and once more at the end)."""
    end = time.monotonic() + patience
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def load_tool(name: str) -> Any:
    """A script of tools/ (they have no .py suffix) as a module, for a test
    to call its functions: through tools/scripts.py, their one loader."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tool_scripts", ROOT / "tools" / "scripts.py")
    assert spec is not None and spec.loader is not None
    scripts = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scripts)
    return scripts.load_script(name)


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
    /proc by the package's one reader of it (brandubh.arena.reaping); a
    process that ends while its stat is read is gone too. Where there is no
    /proc, whether a signal can be sent to it."""
    from brandubh.arena.reaping import process_info

    if not os.path.isdir("/proc"):  # pragma: no cover
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    info = process_info(pid)
    return info is not None and info.state != "Z"


# How the drivers of tests/c/ and the engine under them are compiled: every
# warning an error (the engine is kept clean under them), optimised (the
# drivers check millions of moves, one of them under valgrind) and with
# debugging lines for valgrind's reports.
DRIVER_FLAGS = ("-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread", "-O2", "-g")


def engine_objects(*extra: str) -> list[Path]:
    """The engine's C files compiled once for every driver of tests/c/, kept
    under build/c-drivers/ by a hash of the sources, the flags and the
    compiler. Compiling the whole engine was most of each driver's test (3
    to 7 s of its 0.1 to 9); now the first test to ask compiles it, in
    parallel, and a test worker asking at the same time waits on a lock and
    takes the same objects. ``extra`` flags (a ``-D`` of a check build) make
    a build of their own, kept beside the plain one."""
    import fcntl  # POSIX; the drivers' tests need gcc, which Windows runs lack
    from concurrent.futures import ThreadPoolExecutor

    assert CC is not None
    csrc = ROOT / "csrc"
    sources = sorted(csrc.glob("*.c"))
    flags = (*DRIVER_FLAGS, *extra)
    digest = hashlib.sha256(" ".join(flags).encode())
    digest.update(subprocess.run([CC, "--version"], capture_output=True, check=True).stdout)
    for path in sources + sorted(csrc.glob("*.h")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    cache = ROOT / "build" / "c-drivers"
    folder = cache / digest.hexdigest()[:16]
    objects = [folder / (source.stem + ".o") for source in sources]
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / "done").exists():
            return objects
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()

        def one(source: Path) -> None:
            subprocess.run([str(CC), *flags, f"-I{csrc}", "-c", str(source),
                            "-o", str(folder / (source.stem + ".o"))], check=True)

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(one, sources))
        (folder / "done").write_text(" ".join(flags) + "\n")
        for old in cache.iterdir():  # the same flags' builds of other sources
            if old.is_dir() and old != folder and (old / "done").exists() and \
                    (old / "done").read_text() == (folder / "done").read_text():
                shutil.rmtree(old, ignore_errors=True)
    return objects


def build_c_driver(name: str, directory: Path, *extra: str) -> Path:
    """Compile tests/c/NAME.c (with DRIVER_FLAGS and ``extra``) and link it
    with the engine's objects built with the same (:func:`engine_objects`)
    into DIRECTORY; return the program's path."""
    exe = directory / name
    subprocess.run([str(CC), *DRIVER_FLAGS, *extra, f"-I{ROOT / 'csrc'}", str(ROOT / "tests" / "c" / f"{name}.c"),
                    *map(str, engine_objects(*extra)), "-o", str(exe)], check=True)
    return exe


# -- the browser tests' Chromium ---------------------------------------------

#: With BRANDUBH_REQUIRE_BROWSER=1 a browser test without its browser fails
#: instead of being skipped.
BROWSER_REQUIRED = os.environ.get("BRANDUBH_REQUIRE_BROWSER") == "1"


#: The browser programs the browser tests look for, the first found taken:
#: Chromium's headless shell first (Debian's chromium-headless-shell, which
#: tools/setup-tests installs), the same Blink with no browser around it, as
#: Playwright's own headless runs use. The browser tests take half the
#: processor time and half the wall clock in it that they took in the whole
#: Chromium's headless mode (57 of them: 13.8 s of a core against 26.5 s).
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser_path() -> str | None:
    """The browser program the browser tests drive: BRANDUBH_BROWSER, or
    the first of :data:`BROWSERS` on the PATH; None when there is none."""
    named = os.environ.get("BRANDUBH_BROWSER")
    if named:
        return shutil.which(named) or (named if os.path.isfile(named) else None)
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _browser_unavailable(reason: str) -> None:
    if BROWSER_REQUIRED:
        pytest.fail(f"BRANDUBH_REQUIRE_BROWSER=1, but {reason}", pytrace=False)
    pytest.skip(f"{reason} (tools/setup-tests installs it)")


class _Chromium:
    """The test worker's one headless Chromium, driven by Playwright's sync
    API: started by the first test that asks for it and kept for the test
    files after it that use it too (a start, Playwright's driver and the
    browser, is about 1.7 s of a core), stopped before the first test of a
    file that does not, and at the end. Stopped, not kept for the whole run:
    while it runs, Playwright's event loop is this thread's running loop,
    which another file's asyncio would trip on. Each test opens its own
    context (its own cookies, storage and pages) in it."""

    driver: Any = None
    browser: Any = None
    #: The test files with a test that asks for it (filled at collection).
    files: set[Path] = set()

    @classmethod
    def get(cls) -> Any:
        if cls.browser is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError:
                _browser_unavailable("Playwright is not installed: pip install playwright")
            path = browser_path()
            if path is None:
                _browser_unavailable("no Chromium found (apt-get install chromium, or set BRANDUBH_BROWSER)")
            driver = sync_playwright().start()
            try:
                # Not the sanitizers' preloaded runtime (tools/sanitize.sh): the
                # browser is not what they check, and under it Chromium never starts.
                env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
                cls.browser = driver.chromium.launch(executable_path=path, args=["--no-sandbox"], env=env)
            except BaseException:
                driver.stop()
                raise
            cls.driver = driver
        return cls.browser

    @classmethod
    def stop(cls) -> None:
        browser, driver = cls.browser, cls.driver
        cls.browser = cls.driver = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if driver is not None:
                driver.stop()


@pytest.fixture
def browser() -> Any:
    """The worker's headless Chromium (:class:`_Chromium`); skipped without
    Playwright or a Chromium, failed instead with BRANDUBH_REQUIRE_BROWSER=1."""
    return _Chromium.get()


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.path not in _Chromium.files:
        _Chromium.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _Chromium.stop()


def pytest_xdist_auto_num_workers(config: Any) -> int:
    """``-n auto`` (pyproject.toml's setting): a worker a core, and one more
    on a machine of four cores or fewer. Much of the suite waits (on the
    browser, the servers, the programs it starts, their timeouts), and on
    two cores a third worker fills that wait: 110 s where two workers took
    118 to 120 s, on two free cores."""
    cores = os.cpu_count() or 1
    return cores + 1 if cores <= 4 else cores


# The test files that take longest, longest first (by their durations in a
# full run of the suite, 2026-12-06, after the browser tests moved to
# Chromium's headless shell, which halved them, and the shipped puzzles
# came to be trusted by their digest; test_reference moved down on
# 2026-12-07, when its deepest walks went to BRANDUBH_SLOW). pytest-xdist
# hands a worker a whole file at a time in this order (pyproject.toml's
# --no-loadscope-reorder):
# these start first, so that the workers end together instead of one
# running a long file alone at the end (in that run the three ended within
# a second of each other). The browser files come first and together, the
# longest of them first: a worker that ends one takes the next, and keeps
# its Chromium for it (_Chromium). test_cluster and test_typing are short:
# the Ray tests run under BRANDUBH_SLOW=1 (tools/setup-tests runs them),
# mypy from its cache; so is test_valgrind, its memcheck run under
# BRANDUBH_SLOW=1 too.
LONGEST_FIRST = ("test_serve_browser", "test_host_browser", "test_host_club_browser", "test_page_layout",
                 "test_web_page", "test_host_puzzles", "test_puzzle_page",
                 "test_solve", "test_reference_vs_engine", "test_export", "test_nothing_lost",
                 "test_fuzz", "test_referee", "test_perft", "test_threads_search", "test_review", "test_web",
                 "test_puzzles", "test_workers", "test_match", "test_host_club", "test_layers", "test_host",
                 "test_game", "test_host_store", "test_interface", "test_doc_figures", "test_playouts",
                 "test_left_behind", "test_stopping", "test_serve_hardening", "test_memory", "test_opentafl",
                 "test_books", "test_doctests", "test_nnue", "test_api", "test_reference")
# (test_docs_site and test_platforms are as long when their builds are new, but
# tools/setup-tests makes both builds before the suite, which then replays them:
# test_platforms from the pass tools/check-platforms remembers on the machine.)


def pytest_collection_modifyitems(config, items):
    _Chromium.files = {item.path for item in items if "browser" in getattr(item, "fixturenames", ())}
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.fspath)).stem, len(rank)))  # stable: files stay whole
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set BRANDUBH_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
