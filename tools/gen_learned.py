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

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from brandubh.learn.net import c_source, load_net, zero_net  # noqa: E402

TARGET = ROOT / "csrc" / "learned_weights.c"


def render(net_path: "str | None") -> str:
    if net_path is None:
        net = zero_net()
        header = "Tables of zeros: python tools/gen_learned.py --zero"
    else:
        net = load_net(net_path)
        rel = Path(net_path).resolve()
        try:
            rel = rel.relative_to(ROOT)
        except ValueError:
            pass
        header = f"From {rel.as_posix()}: python tools/gen_learned.py {rel.as_posix()}\n"
        for key in sorted(net.get("notes", {})):
            value = net["notes"][key]
            if key == "fit" and isinstance(value, dict):  # the losses, not every epoch's
                value = {k: v for k, v in value.items() if k != "epochs"}
            if isinstance(value, list):
                header += f"{key}:\n" + "".join(f"  {json.dumps(v, sort_keys=True)}\n" for v in value)
            else:
                header += f"{key}: {json.dumps(value, sort_keys=True)}\n"
        header += f"scale: {net['scale']}"
    return c_source(net, header.replace("*/", "* /"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("net", nargs="?", help="the net file (JSON) to compile in")
    parser.add_argument("--zero", action="store_true", help="write tables of zeros")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is not what would be written")
    args = parser.parse_args()
    if (args.net is None) != args.zero:
        parser.error("give a net file, or --zero")
    text = render(args.net)
    if args.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is stale: run python tools/gen_learned.py {args.net or '--zero'}", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
