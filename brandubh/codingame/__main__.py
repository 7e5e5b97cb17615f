"""``python -m brandubh.codingame``: the same as ``brandubh codingame``."""

import sys

from ..cli import main

sys.exit(main(["codingame", *sys.argv[1:]]))
