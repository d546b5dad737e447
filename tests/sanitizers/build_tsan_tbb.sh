#!/usr/bin/env bash
# Builds oneTBB's libtbb with ThreadSanitizer, for the tsan preset's tests.
#
#   tests/sanitizers/build_tsan_tbb.sh ONETBB_SOURCE_DIR [BUILD_DIR]
#
# Debian's libtbb is not instrumented: a task handed from one thread to another through TBB's queues
# carries no happens-before edge TSan can see, so every value a task reads that its spawner wrote is
# reported as a race, in irlens' own kernels. Those cannot be suppressed without hiding real races, so
# the tsan tests run against this build instead (same soname, libtbb.so.12; oneTBB keeps it
# backward compatible with the 2021.x headers the project compiles against):
#
#   ctest --preset tsan      (the preset puts build/tsan-tbb/lib first on LD_LIBRARY_PATH)
#
# Measured: 34 compilation steps, a couple of CPU-minutes. Source: https://github.com/oneapi-src/oneTBB
# (any 2021.x or later release).
set -euo pipefail
src=${1:?usage: build_tsan_tbb.sh ONETBB_SOURCE_DIR [BUILD_DIR]}
out=${2:-build/tsan-tbb}
cmake -S "$src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF \
  -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF >/dev/null
cmake --build "$out" --target tbb -j "${JOBS:-2}"
# oneTBB names its output folder after the compiler and build type; the test preset looks in lib/
mkdir -p "$out/lib"
cp -a "$out"/*_relwithdebinfo/libtbb.so* "$out/lib/"
echo "TSan-instrumented libtbb in $out/lib"
