// Whether a double read into a float tensor (--float) keeps its meaning: within float's range,
// neither narrowed to inf nor to 0 (a value narrowed to 0 was left out as if it had been 0,
// sweep 65). Subnormal floats pass: they keep some of their digits, as subnormal doubles do.
#pragma once

#include <cmath>
#include <limits>

namespace tscope::detail {

inline bool fits_float(double v) {
    return std::fabs(v) <= std::numeric_limits<float>::max() && (v == 0 || static_cast<float>(v) != 0);
}

inline constexpr const char* float_range_text = "a float holds magnitudes from about 1.4e-45 to 3.4e38";

}  // namespace tscope::detail
