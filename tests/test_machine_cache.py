"""tools/machine_cache.py: the longer checks' passes remembered outside the
clone (tools/check-platforms, tools/check_rl_extra.sh) by a digest of
everything they read. A changed input is a new key, so a remembered pass
never stands for a changed tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT, load_tool

cache = load_tool("machine_cache.py")


def _tree(root: Path) -> None:
    (root / "csrc").mkdir(parents=True)
    (root / "csrc" / "a.c").write_text("int a;\n")
    (root / "setup.py").write_text("# setup\n")
    for ignored in ("build", "__pycache__", ".git", "x.egg-info"):
        (root / ignored).mkdir()
        (root / ignored / "f").write_text("left out\n")


def test_any_changed_file_or_word_is_a_new_key_and_what_a_build_leaves_out_is_not_read(tmp_path):
    root = tmp_path / "tree"
    _tree(root)
    files = cache.tree_files(root)
    assert [f.relative_to(root).as_posix() for f in files] == ["csrc/a.c", "setup.py"]
    key = cache.digest(files, "zig 0.13", root=root)
    (root / "build" / "f").write_text("a build output changed\n")
    assert cache.digest(cache.tree_files(root), "zig 0.13", root=root) == key
    (root / "csrc" / "a.c").write_text("int b;\n")
    changed = cache.digest(cache.tree_files(root), "zig 0.13", root=root)
    assert changed != key
    assert cache.digest(cache.tree_files(root), "zig 0.14", root=root) != changed
    (root / "csrc" / "new.h").write_text("")
    assert cache.digest(cache.tree_files(root), "zig 0.13", root=root) != changed
    # A file outside the tree counts by its own name, not where it lies (a temporary file's).
    one, two = tmp_path / "t1", tmp_path / "t2"
    for folder in (one, two):
        folder.mkdir()
        (folder / "bot.c").write_text("int main(void) { return 0; }\n")
    assert cache.digest([one / "bot.c"], root=root) == cache.digest([two / "bot.c"], root=root)


def test_a_pass_stands_for_its_own_key_only_in_the_named_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BRANDUBH_CACHE", str(tmp_path / "cache"))
    assert cache.folder() == tmp_path / "cache"
    assert not cache.passed("platforms-wheel", "k1")
    cache.remember("platforms-wheel", "k1")
    assert cache.passed("platforms-wheel", "k1")
    assert not cache.passed("platforms-wheel", "k2") and not cache.passed("rl-extra", "k1")
    cache.remember("platforms-wheel", "k2")   # another tree's pass keeps the first
    assert cache.passed("platforms-wheel", "k1") and cache.passed("platforms-wheel", "k2")
    # The shell's form (tools/check_rl_extra.sh) says the same by its exit status.
    tool = [sys.executable, str(ROOT / "tools" / "machine_cache.py")]
    env = {"BRANDUBH_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    assert subprocess.run([*tool, "passed", "rl-extra", "k1"], env=env).returncode == 1
    assert subprocess.run([*tool, "remember", "rl-extra", "k1"], env=env).returncode == 0
    assert subprocess.run([*tool, "passed", "rl-extra", "k1"], env=env).returncode == 0
