// --threads T: how many OpenMP threads the engine may use.
#pragma once

#include "args.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope::cli {

inline void apply_threads(const Args& args) {
    if (auto t = args.value("--threads")) {
        const auto n = static_cast<int>(args.integer("--threads", 1, 1, 4096));
#ifdef _OPENMP
        omp_set_num_threads(n);
#else
        (void)n;
#endif
    }
}

}  // namespace tscope::cli
