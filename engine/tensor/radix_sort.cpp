#include "radix_sort.hpp"

#include <algorithm>
#include <bit>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope::detail {

unsigned bit_width_of(std::uint64_t x) { return static_cast<unsigned>(std::bit_width(x)); }

int threads_for(std::uint64_t n) {
#ifdef _OPENMP
    if (omp_in_parallel() || n < (1u << 16)) return 1;
    return omp_get_max_threads();
#else
    (void)n;
    return 1;
#endif
}

int thread_index() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

std::pair<std::uint64_t, std::uint64_t> thread_chunk(std::uint64_t n, int threads) {
    const auto T = static_cast<std::uint64_t>(threads < 1 ? 1 : threads);
    const auto t = static_cast<std::uint64_t>(thread_index());
    return {n / T * t, t + 1 == T ? n : n / T * (t + 1)};
}

namespace {

// One LSD pass structure shared by the key-only and key+payload sorts. Each thread owns a
// contiguous range, so the scatter is stable. Passes whose digit is the same for every key
// are skipped (common for the high digits of skewed keys).
template <bool WithPayload>
void radix_impl(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>* payload, unsigned bits,
                RunControl& control, RadixScratch* scratch) {
    const std::size_t n = keys.size();
    if (n < 2 || bits == 0) return;
    if (n < 256) {  // small: a comparison sort is faster than the histogram set-up
        if constexpr (WithPayload) {
            std::vector<std::size_t> order(n);
            for (std::size_t i = 0; i < n; ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
            std::vector<std::uint64_t> k(n), p(n);
            for (std::size_t i = 0; i < n; ++i) k[i] = keys[order[i]], p[i] = (*payload)[order[i]];
            keys.swap(k);
            payload->swap(p);
        } else {
            std::sort(keys.begin(), keys.end());
        }
        return;
    }
    const unsigned passes = (bits + 10) / 11;
    const unsigned digit = (bits + passes - 1) / passes;
    const std::size_t buckets = std::size_t{1} << digit;
    const std::uint64_t mask = buckets - 1;
    const int threads = threads_for(n);

    RadixScratch own;
    RadixScratch& buffers = scratch ? *scratch : own;
    buffers.keys.resize(n);  // every entry is written before it is read
    control.check();
    if constexpr (WithPayload) buffers.payload.resize(n);
    std::vector<std::size_t> hist(static_cast<std::size_t>(threads) * buckets);
    // The passes scatter back and forth between the caller's arrays and the scratch; a result
    // left in the scratch is copied back at the end.
    std::uint64_t* from_keys = keys.data();
    std::uint64_t* to_keys = buffers.keys.data();
    std::uint64_t* from_payload = WithPayload ? payload->data() : nullptr;
    std::uint64_t* to_payload = WithPayload ? buffers.payload.data() : nullptr;

    for (unsigned pass = 0; pass < passes; ++pass) {
        control.check();  // outside the parallel region: an exception must not leave a worker
        const unsigned shift = pass * digit;
        bool skip = false;
#pragma omp parallel num_threads(threads)
        {
#ifdef _OPENMP
            const int t = omp_get_thread_num();
#else
            const int t = 0;
#endif
            const std::size_t lo = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
            const std::size_t hi = n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
            std::size_t* h = hist.data() + static_cast<std::size_t>(t) * buckets;
            std::fill(h, h + buckets, 0);
            for (std::size_t i = lo; i < hi; ++i) ++h[(from_keys[i] >> shift) & mask];
#pragma omp barrier
#pragma omp single
            {
                std::size_t offset = 0;
                for (std::size_t b = 0; b < buckets; ++b) {
                    std::size_t in_bucket = 0;
                    for (int u = 0; u < threads; ++u) {
                        std::size_t& c = hist[static_cast<std::size_t>(u) * buckets + b];
                        in_bucket += c;
                        std::size_t start = offset;
                        offset += c;
                        c = start;
                    }
                    if (in_bucket == n) skip = true;
                }
            }
            if (!skip) {
                for (std::size_t i = lo; i < hi; ++i) {
                    const std::size_t dst = h[(from_keys[i] >> shift) & mask]++;
                    to_keys[dst] = from_keys[i];
                    if constexpr (WithPayload) to_payload[dst] = from_payload[i];
                }
            }
        }
        if (!skip) {
            std::swap(from_keys, to_keys);
            if constexpr (WithPayload) std::swap(from_payload, to_payload);
        }
    }
    if (from_keys != keys.data()) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::size_t i = 0; i < n; ++i) {
            keys[i] = from_keys[i];
            if constexpr (WithPayload) (*payload)[i] = from_payload[i];
        }
    }
}

}  // namespace

void radix_sort(std::vector<std::uint64_t>& keys, unsigned bits, RunControl& control, RadixScratch* scratch) {
    radix_impl<false>(keys, nullptr, bits, control, scratch);
}

void radix_sort_pairs(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& payload, unsigned bits,
                      RunControl& control, RadixScratch* scratch) {
    radix_impl<true>(keys, &payload, bits, control, scratch);
}

namespace {

// x[i] += x[i-1] in place, in parallel: per-thread sums, their scan, then each thread's offset.
template <class T>
void inclusive_scan_in_place(std::vector<T>& x) {
    const std::uint64_t n = x.size();
    const int threads = threads_for(n);
    std::vector<T> total(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
    {
        const auto t = static_cast<std::uint64_t>(thread_index());
        const auto [lo, hi] = thread_chunk(n, threads);
        for (std::uint64_t i = lo + 1; i < hi; ++i) x[i] += x[i - 1];
        if (hi > lo) total[t + 1] = x[hi - 1];
#pragma omp barrier
#pragma omp single
        for (std::size_t k = 1; k < total.size(); ++k) total[k] += total[k - 1];
        for (std::uint64_t i = lo; i < hi; ++i) x[i] += total[t];
    }
}

}  // namespace

void parallel_inclusive_scan(std::vector<std::uint64_t>& x) { inclusive_scan_in_place(x); }
void parallel_inclusive_scan(std::vector<std::uint32_t>& x) { inclusive_scan_in_place(x); }

}  // namespace tscope::detail
