// Fiber counts of a .tsb too large to load, estimated in bounded memory (issue 18, item 2:
// "sketches where an exact count does not fit"). A mode-m fiber is the set of nonzeros sharing
// every index but m's; counting the distinct ones exactly needs the nonzeros grouped. A
// HyperLogLog sketch per mode (Flajolet et al. 2007; 2^14 one-byte registers, standard error
// 1.04/128 = 0.8%) counts them in one pass over the file in parts, 16 KB a mode. The same pass
// counts the fibers of every mode but the first exactly, with their lengths, where the file is
// in slice order of mode 1 (as .tsb files written here are): such a fiber lies whole within one
// slice, and a slice's nonzeros fit the memory bound (4 parts).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tscope {

class HyperLogLog {
public:
    static constexpr int kBits = 14;
    void add(std::uint64_t hash);
    void merge(const HyperLogLog& other);
    double estimate() const;

private:
    std::array<std::uint8_t, std::size_t{1} << kBits> registers_{};
};

struct FiberSketch {
    std::vector<double> fibers;  // per mode: the estimated number of non-empty fibers
    double relative_error = 1.04 / 128;  // one standard error of each estimate
    // per mode: counted exactly (fiber_nnz.count fibers, their lengths), or only estimated
    std::vector<bool> exact;
    std::vector<CountDistribution> fiber_nnz;
    std::string not_exact_why;  // why a mode after the first is only estimated
    // per mode not counted exactly (mode 1's, which cross every slice): the lengths of a sample
    // of its fibers, those whose key hashes to sample_level leading zero bits, each followed
    // exactly over the whole pass (adaptive distinct sampling, bounded memory). An estimate of
    // the distribution: the count is the sketch's, the mean nonzeros / count, the std from a
    // sketch of the sum of squared lengths (second_moment.hpp); the histogram's shape, min and
    // max as sampled (a sample's max may miss the longest fiber: a lower bound).
    std::vector<CountDistribution> sampled_nnz;
    std::vector<int> sample_level;
    std::vector<std::uint64_t> sampled_fibers;
    // per mode not counted exactly: B-CSF's pieces of its fibers cut at split_threshold (the sum
    // of ceil(length / split_threshold)), estimated from the sample; 0 elsewhere.
    std::vector<double> split_fibers;
    std::uint64_t split_threshold = 0;
};

// part_nnz: nonzeros read at a time (0: 4M). split_threshold: B-CSF's fiber threshold for
// split_fibers (0: left out).
FiberSketch sketch_tsb_fibers(const std::string& path, std::uint64_t part_nnz = 0, RunControl& control = no_control(),
                              std::uint64_t split_threshold = 0);

}  // namespace tscope
