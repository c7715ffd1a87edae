// A CSF tree flattened per fiber for the GPU kernels (mm-csf Alg. 6's sliceInds / fiberInds,
// for any order): each fiber's ancestor indices, its nonzero range, leaf indices and fp32
// values; and a COO format the same way. Shared by the CUDA MTTKRP, TTMc and FasterTucker
// hosts. Private to the engine.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuda/gpu_mttkrp.hpp"
#include "tscope/formats/paper_formats.hpp"
#include "tensor/radix_sort.hpp"
#include "tscope/ceil_div.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope::csf_flat {

// Element-wise copies on every thread: a streamed CPD flattens billions of nonzeros.
template <class To, class Source>
std::vector<To> convert_all(const Source& c) {
    std::vector<To> out(c.size());
    const auto n = static_cast<std::int64_t>(c.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = static_cast<To>(c[static_cast<std::size_t>(i)]);
    return out;
}

template <class I>
std::vector<std::uint32_t> narrow(const Column<I>& c) {
    return convert_all<std::uint32_t>(c);
}

template <class V>
std::vector<float> to_float(const Column<V>& c) {
    return convert_all<float>(c);
}

// A COO format as the GPU kernels take it (gpu::Coo): 32-bit indices, fp32 values.
struct FlatCoo {
    std::vector<std::vector<std::uint32_t>> idx;
    std::vector<float> vals;
    gpu::Coo view() const {
        gpu::Coo c;
        c.nnz = vals.size();
        for (const auto& i : idx) c.idx.push_back(i.data());
        c.vals = vals.data();
        return c;
    }
};

template <class I, class V>
FlatCoo flatten(const CooFormat<I, V>& f) {
    FlatCoo c;
    for (const auto& i : f.idx) c.idx.push_back(narrow(i));
    c.vals = to_float(f.vals);
    return c;
}

// The same from a tensor's coordinates (FasterTucker's train and test entries); every index
// must be below 2^32.
inline FlatCoo flatten(const CooTensor& t) {
    FlatCoo c;
    for (int m = 0; m < t.order(); ++m) {
        std::vector<std::uint32_t> col(t.nnz());
        for (std::uint64_t z = 0; z < t.nnz(); ++z) col[z] = static_cast<std::uint32_t>(t.index(m, z));
        c.idx.push_back(std::move(col));
    }
    c.vals.resize(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) c.vals[z] = static_cast<float>(t.value(z));
    return c;
}

// The tensor's own columns as the device upload takes them (narrowed there): no host copy.
inline gpu::HostCoo host_view(const CooTensor& t) {
    gpu::HostCoo h;
    h.nnz = t.nnz();
    h.dims = t.dims();
    h.idx64 = t.index_width() == IndexWidth::U64;
    for (int m = 0; m < t.order(); ++m)
        h.idx.push_back(h.idx64 ? static_cast<const void*>(t.indices<std::uint64_t>(m).data())
                                : static_cast<const void*>(t.indices<std::uint32_t>(m).data()));
    h.vals64 = t.value_type() == ValueType::F64;
    h.vals = h.vals64 ? static_cast<const void*>(t.values<double>().data()) : static_cast<const void*>(t.values<float>().data());
    return h;
}

struct FlatTree {
    std::vector<std::vector<std::uint32_t>> anc;
    std::vector<std::uint64_t> fiber_ptr;
    std::vector<std::uint32_t> leaf;
    std::vector<float> vals;
    gpu::Fibers view(const std::vector<int>& order) const {
        gpu::Fibers f;
        f.levels = static_cast<int>(anc.size());
        f.level_mode = order;
        f.fibers = fiber_ptr.size() - 1;
        f.nnz = leaf.size();
        for (const auto& a : anc) f.anc.push_back(a.data());
        f.fiber_ptr = fiber_ptr.data();
        f.leaf = leaf.data();
        f.vals = vals.data();
        return f;
    }
};

template <class I, class V>
FlatTree flatten(const CsfFormat<I, V>& c) {
    const int levels = static_cast<int>(c.fptr.size());  // N - 1
    const int fl = levels - 1;                          // the fiber level
    FlatTree t;
    const std::uint64_t fibers = c.nodes(fl);
    // node of each level above every fiber, walking the parents up
    const auto nf = static_cast<std::int64_t>(fibers);
    std::vector<std::uint64_t> node(fibers);
#pragma omp parallel for schedule(static)
    for (std::int64_t f = 0; f < nf; ++f) node[static_cast<std::size_t>(f)] = static_cast<std::uint64_t>(f);
    t.anc.resize(static_cast<std::size_t>(levels));
    for (int l = fl; l >= 0; --l) {
        auto& a = t.anc[static_cast<std::size_t>(l)];
        a.resize(fibers);
        const auto& ids = c.fids[static_cast<std::size_t>(l)];
#pragma omp parallel for schedule(static)
        for (std::int64_t f = 0; f < nf; ++f)
            a[static_cast<std::size_t>(f)] = static_cast<std::uint32_t>(ids[node[static_cast<std::size_t>(f)]]);
        if (l == 0) break;
        std::vector<std::uint64_t> parent(c.nodes(l));
        const auto& ptr = c.fptr[static_cast<std::size_t>(l) - 1];
        const auto parents = static_cast<std::int64_t>(ptr.size()) - 1;
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < parents; ++k)
            for (std::uint64_t ch = ptr[static_cast<std::size_t>(k)]; ch < ptr[static_cast<std::size_t>(k) + 1]; ++ch)
                parent[ch] = static_cast<std::uint64_t>(k);
#pragma omp parallel for schedule(static)
        for (std::int64_t f = 0; f < nf; ++f) node[static_cast<std::size_t>(f)] = parent[node[static_cast<std::size_t>(f)]];
    }
    t.fiber_ptr = convert_all<std::uint64_t>(c.fptr[static_cast<std::size_t>(fl)]);
    t.leaf = narrow(c.fids.back());
    t.vals = to_float(c.vals);
    return t;
}

