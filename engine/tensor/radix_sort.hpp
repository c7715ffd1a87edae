// LSD radix sort of 64-bit keys, optionally carrying a payload, parallel over OpenMP threads
// when called outside a parallel region. Private to the engine.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tscope/parallel_errors.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/column.hpp"

namespace tscope::detail {

// The second buffers a sort scatters into, which a caller sorting again and again can keep: a
// fresh buffer of hundreds of MB costs the kernel zeroing every page of it at its first touch
// (23% of MM-CSF's static partition pass, a fiber-id sort per mode, on a 20M-nonzero tensor).
// Columns: never zero-filled, and on huge pages where large (a 4 KB page fault a 4 KB page, and
// the vector's own zeroing, took half of sorting 5M shuffled nonzeros on a VM). The sorted
// result always ends in the caller's arrays.
struct RadixScratch {
    Column<std::uint64_t> keys, payload;
};

// Sorts keys ascending. Only the low `bits` bits are looked at: higher bits must be zero.
// `control` is checked between passes (a pass of millions of keys is tens of milliseconds).
void radix_sort(std::vector<std::uint64_t>& keys, unsigned bits, RunControl& control = no_control(),
                RadixScratch* scratch = nullptr);
// Sorts (keys[i], payload[i]) by key, stable: equal keys keep their payload order.
void radix_sort_pairs(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& payload, unsigned bits,
                      RunControl& control = no_control(), RadixScratch* scratch = nullptr);

// Number of bits needed to store x (0 for x == 0).
unsigned bit_width_of(std::uint64_t x);

// Threads to use for a loop over n items: 1 inside a parallel region or for small n.
int threads_for(std::uint64_t n);
// The calling thread's contiguous share [first, second) of n items cut into `threads` chunks
// (inside `#pragma omp parallel num_threads(threads)`; the whole range outside one).
std::pair<std::uint64_t, std::uint64_t> thread_chunk(std::uint64_t n, int threads);
// Which chunk the calling thread owns (omp_get_thread_num(), 0 without OpenMP).
int thread_index();

// x[i] += x[i-1] in place, in parallel: per-thread sums, their scan, then each thread's offset.
void parallel_inclusive_scan(std::vector<std::uint64_t>& x);
void parallel_inclusive_scan(std::vector<std::uint32_t>& x);  // the caller knows the sum fits

// The positions i < n where keep(i) holds, ascending, found in parallel: each thread counts its
// chunk, the counts become offsets, each thread writes its positions there.
template <class Keep>
std::vector<std::uint64_t> positions_where(std::uint64_t n, Keep keep) {
    const int threads = threads_for(n);
    std::vector<std::uint64_t> offset(static_cast<std::size_t>(threads) + 1, 0), out;
    ParallelErrors errors;  // the result's allocation, made inside the region
#pragma omp parallel num_threads(threads)
    {
        const auto t = static_cast<std::size_t>(thread_index());
        const auto [lo, hi] = thread_chunk(n, threads);
        for (std::uint64_t i = lo; i < hi; ++i) offset[t + 1] += keep(i) ? 1 : 0;
#pragma omp barrier
#pragma omp single
        {
            for (std::size_t k = 1; k < offset.size(); ++k) offset[k] += offset[k - 1];
            errors.run([&] { out.resize(offset.back()); });
        }
        if (!errors.failed()) {  // the single's barrier: every thread sees its failure
            std::uint64_t at = offset[t];
            for (std::uint64_t i = lo; i < hi; ++i)
                if (keep(i)) out[at++] = i;
        }
    }
    errors.rethrow();
    return out;
}

}  // namespace tscope::detail
