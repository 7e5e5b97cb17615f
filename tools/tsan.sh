#!/usr/bin/env bash
# Build the engine's threads driver (tests/c/threads_check.c: a search on
# 2 and 4 threads under every preset, searches stopped by a flag raised from
# another thread, batched environments on 1 and 3 threads compared array by
# array) with ThreadSanitizer and run it (Linux, gcc or clang). Any report
# fails the run.
#
#     bash tools/tsan.sh            # gcc
#     CC=clang bash tools/tsan.sh
#
# A C driver, not the test suite: Python itself is not built with TSan, and
# the interpreter's own threads would be reported or missed. The driver
# links the engine's sources as they are, the threads and the transposition
# table shared without a lock included. tests/test_threads_search.py runs
# the same when the compiler has TSan's runtime, under BRANDUBH_SLOW=1
# (tools/setup-tests' longer checks run it).
set -euo pipefail
cd "$(dirname "$0")/.."
cc=${CC:-gcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$cc" -std=c99 -O1 -g -fsanitize=thread -fno-omit-frame-pointer -Wall -Wextra -Werror -pthread \
    -Icsrc csrc/[a-z]*.c tests/c/threads_check.c -o "$out/threads_check"
# The sanitizers' preload (tools/sanitize.sh) and TSan cannot share a process.
env -u LD_PRELOAD TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" "$out/threads_check"
