#!/usr/bin/env bash
# Build the engine with AddressSanitizer and UndefinedBehaviorSanitizer and
# run the test suite under them (Linux, gcc). Any report fails the run.
#
#     bash tools/sanitize.sh [pytest arguments]
#
# The sanitized build replaces the in-place one; the script rebuilds the
# normal engine when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
# setuptools skips an extension it thinks is up to date: remove the built
# engine so that each build really happens, with the flags asked for.
rebuild() { rm -f brandubh/_engine*.so brandubh/_engine*.pyd; python -m pip install -e "$@" -q; }
restore() { rebuild . >/dev/null 2>&1 || true; }
trap restore EXIT
BRANDUBH_SANITIZE=1 rebuild ".[test]"
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
python -m pytest -q -p no:cacheprovider "$@"
