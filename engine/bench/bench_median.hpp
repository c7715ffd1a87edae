// The median of a row's timed repeats: what every benchmark path reports. Private to engine/bench.
#pragma once

#include <algorithm>
#include <vector>

namespace tscope::detail {

inline double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace tscope::detail
