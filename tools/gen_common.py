"""What the generators of the engine's compiled-in weights share
(tools/gen_learned.py, tools/gen_nnue.py): the opening comment that says
where a file came from, and the command line (a net file or --zero,
--check); and what every generator of a committed file does, write it or
check it (tools/rl_planes.py too).

Each generator gives its own rendering of a net into C; this module gives
the rest, so that the two files say and check the same things the same
way.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parent.parent


def provenance(net: dict, net_path: str, script: str) -> str:
    """The opening comment's text for a net read from ``net_path``: the
    command that wrote the file (``script``, this tree's path of the
    generator), the net's notes (the training command, its data, its fit,
    without every epoch's losses) and its scale; never a ``*/``."""
    rel = Path(net_path).resolve()
    try:
        rel = rel.relative_to(ROOT)
    except ValueError:
        pass
    header = f"From {rel.as_posix()}: python {script} {rel.as_posix()}\n"
    for key in sorted(net.get("notes", {})):
        value = net["notes"][key]
        if key == "fit" and isinstance(value, dict):  # the losses, not every epoch's
            value = {k: v for k, v in value.items() if k != "epochs"}
        if isinstance(value, list):
            header += f"{key}:\n" + "".join(f"  {json.dumps(v, sort_keys=True)}\n" for v in value)
        else:
            header += f"{key}: {json.dumps(value, sort_keys=True)}\n"
    header += f"scale: {net['scale']}"
    return header.replace("*/", "* /")


def main(doc: str, script: str, target: Path, zeros: str, render: Callable[[Optional[str]], str]) -> int:
    """The generator's command line: a net file (or ``--zero``: ``zeros``,
    what the file then holds, "tables" or "weights"), written to ``target``
    by ``render``, or with ``--check`` compared with it (exit 1 when
    stale). A net that cannot be read or is refused: one line, exit 2."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("net", nargs="?", help="the net file (JSON) to compile in")
    parser.add_argument("--zero", action="store_true", help=f"write {zeros} of zeros")
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is not what would be written")
    args = parser.parse_args()
    if (args.net is None) != args.zero:
        parser.error("give a net file, or --zero")
    try:
        text = render(args.net)
    except (OSError, ValueError) as exc:
        print(f"{Path(script).stem}: {exc}", file=sys.stderr)
        return 2
    return write_or_check(target, text, args.check, f"python {script} {args.net or '--zero'}")


def write_or_check(target: Path, text: str, check: bool, command: str) -> int:
    """Write ``text`` to ``target`` (0), or with ``check`` say whether it is
    there already: 0, or 1 and a line naming ``command``, which rewrites
    it."""
    if not check:
        target.write_text(text, encoding="utf-8")
        return 0
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return 0
    print(f"{target} is stale: run {command}", file=sys.stderr)
    return 1
