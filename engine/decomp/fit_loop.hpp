// What CPD-ALS and Tucker-HOOI do at the end of every iteration: fit from the residual, one
// report out through the callback, progress, and the stopping test. Private to engine/decomp.
#pragma once

#include <chrono>
#include <cmath>
#include <vector>

#include "tscope/decomp/decomposition.hpp"
#include "tscope/run_control.hpp"

namespace tscope::detail {

// 1 - ||X - X^|| / ||X|| from ||X||^2 and ||X - X^||^2 (rounding can make the latter < 0).
inline double fit_from(double norm_x_squared, double residual_squared) {
    return norm_x_squared > 0 ? 1 - std::sqrt(std::max(0.0, residual_squared)) / std::sqrt(norm_x_squared) : 1.0;
}

class FitLoop {
public:
    using Clock = std::chrono::steady_clock;
    FitLoop(Clock::time_point start, int max_iters, double tolerance, const IterationCallback& on_iteration, RunControl& control)
        : start_(start), max_iters_(max_iters), tolerance_(tolerance), on_iteration_(on_iteration), control_(control) {}

    // Reports iteration `it` (begun at t0) with its fit (and `parts`' split of its time, where
    // the method measures one); true when the fit moved less than the tolerance since the
    // iteration before.
    bool converged(int it, Clock::time_point t0, double fit, std::vector<IterationReport>& log, IterationReport parts = {}) {
        IterationReport rep = parts;
        rep.iter = it;
        rep.iter_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        rep.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        rep.fit = fit;
        log.push_back(rep);
        if (on_iteration_) on_iteration_(rep);
        control_.progress(static_cast<std::uint64_t>(it), static_cast<std::uint64_t>(max_iters_));
        const bool done = it > 1 && std::fabs(fit - previous_) < tolerance_;
        previous_ = fit;
        return done;
    }

private:
    Clock::time_point start_;
    int max_iters_;
    double tolerance_;
    const IterationCallback& on_iteration_;
    RunControl& control_;
    double previous_ = 0;
};

}  // namespace tscope::detail
