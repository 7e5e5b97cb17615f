"""Write csrc/learned_weights.c: the learned evaluation's tables, from a net
file that `brandubh train` wrote (docs/learned.md).

The file's opening comment records this command and the notes the net
carries (the training command, its data, its fit), so the compiled-in
tables say where they came from. tests/test_learned.py regenerates the file
from the committed net and checks that it matches.

    python tools/gen_learned.py nets/learned.json          # rewrite the file
    python tools/gen_learned.py nets/learned.json --check  # exit 1 if stale
    python tools/gen_learned.py --zero                     # tables of zeros
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from brandubh.learn.net import c_source, load_net, zero_net  # noqa: E402
from gen_common import main, provenance  # noqa: E402

SCRIPT = "tools/gen_learned.py"
TARGET = ROOT / "csrc" / "learned_weights.c"


def render(net_path: "str | None") -> str:
    if net_path is None:
        return c_source(zero_net(), f"Tables of zeros: python {SCRIPT} --zero")
    net = load_net(net_path)
    return c_source(net, provenance(net, net_path, SCRIPT))


if __name__ == "__main__":
    sys.exit(main(__doc__, SCRIPT, TARGET, "tables", render))
