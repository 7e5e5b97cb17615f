"""Every platform the wheels are built for, checked from this machine by
tools/check-platforms: here its quick form, which compiles the C core and
the exported CodinGame bot for Windows, macOS and Linux on x86_64 and
aarch64 with every warning an error, and checks the workflow. The full
form (linked libraries and programs, the manylinux wheel) is the
workflow's platforms job (docs/platforms.md).

Skipped where zig (the ziglang package) is missing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import load_tool

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "check-platforms"


check = load_tool("check-platforms")


def _zig():
    try:
        return check.zig_binary()
    except check.CheckFailed:
        return None


ZIG = _zig()
pytestmark = pytest.mark.skipif(ZIG is None, reason="no zig (pip install ziglang): it cross-compiles the checks")


def test_every_target_compiles_warning_free():
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick"], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every check passed" in done.stdout
    lines = done.stdout
    assert "wheels.yml" in lines


def test_a_warning_fails_the_check(tmp_path):
    """The check can fail: a warning on any target is an error."""
    source = tmp_path / "warns.c"
    source.write_text("int f(int x) { int unused; return x; }\n")
    with pytest.raises(check.CheckFailed, match="unused"):
        check.compile_one(ZIG, "aarch64-windows-gnu", source, tmp_path)


def test_windows_builds_take_windows_threads(tmp_path):
    """thread.c's Windows path is the one compiled for Windows, and the
    POSIX one elsewhere: the object asks for that platform's call."""
    for target, wanted, unwanted in (("x86_64-windows-gnu", b"CreateThread", b"pthread_create"),
                                     ("aarch64-macos", b"pthread_create", b"CreateThread")):
        out = tmp_path / target
        out.mkdir()
        body = check.compile_one(ZIG, target, ROOT / "csrc" / "thread.c", out).read_bytes()
        assert wanted in body and unwanted not in body


def test_the_workflow_check_reads_the_matrix(monkeypatch, tmp_path):
    """A wheels matrix with no Windows runner is caught."""
    import yaml

    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text())
    job = next(j for j in flow["jobs"].values()
               if any("cibuildwheel" in str(s.get("uses", "")) for s in j.get("steps", [])))
    job["strategy"]["matrix"]["os"] = [o for o in job["strategy"]["matrix"]["os"] if not o.startswith("windows")]
    fake = tmp_path / "root"
    (fake / ".github" / "workflows").mkdir(parents=True)
    (fake / ".github" / "workflows" / "wheels.yml").write_text(yaml.safe_dump(flow))
    shutil.copy(ROOT / "pyproject.toml", fake / "pyproject.toml")
    shutil.copy(ROOT / "setup.py", fake / "setup.py")
    monkeypatch.setattr(check, "ROOT", fake)
    with pytest.raises(check.CheckFailed, match="windows"):
        check.check_workflow()


def test_missing_tools_are_named_before_any_work(tmp_path):
    """Without auditwheel on the PATH the full check stops at once, naming
    it, before it compiles anything (it used to find out after minutes of
    work)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, str(SCRIPT), "--force"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no auditwheel" in done.stderr
    assert "compiling" not in done.stdout and "building" not in done.stdout, done.stdout
