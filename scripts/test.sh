#!/usr/bin/env bash
# Installs what Tessera needs, builds it twice (release, and with ASan/UBSan) and runs the whole
# test suite on both builds.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
scripts/install-deps.sh
scripts/build.sh release
(cd build && ctest --output-on-failure -j "$(nproc)")
scripts/build.sh asan
# Mesa's llvmpipe (run by the oracle in its own process) is not built with sanitizers; the
# oracle disables leak checking for itself.
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$(nproc)")
