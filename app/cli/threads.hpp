// --threads T: how many OpenMP threads the engine may use.
#pragma once

#include <iostream>

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
        // more threads than the machine runs at once are taken, and said: 1000 on 2 cores made a
        // 0.1 s MTTKRP take 9 s, silently
        if (const int cores = omp_get_num_procs(); n > cores)
            std::cerr << "warning: --threads " << n << " is more than the " << cores
                      << " this machine runs at once: more will not run faster, and may run much slower\n";
#else
        (void)n;
#endif
    }
}

}  // namespace tscope::cli
