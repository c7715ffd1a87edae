#!/usr/bin/env bash
# .ci/sanitize.sh [BUILD_DIR]: builds engine, CLI, GUI, the test suites and the libFuzzer
# targets with clang, AddressSanitizer and UndefinedBehaviorSanitizer (CUDA off), then runs
# every suite. Any sanitizer report fails its suite (-fno-sanitize-recover, halt_on_error);
# the summary line counts the suites that passed and the reports in the log.
#   TS_JOBS      parallel compile jobs (default 2: the development VM has two shared cores)
#   TS_CTEST     extra ctest arguments (e.g. "-R test_tns")
# .ci/fuzz.sh reuses the same build directory for its targets.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
jobs=${TS_JOBS:-2}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Sanitize \
      -DCMAKE_CXX_FLAGS_SANITIZE="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DTS_WITH_CUDA=OFF -DTS_WITH_GUI=ON -DTS_BUILD_TESTS=ON -DTS_BUILD_FUZZERS=ON || exit 1
cmake --build "$build" -j"$jobs" || exit 1

log="$build/sanitize.log"
export QT_QPA_PLATFORM=offscreen
# leaks are reported too, except those of the system libraries (Qt's fontconfig and glib,
# clang's libomp, Open MPI): .ci/lsan.supp lists them. A request too large for any machine
# (the tests' 2^50 bytes) fails as new does, with bad_alloc, instead of ASan's abort.
export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# shellcheck disable=SC2086
ctest --test-dir "$build" --output-on-failure -j2 --timeout 1800 ${TS_CTEST:-} 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
asan=$(grep -c "ERROR: AddressSanitizer\|ERROR: LeakSanitizer" "$log")
ubsan=$(grep -c "runtime error:" "$log")
echo "sanitize: ctest exit $status, AddressSanitizer/LeakSanitizer reports: $asan, UBSan reports: $ubsan (log: $log)"
[ "$status" -eq 0 ] && [ "$asan" -eq 0 ] && [ "$ubsan" -eq 0 ]
