"""Write csrc/nnue_weights.c: the NNUE evaluation's weights (csrc/nnue.h),
from a net file that tools/train_nnue.py wrote (docs/learned.md, "A small
NNUE").

The file's opening comment records this command and the net's notes (its
training command, data and fit), so the compiled-in weights say where they
came from. tests/test_nnue.py regenerates the file from the committed net
and checks that it matches.

    python tools/gen_nnue.py nets/nnue.json          # rewrite the file
    python tools/gen_nnue.py nets/nnue.json --check  # exit 1 if stale
    python tools/gen_nnue.py --zero                  # weights of zeros
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from gen_common import main, provenance  # noqa: E402

SCRIPT = "tools/gen_nnue.py"
TARGET = ROOT / "csrc" / "nnue_weights.c"
INPUTS, ONE, OUT_SCALE = 155, 255, 16
#: The hidden layer's width, as csrc/nnue.h has it.
HIDDEN = int(re.search(r"#define BD_NNUE_HIDDEN (\d+)", (ROOT / "csrc" / "nnue.h").read_text(encoding="utf-8"))[1])
#: The scores of a won position start there (csrc/brandubh.h): the net's stay below it.
WIN = int(re.search(r"#define BD_WIN (\d+)", (ROOT / "csrc" / "brandubh.h").read_text(encoding="utf-8"))[1])
FORMAT, VERSION = "brandubh-nnue", 1


def zero_net() -> dict:
    """A net of zeros: it says 0 of every position with a king."""
    return {"format": FORMAT, "version": VERSION, "inputs": INPUTS, "hidden": HIDDEN, "one": ONE,
            "out_scale": OUT_SCALE, "scale": 400.0, "w1": [[0] * HIDDEN for _ in range(INPUTS)],
            "b1": [0] * HIDDEN, "w2": [0] * HIDDEN, "b2": 0, "notes": {}}


def check_net(net: object) -> dict:
    """The net, checked against the engine's shape (csrc/nnue.h): ValueError if not."""
    def whole16(xs: object, n: int, what: str) -> None:
        if not isinstance(xs, list) or len(xs) != n or not all(
                isinstance(x, int) and not isinstance(x, bool) and -32768 <= x <= 32767 for x in xs):
            raise ValueError(f"{what} must be {n} whole numbers from -32768 to 32767")

    if not isinstance(net, dict) or net.get("format") != FORMAT or net.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT} net of version {VERSION}")
    for key, want in (("inputs", INPUTS), ("hidden", HIDDEN), ("one", ONE), ("out_scale", OUT_SCALE)):
        if net.get(key) != want:
            raise ValueError(f"the net's {key} is {net.get(key)!r}; csrc/nnue.h has {want}")
    if not isinstance(net.get("w1"), list) or len(net["w1"]) != INPUTS:
        raise ValueError(f"w1 must have {INPUTS} rows")
    for row in net["w1"]:
        whole16(row, HIDDEN, "each row of w1")
    whole16(net.get("b1"), HIDDEN, "b1")
    whole16(net.get("w2"), HIDDEN, "w2")
    b2 = net.get("b2")
    if not isinstance(b2, int) or isinstance(b2, bool) or not -(1 << 31) <= b2 < (1 << 31):
        raise ValueError("b2 must be a 32-bit whole number")
    if abs(b2) + ONE * sum(abs(x) for x in net["w2"]) >= 1 << 31:
        raise ValueError("the output layer's sum could leave the 32 bits csrc/nnue.c sums in")
    # csrc/nnue.c divides with no clamp after: its score must stay below a win's
    # (which also keeps the sum where csrc/nnue.h's bd_nnue_divide is exact).
    if (abs(b2) + ONE * sum(abs(x) for x in net["w2"])) // (ONE * OUT_SCALE) >= WIN:
        raise ValueError(f"the net's score could reach {WIN}, a won position's (csrc/brandubh.h's BD_WIN)")
    bound = sums_bound(net)
    if bound > 32767:
        raise ValueError(f"a hidden sum could reach {bound}, outside the 16 bits csrc/nnue.c sums in")
    return net


#: The largest each of the four counts can be (csrc/nnue.h): escapes in one
#: move (one a direction), in two (the 24 edge squares), the king's moves
#: (six a line), the side to move.
MOST_COUNTS = (4, 24, 12, 1)


def sums_bound(net: dict) -> int:
    """The largest magnitude any partial sum of a hidden unit can take on
    any position at all (an attacker, a defender or nothing on each of 48
    squares, the king on the 49th): its bias plus every term of one sign
    that could be present at once. csrc/nnue.c sums in 16 bits.

    >>> net = zero_net(); net["w1"][0][0] = 300; net["w1"][49][0] = 200; net["w1"][147][0] = -2
    >>> sums_bound(net)
    300
    """
    best = 0
    w1 = net["w1"]
    for j in range(len(net["b1"])):
        for sign in (1, -1):
            col = [sign * row[j] for row in w1]
            total = sign * net["b1"][j]
            total += sum(max(col[s], col[49 + s], 0) for s in range(49))
            total += max(0, max(col[98:147]))
            total += sum(c * max(x, 0) for c, x in zip(MOST_COUNTS, col[147:151]))
            total += max(0, max(col[151:155]))
            best = max(best, total)
    return best


def render(net_path: "str | None") -> str:
    if net_path is None:
        net = zero_net()
        header = f"Weights of zeros: python {SCRIPT} --zero"
    else:
        net = check_net(json.loads(Path(net_path).read_text(encoding="utf-8")))
        header = provenance(net, net_path, SCRIPT)
    lines = [f"/* Generated by {SCRIPT}: do not edit by hand.",
             *[f" * {line}".rstrip() for line in header.splitlines()], " */", '#include "nnue.h"', ""]

    def row(xs: list) -> str:
        return "{" + ",".join(str(int(x)) for x in xs) + "}"

    lines.append("const int16_t BD_NNUE_W1[BD_NNUE_INPUTS][BD_NNUE_HIDDEN] = {")
    lines.append(",\n".join("  " + row(r) for r in net["w1"]))
    lines.append("};")
    lines.append(f"const int16_t BD_NNUE_B1[BD_NNUE_HIDDEN] = {row(net['b1'])};")
    lines.append(f"const int16_t BD_NNUE_W2[BD_NNUE_HIDDEN] = {row(net['w2'])};")
    lines.append(f"const int32_t BD_NNUE_B2 = {int(net['b2'])};")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main(__doc__, SCRIPT, TARGET, "weights", render))
