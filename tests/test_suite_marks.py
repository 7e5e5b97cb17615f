"""The suite's own rules: a mark meant for a test sits on a test.

pytest reads marks only on tests: ``@pytest.mark.slow`` above a helper
function is silently ignored, and the test it was meant for runs in the
default suite. That happened once (a helper put between the mark and its
test) and cost the default suite 110 s of processor time before anyone
saw it. This check reads every test file's syntax, so it cannot miss a
file that imports differently."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _misplaced_marks(source: str) -> list[str]:
    """The functions and classes of ``source`` that carry a ``pytest.mark``
    mark without being tests (``test_*`` or ``Test*``): their line and name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if node.name.startswith(("test", "Test")):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            text = ast.unparse(target)
            if text.startswith("pytest.mark."):
                found.append(f"line {node.lineno}: {node.name} (@{text})")
    return found


def test_every_mark_is_on_a_test():
    wrong = {path.name: got for path in sorted(HERE.glob("*.py"))
             if (got := _misplaced_marks(path.read_text(encoding="utf-8")))}
    assert wrong == {}


def test_the_check_finds_a_mark_on_a_helper():
    source = "import pytest\n\n@pytest.mark.slow\ndef _helper():\n    pass\n\n\ndef test_x():\n    pass\n"
    assert _misplaced_marks(source) == ["line 4: _helper (@pytest.mark.slow)"]
    assert _misplaced_marks(source.replace("_helper", "test_helper")) == []
