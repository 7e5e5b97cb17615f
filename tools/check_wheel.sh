#!/usr/bin/env bash
# Build the sdist and the wheel with `python -m build`, install the wheel
# into a fresh virtual environment, and run the test suite against the
# installed wheel (from outside the source tree, so the source's own
# brandubh/ cannot be imported by mistake).
#
#     bash tools/check_wheel.sh [pytest arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python -m pip install -q build
python -m build --outdir "$work/dist" "$root"
ls -l "$work/dist"
tar -tzf "$work"/dist/*.tar.gz | grep -E 'csrc/.*\.(c|h)$' | sort > "$work/sdist-c-files"
echo "C sources in the sdist: $(wc -l < "$work/sdist-c-files")"
python -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$work"/dist/*.whl pytest hypothesis pytest-benchmark
cp -r "$root/tests" "$root/tools" "$root/web" "$root/README.md" "$work/"
mkdir -p "$work/docs" && cp "$root"/docs/*.md "$root"/docs/*.svg "$work/docs/"
mkdir -p "$work/csrc" && cp "$root"/csrc/* "$work/csrc/"
cd "$work"
"$work/venv/bin/python" -c "import brandubh, sys; print('testing', brandubh.__file__)"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$@" tests
