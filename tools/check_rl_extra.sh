#!/usr/bin/env bash
# The rl extra installs cleanly in a fresh virtual environment: the package
# built from this tree with `pip install ".[rl]"`, the extra's dependencies
# consistent (`pip check`), and its modules imported and stepped from
# outside the source tree (so the tree's own brandubh/ is not the one
# imported). tools/setup-tests runs it, after the set-up.
#
#     bash tools/check_rl_extra.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$root[rl]"
"$work/venv/bin/python" -m pip check
cd "$work"
"$work/venv/bin/python" - <<'PY'
import brandubh
import brandubh.rl.gymnasium
import brandubh.rl.pettingzoo
from brandubh.rl import VectorEnv

assert "site-packages" in brandubh.__file__, f"not the installed package: {brandubh.__file__}"
env = VectorEnv(4, seed=1)
env.reset()
for _ in range(200):
    env.step(env.random_actions())
aec = brandubh.rl.pettingzoo.env()
aec.reset(seed=1)
print("the rl extra installs and runs:", brandubh.__file__)
PY
