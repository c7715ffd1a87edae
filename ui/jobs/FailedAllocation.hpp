// The size of the allocation that last failed on the calling thread, so that "out of memory"
// can say how much was asked (issue 22: "for an allocation: what needed how much memory").
// The global operator new is replaced (FailedAllocation.cpp) to record it before it throws
// std::bad_alloc (plain and aligned forms, the engine's columns included); allocations made
// otherwise (malloc, mmap) are not seen and read as 0.
#pragma once

#include <cstddef>

namespace tsui {

// 0 when no allocation has failed on this thread since the last call; reading clears it.
std::size_t takeFailedAllocationSize();

}  // namespace tsui
