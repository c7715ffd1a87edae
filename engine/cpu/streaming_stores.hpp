// What the CPU kernels that stream their results out share: whether AVX2/FMA code is built in,
// whether a result can take 32-byte streaming stores, and the fence that orders them. Results
// written once and not read back by the kernel skip the read-for-ownership of their cache lines
// this way. Private to the engine's CPU kernels.
#pragma once

#include <cstdint>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define TS_CPU_AVX2_FMA 1
#endif

namespace tscope::streaming {

// True when AVX2 kernels are built in, `width` (doubles per row or chunk) is a multiple of 4 and
// the result is 32-byte aligned: then every row of it, a multiple of width doubles in, is too.
inline bool usable(const double* result, std::uint64_t width) {
#ifdef TS_CPU_AVX2_FMA
    return width % 4 == 0 && reinterpret_cast<std::uintptr_t>(result) % 32 == 0;
#else
    (void)result, (void)width;
    return false;
#endif
}

// Orders this thread's streaming stores before what follows (an OpenMP barrier).
inline void fence() {
#ifdef TS_CPU_AVX2_FMA
    _mm_sfence();
#endif
}

}  // namespace tscope::streaming
