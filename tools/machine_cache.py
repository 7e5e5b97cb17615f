"""What tools/setup-tests' longer checks remember on this machine, outside
any clone of the project, so that a second run (CI's next fresh clone, or
another worktree) skips a check whose inputs are all unchanged.

The folder is ``$BRANDUBH_CACHE``, else ``$XDG_CACHE_HOME/brandubh``, else
``~/.cache/brandubh`` (beside zig's own cache, ``~/.cache/zig``). A check
that passed leaves an empty-ish file ``NAME-KEY`` there, KEY a digest of
everything the check read: its sources, its own text, the versions of the
programs it ran. Nothing else is kept: a changed input is a new key, so a
stamp can never pass a changed tree. Clearing it is always safe::

    rm -rf ~/.cache/brandubh          # or the folder named above

From a shell (tools/check_rl_extra.sh)::

    python tools/machine_cache.py folder
    python tools/machine_cache.py tree-digest [WORD ...]   # the tree's files and the words
    python tools/machine_cache.py passed NAME KEY          # exit status 0 when stamped
    python tools/machine_cache.py remember NAME KEY
"""
from __future__ import annotations

import fnmatch
import hashlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What a build of the package from this tree leaves out when it copies it
#: (tools/check-platforms' wheel): version control, build outputs, virtual
#: environments. The tree's digest reads every other file.
IGNORED = (".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "_csrc", ".venv*", "wheelhouse",
           "_engine.c", "node_modules", ".pytest_cache", ".hypothesis", ".benchmarks")

#: A stamp not used for this long is removed (a tree long gone).
STALE_DAYS = 30


def folder() -> Path:
    """The cache's folder (not made here)."""
    named = os.environ.get("BRANDUBH_CACHE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "brandubh"


def tree_files(root: Path = ROOT) -> list[Path]:
    """Every file of the tree but the :data:`IGNORED` names, sorted: as
    ``shutil.copytree(..., ignore=shutil.ignore_patterns(*IGNORED))`` copies it."""
    found = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not any(fnmatch.fnmatch(d, p) for p in IGNORED))
        found += [Path(here) / f for f in files if not any(fnmatch.fnmatch(f, p) for p in IGNORED)]
    return sorted(found)


def digest(paths: list[Path], *extra: str, root: Path = ROOT) -> str:
    """A digest of the files (their names under ``root``, or a file's own
    name outside it, such as a temporary file's; and their bytes) and the
    ``extra`` words (a program's version, a flag)."""
    h = hashlib.sha256()
    for path in sorted(paths):
        name = path.relative_to(root) if path.is_relative_to(root) else path.name
        h.update(str(name).encode() + b"\0" + path.read_bytes() + b"\0")
    for item in extra:
        h.update(item.encode() + b"\0")
    return h.hexdigest()[:24]


def passed(name: str, key: str) -> bool:
    """Whether the check NAME passed with these inputs on this machine."""
    stamp = folder() / f"{name}-{key}"
    if not stamp.exists():
        return False
    stamp.touch()   # used: not stale
    return True


def remember(name: str, key: str) -> None:
    """The check NAME passed with these inputs: stamped, and the stamps of
    any check unused for :data:`STALE_DAYS` removed. Other keys of the same
    check stay: several trees (worktrees, branches) share the folder."""
    where = folder()
    where.mkdir(parents=True, exist_ok=True)
    (where / f"{name}-{key}").write_text("passed\n")
    limit = time.time() - STALE_DAYS * 86400
    for old in where.iterdir():
        try:
            if old.is_file() and old.stat().st_mtime < limit:
                old.unlink()
        except FileNotFoundError:   # another run removed it first
            pass


def main(argv: list[str]) -> int:
    if argv[:1] == ["folder"]:
        print(folder())
        return 0
    if argv[:1] == ["tree-digest"]:
        print(digest(tree_files(), *argv[1:]))
        return 0
    if argv[:1] == ["passed"] and len(argv) == 3:
        return 0 if passed(argv[1], argv[2]) else 1
    if argv[:1] == ["remember"] and len(argv) == 3:
        remember(argv[1], argv[2])
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
