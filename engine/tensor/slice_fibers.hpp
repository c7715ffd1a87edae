// Exact fiber counts and lengths from a stream of nonzeros in slice order of mode 1 (how .tsb
// files written here are laid out): a fiber of any other mode fixes mode 1's index, so it lies
// whole within one slice, and the fibers are counted a slice at a time, sorting the slice's keys.
// Memory holds one slice (up to `cap` nonzeros). Mode 1's own fibers cross every slice: they are
// left to the sketch. Private to engine/tensor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tscope::detail {

class SliceFiberCounter {
public:
    SliceFiberCounter(const std::vector<std::uint64_t>& dims, std::uint64_t cap);
    // The part's nonzeros (zeros left out), in file order.
    void add(const CooTensor& part);
    // Once every part is in: exact[m] says whether fiber_nnz[m] holds mode m's fibers.
    void finish();
    std::vector<bool> exact;
    std::vector<CountDistribution> fiber_nnz;
    std::string why;  // where a mode after the first is not exact

private:
    void end_slice();
    void count_batch();
    void give_up(std::string reason);
    int order_;
    std::uint64_t cap_;
    std::vector<std::uint64_t> dims_;
    bool started_ = false;
    std::uint64_t slice_ = 0;
    // whole slices waiting to be counted (several at once, a thread each): their nonzeros'
    // modes 2..N (order - 1 numbers each), and where each slice starts
    std::vector<std::uint64_t> entries_;
    std::vector<std::size_t> starts_;
    std::size_t slice_start_ = 0;
};

}  // namespace tscope::detail
