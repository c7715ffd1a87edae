// sorted_order (tscope/tensor/coo_ops.hpp) for a caller that sorts one tensor again and again (a
// fiber-id sort per mode): the keys and the sort's second buffers come from `scratch`, and the
// caller hands the permutation back once done with it, so that each sort after the first writes
// into memory already mapped (see RadixScratch). Private to the engine.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "radix_sort.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope::detail {

struct SortScratch {
    std::vector<std::uint64_t> keys;  // give the permutation back here when it is no longer needed
    RadixScratch radix;
};

std::vector<std::uint64_t> sorted_order_reusing(const CooTensor& t, std::span<const int> modes, SortScratch& scratch);

}  // namespace tscope::detail