// The same tree with every fiber longer than T cut into ceil(L / T) sub-fibers that keep its
// ancestors: MM-CSF on the GPU balances its partitions this way (mm-csf Sec. 6, Table 5: "long
// fibers are split into sub-fibers", as B-CSF's build does for its one tree), so every team's
// group of fibers holds at most T nonzeros a fiber and the kernels need not cut fibers. Taken by
// value: a caller done with its tree moves it in, and the leaves and values (most of its bytes)
// move on instead of being copied.
inline FlatTree split_fibers(FlatTree t, std::uint64_t T) {
    const std::uint64_t F = t.fiber_ptr.size() - 1;
    const auto Fi = static_cast<std::int64_t>(F);
    std::vector<std::uint64_t> first_piece(F + 1, 0);
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < Fi; ++q) {
        const auto f = static_cast<std::size_t>(q);
        first_piece[f + 1] = ceil_div(t.fiber_ptr[f + 1] - t.fiber_ptr[f], T);  // T may be near 2^64: no len + T - 1
    }
    detail::parallel_inclusive_scan(first_piece);
    FlatTree out;
    out.anc.assign(t.anc.size(), std::vector<std::uint32_t>(first_piece[F]));
    out.fiber_ptr.resize(first_piece[F] + 1);
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < Fi; ++q) {
        const auto f = static_cast<std::size_t>(q);
        const std::uint64_t k = first_piece[f];
        for (std::uint64_t piece = 0; piece < first_piece[f + 1] - k; ++piece) {  // piece * T < the fiber's length
            for (std::size_t l = 0; l < t.anc.size(); ++l) out.anc[l][k + piece] = t.anc[l][f];
            out.fiber_ptr[k + piece] = t.fiber_ptr[f] + piece * T;
        }
    }
    out.fiber_ptr[first_piece[F]] = t.fiber_ptr[F];
    out.leaf = std::move(t.leaf);
    out.vals = std::move(t.vals);
    return out;
}

// The same tree with the fibers under each parent (the node one level above the fibers) ordered
// by length, longest first (ties in tree order), each fiber's nonzeros moved with it. The GPU's
// teams walk groups of consecutive fibers and a warp's teams take consecutive groups, so a warp
// waits for its longest group while the other teams' lanes idle (Nsight Compute counted 22.9 of
// 32 lanes active in B-CSF's loop on the nell-2 shape); with like lengths side by side the groups
// of a warp are alike. No fiber leaves its parent, so the runs of fibers that share an output row
// at every level above the fibers stay whole. Trees of one level (order 2) are left as they are.
// Fibers of kLongestOrdered nonzeros and more count as equally long, which lets each parent's
// fibers be placed by counting, in time linear in its fibers. The GPU orders its trees so on the
// device (engine/cuda/fiber_length_order.cu, which keys them the same way); this is its host
// reference, which the tests compare with it array for array.
constexpr std::uint64_t kLongestOrdered = 31;

