// How the nonzeros of a tensor spread over slices and fibers, per mode.
//
// A mode-m slice fixes index m; a mode-m fiber fixes every index but m (so its nonzeros
// differ only in mode m). Distributions are over the non-empty slices or fibers only.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

// Summary of a list of positive counts (nonzeros per slice or per fiber).
struct CountDistribution {
    std::uint64_t count = 0;  // how many groups (non-empty slices or fibers)
    double mean = 0;
    double std = 0;  // population standard deviation
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    // Log-binned: bin b holds the groups with 2^b <= nnz < 2^(b+1).
    std::vector<std::uint64_t> log2_histogram;

    void add(std::uint64_t value);  // accumulate one group (finish() before use)
    void merge(const CountDistribution& other);  // accumulate another's groups (both unfinished)
    void finish();

private:
    double sum_ = 0, sum_sq_ = 0;
};

struct ModeStats {
    int mode = 0;  // 0-based here; user-facing surfaces print mode + 1
    std::uint64_t dim = 0;
    std::uint64_t slices = 0;  // non-empty mode-m slices
    CountDistribution slice_nnz;
    std::uint64_t fibers = 0;  // non-empty mode-m fibers
    CountDistribution fiber_nnz;
};

struct TensorStats {
    std::vector<ModeStats> modes;
    double density = 0;
    double seconds = 0;  // time to compute these statistics
};

TensorStats compute_stats(const CooTensor& t, RunControl& control = no_control());

// Groups a sorted key list into runs and records their lengths in dist; returns the runs.
std::uint64_t count_runs(std::span<const std::uint64_t> sorted_keys, CountDistribution& dist);

}  // namespace tscope
