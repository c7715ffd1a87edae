// The nonzeros of a COO tensor grouped by their fiber of one mode, for the serial references
// (sptv_reference, spttm_reference). Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/tensor/coo_tensor.hpp"

namespace tscope::detail {

// order: the nonzeros sorted by their other modes' indices (lexicographically, modes ascending:
// the result's fiber order), ties by position; fiber f is order[starts[f] .. starts[f + 1]).
// A reference walking a fiber's run adds its nonzeros in the input's order, as the map keyed by
// the coordinates that the references used until session 37 did: its results are unchanged.
// That map took minutes a mode on the uniform nell-2 shape (76.9M nonzeros, most of them their
// own fiber): every nonzero a node and a vector on the heap.
struct FiberRuns {
    std::vector<std::uint64_t> order, starts;
    std::uint64_t fibers() const { return starts.empty() ? 0 : starts.size() - 1; }
};
FiberRuns fiber_runs(const CooTensor& t, int mode);

// The other modes' indices of nonzero z (the coordinates of its fiber in the result).
std::vector<std::uint64_t> fiber_coord(const CooTensor& t, int mode, std::uint64_t z);

}  // namespace tscope::detail
