// The traffic of one kernel run on one format for one mode, from the profile's counts: what
// the kernel streams, which factor rows it reads and adds into at random, and HLS's dense cells.
// Private to the engine (advisor.cpp turns it into seconds).
#pragma once

#include "tscope/advisor/advisor.hpp"

namespace tscope::detail {

struct TrafficInput {
    const TensorProfile& profile;
    KernelKind kernel;
    FormatKind format;
    int mode;
    std::uint64_t rank;
    const MachineFigures& machine;
};

Traffic kernel_traffic(const TrafficInput& in);

}  // namespace tscope::detail
