#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and fuzzes each for a bounded time.
#
#   scripts/fuzz.sh [--smoke] [--seconds N] [--only fuzz_json] [--build-dir DIR] [--no-build] [--jobs J]
#                   [--minimize]
#
#   --smoke       short run for CI: 30 s per target unless --seconds says otherwise
#   --seconds N   N s per target (default 300)
#   --only T      one target (fuzz_zip, fuzz_json, fuzz_pickle, fuzz_load)
#   --build-dir   default build-fuzz; --no-build uses it as it is
#   --jobs J      ninja -jJ, and J targets fuzzed side by side (default 2)
#   --minimize    merge the target's corpus into a minimal one (-merge=1) instead of fuzzing
#
# Seeds are made from ../shared/fixtures (tests/fuzz/make_corpus.py) into <build-dir>/fuzz-seeds/<t>
# and merged (-merge=1: only inputs that add coverage) into <build-dir>/fuzz-corpus/<t>, where
# libFuzzer keeps what it finds; nothing is written into the repository. Each target first replays
# tests/fuzz/regressions/<t>. A run uses -timeout=1 (an input over 1 s is a hang), -rss_limit_mb=2048,
# leak detection, a per-target -max_len and, for the JSON readers, tests/fuzz/program_json.dict.
# A crash, hang or leak leaves crash-*/timeout-*/leak-* in <build-dir>/fuzz-artifacts and makes the
# script exit 1. Prints one summary line per target (executions, exec/s, corpus, coverage).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
seconds=""
smoke=0
only=""
build="$here/build-fuzz"
do_build=1
jobs=2
minimize=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) smoke=1 ;;
    --seconds) seconds="$2"; shift ;;
    --only) only="$2"; shift ;;
    --build-dir) build="$2"; shift ;;
    --no-build) do_build=0 ;;
    --jobs) jobs="$2"; shift ;;
    --minimize) minimize=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ -z "$seconds" ]] && { [[ $smoke == 1 ]] && seconds=30 || seconds=300; }
targets=(fuzz_zip fuzz_json fuzz_pickle fuzz_load)
[[ -n "$only" ]] && targets=("$only")
shared="${IRLENS_SHARED_DIR:-$here/../shared}"
start=$SECONDS

# Per target: the largest input (bigger ones are slow and add no coverage: the seeds are capped alike)
# and extra libFuzzer options.
declare -A max_len=([fuzz_zip]=65536 [fuzz_json]=16384 [fuzz_pickle]=65536 [fuzz_load]=131072)
declare -A extra=([fuzz_zip]="" [fuzz_json]="-dict=$here/tests/fuzz/program_json.dict" [fuzz_pickle]=""
                  [fuzz_load]="-dict=$here/tests/fuzz/program_json.dict")

if [[ $do_build == 1 ]]; then
  command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  # Only the fuzz targets and the core libraries they link are built (no GUI, benchmarks or tests).
  CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DIRLENS_BUILD_FUZZ=ON -DIRLENS_BUILD_GUI=OFF -DIRLENS_BUILD_BENCH=OFF \
    -DIRLENS_SHARED_DIR="$shared" -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
  ninja -C "$build" -j"$jobs" "${targets[@]}"
fi
for t in "${targets[@]}"; do
  [[ -x "$build/tests/fuzz/$t" ]] || { echo "fuzz.sh: $build/tests/fuzz/$t not built" >&2; exit 2; }
done

seeds="$build/fuzz-seeds"
corpus="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
if [[ ! -d "$seeds/json" ]]; then
  if [[ -d "$shared/fixtures" ]]; then
    python3 "$here/tests/fuzz/make_corpus.py" "$shared/fixtures" "$seeds"
  else
    echo "fuzz.sh: no $shared/fixtures: fuzzing from the regression inputs only" >&2
  fi
