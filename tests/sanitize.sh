#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer, in build-asan/.
# SimGrid's default raw contexts switch stacks behind ASan's back (false stack-buffer reports):
# every simulation runs with thread contexts (CKPTSIM_SIMGRID_ARGS, read by the engine). ASan
# brings its own allocator: jemalloc is left out (CKPTSIM_JEMALLOC=OFF).
# Usage: tests/sanitize.sh [ctest arguments, e.g. -R Hc3i]
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -O1 -g"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCKPTSIM_TEST_TIMEOUT=7200 -DCKPTSIM_JEMALLOC=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
export CKPTSIM_SIMGRID_ARGS="--cfg=contexts/factory:thread"
# SimGrid keeps some of its own allocations until exit; leaks of ours would still show.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan -j"$(nproc)" --output-on-failure "$@"
