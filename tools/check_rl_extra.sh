#!/usr/bin/env bash
# The rl extra installs cleanly in a fresh virtual environment: the package
# built from this tree with `pip install ".[rl]"`, the extra's dependencies
# consistent (`pip check`), and its modules imported and stepped from
# outside the source tree (so the tree's own brandubh/ is not the one
# imported). tools/setup-tests runs it, after the set-up.
#
#     bash tools/check_rl_extra.sh            # BRANDUBH_FORCE_CHECK=1: even if it passed before
#
# A pass is remembered on this machine outside the clone
# (tools/machine_cache.py: ~/.cache/brandubh/ by default) by a digest of
# everything the install reads: every file of the tree a build copies (this
# script among them), Python's version, the pip a fresh environment gets,
# and the versions pip resolves for the extra now (asked of the index, as
# the install would: a new release of a dependency is a new key). The same
# inputs again skip the install (a minute) for that question (seconds).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=(python "$root/tools/machine_cache.py")
# Resolved as in an empty environment (--ignore-installed), from outside the tree.
resolved=$(cd "$work" && python -m pip install --dry-run --ignore-installed --quiet --report - "$root[rl]" |
    python -c 'import json, sys
print(" ".join(sorted(i["metadata"]["name"] + "==" + i["metadata"]["version"] for i in json.load(sys.stdin)["install"])))')
key=$("${cache[@]}" tree-digest "$(python -VV)" "$(python -c 'import ensurepip; print(ensurepip.version())')" \
    "$resolved")
if [ "${BRANDUBH_FORCE_CHECK:-}" != 1 ] && "${cache[@]}" passed rl-extra "$key"; then
    echo "the rl extra installs and runs: passed before with the same tree and dependencies ($("${cache[@]}" folder))"
    exit 0
fi
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
"${cache[@]}" remember rl-extra "$key"
