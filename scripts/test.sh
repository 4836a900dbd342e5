#!/usr/bin/env bash
# Installs what Tessera needs, builds it twice (release, and with ASan/UBSan) and runs the whole
# test suite on both builds, then the thread-count test under ThreadSanitizer, then fuzzes the
# command processor for a minute (libFuzzer, clang).
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
# Each stage's start, in seconds since the script began (CI's time budget is the sum).
stage() { echo "== $1 (at ${SECONDS}s)"; }
stage "install"
scripts/install-deps.sh
stage "release build"
scripts/build.sh release
stage "release tests"
(cd build && ctest --output-on-failure -j "$(nproc)")
stage "ASan/UBSan build"
scripts/build.sh asan
stage "ASan/UBSan tests"
# Leak checking stays on (ASan's default); the oracle turns it off for its own process only,
# since Mesa's llvmpipe keeps allocations it never frees. ASAN_OPTIONS is left unset so that
# the oracle's default can apply.
(cd build-asan && env -u ASAN_OPTIONS UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$(nproc)")
# Host threads under ThreadSanitizer: the bins of render passes (the scene, query and fault cases
# of the thread-count test; the full query sweep runs in the builds above), and the application
# recording while the kernel's dispatcher runs its batches, with contexts sharing the GPU.
stage "ThreadSanitizer build"
scripts/build.sh tsan
stage "ThreadSanitizer tests"
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ./tests/driver/thread_count_tests \
  --gtest_filter='ThreadCount.*:-ThreadCount.QueriesReportsAndImagesAreTheSameForAnyThreadCount' &&
  TSAN_OPTIONS=halt_on_error=1 ./tests/driver/driver_tests --gtest_filter='Async.*:KernelSharing.*')
stage "fuzz build"
scripts/build.sh fuzz
stage "fuzz"
(cd build-fuzz && ctest --output-on-failure)
stage "done"
