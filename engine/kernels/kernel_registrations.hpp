// The registration functions named in TSCOPE_KERNELS, one per kernel, each defined in its
// kernels/K.cpp beside the dispatch it describes. Private to the engine.
#pragma once

#include "tscope/kernels/kernel_registry.hpp"

namespace tscope::detail {

#define TSCOPE_KERNEL_REGISTRATION(kind, name, title, registration) void registration(KernelRegistry& registry);
TSCOPE_KERNELS(TSCOPE_KERNEL_REGISTRATION)
#undef TSCOPE_KERNEL_REGISTRATION

}  // namespace tscope::detail