inline FlatTree order_by_length(FlatTree t) {
    const std::size_t levels = t.anc.size();
    const std::uint64_t F = t.fiber_ptr.size() - 1;
    if (levels < 2 || F < 2) return t;
    auto new_parent = [&](std::uint64_t f) {
        if (f == 0) return true;
        for (std::size_t l = 0; l + 1 < levels; ++l)
            if (t.anc[l][f] != t.anc[l][f - 1]) return true;
        return false;
    };
    std::vector<std::uint64_t> start = detail::positions_where(F, new_parent);
    start.push_back(F);
    auto length = [&](std::uint64_t f) { return t.fiber_ptr[f + 1] - t.fiber_ptr[f]; };
    auto place_of = [&](std::uint64_t f) { return kLongestOrdered - std::min(length(f), kLongestOrdered); };
    std::vector<std::uint64_t> from(F);  // from[k]: the fiber that goes to place k
    const auto parents = static_cast<std::int64_t>(start.size()) - 1;
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t p = 0; p < parents; ++p) {
        const std::uint64_t first = start[static_cast<std::size_t>(p)], last = start[static_cast<std::size_t>(p) + 1];
        std::array<std::uint64_t, kLongestOrdered + 1> at{};  // each length's first place, longest first
        for (std::uint64_t f = first; f < last; ++f) ++at[place_of(f)];
        std::uint64_t next = first;
        for (auto& a : at) next += std::exchange(a, next);
        for (std::uint64_t f = first; f < last; ++f) from[at[place_of(f)]++] = f;
    }
    FlatTree out;
    out.anc.assign(levels, std::vector<std::uint32_t>(F));
    out.fiber_ptr.assign(F + 1, 0);
    const auto Fi = static_cast<std::int64_t>(F);
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < Fi; ++q) {
        const auto k = static_cast<std::size_t>(q);
        for (std::size_t l = 0; l < levels; ++l) out.anc[l][k] = t.anc[l][from[k]];
        out.fiber_ptr[k + 1] = length(from[k]);
    }
    out.fiber_ptr[0] = t.fiber_ptr[0];
    detail::parallel_inclusive_scan(out.fiber_ptr);
    out.leaf.resize(t.leaf.size());
    out.vals.resize(t.vals.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < Fi; ++q) {
        const auto k = static_cast<std::size_t>(q);
        const std::uint64_t src = t.fiber_ptr[from[k]], n = length(from[k]), dst = out.fiber_ptr[k];
        std::copy_n(t.leaf.begin() + static_cast<std::ptrdiff_t>(src), n,
                    out.leaf.begin() + static_cast<std::ptrdiff_t>(dst));
        std::copy_n(t.vals.begin() + static_cast<std::ptrdiff_t>(src), n,
                    out.vals.begin() + static_cast<std::ptrdiff_t>(dst));
    }
    return out;
}

// How a fiber-group tree too small for the device is cut finer (on by default since session 27;
// TENSORSCOPE_FIBER_FILL=0 leaves such trees alone): with fewer than 8 fibers per resident team
// (teams), its fibers split at max(32, nnz / teams) nonzeros, at most max_piece (B-CSF's split
// length), where that is under its longest fiber, the pieces grouped 1-8 to a team so that every
// team gets about one group. split_at 0: fibers as they are; group 0: the kernel's 8 (the tree is
// left alone).
struct FillCut {
    std::uint64_t split_at = 0, group = 0;
};
inline FillCut fill_cut(std::uint64_t fibers, std::uint64_t nnz, std::uint64_t teams, std::uint64_t longest,
                        std::uint64_t max_piece = 128) {
    constexpr std::uint64_t kFloor = 32;
    if (teams == 0 || fibers == 0 || fibers >= 8 * teams) return {};
    FillCut c;
    const std::uint64_t cap = std::min(std::max<std::uint64_t>(1, max_piece), std::max(kFloor, (nnz + teams - 1) / teams));
    std::uint64_t pieces = fibers;
    if (cap < longest) c.split_at = cap, pieces = std::max(fibers, (nnz + cap - 1) / cap);
    c.group = std::clamp<std::uint64_t>(pieces / teams, 1, 8);
    return c;
}

}  // namespace tscope::csf_flat
