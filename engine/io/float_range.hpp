// Whether a double read into a float tensor (--float) keeps its meaning: within float's range,
// neither narrowed to inf nor to 0 (a value narrowed to 0 was left out as if it had been 0,
// sweep 65). Subnormal floats pass: they keep some of their digits, as subnormal doubles do.
#pragma once

#include <cmath>

namespace tscope::detail {

// Judged by the float v rounds to: "3.4028235e38", float's largest as usually printed, is a
// double a little above it that still rounds to it (sweep 65c).
inline bool fits_float(double v) {
    const float f = static_cast<float>(v);
    return std::isfinite(f) && (v == 0 || f != 0);
}

inline constexpr const char* float_range_text = "a float holds magnitudes from about 1.4e-45 to 3.4e38";

}  // namespace tscope::detail
