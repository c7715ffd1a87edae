// The fiber through every nonzero, for each orientation: what MM-CSF's partitioning (Alg. 5)
// and the nvecs initialisation count. Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/tensor/coo_tensor.hpp"

namespace tscope::detail {

// fid[m][z] names the mode-m fiber through nonzero z (numbered 0.. in sorted order);
// len[m][f] is how many nonzeros fiber f of mode m holds.
struct FiberIds {
    std::vector<std::vector<std::uint32_t>> fid;
    std::vector<std::vector<std::uint32_t>> len;
    // Only `with_members`: per mode, the nonzeros fiber by fiber (input order inside each: the
    // sort is stable), where each fiber starts among them (+ the end), and where each nonzero is.
    std::vector<std::vector<std::uint32_t>> members, start, position;
};

// Every orientation, one at a time (one sort's scratch memory at a time). Parallel; fewer than
// 2^32 nonzeros (InputError otherwise).
FiberIds fiber_ids(const CooTensor& t, bool with_members = false);

}  // namespace tscope::detail
