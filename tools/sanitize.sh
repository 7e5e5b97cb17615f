#!/usr/bin/env bash
# Build the engine with AddressSanitizer and UndefinedBehaviorSanitizer and
# run the test suite under them (Linux, gcc). Any report fails the run.
#
#     bash tools/sanitize.sh [pytest arguments]
#
# The sanitized build replaces this tree's in-place one (tools/build-inplace,
# which leaves any installed copy of the package, and where an editable
# install points, alone); the script rebuilds the normal engine when it
# ends. The tests run this tree's package (PYTHONPATH), with the test extra
# already installed (tools/setup-tests).
set -euo pipefail
cd "$(dirname "$0")/.."
restore() { python tools/build-inplace >/dev/null 2>&1 || true; }
trap restore EXIT
BRANDUBH_SANITIZE=1 python tools/build-inplace
# Refuse to report a clean run of an engine that was not instrumented.
if ! nm -D brandubh/_engine*.so | grep __asan_init > /dev/null; then
    echo "sanitize.sh: the engine was not built with AddressSanitizer" >&2
    exit 1
fi
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
# Python itself is not built with ASan: its own allocations are not tracked,
# and leak checking at exit reports the interpreter's, so it is off.
BRANDUBH_SANITIZED=1 \
LD_PRELOAD="$asan $ubsan" \
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" \
python -m pytest -q -p no:cacheprovider "$@"
