// What every decomposition shares: one report per iteration (or epoch), delivered through a
// callback as soon as it is known, and the method names of the CLI and the GUI.
// A method calls control.check() between iterations: a cancel request ends it there with
// tscope::Cancelled, after the reports of the iterations that completed.
#pragma once

#include <cmath>
#include <functional>
#include <string>

namespace tscope {

enum class DecompMethod { Cpd, Tucker, FasterTucker };
const char* decomp_method_name(DecompMethod m);  // cpd, tucker, fastertucker
DecompMethod parse_decomp_method(const std::string& name);  // InputError listing the names

struct IterationReport {
    int start = 0;         // CPD with restarts: which start (0-based)
    int iter = 0;          // 1-based
    double seconds = 0;    // since the method started (setup included), at this iteration's end
    double iter_seconds = 0;  // this iteration alone
    // CPD and Tucker: the fit 1 - ||X - X^|| / ||X||. NaN where it does not apply.
    double fit = NAN;
    // CPD: where the iteration went (MTTKRPs; dense steps: solves, normalisation, Grams; the fit).
    double mttkrp_seconds = NAN, dense_seconds = NAN, fit_seconds = NAN;
    // FasterTucker: errors over the observed entries of the training and test sets.
    double train_rmse = NAN, test_rmse = NAN, train_mae = NAN, test_mae = NAN;
};

using IterationCallback = std::function<void(const IterationReport&)>;

}  // namespace tscope
