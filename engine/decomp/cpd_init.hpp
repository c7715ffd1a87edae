// CPD-ALS's starts (shared by the host and the device CPD, which set their tensor side up once
// and run every start on it). Private to engine/decomp.
#pragma once

#include <vector>

#include "tscope/decomp/cpd_als.hpp"

namespace tscope::detail {

// One I_n x R matrix per mode: random (seeded per mode), or nvecs, the R leading left singular
// vectors of each unfolding X_(n) (columns past min(R, I_n, X_(n)'s columns) random).
// ids: per mode, each index's id in the file where the tensor was relabelled (CpdOptions::
// original_ids; empty: none), by which the random numbers are drawn.
std::vector<DenseMatrix> cpd_initial_factors(const CooTensor& t, CpdInit init, std::uint64_t rank, std::uint64_t seed,
                                             const std::vector<std::vector<std::uint64_t>>& ids = {});

// The random start of one mode, seeded as cpd_initial_factors seeds it (the distributed CPD
// draws the same matrices, so its fits match the single process's).
DenseMatrix random_initial_factor(std::uint64_t dim, std::uint64_t rank, std::uint64_t seed, int mode,
                                  const std::vector<std::uint64_t>& ids = {});

// Start k of o.restarts: o's own for k = 0, random with seed o.seed + k after.
CpdOptions start_options(const CpdOptions& o, int k);

// The best fit of the starts' results (in start order), with every start's iterations and fit
// recorded in it where there were several.
CpdResult keep_best(std::vector<CpdResult> starts);

}  // namespace tscope::detail
