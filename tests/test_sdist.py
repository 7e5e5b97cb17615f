"""The sdist carries every tracked file (but .gitignore), so that the test suite runs from an unpacked sdist: the tests
open docs/, README.md, tools/, tests/c/ and tests/bots/ by path, and a
file left out of MANIFEST.in fails there and nowhere else.

The default test reads MANIFEST.in against ``git ls-files`` (cheap, no
build); the slow one (BRANDUBH_SLOW=1) builds the real sdist with
``python -m build`` and compares its members with the same list, which also
checks what this file assumes setuptools adds by itself.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Tracked, and not wanted in the sdist: nothing in tests/ opens them. (The
# workflow under .github/ ships: tests/test_platforms.py reads it.)
NOT_SHIPPED = (".gitignore",)

# What setuptools puts in every sdist of this project without MANIFEST.in:
# the build files, the readme and licence files named in pyproject.toml, the
# package data, and the modules of brandubh and of every package under it
# (pyproject.toml's [tool.setuptools.packages.find]).
SETUPTOOLS_ADDS = ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE", "brandubh/py.typed",
                   "brandubh/codingame/*.c", "brandubh/serve/*.html", "brandubh/host/*.js",
                   "brandubh/host/*.css", "brandubh/host/*.html")
PACKAGE_TREE = "brandubh/"

# What the build writes into the sdist beside the tracked files.
GENERATED = ("PKG-INFO", "setup.cfg", "brandubh.egg-info/*")


def tracked_files() -> list[str]:
    """The files git tracks or would track (not ignored; those that exist),
    as posix paths: a new file is counted before it is committed."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: nothing to compare the sdist with")
    run = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        pytest.skip(f"git ls-files failed: {run.stderr.strip()}")
    files = [name for name in run.stdout.split("\0") if name and (ROOT / name).is_file()]
    assert "tests/test_sdist.py" in files and "MANIFEST.in" in files, files[:10]
    return files


def wanted_in_sdist(files: list[str]) -> set[str]:
    return {f for f in files if not f.startswith(NOT_SHIPPED)}


def _segment_match(name: str, pattern: str) -> bool:
    # As glob: a wildcard does not match a leading dot.
    if name.startswith(".") and not pattern.startswith("."):
        return False
    return fnmatch.fnmatchcase(name, pattern)


def glob_match(path: str, pattern: str) -> bool:
    """``path`` matches ``pattern`` as glob sees it: ``*`` stays in one directory."""
    parts, pats = PurePosixPath(path).parts, PurePosixPath(pattern).parts
    return len(parts) == len(pats) and all(_segment_match(n, p) for n, p in zip(parts, pats))


def manifest_selects(files: list[str], manifest: str) -> set[str]:
    """The files among ``files`` that the MANIFEST.in commands take in, read as
    setuptools reads them. A command this reader does not know fails the
    test, rather than being guessed at."""
    chosen: set[str] = set()
    for number, raw in enumerate(manifest.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        command, *args = line.split()
        where = f"MANIFEST.in:{number}: {line}"
        if command == "include":
            chosen |= {f for f in files if any(glob_match(f, p) for p in args)}
        elif command == "exclude":
            chosen -= {f for f in chosen if any(glob_match(f, p) for p in args)}
        elif command in ("recursive-include", "recursive-exclude"):
            assert len(args) >= 2, where
            top, patterns = args[0].rstrip("/") + "/", args[1:]
            hit = {f for f in files if f.startswith(top)
                   and any(_segment_match(PurePosixPath(f).name, p) for p in patterns)}
            chosen = chosen | hit if command == "recursive-include" else chosen - hit
        elif command == "global-exclude":
            chosen -= {f for f in chosen if any(_segment_match(PurePosixPath(f).name, p) for p in args)}
        elif command == "graft":
            chosen |= {f for f in files if any(f.startswith(a.rstrip("/") + "/") for a in args)}
        elif command == "prune":
            chosen -= {f for f in chosen if any(f.startswith(a.rstrip("/") + "/") for a in args)}
        else:
            pytest.fail(f"{where}: teach tests/test_sdist.py the command {command!r}")
    return chosen


def test_manifest_takes_in_every_tracked_file():
    files = tracked_files()
    covered = manifest_selects(files, (ROOT / "MANIFEST.in").read_text(encoding="utf-8"))
    covered |= {f for f in files if any(glob_match(f, p) for p in SETUPTOOLS_ADDS)}
    covered |= {f for f in files if f.startswith(PACKAGE_TREE) and f.endswith(".py")}
    missing = sorted(wanted_in_sdist(files) - covered)
    assert missing == [], f"tracked but not in the sdist (add them to MANIFEST.in): {missing}"


def test_manifest_reader_sees_a_missing_file():
    # The reader above can fail: a test data file that no line names.
    files = ["tests/test_x.py", "tests/data/x.json", "tests/c/a.c", ".ci/run", "csrc/a.c", "csrc/sub/b.c",
             ".gitignore", "setup.py"]
    manifest = "recursive-include tests *.py\ninclude tests/c/*.c csrc/*.c\ninclude .ci/* *\n"
    assert manifest_selects(files, manifest) == {"tests/test_x.py", "tests/c/a.c", "csrc/a.c", ".ci/run",
                                                 "setup.py"}
    assert manifest_selects(files, "graft tests\nprune tests/data\ninclude .ci/run\n") == {
        "tests/test_x.py", "tests/c/a.c", ".ci/run"}


def test_no_test_reads_what_the_sdist_leaves_out():
    # NOT_SHIPPED may stay out only while no test file names it.
    for source in sorted((ROOT / "tests").rglob("*.py")):
        if source.name == Path(__file__).name:
            continue
        text = source.read_text(encoding="utf-8")
        for name in NOT_SHIPPED:
            assert name.rstrip("/") not in text, f"{source.relative_to(ROOT)} names {name}, which the sdist leaves out"


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("build") is None, reason="needs `pip install build`")
def test_built_sdist_holds_every_tracked_file(tmp_path):
    files = tracked_files()
    # Build from a copy of exactly the tracked files, so that whatever else
    # lies in this working tree (a build, a scratch file) is not counted.
    src = tmp_path / "src"
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    run = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), str(src)],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (sdist,) = (tmp_path / "dist").glob("brandubh-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
        top = names[0].split("/", 1)[0]
        pkg_info = tar.extractfile(f"{top}/PKG-INFO").read().decode("utf-8")
    members = {name.split("/", 1)[1] for name in names}
    missing = sorted(wanted_in_sdist(files) - members)
    assert missing == [], f"tracked but not in the sdist: {missing}"
    extra = sorted(m for m in members - set(files) if not any(glob_match(m, p) for p in GENERATED))
    assert extra == [], f"in the sdist but not tracked: {extra}"
    shipped_anyway = sorted(m for m in members if m.startswith(NOT_SHIPPED))
    assert shipped_anyway == [], shipped_anyway
    assert "License-Expression: MIT" in pkg_info.splitlines()
    assert "License-File: LICENSE" in pkg_info.splitlines()