fi
mkdir -p "$artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# One target: replay, merge, fuzz. Its summary line goes to <build-dir>/fuzz-<t>.summary, prefixed
# "FAILED" when it found a problem.
fuzz_one() {
  local t="$1" area bin regressions log common inputs execs rate rss last
  area="${t#fuzz_}"
  bin="$build/tests/fuzz/$t"
  regressions="$here/tests/fuzz/regressions/$area"
  mkdir -p "$corpus/$area" "$seeds/$area" "$regressions"
  log="$build/fuzz-$t.log"
  local result="$build/fuzz-$t.summary"
  common=(-timeout=1 -rss_limit_mb=2048 -max_len="${max_len[$t]}" ${extra[$t]})

  # Each regression input is run whole (as files, not a corpus folder, so -max_len does not cut it).
  shopt -s nullglob; inputs=("$regressions"/*); shopt -u nullglob
  echo "== $t: replaying ${#inputs[@]} inputs of tests/fuzz/regressions/$area"
  if [[ ${#inputs[@]} -gt 0 ]] && ! "$bin" -timeout=1 -rss_limit_mb=2048 "${inputs[@]}" >"$log" 2>&1; then
    echo "FAILED $t: replaying its regression inputs; see $log" >"$result"; tail -n 30 "$log" >&2; return
  fi

  if [[ $minimize == 1 || -z "$(ls -A "$corpus/$area")" ]]; then
    # A fresh corpus starts from the seeds that add coverage; --minimize rebuilds an existing one.
    echo "== $t: merging the corpus (-merge=1)"
    rm -rf "$corpus/$area.new" && mkdir -p "$corpus/$area.new"
    if ! "$bin" -merge=1 "${common[@]}" "$corpus/$area.new" "$corpus/$area" "$seeds/$area" "$regressions" \
         >"$log" 2>&1; then
      echo "FAILED $t: merging the corpus; see $log" >"$result"; tail -n 30 "$log" >&2; return
    fi
    rm -rf "$corpus/$area" && mv "$corpus/$area.new" "$corpus/$area"
    echo "   $t: $(ls "$corpus/$area" | wc -l) inputs, $(du -sk "$corpus/$area" | cut -f1) KiB"
    if [[ $minimize == 1 ]]; then echo "$t: corpus minimized" >"$result"; return; fi
  fi

  echo "== $t: fuzzing for ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" "${common[@]}" -print_final_stats=1 \
        -artifact_prefix="$artifacts/$t-" "$corpus/$area" >"$log" 2>&1; then
    echo "!! $t found a problem; see $log and $artifacts" >&2
    grep -E "ERROR|SUMMARY|Test unit written|timeout|leak" "$log" | head -n 20 >&2 || true
    echo "FAILED $t: $(grep -oE 'Test unit written to .*' "$log" | tail -n 1 || echo "see $log")" >"$result"
    return
  fi
  execs="$(awk '/stat::number_of_executed_units/ {print $2}' "$log")"
  rate="$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")"
  rss="$(awk '/stat::peak_rss_mb/ {print $2}' "$log")"
  last="$(grep -E '^#[0-9]+' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+|corp: [0-9]+/[0-9]+[a-zA-Z]+' | tr '\n' ' ' || true)"
  echo "$t: ${execs:-?} executions in ${seconds} s (${rate:-?}/s), peak RSS ${rss:-?} MB, ${last:-no status}" >"$result"
}

# The targets run side by side, --jobs at a time (each fuzzes on one core).
for t in "${targets[@]}"; do
  rm -f "$build/fuzz-$t.summary"
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
status=0
summary=()
for t in "${targets[@]}"; do
  line="$(cat "$build/fuzz-$t.summary" 2>/dev/null || echo "FAILED $t: ended without a summary")"
  [[ $line == FAILED* ]] && status=1
  summary+=("$line")
done
echo "== summary ($((SECONDS - start)) s)"
printf '%s\n' "${summary[@]}"
[[ $status == 0 ]] && echo "no crash, hang or leak" || echo "FAILED: see above"
exit $status
