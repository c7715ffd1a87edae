// Fiber ids of every orientation: a sort per mode by the other modes' indices, then numbering.
#include "fiber_ids.hpp"

#include <limits>

#include "format_builders.hpp"
#include "tensor/radix_sort.hpp"
#include "tensor/sorted_order_reusing.hpp"
#include "tscope/error.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

// The buffers one mode's fiber ids need for a while, kept for the next mode's (fresh memory
// costs its pages' zeroing: RadixScratch). MM-CSF's static pass (every mode's fiber ids) on a
// 20M-nonzero nell-2-shaped tensor, 2 threads (session 44, docs/bench/scripts/mmcsf_partition_
// bench.cpp on this project's 2-core VM, alternating three times): 1.70-1.96 s against 2.24-2.54
// with fresh buffers each mode; the dynamic pass 5.07-5.21 against 5.52-6.10 (twice); the same
// labels.
struct FiberScratch {
    detail::SortScratch sort;
    std::vector<std::uint32_t> number, end;
};

// Flag where a fiber starts in the sorted order, scan the flags into numbers, and take each
// fiber's length from where the next one starts; every pass parallel.
template <class TI>
void fiber_ids_of_mode(const CooTensor& t, int m, std::vector<std::uint32_t>& fid, std::vector<std::uint32_t>& len,
                       FiberScratch& scratch, detail::FiberIds* members = nullptr) {
    std::vector<int> others;
    for (int o = 0; o < t.order(); ++o)
        if (o != m) others.push_back(o);
    std::vector<std::uint64_t> perm = detail::sorted_order_reusing(t, others, scratch.sort);
    std::vector<const TI*> cols;
    for (int o : others) cols.push_back(t.indices<TI>(o).data());
    const std::uint64_t n = perm.size();
    const auto ni = static_cast<std::int64_t>(n);
    // 1 + the fiber of sorted position i, once scanned (under 2^32: check_fiber_id_range). In
    // 32 bits, as `end`, rather than 64: MM-CSF's static pass (the fiber ids of every mode) on a
    // 20M-nonzero nell-2-shaped tensor, 2 threads, took 2.26-2.62 s against 2.50-2.78 (session 43,
    // alternating three times; docs/bench/scripts/mmcsf_partition_bench.cpp), the same labels.
    std::vector<std::uint32_t>& number = scratch.number;
    number.resize(n);  // every entry is written before it is read
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < ni; ++i) {
        const auto u = static_cast<std::uint64_t>(i);
        bool same = u > 0;
        for (std::size_t k = 0; k < cols.size() && same; ++k) same = cols[k][perm[u]] == cols[k][perm[u - 1]];
        number[u] = same ? 0 : 1;
    }
    detail::parallel_inclusive_scan(number);
    const std::uint64_t fibers = n ? number[n - 1] : 0;
    fid.resize(n);
    std::vector<std::uint32_t>& end = scratch.end;  // where each fiber ends in the sorted order
    end.resize(fibers);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < ni; ++i) {
        const auto u = static_cast<std::uint64_t>(i);
        fid[perm[u]] = static_cast<std::uint32_t>(number[u] - 1);
        if (u + 1 == n || number[u + 1] != number[u]) end[number[u] - 1] = static_cast<std::uint32_t>(u + 1);
    }
    len.resize(fibers);
    const auto fi = static_cast<std::int64_t>(fibers);
#pragma omp parallel for schedule(static)
    for (std::int64_t f = 0; f < fi; ++f) {
        const auto u = static_cast<std::uint64_t>(f);
        len[u] = static_cast<std::uint32_t>(end[u] - (u ? end[u - 1] : 0));
    }
    if (!members) {
        scratch.sort.keys.swap(perm);
        return;
    }
    const auto mu = static_cast<std::size_t>(m);
    auto& by_fiber = members->members[mu];
    auto& position = members->position[mu];
    auto& start = members->start[mu];
    by_fiber.resize(n);
    position.resize(n);
    start.resize(fibers + 1);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < ni; ++i) {
        const auto u = static_cast<std::uint64_t>(i);
        by_fiber[u] = static_cast<std::uint32_t>(perm[u]);
        position[perm[u]] = static_cast<std::uint32_t>(u);
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t f = 0; f <= fi; ++f) {
        const auto u = static_cast<std::uint64_t>(f);
        start[u] = static_cast<std::uint32_t>(u ? end[u - 1] : 0);
    }
    scratch.sort.keys.swap(perm);
}

void check_fiber_id_range(const CooTensor& t) {
    if (t.nnz() >= std::numeric_limits<std::uint32_t>::max())
        throw InputError("fiber ids support up to 2^32 nonzeros; this tensor has " + std::to_string(t.nnz()));
}

}  // namespace

std::vector<std::uint32_t> mode_fiber_ids(const CooTensor& t, int mode, std::uint64_t* count) {
    check_fiber_id_range(t);
    std::vector<std::uint32_t> fid, len;
    FiberScratch scratch;
    t.visit([&](auto itag, auto) { fiber_ids_of_mode<typename decltype(itag)::type>(t, mode, fid, len, scratch); });
    if (count) *count = len.size();
    return fid;
}

detail::FiberIds detail::fiber_ids(const CooTensor& t, bool with_members) {
    check_fiber_id_range(t);
    FiberIds out;
    const auto order = static_cast<std::size_t>(t.order());
    out.fid.resize(order);
    out.len.resize(order);
    if (with_members) {
        out.members.resize(order);
        out.start.resize(order);
        out.position.resize(order);
    }
    FiberScratch scratch;
    for (std::size_t m = 0; m < order; ++m)
        t.visit([&](auto itag, auto) {
            fiber_ids_of_mode<typename decltype(itag)::type>(t, static_cast<int>(m), out.fid[m], out.len[m], scratch,
                                                             with_members ? &out : nullptr);
        });
    return out;
}

}  // namespace tscope
