// The first exception thrown on any thread of a parallel region, kept for after the region.
// An exception that leaves an OpenMP region (or a std::thread's function) calls std::terminate:
// the program aborts with no message, where an out-of-memory or a Cancelled should reach the
// caller as any other error. Work inside a region that can throw (an allocation, a progress
// report, a call that raises tscope::Error) runs through run(); once the region has ended,
// rethrow() raises what was caught.
//
//     ParallelErrors errors;
//     #pragma omp parallel for
//     for (i ...) errors.run([&] { ... });  // skipped once any thread has failed
//     errors.rethrow();
//
// Catch at the granularity of a thread's share or a chunk, never around each nonzero of a hot
// loop. A region with barriers (omp for, single, barrier) must let every thread reach them:
// catch inside the parts between them, never around them; after a barrier every thread sees
// a failure from before it, so run() there skips the work that depended on the failed part.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <utility>

#include "tscope/failed_allocation.hpp"

namespace tscope {

class ParallelErrors {
public:
    // Runs fn() unless some thread has already failed; an exception it throws is kept (the first
    // of all threads) instead of leaving the region. Returns whether fn ran and returned.
    template <class Fn>
    bool run(Fn&& fn) noexcept {
        if (failed()) return false;
        try {
            std::forward<Fn>(fn)();
            return true;
        } catch (const std::bad_alloc&) {  // its size is noted on this thread: kept for the rethrow
            capture(std::current_exception(), take_failed_allocation_size());
            return false;
        } catch (...) {
            capture(std::current_exception());
            return false;
        }
    }

    // Keeps e if it is the first, with the size that failed where e is a bad_alloc; any thread.
    void capture(std::exception_ptr e, std::size_t failed_bytes = 0) noexcept {
        const std::lock_guard<std::mutex> hold(lock_);
        if (!first_) first_ = std::move(e), failed_bytes_ = failed_bytes;
        failed_.store(true, std::memory_order_relaxed);
    }

    // Whether some thread has failed: one relaxed load, cheap enough to test per chunk so that
    // the other threads stop early. True on the failing thread as soon as capture returns.
    bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

    // Throws the first exception caught, if any: after the region, or wherever failed() has
    // been seen true (the lock waits for the capture that set it).
    void rethrow() const {
        std::exception_ptr first;
        std::size_t bytes = 0;
        {
            const std::lock_guard<std::mutex> hold(lock_);
            first = first_;
            bytes = failed_bytes_;
        }
        if (!first) return;
        if (bytes) note_failed_allocation_size(bytes);  // a worker's out of memory says its size here too
        std::rethrow_exception(first);
    }

private:
    std::atomic<bool> failed_{false};
    mutable std::mutex lock_;
    std::exception_ptr first_;  // under lock_
    std::size_t failed_bytes_ = 0;  // under lock_: first_'s failed size, where it is a bad_alloc
};

}  // namespace tscope
