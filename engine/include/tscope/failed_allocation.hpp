// The size of the allocation that last failed on the calling thread, so that "out of memory"
// can say how much was asked (issue 22: "for an allocation: what needed how much memory").
// The global operator new is replaced (tensor/failed_allocation.cpp) to record it before it
// throws std::bad_alloc (plain and aligned forms, the engine's columns included); allocations
// made otherwise (malloc, mmap) are not seen and read as 0. The replacement is linked into a
// program only where it calls take_failed_allocation_size (the CLI's main and the UI's jobs):
// the engine's library holds it in that one object file.
#pragma once

#include <cstddef>
#include <string>

namespace tscope {

// 0 when no allocation has failed on this thread since the last call; reading clears it.
std::size_t take_failed_allocation_size();
// Sets the calling thread's record: ParallelErrors carries a worker thread's failed size to the
// thread that rethrows its bad_alloc, which would otherwise read 0 (sweep 68a A4: FasterTucker's
// out of memory said no size).
void note_failed_allocation_size(std::size_t bytes);
// "out of memory <doing>: it needed 1.2 GB more at once, which this machine could not give",
// from the calling thread's failed size (taken, so cleared), or without the size where none was
// noted. The CLI's words for any command, and the format survey's for one format's row.
std::string out_of_memory_words(const std::string& doing);

}  // namespace tscope
