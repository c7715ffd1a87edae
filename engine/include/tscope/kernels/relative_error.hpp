// The normwise relative error every --check reports: max |a - ref| / max |ref| over the entries
// of a result and its reference. An entry that is not finite, on either side, makes the error
// infinite: a NaN difference was dropped by std::max, and an overflowed reference's infinite
// scale turned an overflowed result into an error of 0, a pass (sweep 65).
#pragma once

#include <algorithm>
#include <cmath>

namespace tscope {

struct RelativeError {
    double diff = 0;
    double scale = 0;
    bool finite = true;

    void add(double a, double ref) {
        if (!std::isfinite(a) || !std::isfinite(ref)) {
            finite = false;
            return;
        }
        diff = std::max(diff, std::fabs(a - ref));  // may itself overflow to inf: then it fails
        scale = std::max(scale, std::fabs(ref));
    }
    double value() const { return !finite ? INFINITY : scale > 0 ? diff / scale : diff; }
};

}  // namespace tscope
