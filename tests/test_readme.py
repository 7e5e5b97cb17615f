"""The README's example runs and prints what its comments say."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_example():
    text = README.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(README), "exec"), {})
    printed = out.getvalue().splitlines()
    assert "['d1b1', 'd1c1', 'd1e1', 'd1f1']" in printed
    assert "defenders 3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d" in printed
    assert "1007392" in printed
    assert "e4e2 f4f2 d3g3" in printed  # the search's Moves print as they are stored
    for literal in ("['d1b1', 'd1c1', 'd1e1', 'd1f1']", "3a3/3a3/3d3/aadkdaa/3d3/2a4/3a3 d", "1007392",
                    "e4e2 f4f2 d3g3"):
        assert literal in block  # the comments say what the test checks
