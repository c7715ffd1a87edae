#!/usr/bin/env bash
# .ci/fuzz.sh [SECONDS] [TARGET...]: runs the libFuzzer targets of tests/fuzz (built by
# .ci/sanitize.sh in build-asan, ASan+UBSan) for SECONDS each (default 600), two at a time,
# starting from the committed corpus tests/fuzz/corpus/<target>. New inputs go to
# build-asan/fuzz/<target>/corpus (merge the useful ones into the committed corpus by hand:
# -merge=1); a crash is written as build-asan/fuzz/<target>/crash-* and fails the script.
# Each run's last lines (executions, coverage) land in build-asan/fuzz/<target>.log.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(tns tns_gz tsb cli_options)
build=${TS_FUZZ_BUILD:-build-asan}
if [ ! -x "$build/bin/fuzz_tns" ]; then
    TS_CTEST="-R ^$" .ci/sanitize.sh "$build" >/dev/null || { echo "fuzz: the sanitizer build failed"; exit 1; }
fi
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export OMP_NUM_THREADS=1
run_one() {
    local t=$1 out="$build/fuzz/$1"
    mkdir -p "$out/corpus"
    # -rss_limit_mb: a reader that allocates for a header's claims instead of the file's bytes
    # is a finding; -max_len: the corpus's text inputs are small, the longest seed fits
    "$build/bin/fuzz_$t" "$out/corpus" "tests/fuzz/corpus/$t" -max_total_time="$secs" -rss_limit_mb=2048 \
        -max_len=65536 -timeout=30 -artifact_prefix="$out/" -print_final_stats=1 >"$out.log" 2>&1
    echo "fuzz_$t: exit $? ($(grep -E '^stat::number_of_executed_units' "$out.log" | awk '{print $2}') executions)"
}
status=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    run_one "${targets[i]}" &
    [ $((i + 1)) -lt ${#targets[@]} ] && run_one "${targets[i + 1]}" &
    wait
done
for t in "${targets[@]}"; do
    crashes=$(find "$build/fuzz/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)
    reports=$(grep -c "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:\|ERROR: libFuzzer" "$build/fuzz/$t.log")
    echo "fuzz_$t: findings written: $crashes, sanitizer/libFuzzer reports: $reports"
    [ "$crashes" -eq 0 ] && [ "$reports" -eq 0 ] || status=1
done
exit $status
