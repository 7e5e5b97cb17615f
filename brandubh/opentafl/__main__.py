"""``python -m brandubh.opentafl``: the same as ``brandubh opentafl``."""

import sys

from ..cli import main

sys.exit(main(["opentafl", *sys.argv[1:]]))
