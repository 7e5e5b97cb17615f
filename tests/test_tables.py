"""The committed lookup tables are exactly what the generator writes."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_tables_are_fresh():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_tables.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
