// One libFuzzer target per entry point: this file is compiled once per target with
// TS_FUZZ_ENTRY naming the entry (tests/fuzz/CMakeLists.txt).
#include <cstdlib>

#include "fuzz_entry.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // one thread: the readers' parallel loops gain nothing on inputs this small, and a
    // single-threaded run is deterministic for libFuzzer's coverage feedback
    setenv("OMP_NUM_THREADS", "1", 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tsfuzz::TS_FUZZ_ENTRY(data, size);
}
