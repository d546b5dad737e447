#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and fuzzes each for a bounded time.
#
#   scripts/fuzz.sh [--smoke] [--seconds N] [--only fuzz_json] [--build-dir DIR] [--no-build] [--jobs J]
#
#   --smoke       30 s per target (the CI run; also `ctest -L fuzz` in the fuzz build)
#   --seconds N   N s per target (default 300)
#   --only T      one target (fuzz_zip, fuzz_json, fuzz_pickle, fuzz_load)
#
# The seed corpus is made from ../shared/fixtures into <build-dir>/fuzz-corpus/<area> (never the repo);
# libFuzzer adds what it finds there. Regression inputs (tests/fuzz/regressions/<area>) are replayed
# first; a crash leaves crash-*/timeout-*/leak-* files in <build-dir>/fuzz-artifacts. Each run's last
# status line (executions, exec/s, corpus) is printed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
seconds=300
only=""
build="$here/build-fuzz"
do_build=1
jobs=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) seconds=30 ;;
    --seconds) seconds="$2"; shift ;;
    --only) only="$2"; shift ;;
    --build-dir) build="$2"; shift ;;
    --no-build) do_build=0 ;;
    --jobs) jobs="$2"; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
targets=(fuzz_zip fuzz_json fuzz_pickle fuzz_load)
[[ -n "$only" ]] && targets=("$only")
shared="${IRLENS_SHARED_DIR:-$here/../shared}"

if [[ $do_build == 1 ]]; then
  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DIRLENS_BUILD_FUZZ=ON -DIRLENS_BUILD_GUI=OFF -DIRLENS_BUILD_BENCH=OFF \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
  ninja -C "$build" -j"$jobs" "${targets[@]}"
fi

corpus="$build/fuzz-corpus"
if [[ ! -d "$corpus/json" && -d "$shared/fixtures" ]]; then
  python3 "$here/tests/fuzz/make_corpus.py" "$shared/fixtures" "$corpus"
fi
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

status=0
summary=()
for t in "${targets[@]}"; do
  area="${t#fuzz_}"
  mkdir -p "$corpus/$area"
  mkdir -p "$here/tests/fuzz/regressions/$area"
  echo "== $t: replaying tests/fuzz/regressions/$area"
  "$build/tests/fuzz/$t" -runs=0 "$here/tests/fuzz/regressions/$area" 2>&1 | tail -n 2 || { status=1; continue; }
  echo "== $t: fuzzing for ${seconds}s"
  log="$build/fuzz-$t.log"
  # -timeout=1: an input taking more than a second is a hang; -rss_limit_mb: memory blow-ups are findings.
  if ! "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=262144 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$t-" "$corpus/$area" >"$log" 2>&1; then
    status=1
    echo "!! $t found a problem; see $log and $artifacts" >&2
    tail -n 40 "$log" >&2
  fi
  line="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  execs="$(grep -E 'stat::number_of_executed_units' "$log" | awk '{print $2}' || true)"
  summary+=("$t: ${execs:-?} executions in ${seconds}s; last: $line")
done
printf '%s\n' "${summary[@]}"
exit $status
