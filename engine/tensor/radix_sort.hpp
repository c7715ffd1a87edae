// LSD radix sort of 64-bit keys, optionally carrying a payload, parallel over OpenMP threads
// when called outside a parallel region. Private to the engine.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace tscope::detail {

// Sorts keys ascending. Only the low `bits` bits are looked at: higher bits must be zero.
void radix_sort(std::vector<std::uint64_t>& keys, unsigned bits);
// Sorts (keys[i], payload[i]) by key, stable: equal keys keep their payload order.
void radix_sort_pairs(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& payload, unsigned bits);

// Number of bits needed to store x (0 for x == 0).
unsigned bit_width_of(std::uint64_t x);

// Threads to use for a loop over n items: 1 inside a parallel region or for small n.
int threads_for(std::uint64_t n);
// The calling thread's contiguous share [first, second) of n items cut into `threads` chunks
// (inside `#pragma omp parallel num_threads(threads)`; the whole range outside one).
std::pair<std::uint64_t, std::uint64_t> thread_chunk(std::uint64_t n, int threads);
// Which chunk the calling thread owns (omp_get_thread_num(), 0 without OpenMP).
int thread_index();

}  // namespace tscope::detail
