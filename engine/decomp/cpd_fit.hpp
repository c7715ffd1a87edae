// CPD's fit without the dense tensor (SPLATT's, and Kolda & Bader's): ||X - X^||^2 =
// ||X||^2 + ||X^||^2 - 2 <X, X^>, with ||X^||^2 = lambda^T (*_m A_m^T A_m) lambda. Shared by the
// host and the device CPD. Private to engine/decomp.
#pragma once

#include <vector>

#include "decomp/dense_linalg.hpp"

namespace tscope::detail {

// lambda^T (*_m G_m) lambda
inline double model_norm_squared(const std::vector<DenseMatrix>& grams, const std::vector<double>& lambda) {
    DenseMatrix all = grams.front();
    for (std::size_t m = 1; m < grams.size(); ++m) linalg::hadamard(all, grams[m]);
    double s = 0;
    for (std::uint64_t i = 0; i < all.rows; ++i)
        for (std::uint64_t j = 0; j < all.cols; ++j) s += lambda[i] * all.at(i, j) * lambda[j];
    return s;
}

// V = *_{m != n} G_m, the system an ALS step solves for mode n (mm-csf Alg. 1, line 4).
inline DenseMatrix hadamard_of_others(const std::vector<DenseMatrix>& grams, int n) {
    const std::uint64_t R = grams.front().rows;
    DenseMatrix v(R, R);
    v.fill(1.0);
    for (std::size_t m = 0; m < grams.size(); ++m)
        if (static_cast<int>(m) != n) linalg::hadamard(v, grams[m]);
    return v;
}

}  // namespace tscope::detail
