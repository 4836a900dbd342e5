#!/usr/bin/env bash
# Configures and builds Tessera. Usage: scripts/build.sh [release|asan|tsan|fuzz]   (default:
# release)
set -euo pipefail
cd "$(dirname "$0")/.."
flavour=${1:-release}
# The sanitizer builds optimize at -O1 with line tables only (-g1): enough for a report's stack
# to name files and lines, and about half the compile time of -O2 -g, which is most of CI's time.
checked=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
case "$flavour" in
  release) dir=build;      flags=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG") ;;
  asan)    dir=build-asan; flags=("${checked[@]}" -DTESSERA_SANITIZE=ON) ;;
  # ThreadSanitizer: only the tests that run the bins of render passes on several threads.
  tsan)    dir=build-tsan; flags=("${checked[@]}" -DTESSERA_TSAN=ON) ;;
  # libFuzzer needs clang; only the GPU model and the fuzz targets are built.
  fuzz)    dir=build-fuzz; flags=("${checked[@]}" -DTESSERA_FUZZ=ON
                                  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "usage: scripts/build.sh [release|asan|tsan|fuzz]" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" -G Ninja "${flags[@]}" > /dev/null
targets=()
[ "$flavour" = fuzz ] && targets=(--target cp_fuzzer)
[ "$flavour" = tsan ] && targets=(--target thread_count_tests --target driver_tests)
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
